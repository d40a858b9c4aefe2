"""How many taps a real deal takes in the app (issue 10: faster than paper on a phone).

    python benchmarks/bench_taps.py [--only phone_melds]

Plays the issue's typical deal through the real UI in headless Chromium (semantics on):
two-hand, Anna deals, turn-up 9♥; Anna's marriage K♠ Q♠; Boris's bezique Q♠ J♦; Anna's trump
marriage K♥ Q♥; Boris's four kings; Anna's trump sequence reusing her K♥ Q♥; Boris's four
aces; Anna exchanges the seven of trumps; the stock runs out; the last trick to Boris;
brisques 8 and 8. Each declaration is one tap on the combination the player's zone offers
(issue 21: the engine's proposal is recorded and its ruling shown with the cards); the plain
marriage asks its suit, one more tap. With ``tricks`` tracking every trick of phase 1 is
tapped (the declarer wins the trick before each declaration) and the deal closes with the
last trick.

Counted from the start of the deal's setup (the new-match form is not part of a deal):
- taps: every click on a control;
- swipes: a target outside the viewport needs a swipe to reach it, and one under another
  layer (a sheet) needs a tap to uncover it: each counts one (and is reported apart);
- keystrokes: keys typed (the brisque count);
- median_ms: tap → painted: from the click to the page's semantics tree changing and two
  animation frames after it (server round trip, engine, storage queue and redraw);
- seconds_estimate, by a stated rule: 1 s for each tap or key, and 1 s to read each proposal
  of the engine (a declaration's cards, read once in its ruling).

A control not yet on the page (a frame late under load) is waited for, not counted as a
miss: the finger waits for what it taps.

Three- and four-hand at 360×780 (``phone360_three``, ``phone360_four``, melds): the same kind
of deal (Anna deals, turn-up 9♥, six declarations spread over the players, Anna's seven, the
stock, the last trick, brisques); the bar offers the chosen player's declarations, so a
declaration is the player's zone (when another player was chosen last) and the offer, and the
brisques are typed in all fields but the last (a tap on each field after the first, which has
the focus). The three-hand deal: Boris's bezique, Clara's marriage K♠ Q♠, Anna's trump
marriage, Boris's four kings, Clara's four aces, Anna's trump sequence; last trick to Clara;
brisques 8, 8 (and 8). The four-hand one (Anna & Clara against Boris & Dmitri): Boris's
bezique, Clara's marriage K♠ Q♠, Dmitri's four kings, Anna's trump marriage, Boris's four
aces, Anna's trump sequence; last trick to Dmitri; brisques 6, 6, 6 (and 6).

Sizes: phone 390×844, tablet/laptop 1024×768, phone360 360×780. Prints one line per run,
then, last, one JSON object: {"phone_melds": {"taps": N, "swipes": N, "keystrokes": N,
"median_ms": X}, ...}. Also writes benchmarks/results/bench_taps.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "ui" / "e2e"))

from playwright.sync_api import Page, sync_playwright  # noqa: E402
from ui_e2e_harness import (  # type: ignore[import-not-found,unused-ignore]  # noqa: E402
    AppServer,
    Typist,
    by_id,
    free_port,
    launch,
    open_app,
    wait_words,
)

SIZES = {
    "phone": {"width": 390, "height": 844},
    "tablet": {"width": 1024, "height": 768},
    "phone360": {"width": 360, "height": 780},
}
SUIT_OF = {"marriage": "S"}  # the one choice the engine leaves to the player: K♠ Q♠
SECONDS_PER_TAP = 1.0  # a tap or a key
SECONDS_PER_PROPOSAL = 1.0  # reading the cards the engine proposed
DECLARATIONS = [
    (0, "marriage"),
    (1, "bezique"),
    (0, "trump_marriage"),
    (1, "four_kings"),
    (0, "trump_sequence"),
    (1, "four_aces"),
]
POINTS = {
    "marriage": 20,
    "bezique": 40,
    "trump_marriage": 40,
    "four_kings": 80,
    "trump_sequence": 250,
    "four_aces": 100,
}
EXPECTED = {"Anna": 400, "Boris": 310}  # 20+40+250+10 +80 brisques; 40+80+100 +10 last +80


# Three and four players (melds, 360×780): who declares what, Anna's seven, who takes the
# last trick, the brisques typed (the last field is the rest of 24), the summary's totals.
MANY: dict[str, dict[str, Any]] = {
    "three": {
        "variant": "three-hand",
        "players": ["Anna", "Boris", "Clara"],
        "declarations": [
            (1, "bezique"),
            (2, "marriage"),
            (0, "trump_marriage"),
            (1, "four_kings"),
            (2, "four_aces"),
            (0, "trump_sequence"),
        ],
        "last": 2,
        "brisques": ["8", "8"],
        "sum": "8 + 8 + 8 = 24",
        # 40+250+10 +80; 40+80 +80; 20+100 +10 last +80
        "expected": {"Anna": 380, "Boris": 200, "Clara": 210},
    },
    "four": {
        "variant": "four-hand",
        "players": ["Anna", "Boris", "Clara", "Dmitri"],
        "declarations": [
            (1, "bezique"),
            (2, "marriage"),
            (3, "four_kings"),
            (0, "trump_marriage"),
            (1, "four_aces"),
            (0, "trump_sequence"),
        ],
        "last": 3,
        "brisques": ["6", "6", "6"],
        "sum": "6 + 6 + 6 + 6 = 24",
        # sides: Anna & Clara 40+250+20+10 +120; Boris & Dmitri 40+80+100 +10 last +120
        "expected": {"Anna & Clara": 440, "Boris & Dmitri": 350},
    },
}

# Click a semantics node like a finger would (its tappable element), then wait for the
# semantics tree to change and two frames to be painted.
TAP_JS = """
async ([id, timeoutMs]) => {
  const q = () => document.querySelector(`[flt-semantics-identifier="${id}"]`);
  const target = q();
  if (!target) return {error: 'missing'};
  const r = target.getBoundingClientRect();
  const vw = window.innerWidth, vh = window.innerHeight;
  const outside = r.bottom > vh + 0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.left < -0.5;
  const cx = Math.min(Math.max(r.left + r.width / 2, 0), vw - 1);
  const cy = Math.min(Math.max(r.top + r.height / 2, 0), vh - 1);
  const hit = document.elementFromPoint(cx, cy);
  const host = hit && hit.closest('[flt-semantics-identifier]');
  const covered = !outside && hit !== null && !target.contains(hit) && !hit.contains(target)
      && host !== null && host !== target && !target.contains(host) && !host.contains(target);
  const t0 = performance.now();
  const changed = new Promise((resolve) => {
    const obs = new MutationObserver(() => { obs.disconnect(); resolve(true); });
    obs.observe(document.body, {subtree: true, childList: true, characterData: true,
                                attributes: true});
    setTimeout(() => { obs.disconnect(); resolve(false); }, timeoutMs);
  });
  (target.querySelector('[flt-tappable]') || target).click();
  const seen = await changed;
  await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
  return {outside, covered, seen, ms: performance.now() - t0};
}
"""


# Where a text field is (outside the viewport, or under another layer), before a real click.
PLACE_JS = """
(id) => {
  const target = document.querySelector(`[flt-semantics-identifier="${id}"]`);
  if (!target) return {error: 'missing'};
  const r = target.getBoundingClientRect();
  const vw = window.innerWidth, vh = window.innerHeight;
  const outside = r.bottom > vh + 0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.left < -0.5;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const host = hit && hit.closest('[flt-semantics-identifier]');
  const covered = !outside && hit !== null && !target.contains(hit) && !hit.contains(target)
      && host !== null && host !== target && !target.contains(host) && !host.contains(target);
  return {outside, covered};
}
"""


class Finger:
    """Taps controls by their semantics id and counts what a finger would have to do."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.taps = 0
        self.trick_taps = 0
        self.swipes = 0
        self.covered = 0
        self.keystrokes = 0
        self.latencies: list[float] = []
        self.misses: list[str] = []
        self.proposals_read = 0

    def tap(self, identifier: str, *, trick: bool = False, timeout: float = 20.0) -> None:
        # Flutter replaces semantics nodes while it redraws: a node seen attached can be gone
        # when the tap is made. Wait for it again (a slow frame is not a miss).
        deadline = time.monotonic() + timeout
        while True:
            left = max(0.5, deadline - time.monotonic())
            by_id(self.page, identifier).first.wait_for(state="attached", timeout=left * 1000)
            result = self.page.evaluate(TAP_JS, [identifier, 3000])
            if "error" not in result:
                break
            if time.monotonic() > deadline:
                raise AssertionError(f"{identifier}: {result['error']} for {timeout:.0f} s")
            self.page.wait_for_timeout(100)
        self.taps += 1
        self.trick_taps += trick
        if result["outside"]:
            self.swipes += 1
            self.misses.append(f"{identifier} outside the viewport")
        elif result["covered"]:
            self.covered += 1
            self.misses.append(f"{identifier} under another layer")
        if result["seen"]:
            self.latencies.append(float(result["ms"]))

    def tap_field(self, identifier: str, label: str) -> None:
        """A tap into a text field (it takes the focus and the number pad): counted as a tap,
        checked like one, made by a real click."""
        by_id(self.page, identifier).first.wait_for(state="attached", timeout=20_000)
        place = self.page.evaluate(PLACE_JS, identifier)
        self.page.get_by_role("textbox", name=label).click()
        self.page.wait_for_timeout(200)  # the field takes the focus first
        self.taps += 1
        if place.get("outside"):
            self.swipes += 1
            self.misses.append(f"{identifier} outside the viewport")
        elif place.get("covered"):
            self.covered += 1
            self.misses.append(f"{identifier} under another layer")

    def read_proposal(self) -> None:
        self.proposals_read += 1

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.keystrokes += len(text)

    def figures(self) -> dict[str, Any]:
        return {
            "taps": self.taps,
            "swipes": self.swipes + self.covered,
            "keystrokes": self.keystrokes,
            "median_ms": round(statistics.median(self.latencies), 1) if self.latencies else None,
            "trick_taps": self.trick_taps,
            "other_taps": self.taps - self.trick_taps,
            "outside_viewport": self.swipes,
            "under_a_layer": self.covered,
            "misses": self.misses,
            "proposals_read": self.proposals_read,
            "seconds_estimate": self.taps * SECONDS_PER_TAP
            + self.keystrokes * SECONDS_PER_TAP
            + self.proposals_read * SECONDS_PER_PROPOSAL,
        }


