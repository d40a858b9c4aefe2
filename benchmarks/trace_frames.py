"""Where the browser's part of a tap goes (issue 14): a Chromium trace of the deal screen's
confirm tap beside the one-button Flet app's tap (benchmarks/floor_app.py, plain button).

    python benchmarks/trace_frames.py [--samples 10] [--rate 1]

Each tap is trace_tap.py's sample (bench_phone's method: the semantics click, then the first
screencast frame whose pixels around the score are the settled new score: ``painted``; the
page's websocket log: ``received``), marked in the trace; from the trace, in ms:
``server``: the page's websocket message for the tap → the server's update received;
``vsync_wait``: that update → the next main frame Chromium begins (Flutter draws on vsync);
``main_frame``: that frame on the page's main thread (Flutter's build, layout and paint, the
accessibility tree); ``raster``: the frame's first task on skwasm's raster worker (software
rasterisation here: no GPU); ``drawn``: the tap's send → the end of the compositor's first
DrawAndSwap after that raster (the first composite that can show its pixels). Prints the
medians of both apps; the last line is one JSON object (also kept in
benchmarks/results/trace_frames.json, one entry per throttle).
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
sys.path.insert(0, str(HERE))

import bench_phone as bp  # noqa: E402
import trace_tap as tt  # noqa: E402
from bench_floor import FloorServer  # noqa: E402
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "blink",
    "cc",
    "gpu",
    "v8",
    "toplevel",
    "viz",
]
MARK_JS = "() => console.timeStamp('bench-tap')"
RASTER_THREAD = "DedicatedWorker thread"  # skwasm renders in a web worker


def _after(events: list[dict[str, Any]], ts: float) -> dict[str, Any] | None:
    return next((e for e in events if e["ts"] > ts), None)


def frame_stages(trace: dict[str, Any] | list[Any]) -> list[dict[str, float]]:
    """Each marked tap's stages, in ms, from a Chromium trace (see the module's docstring)."""
    events: list[dict[str, Any]] = trace["traceEvents"] if isinstance(trace, dict) else trace
    threads = {
        (e["pid"], e["tid"]): e["args"]["name"]
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name"
    }

    def named(name: str, thread: str | None = None, complete: bool = False) -> list[dict[str, Any]]:
        out = [
            e
            for e in events
            if e.get("name") == name
            and (not complete or e.get("ph") == "X")
            and (thread is None or threads.get((e["pid"], e["tid"])) == thread)
        ]
        return sorted(out, key=lambda e: float(e["ts"]))

    marks = [
        e
        for e in named("TimeStamp")
        if e.get("args", {}).get("data", {}).get("message") == "bench-tap"
    ]
    sends = named("WebSocketSend")
    receives = named("WebSocketReceive")
    frames = named("ProxyMain::BeginMainFrame", complete=True)
    raster = named("ThreadControllerImpl::RunTask", RASTER_THREAD, complete=True)
    draws = named("Display::DrawAndSwap", complete=True)
    out: list[dict[str, float]] = []
    ends = [m["ts"] for m in marks[1:]] + [float("inf")]
    for mark, end in zip(marks, ends, strict=True):
        send = _after(sends, mark["ts"])
        got = _after(receives, send["ts"]) if send else None
        frame = _after(frames, got["ts"]) if got else None
        if send is None or got is None or frame is None or got["ts"] >= end:
            continue  # the trace lost part of this tap: never borrow the next tap's events
        frame_end = frame["ts"] + frame["dur"]
        work = next((e for e in raster if frame["ts"] <= e["ts"] <= frame_end + 5000), None)
        # the first composite after the raster is done can show its pixels
        draw = _after(draws, work["ts"] + work["dur"]) if work else None
        out.append(
            {
                "server": (got["ts"] - send["ts"]) / 1000,
                "vsync_wait": (frame["ts"] - got["ts"]) / 1000,
                "main_frame": frame["dur"] / 1000,
                "raster": work["dur"] / 1000 if work else 0.0,
                "drawn": (draw["ts"] + draw["dur"] - send["ts"]) / 1000 if draw else 0.0,
            }
        )
    return out


def _traced(browser: Browser, page: Page, path: Path, run: Any, samples: int) -> dict[str, Any]:
    run()  # one untraced warm-up tap
    browser.start_tracing(page=page, path=str(path), categories=CATEGORIES)
    stamped = [s for s in (run() for _ in range(samples)) if s is not None]
    browser.stop_tracing()
    stages = frame_stages(json.loads(path.read_text()))
    figures = {
        k: round(statistics.median(s[k] for s in stages), 1) for k in (stages[0] if stages else {})
    }
    for key in ("received", "painted"):  # the page's own figures, as trace_tap's
        figures[key] = round(statistics.median(p[key] for p in stamped), 1) if stamped else None
    figures["samples"] = len(stages)
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=10)
    ap.add_argument("--rate", type=int, default=1)
    args = ap.parse_args()
    out: dict[str, Any] = {"rate": args.rate, "cpus": os.cpu_count()}
    floor = FloorServer("plain")
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        srv = bp._server(tmp, "trace-frames")
        try:
            browser = pw.chromium.launch(
                executable_path=bp.CHROMIUM, headless=True, args=[*bp.CHROMIUM_ARGS, bp.OFFLINE]
            )
            page, frames, box = tt.app_page(browser, srv.url, args.rate)
            out["load_before"] = round(os.getloadavg()[0], 2)
            out["app"] = _traced(
                browser, page, Path(tmp) / "app.json",
                lambda: tt.app_sample(page, frames, box, MARK_JS), args.samples,
            )
            page.context.close()
            fpage, fframes = tt.floor_page(browser, floor.url, args.rate)
            state = [0]
            out["floor"] = _traced(
                browser, fpage, Path(tmp) / "floor.json",
                lambda: tt.floor_sample(fpage, fframes, state, MARK_JS), args.samples,
            )
            out["load_after"] = round(os.getloadavg()[0], 2)
            browser.close()
        finally:
            srv.stop()
            floor.stop()
    for name in ("app", "floor"):
        print(name, out[name], flush=True)
    results = HERE / "results" / "trace_frames.json"  # one entry per throttle
    kept = json.loads(results.read_text()) if results.exists() else {}
    kept[f"x{args.rate}"] = out
    results.write_text(json.dumps(kept, indent=1) + "\n")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
