"""The declaration of bench_phone.py on a phone without a screen reader (issue 14).

    python benchmarks/touch_taps.py [--samples 30]

bench_phone.py finds its buttons through the browser's accessibility tree, which Flutter only
builds when asked (a screen reader, or the tests' click on its placeholder); with it on, every
frame also updates a DOM node per semantics node. A player's phone has it off. Here a probe
page with the tree on learns where the buttons and the score are, then a fresh page of the
same match, with the tree never switched on, is driven by touch taps at those points
(``Page.touchscreen``, a touch-enabled context): the confirm tap → the first screencast frame
whose pixels around the score equal the settled new score, as in bench_phone.py (the whole
declaration is not timed here: each step waits for a still screen, having no tree to watch). The
time is read in the page just before each tap is
dispatched, so it includes the tap's own trip from Playwright (a millisecond or two). The last
line is one JSON object (also benchmarks/results/touch_taps.json).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_phone as bp
from playwright.sync_api import Browser, Page, sync_playwright

POINTS = ("declare-1", "undo", "name-bezique", "declare-confirm")


def _centre(page: Page, identifier: str) -> tuple[float, float]:
    box = bp.by_id(page, identifier).first.bounding_box()
    assert box is not None, f"{identifier}: not on screen"
    return (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _probe(browser: Browser, url: str) -> tuple[str, dict[str, tuple[float, float]], Any]:
    """A match opened with the accessibility tree on: its address, the buttons' centres and
    the score's box (one declaration made and undone to see the layer's buttons)."""
    ctx = browser.new_context(viewport=bp.PHONE)  # type: ignore[arg-type]
    page = ctx.new_page()
    bp._new_match(page, url)
    points = {name: _centre(page, name) for name in POINTS[:2]}
    box = bp._score_box(page, "deal-score-1")
    page.evaluate(bp.CLICK_JS, "declare-1")
    bp.by_id(page, "name-bezique").first.wait_for()
    points["name-bezique"] = _centre(page, "name-bezique")
    page.evaluate(bp.CLICK_JS, "name-bezique")
    bp.wait_words(page, "declare-confirm", "·")
    points["declare-confirm"] = _centre(page, "declare-confirm")
    page.evaluate(bp.CLICK_JS, "declare-confirm")
    page.wait_for_function(bp.SCORE_IS, arg=["deal-score-1", "0", False], timeout=60_000)
    bp.undo(page)
    page.wait_for_function(bp.SCORE_IS, arg=["deal-score-1", "0", True], timeout=60_000)
    match_url = page.url
    ctx.close()  # one session on the match while measuring
    return match_url, points, box


class TouchPhone:
    """The match on a touch page without the accessibility tree."""

    def __init__(self, browser: Browser, url: str) -> None:
        self.url, self.points, self.box = _probe(browser, url)
        self.ctx = browser.new_context(viewport=bp.PHONE, has_touch=True, is_mobile=True)  # type: ignore[arg-type]
        self.page = self.ctx.new_page()
        self.page.goto(self.url)
        self.page.wait_for_function(
            "document.getElementById('loading') === null", timeout=120_000
        )
        self.frames = bp.Frames(self.page)
        self.frames.settle(1500)

    def _tap(self, name: str) -> float:
        t0 = float(self.page.evaluate("() => Date.now()"))
        self.page.touchscreen.tap(*self.points[name])
        return t0

    def _score_pixels(self) -> bytes:
        last = max(self.frames.items)[1]
        return bp._pixels(last, self.box)

    def _wait_score_change(self, before: bytes, timeout_ms: float = 60_000) -> bool:
        waited = 0.0
        while waited < timeout_ms:
            self.page.wait_for_timeout(20)
            waited += 20
            if self._score_pixels() != before:
                return True
        return False

    def declaration(self) -> float | None:
        """The confirm tap → painted in ms, or None when the score did not change on screen;
        undone afterwards."""
        frames = self.frames
        frames.settle(300)
        frames.items[:] = frames.items[-1:]  # keep the still screen, drop the decoded past
        before = self._score_pixels()
        self._tap("declare-1")
        frames.settle(400)
        self._tap("name-bezique")
        frames.settle(500)
        t_last = self._tap("declare-confirm")
        changed = self._wait_score_change(before)
        frames.settle(400)
        painted = frames.first_matching(t_last, self.box) if changed else None
        self._tap("undo")
        self._wait_score_change(self._score_pixels())
        return None if painted is None else painted - t_last

    def close(self) -> None:
        self.frames.stop()
        self.ctx.close()


def touch_figures(browser: Browser, url: str, samples: int) -> dict[str, Any]:
    """Per throttle: the confirm tap → painted (median, p95), touch, no accessibility tree."""
    phone = TouchPhone(browser, url)
    out: dict[str, Any] = {}
    try:
        for rate in bp.THROTTLES:
            bp._throttle(phone.page, rate)
            taps = [t for t in (phone.declaration() for _ in range(samples)) if t is not None]
            out[f"x{rate}"] = {
                "tap_ms": bp._median(taps),
                "tap_p95_ms": bp._p95(taps),
                "samples": len(taps),
            }
    finally:
        phone.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=30, help="declarations per throttle")
    args = ap.parse_args()
    before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=bp.CHROMIUM, headless=True, args=[*bp.CHROMIUM_ARGS, bp.OFFLINE]
        )
        srv = bp._server(tmp, "touch")
        try:
            out = touch_figures(browser, srv.url, args.samples)
        finally:
            srv.stop()
            browser.close()
    out["machine"] = {
        "cpus": os.cpu_count(),
        "load_average_1m_before": round(before, 2),
        "load_average_1m_after": round(os.getloadavg()[0], 2),
    }
    for rate in bp.THROTTLES:
        f = out[f"x{rate}"]
        print(
            f"CPU {rate}x, touch, no accessibility tree: tap → painted {f['tap_ms']:.0f} ms"
            f" (p95 {f['tap_p95_ms']:.0f}, {f['samples']} samples)"
        )
    results = bp.ROOT / "benchmarks" / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / "touch_taps.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