def _new_match(
    page: Page,
    sent: list[bytes],
    tracking: str,
    variant: str = "two-hand",
    players: tuple[str, ...] = ("Anna", "Boris"),
) -> None:
    typist = Typist(page, sent)
    by_id(page, "new-match").first.click()
    # An unfinished match of an earlier run: Home asks first (the match is kept).
    page.wait_for_function(
        """() => ['start-match', 'new-anyway'].some(
            (id) => document.querySelector(`[flt-semantics-identifier="${id}"]`))"""
    )
    if by_id(page, "new-anyway").count():
        by_id(page, "new-anyway").first.click()
    by_id(page, "start-match").wait_for()
    if variant != "two-hand":
        by_id(page, f"variant-{variant}").first.click()
        page.get_by_role("textbox", name=f"Player {len(players)}").wait_for()
    for label, name in ((f"Player {i + 1}", n) for i, n in enumerate(players)):
        for attempt in range(3):  # typing can be lost under load: type again
            try:
                typist.type(label, name)
                break
            except AssertionError:
                if attempt == 2:
                    raise
    if tracking != "melds":
        by_id(page, f"tracking-{tracking}").first.click()
        wait_words(page, f"tracking-{tracking}", "")
        page.wait_for_timeout(300)
    by_id(page, "start-match").first.click()
    by_id(page, "start-deal").wait_for()


