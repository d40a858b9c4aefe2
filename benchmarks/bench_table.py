"""Benchmark of table mode: one match live on several devices of one server.

    python benchmarks/bench_table.py [--writes 15] [--devices 2 4 8]

For 2, 4 and 8 connected devices (browser contexts at phone size, alternately a scorer's deal
screen and a viewer's screen, all on one match), one device records a penalty again and
again; for each write the time from the writer's tap to the new score painted on every other
device (a MutationObserver on the score, then two animation frames; both ends on the same
clock: ``performance.timeOrigin + performance.now()``), median and 95th percentile over all
writes × other devices.

Server memory per device: the server's resident memory with 8 devices connected minus with 1,
divided by 7.

Unauthorised writes: every viewer context tries to write — it asks for the scorer's address
of the match (``/match/ID``, which can only take rights away) and taps whatever write button it
is shown — and the writes that reached storage are counted, plus every websocket a device
without a valid secret managed to open (0 expected). Unauthorised reads: requests without a
secret or with a wrong one (to /, /match/ID, /view/ID, /table-links) that were served the app or
any match data, plus those websockets (0 expected). Devices without a secret exist only in
table mode (its server's secret links); a build without them serves plain sessions on
127.0.0.1 and counts none.

A lagging phone (issue 22): two more scorers join, one of them with every message the server
sends it held 3 s in the page (an init script wraps its WebSocket, as on poor Wi-Fi). In each
round the other records a penalty and, at a chosen moment before the lagging phone can have
drawn it (0.3 … 2.7 s; the issue's case was 2.4 s), the lagging phone taps Undo or a penalty
of its own, meant for the screen it shows. ``stale_writes_applied`` counts such taps that
storage carried out anyway (want 0), ``stale_refusals_said`` those its screen then said were
not done; then, once its screen shows the new entry, it taps Undo again at once and
``fresh_writes_refused`` counts those not carried out (want 0: a phone that has seen
everything is never refused).

Prints a table and, on its last line, the JSON object; also writes
benchmarks/results/bench_table.json.
"""

from __future__ import annotations

import argparse
import json
import os
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
    LAG,
    AppServer,
    blank_page,
    by_id,
    free_port,
    launch,
    load_app,
    tap,
)

from referee.storage import Store  # noqa: E402

PHONE = {"width": 390, "height": 844}
OFFENCE = "offence-P-EARLY-DECLARE"  # −10, light: recorded without a confirmation step

WATCH_JS = """
(id) => {
  window.__painted = [];
  const q = () => document.querySelector(`[flt-semantics-identifier="${id}"]`);
  let last = q() ? q().innerText : null;
  const obs = new MutationObserver(() => {
    const e = q();
    const now = e ? e.innerText : null;
    if (now !== null && now !== last) {
      last = now;
      const dom = performance.timeOrigin + performance.now();
      requestAnimationFrame(() => requestAnimationFrame(() => {
        const at = performance.timeOrigin + performance.now();
        window.__painted.push({text: now, dom: dom, at: at});
      }));
    }
  });
  obs.observe(document.body, {subtree: true, childList: true, characterData: true,
                              attributes: true});
}
"""

TAP_JS = """
(id) => {
  const e = document.querySelector(`[flt-semantics-identifier="${id}"]`);
  const at = performance.timeOrigin + performance.now();
  (e.querySelector('[flt-tappable]') || e).click();
  return at;
}
"""


POP_JS = "(r) => { history.pushState(null, '', r); dispatchEvent(new PopStateEvent('popstate')); }"


