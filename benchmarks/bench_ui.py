"""Benchmark of the table app in a real browser (the issue's two speed figures).

    python benchmarks/bench_ui.py [--runs 5] [--taps 20]

1. Server start → home screen drawn: from spawning ``python -m ui.main --web`` to the Home
   screen's "New match" button present in the page (semantics on), in a fresh browser
   context (nothing cached), and to the button's pixels painted (screenshots of its area).
2. Tap on "declare" → new score drawn: in the page, from the click on the picker's
   "Declare bezique for 40" to the score text changing in the DOM and the next animation
   frame painted (so the server round trip, the engine, storage and the redraw are all in).

Prints a table and writes benchmarks/results/bench_ui.json. Medians are the figures to quote.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import struct
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "ui" / "e2e"))

from playwright.sync_api import Page, sync_playwright  # noqa: E402
from ui_e2e_harness import (  # type: ignore[import-not-found,unused-ignore]  # noqa: E402
    AppServer,
    blank_page,
    by_id,
    free_port,
    launch,
    load_app,
    open_app,
    start_two_hand_deal,
    tap,
)

TAP_JS = """
async ([buttonId, scoreId]) => {
  const q = (id) => document.querySelector(`[flt-semantics-identifier="${id}"]`);
  const score = q(scoreId);
  const before = score.innerText;
  const t0 = performance.now();
  const changed = new Promise((resolve) => {
    const obs = new MutationObserver(() => {
      const now = q(scoreId);
      if (now && now.innerText !== before) { obs.disconnect(); resolve(); }
    });
    obs.observe(document.body, {subtree: true, childList: true, characterData: true});
  });
  const target = q(buttonId);
  (target.querySelector('[flt-tappable]') || target).click();
  await changed;
  const dom = performance.now() - t0;
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return {dom_ms: dom, drawn_ms: performance.now() - t0};
}
"""


def start_to_home(browser: Any, runs: int, *, fresh: bool) -> dict[str, Any]:
    """Spawn the server and load the app in a fresh context opened beforehand (a browser
    that is already running, as at the table), then wait for the Home screen. ``fresh``: a
    new database each run (created and migrated while starting); else the database a first
    run left, as when the app is opened again at the table."""
    semantics: list[float] = []
    painted: list[float] = []
    http: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        if not fresh:
            warm = AppServer(f"sqlite:///{tmp}/bench.sqlite3", free_port())
            warm.start()
            page = open_app(browser, warm.url)
            by_id(page, "new-match").wait_for(timeout=60_000)
            page.context.close()
            warm.stop()
        for run in range(runs):
            name = f"bench-{run}.sqlite3" if fresh else "bench.sqlite3"
            server = AppServer(f"sqlite:///{tmp}/{name}", free_port())
            page = blank_page(browser)
            t0 = time.monotonic()
            http.append(server.start())
            try:
                load_app(page, server.url)
                by_id(page, "new-match").wait_for(timeout=60_000)
                semantics.append(time.monotonic() - t0)
                _wait_painted(page, "new-match")
                painted.append(time.monotonic() - t0)
                page.context.close()
            finally:
                server.stop()
    return {
        "runs": runs,
        "database": "new" if fresh else "existing",
        "http_200_s": _stats(http),
        "home_in_dom_s": _stats(semantics),
        "home_drawn_s": _stats(painted),
    }


def declare_to_score(browser: Any, taps: int) -> dict[str, Any]:
    """Create a match, then time the declare tap again and again (undo between taps)."""
    with tempfile.TemporaryDirectory() as tmp:
        server = AppServer(f"sqlite:///{tmp}/bench.sqlite3", free_port())
        server.start()
        try:
            sent: list[bytes] = []
            page = open_app(browser, server.url, sent)
            _new_match(page, sent)
            dom: list[float] = []
            drawn: list[float] = []
            for _ in range(taps):
                tap(page, "declare-1")
                tap(page, "tab-cards")  # the free choice (declaring by name is bench_taps.py)
                tap(page, "pick-QS")
                by_id(page, "chosen-0").wait_for()
                tap(page, "pick-JD")
                by_id(page, "option-bezique").wait_for()
                result = page.evaluate(TAP_JS, ["option-bezique", "deal-score-1"])
                dom.append(result["dom_ms"])
                drawn.append(result["drawn_ms"])
                tap(page, "undo")
                page.wait_for_function(
                    "() => document.querySelector('[flt-semantics-identifier=\"deal-score-1\"]')"
                    ".innerText.trim() === '0'"
                )
            page.context.close()
        finally:
            server.stop()
    return {"taps": taps, "score_in_dom_ms": _stats(dom), "score_drawn_ms": _stats(drawn)}


def _wait_painted(page: Page, identifier: str, timeout: float = 30.0) -> None:
    """Wait until the pixels under a control show it: the semantics tree is ready a little
    before Flutter paints, so the button's area is screenshotted until it holds the button's
    label (many colours) rather than a blank or loading frame (one or two)."""
    box = by_id(page, identifier).first.bounding_box()
    assert box is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if _colours(page.screenshot(clip=box)) > 8:
            return
        page.wait_for_timeout(10)
    raise TimeoutError(f"{identifier} never painted")


def _colours(png: bytes) -> int:
    """Distinct RGB(A) values in a PNG (8-bit, non-interlaced, as Chromium writes them)."""
    pos, idat, width, height, channels = 8, b"", 0, 0, 4
    while pos < len(png):
        length = struct.unpack(">I", png[pos : pos + 4])[0]
        kind = png[pos + 4 : pos + 8]
        data = png[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", data[:8])
            channels = {2: 3, 6: 4}.get(data[9], 4)
        elif kind == b"IDAT":
            idat += data
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    prev = bytearray(stride)
    seen: set[bytes] = set()
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        for x in range(0, stride, channels):
            seen.add(bytes(line[x : x + channels]))
        prev = line
    return len(seen)


def _new_match(page: Page, sent: list[bytes]) -> None:
    start_two_hand_deal(page, sent)


def _stats(values: list[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), 3),
        "min": round(min(values), 3),
        "max": round(max(values), 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="server starts to time")
    ap.add_argument("--taps", type=int, default=20, help="declare taps to time")
    args = ap.parse_args()
    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            start = start_to_home(browser, args.runs, fresh=False)
            start_new_db = start_to_home(browser, args.runs, fresh=True)
            tap_figures = declare_to_score(browser, args.taps)
        finally:
            browser.close()
    out = {
        "start_to_home": start,
        "start_to_home_new_database": start_new_db,
        "declare_to_score": tap_figures,
        "machine": {"cpus": os.cpu_count(), "load_average_1m": round(os.getloadavg()[0], 2)},
    }
    results = ROOT / "benchmarks" / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / "bench_ui.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    s, d = start, tap_figures
    print(f"server start → HTTP 200           median {s['http_200_s']['median']:.2f} s")
    print(
        f"server start → home in the page   median {s['home_in_dom_s']['median']:.2f} s"
        f"  (min {s['home_in_dom_s']['min']:.2f}, max {s['home_in_dom_s']['max']:.2f})"
    )
    print(f"server start → home drawn         median {s['home_drawn_s']['median']:.2f} s")
    n = out["start_to_home_new_database"]
    print(f"  … with a new database: home drawn median {n['home_drawn_s']['median']:.2f} s")
    print(
        f"tap declare → score in the DOM     median {d['score_in_dom_ms']['median']:.0f} ms"
        f"  (min {d['score_in_dom_ms']['min']:.0f}, max {d['score_in_dom_ms']['max']:.0f})"
    )
    print(f"tap declare → score drawn          median {d['score_drawn_ms']['median']:.0f} ms")
    m = out["machine"]
    print(f"(machine: {m['cpus']} CPUs, load average {m['load_average_1m']})")


if __name__ == "__main__":
    main()