def _declare(f: Finger, seat: int, meld: str, score: int, side: int | None = None) -> None:
    """One tap on the offer (and the suit where the player chooses it); the ruling with the
    proposed cards is read once; the next tap waits for the player's (side's) new score."""
    f.tap(f"offer-{seat}-{meld}")
    if meld in SUIT_OF:
        f.tap(f"offer-suit-{seat}-{SUIT_OF[meld]}")
    wait_words(f.page, f"deal-score-{seat if side is None else side}", str(score))
    by_id(f.page, f"change-cards-{seat}").wait_for()  # the accepted ruling is in
    f.read_proposal()


def play(page: Page, tracking: str) -> Finger:
    f = Finger(page)
    f.tap("turn-up-9H")
    f.tap("start-deal")
    by_id(page, "declare-0").wait_for()
    scores = [0, 0]
    points = dict(POINTS)

    def declare(seat: int, meld: str) -> None:
        scores[seat] += points[meld]
        _declare(f, seat, meld, scores[seat])

    if tracking == "melds":
        for seat, meld in DECLARATIONS:
            declare(seat, meld)
        f.tap("seven-0")
        f.tap("stock-exhausted")
    else:
        # Boris leads trick 1 (Anna deals); each declarer wins the trick before declaring.
        plan = [1, *[seat for seat, _ in DECLARATIONS], 0]  # trick 8 to Anna: her seven
        played = 0
        for k, winner in enumerate(plan):
            f.tap(f"trick-{winner}", trick=True)
            played += 1
            wait_words(page, "stock", f"played: {played}")
            if 1 <= k <= len(DECLARATIONS):
                declare(*DECLARATIONS[k - 1])
            elif k == len(plan) - 1:
                f.tap("seven-0")
        while played < 24:
            f.tap(f"trick-{played % 2}", trick=True)
            played += 1
            wait_words(page, "stock", f"played: {played}")
    by_id(page, "last-trick-1").wait_for()
    f.tap("last-trick-1")
    by_id(page, "finish-deal").wait_for()
    page.wait_for_timeout(300)  # the first field takes the focus (the number pad opens)
    f.type("8")
    wait_words(page, "brisque-total", "8 + 8 = 16")
    f.tap("finish-deal")
    by_id(page, "summary-0").wait_for()
    for side, (name, points) in enumerate(EXPECTED.items()):
        wait_words(page, f"summary-{side}", f"{name}: {points}")
    return f


