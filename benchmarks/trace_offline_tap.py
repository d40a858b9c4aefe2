"""Where Flutter's part of a phone-build tap goes (issue 20): a Chromium trace of
bench_offline.py's taps (offline, from the Python image, Boris's bezique offer tapped once,
then undone), read for the frame that draws each tap's update.

    python benchmarks/trace_offline_tap.py [--dir dist/phone] [--samples 5] [--dpr 2.625]

For each tap, in ms: ``python``, the click reaching Python's worker → its answer (the page's
messages, as bench_offline's split); ``frame``, the page's main-thread task that runs Flutter's
frame for that answer (its animation-frame callback: build, layout, paint, and skwasm drawing
on the page's thread); within it ``dart``, the frame's own code before it reads the pixels
back, and ``read_pixels``, the wait in ``GLES2::ReadPixels`` for the GPU process to run the
frame's WebGL commands (software rasterising here: no GPU); ``webgl``, that GPU-process task.
The last line is one JSON object with the medians and the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import bench_offline as bo  # noqa: E402
import bench_phone as bp  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from benchmarks.static_server import StaticServer  # noqa: E402

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink", "gpu", "v8",
              "toplevel", "viz"]
MARK = "bench-tap"


def _complete(events: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return sorted((e for e in events if e.get("name") == name and e.get("ph") == "X"),
                  key=lambda e: float(e["ts"]))


def frames_of(events: list[dict[str, Any]]) -> list[dict[str, float]]:
    """Each marked tap's update frame (see the module's docstring), in ms."""
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
               if e.get("ph") == "M" and e.get("name") == "thread_name"}

    def on(thread: str, name: str) -> list[dict[str, Any]]:
        return [e for e in _complete(events, name) if threads.get((e["pid"], e["tid"])) == thread]

    marks = sorted(float(e["ts"]) for e in events if e.get("name") == "TimeStamp"
                   and e.get("args", {}).get("data", {}).get("message") == MARK)
    callbacks = on("CrRendererMain", "FireAnimationFrame")
    reads = on("CrRendererMain", "GLES2::ReadPixels")
    webgl = on("CrGpuMain", "WebGL")
    out = []
    for mark, end in zip(marks, [*marks[1:], float("inf")], strict=True):
        # the tap's update frame: the longest animation-frame callback of the tap's window
        # (the others only tick; the bench waits for the screen to settle between taps)
        mine = [c for c in callbacks if mark <= c["ts"] < end]
        if not mine:
            continue
        frame = max(mine, key=lambda c: c["dur"])
        f0, f1 = frame["ts"], frame["ts"] + frame["dur"]
        read = next((r for r in reads if f0 <= r["ts"] <= f1), None)
        gl = [g for g in webgl if f0 <= g["ts"] <= f1]
        out.append({
            "frame": frame["dur"] / 1000,
            "dart": ((read["ts"] if read else f1) - f0) / 1000,
            "read_pixels": read["dur"] / 1000 if read else 0.0,
            "webgl": sum(g["dur"] for g in gl) / 1000,
        })
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default=str(HERE.parent / "dist" / "phone"))
    ap.add_argument("--samples", type=int, default=5)
    ap.add_argument("--dpr", type=float, default=bo.DPR)
    args = ap.parse_args()
    bo.DPR = args.dpr
    out: dict[str, Any] = {"dpr": args.dpr, "load_before": os.getloadavg()}
    with (StaticServer(Path(args.dir)) as srv, sync_playwright() as pw,
          tempfile.TemporaryDirectory() as tmp):
        profile = str(Path(tmp) / "profile")
        bo.first_visit(pw, profile, srv)
        bo.make_image(pw, profile, srv.url)
        ctx, page = bo.open_context(pw, profile)
        try:
            ctx.add_init_script(bo.WORKER_LOG_JS)
            ctx.set_offline(True)
            page.goto(srv.url)
            bo.wait_home(page)
            bo.start_deal(page)
            cdp = ctx.new_cdp_session(page)
            events: list[dict[str, Any]] = []
            done: list[bool] = []
            cdp.on("Tracing.dataCollected", lambda e: events.extend(e["value"]))
            cdp.on("Tracing.tracingComplete", lambda _e: done.append(True))
            frames = bp.Frames(page)
            pythons = []
            for i in range(args.samples + 1):  # the first, untraced, warms up
                if i == 1:
                    cdp.send("Tracing.start", {"traceConfig": {"includedCategories": CATEGORIES},
                                               "transferMode": "ReportEvents"})
                frames.settle(300)
                page.evaluate("window.__worker = []")
                page.evaluate(f"() => console.timeStamp('{MARK}')")
                t = bo.declare_bezique(page)
                page.wait_for_function(bo.SCORE_IS, arg=["deal-score-1", "0", False],
                                       timeout=60_000)
                frames.settle(400)
                split = bo.tap_split(page.evaluate("window.__worker"), t, t)
                if i and split:
                    pythons.append(split["python"])
                page.evaluate(bo.CLICK_JS, "undo")
                page.wait_for_function(bo.SCORE_IS, arg=["deal-score-1", "0", True],
                                       timeout=60_000)
            cdp.send("Tracing.end")
            while not done:
                page.wait_for_timeout(100)
            frames.stop()
        finally:
            ctx.close()
    taps = frames_of(events)
    out["taps"] = taps
    out["median"] = {k: round(statistics.median(t[k] for t in taps), 1) for k in taps[0]} if taps \
        else {}
    out["median"]["python"] = round(statistics.median(pythons), 1) if pythons else None
    out["load_after"] = os.getloadavg()
    for t in taps:
        print({k: round(v, 1) for k, v in t.items()}, flush=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
