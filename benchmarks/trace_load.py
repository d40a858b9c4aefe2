"""Where a cold load's time goes (issue 14): one timeline per load, in Debian's headless Chromium.

    python benchmarks/trace_load.py [--throttle 4] [--loads 3] [--trace DIR]

For each cold load (fresh browser context, CPU throttled through CDP, page 412x915, browser
offline) it prints, in ms from ``goto``:

- every request: when it was sent, its response's first byte and its end, with its bytes
  (CDP Network domain);
- the websocket: created, the first frame the page sent (Flet's register message), the first
  frame it received (the first page message, with its size), and all frames until Home;
- the main thread's longest tasks and V8's wasm compile events (a Chromium performance trace,
  ``Tracing.start``), summed by name;
- the first frame equal to the settled Home screen (CDP screencast), the figure
  bench_phone.py reports.

The last line is one JSON object with each load's milestones and their median.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests" / "ui" / "e2e"))

from bench_phone import OFFLINE, Frames, _enable_semantics, _server, _throttle  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402
from ui_e2e_harness import CHROMIUM, CHROMIUM_ARGS, PHONE, by_id  # noqa: E402

CATEGORIES = ",".join(
    [
        "devtools.timeline",
        "disabled-by-default-devtools.timeline",
        "v8",
        "v8.wasm",
        "disabled-by-default-v8.wasm.detailed",
        "loading",
        "blink.user_timing",
        "toplevel",
    ]
)


class Timeline:
    """Network and websocket events of one page, on the monotonic clock CDP uses."""

    def __init__(self, page: Page) -> None:
        self.cdp = page.context.new_cdp_session(page)
        self.requests: dict[str, dict[str, Any]] = {}
        self.ws: list[tuple[float, str, int, str]] = []
        self.ws_created: float | None = None
        self.offset: float | None = None  # wall ms − monotonic ms
        self.cdp.send("Network.enable")
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.responseReceived", self._response)
        self.cdp.on("Network.loadingFinished", self._done)
        self.cdp.on("Network.webSocketCreated", self._ws_created)
        self.cdp.on("Network.webSocketFrameSent", lambda e: self._frame(e, "sent"))
        self.cdp.on("Network.webSocketFrameReceived", lambda e: self._frame(e, "received"))

    def _sent(self, e: dict[str, Any]) -> None:
        if self.offset is None:
            self.offset = e["wallTime"] * 1000 - e["timestamp"] * 1000
        self.requests.setdefault(
            e["requestId"], {"url": e["request"]["url"], "sent": e["timestamp"] * 1000}
        )

    def _response(self, e: dict[str, Any]) -> None:
        r = self.requests.get(e["requestId"])
        if r is not None:
            r["first_byte"] = e["timestamp"] * 1000
            headers = {k.lower(): v for k, v in e["response"].get("headers", {}).items()}
            r["type"] = headers.get("content-type", "")
            r["encoding"] = headers.get("content-encoding", "")
            r["protocol"] = e["response"].get("protocol", "")
            r["connection"] = e["response"].get("connectionId")

    def _done(self, e: dict[str, Any]) -> None:
        r = self.requests.get(e["requestId"])
        if r is not None:
            r["end"] = e["timestamp"] * 1000
            r["bytes"] = e["encodedDataLength"]

    def _ws_created(self, e: dict[str, Any]) -> None:
        self.ws_created = time.time() * 1000

    def _frame(self, e: dict[str, Any], way: str) -> None:
        data = e["response"].get("payloadData", "")
        self.ws.append((e["timestamp"] * 1000, way, len(data), data[:40]))


def trace_events(cdp: Any, page: Page) -> list[dict[str, Any]]:
    """End the trace and read its events back (``ReturnAsStream``)."""
    done: dict[str, Any] = {}
    cdp.on("Tracing.tracingComplete", lambda e: done.update(e))
    cdp.send("Tracing.end")
    deadline = time.monotonic() + 60
    while "stream" not in done and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # events arrive only while Playwright runs
    chunks = []
    while True:
        got = cdp.send("IO.read", {"handle": done["stream"], "size": 1 << 20})
        chunks.append(got["data"])
        if got.get("eof"):
            break
    cdp.send("IO.close", {"handle": done["stream"]})
    text = "".join(chunks)
    data = json.loads(text)
    return list(data["traceEvents"] if isinstance(data, dict) else data)


def one_load(
    browser: Any, url: str, rate: int, trace_dir: Path | None, n: int, trace: bool = True
) -> dict[str, Any]:
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    _throttle(page, rate)
    tl = Timeline(page)
    tcdp = ctx.new_cdp_session(page)
    if trace:
        tcdp.send(
            "Tracing.start",
            {
                "transferMode": "ReturnAsStream",
                "traceConfig": {"includedCategories": CATEGORIES.split(",")},
            },
        )
    frames = Frames(page)
    t0_wall = time.time() * 1000.0
    page.goto(url)
    _enable_semantics(page)
    by_id(page, "new-match").first.wait_for(timeout=120_000)
    frames.wait_frame_after(time.time() * 1000.0)
    frames.settle()
    drawn = frames.first_matching(t0_wall, None)
    first_frame = min((ts for ts, _ in frames.items if ts >= t0_wall), default=None)
    frames.stop()
    events = trace_events(tcdp, page) if trace else []
    if trace_dir is not None:
        (trace_dir / f"load-{rate}x-{n}.json").write_text(json.dumps(events))
    page.close()
    ctx.close()

    off = tl.offset or 0.0

    def rel_mono(ms: float) -> float:
        return round(ms + off - t0_wall, 1)

    rows = []
    for r in sorted(tl.requests.values(), key=lambda r: r["sent"]):
        name = r["url"].split("127.0.0.1", 1)[-1].split("/", 1)[-1] or "/"
        rows.append(
            {
                "url": name[:60],
                "sent": rel_mono(r["sent"]),
                "first_byte": rel_mono(r["first_byte"]) if "first_byte" in r else None,
                "end": rel_mono(r["end"]) if "end" in r else None,
                "bytes": r.get("bytes"),
                "type": r.get("type", ""),
                "encoding": r.get("encoding", ""),
                "connection": r.get("connection"),
            }
        )
    ws = [(rel_mono(ts), way, size, head) for ts, way, size, head in tl.ws]
    # Trace: events on the clock of Network timestamps (µs); sum complete events by name
    # inside the load window, and list the wasm ones.
    t_end_mono = (drawn if drawn is not None else time.time() * 1000) - off
    t0_mono = t0_wall - off
    by_name: dict[str, float] = defaultdict(float)
    wasm: list[tuple[float, float, str]] = []
    long_tasks: list[tuple[float, float, str]] = []
    for ev in events:
        if ev.get("ph") != "X" or "dur" not in ev:
            continue
        start = ev["ts"] / 1000.0
        if not (t0_mono <= start <= t_end_mono):
            continue
        dur = ev["dur"] / 1000.0
        by_name[ev["name"]] += dur
        if "wasm" in ev.get("cat", "") or "Wasm" in ev["name"] or "wasm" in ev["name"].lower():
            wasm.append((round(start - t0_mono, 1), round(dur, 1), ev["name"]))
        if ev["name"] in ("RunTask", "ThreadControllerImpl::RunTask") and dur > 50:
            long_tasks.append((round(start - t0_mono, 1), round(dur, 1), str(ev.get("tid"))))
    top = sorted(by_name.items(), key=lambda kv: -kv[1])[:25]
    main_cpu, main_wall = main_thread_work(events, t0_mono * 1000, t_end_mono * 1000)
    return {
        "t0_wall": t0_wall,
        "drawn_ms": round(drawn - t0_wall, 1) if drawn is not None else None,
        "first_frame_ms": round(first_frame - t0_wall, 1) if first_frame is not None else None,
        "ws_created_ms": round(tl.ws_created - t0_wall, 1) if tl.ws_created else None,
        "requests": rows,
        "ws_frames": ws[:60],
        "main_cpu_ms": main_cpu,
        "main_busy_ms": main_wall,
        "trace_top": [(k, round(v, 1)) for k, v in top],
        "wasm_events": sorted(wasm)[:40],
        "long_tasks": sorted(long_tasks)[:40],
    }


def main_thread_work(
    events: list[dict[str, Any]], t0_us: float, t1_us: float
) -> tuple[float, float]:
    """The page's main thread between ``t0_us`` and ``t1_us`` (trace clock): CPU time of its
    tasks (the trace's thread clock, ``tdur``: what the page asked of the CPU, hardly touched
    by other programs on a loaded machine or by the throttle's pauses) and their wall time."""
    names = {
        (e["pid"], e["tid"]): e["args"].get("name")
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name"
    }
    tasks = [
        e
        for e in events
        if e.get("ph") == "X"
        and e.get("name") == "ThreadControllerImpl::RunTask"
        and names.get((e.get("pid"), e.get("tid"))) == "CrRendererMain"
        and t0_us <= e["ts"] <= t1_us
    ]
    if not tasks:
        return 0.0, 0.0
    # The renderer of this page: the main thread with the most work (others are idle pages).
    per: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for e in tasks:
        per[(e["pid"], e["tid"])].append(e)
    mine = max(per.values(), key=lambda es: sum(e.get("dur", 0) for e in es))
    cpu = wall = 0.0
    end = -1.0
    for e in sorted(mine, key=lambda e: e["ts"]):
        if e["ts"] < end:  # nested inside the previous task
            continue
        end = e["ts"] + e.get("dur", 0)
        wall += e.get("dur", 0) / 1000
        cpu += e.get("tdur", e.get("dur", 0)) / 1000
    return round(cpu, 1), round(wall, 1)


def milestones(load: dict[str, Any]) -> dict[str, float | None]:
    def end_of(suffix: str) -> float | None:
        for r in load["requests"]:
            if r["url"].split("?")[0].endswith(suffix):
                return r["end"]
        return None

    ws = load["ws_frames"]
    first_sent = next((t for t, way, *_ in ws if way == "sent"), None)
    first_recv = next((t for t, way, *_ in ws if way == "received"), None)
    first_recv_size = next((s for _, way, s, _ in ws if way == "received"), None)
    return {
        "index.html": load["requests"][0]["end"] if load["requests"] else None,
        "flutter_bootstrap.js": end_of("flutter_bootstrap.js"),
        "main.dart.mjs": end_of("main.dart.mjs"),
        "main.dart.wasm": end_of("main.dart.wasm"),
        "skwasm.wasm": end_of("skwasm.wasm"),
        "FontManifest.json": end_of("FontManifest.json"),
        "MaterialIcons": end_of("MaterialIcons-Regular.otf"),
        "roboto": end_of("roboto.woff2"),
        "ws_created": load["ws_created_ms"],
        "ws_first_sent": first_sent,
        "ws_first_received": first_recv,
        "ws_first_received_bytes": first_recv_size,
        "first_frame": load["first_frame_ms"],
        "home_drawn": load["drawn_ms"],
        "main_cpu_ms": load["main_cpu_ms"],
        "main_busy_ms": load["main_busy_ms"],
    }


def _median_of(ms: list[dict[str, float | None]]) -> dict[str, float]:
    keys = ms[0] if ms else {}
    return {
        k: statistics.median([m[k] for m in ms if m[k] is not None])  # type: ignore[misc]
        for k in keys
        if any(m[k] is not None for m in ms)
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--throttle", type=int, default=4)
    ap.add_argument("--loads", type=int, default=3)
    ap.add_argument("--trace", default=None, help="write each load's trace events here")
    ap.add_argument("--no-trace", action="store_true", help="no performance trace (its cost)")
    ap.add_argument("--verbose", action="store_true", help="print every request and event")
    ap.add_argument(
        "--roots",
        default=None,
        help="comma-separated checkouts to serve the app from, one server each, their loads "
        "interleaved (before/after on the same machine load)",
    )
    args = ap.parse_args()
    trace_dir = Path(args.trace) if args.trace else None
    if trace_dir:
        trace_dir.mkdir(parents=True, exist_ok=True)
    roots = [r for r in (args.roots or "").split(",") if r] or [str(ROOT)]
    load_before = os.getloadavg()[0]
    loads: dict[str, list[dict[str, float | None]]] = {r: [] for r in roots}
    import ui_e2e_harness

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, OFFLINE]
        )
        servers = {}
        try:
            for i, root in enumerate(roots):
                ui_e2e_harness.ROOT = Path(root).resolve()
                servers[root] = _server(tmp, f"trace{i}")
            ui_e2e_harness.ROOT = ROOT
            for n in range(args.loads):
                for root in roots:
                    load = one_load(
                        browser, servers[root].url, args.throttle, trace_dir, n, not args.no_trace
                    )
                    m = milestones(load)
                    loads[root].append(m)
                    line = ", ".join(f"{k} {v}" for k, v in m.items())
                    print(f"{root} load {n + 1} at {args.throttle}x: {line}", flush=True)
                    if args.verbose:
                        _print_details(load)
        finally:
            for srv in servers.values():
                srv.stop()
            browser.close()
    print(
        json.dumps(
            {
                "throttle": args.throttle,
                "median": {r: _median_of(ms) for r, ms in loads.items()},
                "loads": loads,
                "load_average_1m": [round(load_before, 2), round(os.getloadavg()[0], 2)],
            }
        )
    )


def _print_details(load: dict[str, Any]) -> None:
    for r in load["requests"]:
        print("   ", r)
    print("    t0_wall", load["t0_wall"])
    for f in load["ws_frames"]:
        print("    ws", f)
    for name, ms in load["trace_top"]:
        print(f"    trace {name}: {ms} ms")
    for w in load["wasm_events"]:
        print("    wasm", w)
    for t in load["long_tasks"]:
        print("    long task", t)


if __name__ == "__main__":
    main()