def rss_kb(pid: int) -> int:
    """Resident memory of a process (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[k]


def join(browser: Any, url: str) -> Page:
    page = blank_page(browser, viewport=PHONE)
    load_app(page, url)
    return page


def table_mode_helpers() -> Any:
    """The server side of table mode (secret links) and its test helpers, if this build has
    them; else None (plain sessions on 127.0.0.1, every one a scorer unless it asks to view)."""
    try:
        import importlib

        importlib.import_module("ui.server.table")
    except ModuleNotFoundError:
        return None
    sys.path.insert(0, str(ROOT / "tests" / "server"))
    import server_helpers  # type: ignore[import-not-found,unused-ignore]

    return server_helpers


class Table:
    """A server, a match with a deal started, and devices joining it (by their secret links
    in table mode)."""

    def __init__(self, browser: Any, tmp: str) -> None:
        self.url = f"sqlite:///{tmp}/bench-table.sqlite3"
        self.store = Store.open(self.url)
        self.mid = self.store.create_match("two-hand", ["Anna", "Boris"], target=10**6)
        self.store.start_deal(self.mid, "Anna", "9H")
        self.helpers = table_mode_helpers()
        self.server: Any
        if self.helpers is not None:
            log = Path(tmp) / "table-server.log"
            state = Path(tmp) / "table-state"
            self.server = self.helpers.TableServer(self.url, free_port(), log, state)
        else:
            self.server = AppServer(self.url, free_port(), lang="en")
        self.server.start()
        self.browser = browser
        self.devices: list[tuple[Page, str]] = []  # page, the identifier showing the score

    def add(self, n: int) -> None:
        while len(self.devices) < n:
            viewer = len(self.devices) % 2 == 1
            ident = "viewer-total-0" if viewer else "deal-score-0"
            if self.helpers is not None:
                page = join(self.browser, self.server.link("viewer" if viewer else "scorer"))
                tap(page, "resume")
            else:
                base = self.server.url.rstrip("/")
                page = join(self.browser, f"{base}/{'view' if viewer else 'match'}/{self.mid}")
            by_id(page, ident).wait_for(timeout=60_000)
            self.devices.append((page, ident))

    def strangers(self, tries: int) -> tuple[int, int, int]:
        """Requests and websocket handshakes without a secret or with a wrong one, as a
        device on the same Wi-Fi would make them: (pages with match data or the app served,
        websockets opened, attempts). None are possible without table mode's server."""
        h = self.helpers
        if h is None:
            return 0, 0, 0
        reads = sockets = attempts = 0
        names = self.store.match_info(self.mid).players
        # the control: the same requests with a valid secret are served, so a refusal counted
        # below is the secret check's doing, not a broken request
        valid = f"bezique_table={self.server.secret('viewer')}"
        assert h.device_request(self.server.port, "/", valid).status == 200
        assert h.device_handshake(self.server.port, valid).status == 101
        for k in range(tries):
            cookie = None if k % 2 == 0 else f"bezique_table=wrong{k}"
            for path in ("/", f"/match/{self.mid}", f"/view/{self.mid}", "/table-links"):
                attempts += 1
                answer = h.device_request(self.server.port, path, cookie)
                body = answer.body.decode("utf-8", "replace")
                if answer.status == 200 or any(n in body for n in names):
                    reads += 1
            attempts += 1
            if h.device_handshake(self.server.port, cookie).status == 101:
                sockets += 1
        return reads, sockets, attempts

    def close(self) -> None:
        for page, _ in self.devices:
            page.context.close()
        self.server.stop()
        self.store.close()


def latencies(table: Table, n: int, writes: int) -> tuple[list[float], list[float]]:
    """Write on device 0 (a scorer), time until painted on devices 1..n-1 (and until the new
    score is in their page, before it is painted)."""
    writer = table.devices[0][0]
    others = table.devices[1:n]
    out: list[float] = []
    in_dom: list[float] = []
    for page, ident in others:
        page.evaluate(WATCH_JS, ident)
    for _ in range(writes):
        before = table.store.log_position(table.mid)
        tap(writer, "penalty-0")
        by_id(writer, OFFENCE).wait_for(timeout=20_000)
        t0 = float(writer.evaluate(TAP_JS, OFFENCE))  # a light penalty: recorded on the tap
        for page, _ in others:
            page.wait_for_function("window.__painted.length > 0", timeout=30_000)
            painted = page.evaluate("window.__painted.shift()")
            out.append(float(painted["at"]) - t0)
            in_dom.append(float(painted["dom"]) - t0)
        # every write landed once, and every screen shows storage's number
        assert table.store.log_position(table.mid) == before + 1
        by_id(writer, OFFENCE).wait_for(state="detached", timeout=20_000)
        time.sleep(0.2)
    return out, in_dom


