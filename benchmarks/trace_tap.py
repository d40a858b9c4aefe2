"""Where a tap's time goes (issue 14): the deal screen's confirm tap split into its stages.

    python benchmarks/trace_tap.py [--samples 15] [--rate 1] [--floor plain]

For each bezique declared by name (bench_phone's method, then undone) it takes, in ms from the
semantics click on the confirm button: the websocket message the page sent for it, the first
and the last message the page received after it (with their bytes; Flet's update), and the
first screencast frame whose pixels around the score equal the settled new score. So
``sent`` is the client's own handling of the tap, ``received - sent`` the server (and the
loopback), ``painted - received`` Flutter applying the update and drawing it. With
``--floor VARIANT`` the trivial app of benchmarks/floor_app.py is traced the same way,
interleaved. The last line is one JSON object with the medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_phone as bp  # noqa: E402
from bench_floor import FloorServer  # noqa: E402
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

# Every websocket message of the page, with Date.now() and its size, kept in the page.
WS_LOG_JS = """(() => {
  window.__ws = [];
  const Orig = window.WebSocket;
  function size(d) { return typeof d === 'string' ? d.length : (d.byteLength || d.size || 0); }
  class Logged extends Orig {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (e) => window.__ws.push([Date.now(), 'in', size(e.data)]));
    }
    send(d) { window.__ws.push([Date.now(), 'out', size(d)]); return super.send(d); }
  }
  window.WebSocket = Logged;
})();"""


def _stages(page: Page, t0: float, painted: float | None) -> dict[str, float] | None:
    log = page.evaluate("() => { const l = window.__ws; window.__ws = []; return l; }")
    sent = [t for t, d, _ in log if d == "out" and t >= t0]
    if not sent or painted is None:
        return None
    got = [(t, n) for t, d, n in log if d == "in" and t >= sent[0]]
    if not got:
        return None
    first_in = got[0][0]
    # the update is what arrived before the painted frame
    before = [(t, n) for t, n in got if t <= painted] or got[:1]
    return {
        "sent": sent[0] - t0,
        "received": first_in - t0,
        "received_last": before[-1][0] - t0,
        "bytes_in": float(sum(n for _, n in before)),
        "painted": painted - t0,
    }


def app_sample(
    page: Page, frames: bp.Frames, box: tuple[int, int, int, int], mark: str | None = None
) -> Any:
    """One bezique declared by name and undone; ``mark``: a script run just before the
    confirm tap (trace_frames.py marks the tap in its Chromium trace)."""
    frames.settle(300)
    bp.by_id(page, "declare-1").first.wait_for()
    page.evaluate(bp.CLICK_JS, "declare-1")
    bp.by_id(page, "name-bezique").first.wait_for()
    page.evaluate(bp.CLICK_JS, "name-bezique")
    bp.wait_words(page, "declare-confirm", "·")
    frames.settle(300)
    page.evaluate("() => { window.__ws = []; }")
    if mark:
        page.evaluate(mark)
    t0 = page.evaluate(bp.CLICK_JS, "declare-confirm")
    page.wait_for_function(bp.SCORE_IS, arg=["deal-score-1", "0", False], timeout=60_000)
    frames.settle(400)
    st = _stages(page, t0, frames.first_matching(t0, box))
    bp.undo(page)
    page.wait_for_function(bp.SCORE_IS, arg=["deal-score-1", "0", True], timeout=60_000)
    return st


def floor_sample(
    page: Page, frames: bp.Frames, state: list[int], mark: str | None = None
) -> Any:
    frames.settle(300)
    box = bp._score_box(page, "floor-score")
    page.evaluate("() => { window.__ws = []; }")
    if mark:
        page.evaluate(mark)
    t0 = page.evaluate(bp.CLICK_JS, "floor-tap")
    state[0] += 20
    page.wait_for_function(bp.SCORE_IS, arg=["floor-score", str(state[0]), True], timeout=60_000)
    frames.settle(400)
    st = _stages(page, t0, frames.first_matching(t0, box))
    if state[0] >= 200:
        page.evaluate(bp.CLICK_JS, "floor-reset")
        state[0] = 0
        page.wait_for_function(bp.SCORE_IS, arg=["floor-score", "0", True], timeout=60_000)
    frames.items.clear()
    return st


def app_page(
    browser: Browser, url: str, rate: int
) -> tuple[Page, bp.Frames, tuple[int, int, int, int]]:
    """A phone page of a new two-hand match, its websocket logged, its frames watched and
    its CPU throttled; with the score's box on screen."""
    ctx = browser.new_context(viewport=bp.PHONE)  # type: ignore[arg-type]
    ctx.add_init_script(WS_LOG_JS)
    page = ctx.new_page()
    bp._new_match(page, url)
    frames = bp.Frames(page)
    box = bp._score_box(page, "deal-score-1")
    bp._throttle(page, rate)
    return page, frames, box


def floor_page(browser: Browser, url: str, rate: int) -> tuple[Page, bp.Frames]:
    """The same for the one-button app of floor_app.py."""
    ctx = browser.new_context(viewport=bp.PHONE)  # type: ignore[arg-type]
    ctx.add_init_script(WS_LOG_JS)
    page = ctx.new_page()
    page.goto(url)
    bp._enable_semantics(page)
    bp.by_id(page, "floor-tap").first.wait_for(timeout=120_000)
    frames = bp.Frames(page)
    bp._throttle(page, rate)
    return page, frames


def _summary(samples: list[dict[str, float]]) -> dict[str, float]:
    return {k: round(statistics.median(s[k] for s in samples), 1) for k in samples[0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=15)
    ap.add_argument("--rate", type=int, default=1)
    ap.add_argument("--floor", default="")
    args = ap.parse_args()
    out: dict[str, Any] = {"rate": args.rate}
    floor = FloorServer(args.floor) if args.floor else None
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        srv = bp._server(tmp, "trace-tap")
        try:
            browser = pw.chromium.launch(
                executable_path=bp.CHROMIUM, headless=True, args=[*bp.CHROMIUM_ARGS, bp.OFFLINE]
            )
            page, frames, box = app_page(browser, srv.url, args.rate)
            fpage = None
            if floor is not None:
                fpage, fframes = floor_page(browser, floor.url, args.rate)
            app: list[dict[str, float]] = []
            flo: list[dict[str, float]] = []
            state = [0]
            for _ in range(args.samples):
                s = app_sample(page, frames, box)
                if s:
                    app.append(s)
                    print("app", {k: round(v) for k, v in s.items()}, flush=True)
                if fpage is not None:
                    f = floor_sample(fpage, fframes, state)
                    if f:
                        flo.append(f)
                        print("floor", {k: round(v) for k, v in f.items()}, flush=True)
            out["app"] = _summary(app)
            if flo:
                out["floor"] = _summary(flo)
            browser.close()
        finally:
            srv.stop()
            if floor is not None:
                floor.stop()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