def play_many(page: Page, kind: str) -> Finger:
    """Three or four players: the chosen player's offers in the bar; a tap on a player's zone
    chooses them (the first lead, Boris, is chosen at the start)."""
    plan = MANY[kind]
    sides = 2 if plan["variant"] == "four-hand" else len(plan["players"])
    f = Finger(page)
    f.tap("turn-up-9H")
    f.tap("start-deal")
    by_id(page, "declare-1").wait_for()  # Boris leads: his offers first
    chosen = 1
    scores = [0] * sides

    def choose(seat: int) -> None:
        nonlocal chosen
        if seat != chosen:
            f.tap(f"choose-{seat}")
            by_id(page, f"declare-{seat}").wait_for()
            chosen = seat

    for seat, meld in plan["declarations"]:
        choose(seat)
        scores[seat % sides] += POINTS[meld]
        _declare(f, seat, meld, scores[seat % sides], side=seat % sides)
    choose(0)
    f.tap("seven-0")
    scores[0] += 10
    wait_words(page, "deal-score-0", str(scores[0]))
    f.tap("stock-exhausted")
    last = plan["last"]
    f.tap(f"last-trick-{last}")
    by_id(page, "finish-deal").wait_for()
    page.wait_for_timeout(300)  # the first field takes the focus (the number pad opens)
    first, *rest = plan["brisques"]
    f.type(first)
    for seat, count in enumerate(rest, start=1):
        wait_words(page, "brisque-total", "")
        f.tap_field(f"brisque-count-{seat}", plan["players"][seat])
        f.type(count)
    wait_words(page, "brisque-total", plan["sum"])
    f.tap("finish-deal")
    by_id(page, "summary-0").wait_for()
    for side, (name, points) in enumerate(plan["expected"].items()):
        wait_words(page, f"summary-{side}", f"{name}: {points}")
    return f


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="e.g. phone_melds (repeatable)")
    args = parser.parse_args(argv)
    runs = [(size, tracking) for size in ("phone", "tablet") for tracking in ("melds", "tricks")]
    runs += [("phone360", kind) for kind in MANY]
    if args.only:
        runs = [r for r in runs if f"{r[0]}_{r[1]}" in args.only]
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        server = AppServer(f"sqlite:///{tmp}/taps.sqlite3", free_port())
        server.start()
        browser = launch(pw)
        try:
            for size, tracking in runs:
                sent: list[bytes] = []
                page = open_app(browser, server.url, sent, viewport=SIZES[size])
                if tracking in MANY:
                    plan = MANY[tracking]
                    _new_match(page, sent, "melds", plan["variant"], tuple(plan["players"]))
                    figures = play_many(page, tracking).figures()
                else:
                    _new_match(page, sent, tracking)
                    figures = play(page, tracking).figures()
                page.context.close()
                out[f"{size}_{tracking}"] = figures
                print(f"{size}_{tracking}: {json.dumps(figures, ensure_ascii=False)}", flush=True)
        finally:
            browser.close()
            server.stop()
    results = ROOT / "benchmarks" / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / "bench_taps.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    summary = {
        k: {
            key: v[key] for key in ("taps", "swipes", "keystrokes", "median_ms", "seconds_estimate")
        }
        | ({"trick_taps": v["trick_taps"]} if k.endswith("tricks") else {})
        for k, v in out.items()
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