def unauthorised_writes(table: Table) -> tuple[int, int]:
    """Each viewer asks for the scorer's address and taps any write button it gets; returns
    (writes that reached storage, attempts)."""
    got_through = attempts = 0
    for page, ident in table.devices:
        if ident != "viewer-total-0":
            continue
        before = table.store.log_position(table.mid)
        page.evaluate(POP_JS, f"/match/{table.mid}")
        page.wait_for_timeout(500)
        for button in ("penalty-0", OFFENCE, "penalty-confirm", "undo", "declare-0", "seven-0"):
            attempts += 1
            loc = by_id(page, button)
            if loc.count():
                loc.first.click()
                page.wait_for_timeout(300)
        if table.store.log_position(table.mid) != before:
            got_through += 1
    return got_through, attempts


LAG_MS = 3000
STALE_AT = (2.4, 0.3, 1.2, 2.7, 0.8, 2.0)  # seconds after the other's tap: the stale tap
REFUSED = (
    "(t) => { const e = document.querySelector('[flt-semantics-identifier=notice]'); "
    "return !!e && ((e.getAttribute('aria-label') || '') + e.innerText).includes(t); }"
)


def lagging_phone(table: Table, rounds: int) -> dict[str, Any]:
    """Two scorers more on the match, the second with its incoming messages held LAG_MS; see
    the module's docstring."""
    h = table.helpers
    pages: list[Page] = []
    for lag in (False, True):
        page = blank_page(table.browser, viewport=PHONE)
        if lag:
            page.add_init_script(LAG)
        if h is not None:
            load_app(page, table.server.link("scorer"))
            tap(page, "resume")
        else:
            load_app(page, f"{table.server.url.rstrip('/')}/match/{table.mid}")
        by_id(page, "penalty-0").wait_for(timeout=60_000)
        pages.append(page)
    writer, lagger = pages
    lagger.evaluate(f"window.__lagMs = {LAG_MS}")
    store, mid = table.store, table.mid
    out = {
        "lag_ms": LAG_MS,
        "stale_taps": 0,
        "stale_writes_applied": 0,
        "stale_refusals_said": 0,
        "fresh_taps": 0,
        "fresh_writes_refused": 0,
    }

    def score(page: Page) -> str:
        return str(by_id(page, "deal-score-0").inner_text())

    def stored() -> str:
        from ui.state.common import points_text

        return points_text(store.load_match(mid).current.scores()[0])

    def caught_up(page: Page) -> None:
        deadline = time.monotonic() + 30
        while score(page) != stored():
            assert time.monotonic() < deadline, "a phone never showed storage's score"
            page.wait_for_timeout(50)

    def landed(position: int) -> None:
        deadline = time.monotonic() + 30
        while store.log_position(mid) < position:
            assert time.monotonic() < deadline, "the other phone's entry never landed"
            time.sleep(0.02)

    for k in range(rounds):
        undo = k % 2 == 0  # an Undo, else a penalty of its own
        caught_up(lagger)
        if not undo:  # its penalty sheet open first (one round trip through the lag)
            tap(lagger, "penalty-0")
            by_id(lagger, OFFENCE).first.wait_for(state="visible", timeout=30_000)
        lagger.wait_for_timeout(LAG_MS + 300)  # nothing of earlier rounds still on its way
        shown, at = score(lagger), store.log_position(mid)
        tap(writer, "penalty-0")
        by_id(writer, OFFENCE).first.wait_for(state="visible", timeout=30_000)
        t0 = time.monotonic()
        by_id(writer, OFFENCE).first.click()
        landed(at + 1)
        time.sleep(max(0.0, t0 + STALE_AT[k % len(STALE_AT)] - time.monotonic()))
        if score(lagger) != shown:  # it had drawn the entry already: not a stale tap
            continue
        out["stale_taps"] += 1
        lagger.evaluate(TAP_JS, "undo" if undo else OFFENCE)
        lagger.wait_for_timeout(LAG_MS + 1500)  # its answer, through the lag
        if store.log_position(mid) != at + 1:
            out["stale_writes_applied"] += 1
        if lagger.evaluate(REFUSED, "Not undone" if undo else "Not recorded"):
            out["stale_refusals_said"] += 1
        # its screen shows the other's entry now: an Undo tapped at once is done
        caught_up(lagger)
        position = store.log_position(mid)
        out["fresh_taps"] += 1
        lagger.evaluate(TAP_JS, "undo")
        deadline = time.monotonic() + 10
        while store.log_position(mid) == position and time.monotonic() < deadline:
            time.sleep(0.05)
        if store.log_position(mid) == position:
            out["fresh_writes_refused"] += 1
    for page in pages:
        page.context.close()
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--writes", type=int, default=15)
    ap.add_argument("--devices", type=int, nargs="+", default=[2, 4, 8])
    ap.add_argument("--lag-rounds", type=int, default=6, help="lagging-phone rounds (0: none)")
    args = ap.parse_args(argv)
    result: dict[str, Any] = {"devices": {}}
    dom: dict[str, Any] = {}
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        browser = launch(pw, foreground=True)  # every phone at the table paints
        table = Table(browser, tmp)
        try:
            assert table.server.proc is not None
            pid = table.server.proc.pid
            table.add(1)
            time.sleep(1.0)
            rss_one = rss_kb(pid)
            for n in sorted(args.devices):
                table.add(n)
                time.sleep(1.0)
                if n == max(args.devices):
                    rss_all = rss_kb(pid)
                times, in_dom = latencies(table, n, args.writes)
                result["devices"][str(n)] = {
                    "p50_ms": round(statistics.median(times), 1),
                    "p95_ms": round(percentile(times, 0.95), 1),
                }
                dom[str(n)] = {
                    "p50_ms": round(statistics.median(in_dom), 1),
                    "p95_ms": round(percentile(in_dom, 0.95), 1),
                }
                print(
                    f"{n} devices: write → painted on the others: median "
                    f"{result['devices'][str(n)]['p50_ms']} ms, p95 "
                    f"{result['devices'][str(n)]['p95_ms']} ms ({len(times)} paints); "
                    f"in their page: median {dom[str(n)]['p50_ms']} ms, "
                    f"p95 {dom[str(n)]['p95_ms']} ms",
                    flush=True,
                )
            extra = max(args.devices) - 1
            result["rss_mb_per_device"] = round((rss_all - rss_one) / 1024 / max(1, extra), 2)
            print(f"server memory per connected device: {result['rss_mb_per_device']} MB")
            through, tried = unauthorised_writes(table)
            reads, sockets, asked = table.strangers(10)
            result["unauthorised_writes"] = through + sockets
            result["unauthorised_reads"] = reads + sockets
            print(f"viewer write attempts: {tried}, reached storage: {through}")
            if table.helpers is None:
                print("no secret links on this server (plain sessions): no stranger to refuse")
            else:
                print(
                    f"requests and websockets without a valid secret: {asked}, served the app "
                    f"or match data: {reads}, websockets opened: {sockets}"
                )
            if args.lag_rounds:
                lag = lagging_phone(table, args.lag_rounds)
                result["stale_writes_applied"] = lag["stale_writes_applied"]
                result["fresh_writes_refused"] = lag["fresh_writes_refused"]
                result["lagging_phone"] = lag
                print(
                    f"lagging phone ({lag['lag_ms']} ms): stale taps {lag['stale_taps']}, "
                    f"applied {lag['stale_writes_applied']}, said refused "
                    f"{lag['stale_refusals_said']}; fresh taps {lag['fresh_taps']}, "
                    f"refused {lag['fresh_writes_refused']}"
                )
        finally:
            table.close()
            browser.close()
    load = os.getloadavg()[0]
    out = ROOT / "benchmarks" / "results" / "bench_table.json"
    out.write_text(
        json.dumps(
            {**result, "in_page": dom, "load_average": round(load, 2), "writes": args.writes},
            indent=1,
        )
    )
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
