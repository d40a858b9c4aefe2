"""Phone-speed benchmark of the table app (issue 14), in Debian's headless Chromium.

    python benchmarks/bench_phone.py [--samples 30] [--loads 5] [--heap-taps 200]
                                     [--devices 8] [--renderers auto,canvaskit]

Every figure is taken with Chrome's CPU throttling (CDP ``Emulation.setCPUThrottlingRate``)
at 1x and 4x (4x stands for a mid-range phone), on a phone-sized page (412x915), the browser
offline (every name but 127.0.0.1 resolves to nothing, so a request meant for the internet
fails instead of leaving the machine):

- bytes over the wire (CDP ``encodedDataLength``, headers included) of a cold load (fresh
  browser context) and of a second load from the browser's cache (same context); requests
  that were meant to leave the machine are counted;
- load → first screen drawn: from ``goto`` to the first screen frame (CDP screencast, frame
  swap time) whose pixels are those of the settled Home screen;
- tap → new score painted: from the click on the confirm button of a bezique declared by name
  (the deal screen proposes Q♠ J♦ for 40) to the first frame whose pixels in the score's area
  are those of the settled new score (pixels, not page text); a whole declaration: from the
  tap on "declare" through "bezique" and the confirm to the same painted frame (3 taps);
- JS heap (CDP ``Runtime.getHeapUsage`` after a forced GC) after ``--heap-taps`` taps;
- server memory per connected device: the server's RSS growth per extra browser showing Home;
  server CPU per tap: the server process's CPU time over the declarations / their taps;
- renderers: the cold load with each ``FLET_WEB_RENDERER`` asked for.

The peer score pad of issue 14 is not identified (no name, repository or version is given),
so it cannot be built here: ``"peer"`` is null.

Prints a table; the last line is one JSON object with issue 14's keys (and a few more); the
same object goes to benchmarks/results/bench_phone.json.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import io
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "ui" / "e2e"))

from PIL import Image  # noqa: E402
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402
from ui_e2e_harness import (  # type: ignore[import-not-found,unused-ignore]  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    AppServer,
    by_id,
    free_port,
    start_two_hand_deal,
    tap,
    wait_words,
)

OFFLINE = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
THROTTLES = (1, 4)
PEER_NULL_REASON = (
    "issue 14 names no peer (no package, repository or version), so it cannot be built "
    "from its public source here"
)

CLICK_JS = """(id) => {
  const t = document.querySelector(`[flt-semantics-identifier="${id}"]`);
  (t.querySelector('[flt-tappable]') || t).click();
  return Date.now();
}"""

SCORE_IS = """([id, text, equal]) => {
  const e = document.querySelector(`[flt-semantics-identifier="${id}"]`);
  return !!e && (e.innerText.trim() === text) === equal;
}"""


class Frames:
    """The page's screen frames as the compositor swaps them (CDP screencast), each with its
    wall-clock swap time, decoded only when looked at."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.items: list[tuple[float, str]] = []
        self.cdp.on("Page.screencastFrame", self._on_frame)
        self.cdp.send("Page.startScreencast", {"format": "png", "everyNthFrame": 1})

    def _on_frame(self, event: dict[str, Any]) -> None:
        self.items.append((event["metadata"]["timestamp"] * 1000.0, event["data"]))
        with contextlib.suppress(Exception):  # the page is closing: no more frames wanted
            self.cdp.send("Page.screencastFrameAck", {"sessionId": event["sessionId"]})

    def wait_frame_after(self, ms: float, timeout_s: float = 60) -> None:
        """Wait for a frame swapped after ``ms`` (the pixels lag the page's DOM)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if any(ts > ms for ts, _ in self.items):
                return
            self.page.wait_for_timeout(20)

    def settle(self, quiet_ms: float = 600, timeout_s: float = 20) -> None:
        """Wait until no new frame came for ``quiet_ms``: the screen is still. (Frames are
        delivered only while Playwright runs, hence its waits rather than ``sleep``.)"""
        page_wait = 50
        deadline = time.monotonic() + timeout_s
        last_count, quiet = -1, 0.0
        while time.monotonic() < deadline:
            self.page.wait_for_timeout(page_wait)  # lets Playwright deliver the frames
            if len(self.items) == last_count:
                quiet += page_wait
                if quiet >= quiet_ms:
                    return
            else:
                last_count, quiet = len(self.items), 0.0

    def first_matching(
        self, since_ms: float, box: tuple[int, int, int, int] | None
    ) -> float | None:
        """Swap time of the first frame after ``since_ms`` whose pixels (in ``box``) equal the
        last frame's: the moment the final picture was first on screen."""
        # Frames can arrive out of order: look at them by swap time.
        later = sorted((ts, data) for ts, data in self.items if ts >= since_ms)
        if not later:
            return None
        final = _pixels(later[-1][1], box)
        for ts, data in later:
            if _pixels(data, box) == final:
                return ts
        return None

    def stop(self) -> None:
        self.cdp.send("Page.stopScreencast")


def _pixels(data: str, box: tuple[int, int, int, int] | None) -> bytes:
    im = Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")
    return (im.crop(box) if box else im).tobytes()


class Wire:
    """Bytes and requests a page moved over the network (CDP Network domain)."""

    def __init__(self, page: Page, mbit: float | None = None) -> None:
        self.cdp = page.context.new_cdp_session(page)
        self.requests: dict[str, dict[str, Any]] = {}
        self.cdp.send("Network.enable")
        if mbit:  # a table's Wi-Fi: limited throughput and a few ms of latency
            self.cdp.send(
                "Network.emulateNetworkConditions",
                {
                    "offline": False,
                    "latency": 5,
                    "downloadThroughput": mbit * 1e6 / 8,
                    "uploadThroughput": mbit * 1e6 / 8,
                },
            )
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.loadingFinished", self._done)
        self.cdp.on("Network.loadingFailed", self._failed)

    def _sent(self, e: dict[str, Any]) -> None:
        self.requests.setdefault(e["requestId"], {"url": e["request"]["url"]})

    def _done(self, e: dict[str, Any]) -> None:
        self.requests.get(e["requestId"], {}).update(bytes=e["encodedDataLength"])

    def _failed(self, e: dict[str, Any]) -> None:
        self.requests.get(e["requestId"], {}).update(failed=e.get("blockedReason") or "error")

    def total(self) -> int:
        return int(sum(r.get("bytes", 0) for r in self.requests.values()))

    def outside(self) -> list[str]:
        """Requests meant for another machine, each with what stopped it: ``csp`` (the
        browser never sent it) or an error (it failed here, offline)."""
        return [
            f"{r['url']} ({r.get('failed', 'NOT STOPPED')})"
            for r in self.requests.values()
            if r["url"].startswith(("http:", "https:", "ws:", "wss:"))
            and "//127.0.0.1:" not in r["url"]
        ]


def _throttle(page: Page, rate: int) -> None:
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})


def _enable_semantics(page: Page) -> None:
    page.wait_for_function("document.getElementById('loading') === null", timeout=120_000)
    placeholder = page.locator("flt-semantics-placeholder")
    placeholder.wait_for(state="attached", timeout=120_000)
    placeholder.dispatch_event("click")


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 1) if values else float("nan")


def _p95(values: list[float]) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1)


def _server(tmp: str, name: str, env: dict[str, str] | None = None) -> AppServer:
    srv = AppServer(f"sqlite:///{tmp}/{name}.sqlite3", free_port())
    old = dict(os.environ)
    os.environ.update(env or {})
    try:
        srv.start(timeout=120)
    finally:
        os.environ.clear()
        os.environ.update(old)
    return srv


def cold_loads(
    browser: Browser, tmp: str, loads: int, renderer: str, mbit: float | None = None
) -> dict[str, Any]:
    """Cold and cached loads at each throttle with one renderer (over a network of ``mbit``
    Mbit/s when given, else loopback's unlimited speed)."""
    env = {"FLET_WEB_RENDERER": renderer} if renderer != "auto" else {}
    srv = _server(tmp, f"load-{renderer}", env)
    out: dict[str, Any] = {}
    try:
        for rate in THROTTLES:
            times, cached_times, first_bytes, cached_bytes, requests = [], [], [], [], []
            outside: set[str] = set()
            for _ in range(loads):
                ctx = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
                for visit in ("cold", "cached"):
                    page = ctx.new_page()
                    _throttle(page, rate)
                    wire = Wire(page, mbit)
                    frames = Frames(page)
                    t0 = time.time() * 1000.0
                    page.goto(srv.url)
                    _enable_semantics(page)
                    by_id(page, "new-match").first.wait_for(timeout=120_000)
                    frames.wait_frame_after(time.time() * 1000.0)
                    frames.settle()
                    drawn = frames.first_matching(t0, None)
                    frames.stop()
                    ms = (drawn - t0) if drawn is not None else float("nan")
                    if visit == "cold":
                        times.append(ms)
                        first_bytes.append(wire.total())
                        requests.append(len(wire.requests))
                    else:
                        cached_times.append(ms)
                        cached_bytes.append(wire.total())
                    outside.update(wire.outside())
                    page.close()
                ctx.close()
            out[f"x{rate}"] = {
                "load_ms": _median(times),
                "load_cached_ms": _median(cached_times),
                "bytes_first": int(statistics.median(first_bytes)),
                "bytes_cached": int(statistics.median(cached_bytes)),
                "requests_first": int(statistics.median(requests)),
                "requests_meant_for_outside": sorted(outside),
            }
    finally:
        srv.stop()
    return out


def _new_match(page: Page, url: str) -> None:
    """Two players, dealer and turn-up, the deal open (the flow the browser tests use)."""
    sent: list[bytes] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda p: sent.append(_as_bytes(p))))
    page.goto(url)
    _enable_semantics(page)
    start_two_hand_deal(page, sent)


def _as_bytes(payload: str | bytes) -> bytes:
    return payload.encode() if isinstance(payload, str) else payload


def _score_box(page: Page, identifier: str) -> tuple[int, int, int, int]:
    box = by_id(page, identifier).first.bounding_box()
    assert box is not None
    # Around the score's semantics node, wide enough for any score (the node's box is not
    # always exactly over the painted digits).
    return (
        max(0, int(box["x"]) - 50),
        max(0, int(box["y"]) - 40),
        int(box["x"] + box["width"]) + 50,
        int(box["y"] + box["height"]) + 4,
    )


def declarations(
    page: Page, frames: Frames, samples: int, count: Callable[[int], None]
) -> dict[str, list[float]]:
    """``samples`` bezique declarations by name (then undo), each timed twice: the confirm
    tap → score painted, and the first tap → score painted."""
    taps: list[float] = []
    whole: list[float] = []
    box = _score_box(page, "deal-score-1")
    for _ in range(samples):
        frames.settle(300)
        t_first = page.evaluate(CLICK_JS, "declare-1")
        by_id(page, "name-bezique").first.wait_for()
        page.evaluate(CLICK_JS, "name-bezique")
        wait_words(page, "declare-confirm", "·")  # the proposed cards with their points
        t_last = page.evaluate(CLICK_JS, "declare-confirm")
        page.wait_for_function(SCORE_IS, arg=["deal-score-1", "0", False], timeout=60_000)
        frames.settle(400)
        painted = frames.first_matching(t_last, box)
        if painted is not None:
            taps.append(painted - t_last)
            whole.append(painted - t_first)
        tap(page, "undo")
        page.wait_for_function(SCORE_IS, arg=["deal-score-1", "0", True], timeout=60_000)
        count(4)
    return {"tap": taps, "whole": whole}


def tap_figures(browser: Browser, tmp: str, samples: int, heap_taps: int) -> dict[str, Any]:
    srv = _server(tmp, "taps")
    try:
        ctx = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
        page = ctx.new_page()
        _new_match(page, srv.url)
        frames = Frames(page)
        tapped = [0]

        def count(n: int) -> None:
            tapped[0] += n

        out: dict[str, Any] = {}
        assert srv.proc is not None
        for rate in THROTTLES:
            _throttle(page, rate)
            cpu0, taps0 = _cpu_s(srv.proc.pid), tapped[0]
            got = declarations(page, frames, samples, count)
            cpu_ms_per_tap = 1000 * (_cpu_s(srv.proc.pid) - cpu0) / max(1, tapped[0] - taps0)
            out[f"x{rate}"] = {
                "server_cpu_ms_per_tap": round(cpu_ms_per_tap, 1),
                "tap_ms": _median(got["tap"]),
                "tap_p95_ms": _p95(got["tap"]),
                "declaration_ms": _median(got["whole"]),
                "samples": len(got["tap"]),
            }
            if rate == 1:  # the heap after ``heap_taps`` taps, all at 1x
                while tapped[0] < heap_taps:
                    declarations(page, frames, 1, count)
                cdp = ctx.new_cdp_session(page)
                cdp.send("HeapProfiler.enable")
                cdp.send("HeapProfiler.collectGarbage")
                heap = cdp.send("Runtime.getHeapUsage")
                out["heap_mib"] = round(heap["usedSize"] / 2**20, 1)
                out["heap_after_taps"] = tapped[0]
        frames.stop()
        ctx.close()
    finally:
        srv.stop()
    return out


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) the server process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def memory_per_device(browser: Browser, tmp: str, devices: int) -> dict[str, Any]:
    """The server's RSS with one device showing Home, then with ``devices``."""
    srv = _server(tmp, "memory")
    contexts = []
    try:

        def join() -> None:
            ctx = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
            page = ctx.new_page()
            page.goto(srv.url)
            _enable_semantics(page)
            by_id(page, "new-match").first.wait_for(timeout=120_000)
            contexts.append(ctx)

        assert srv.proc is not None
        join()
        time.sleep(1.0)
        one = _rss_mb(srv.proc.pid)
        for _ in range(devices - 1):
            join()
        time.sleep(1.0)
        many = _rss_mb(srv.proc.pid)
    finally:
        for ctx in contexts:
            ctx.close()
        srv.stop()
    return {
        "rss_mb_one_device": round(one, 1),
        f"rss_mb_{devices}_devices": round(many, 1),
        "rss_mb_per_device": round((many - one) / (devices - 1), 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=30, help="declarations per throttle")
    ap.add_argument("--loads", type=int, default=5, help="cold loads per throttle")
    ap.add_argument("--heap-taps", type=int, default=200)
    ap.add_argument("--devices", type=int, default=8)
    ap.add_argument("--renderers", default="auto,canvaskit")
    ap.add_argument(
        "--app-root", default=None, help="serve the app from another checkout (a baseline)"
    )
    ap.add_argument("--loads-only", action="store_true", help="only the load figures")
    ap.add_argument(
        "--network-mbit", type=float, default=None, help="emulated network speed for --loads-only"
    )
    args = ap.parse_args()
    if args.app_root:
        import ui_e2e_harness

        ui_e2e_harness.ROOT = Path(args.app_root).resolve()

    from ui.main import ASSETS_DIR
    from ui.server import precompress

    made = precompress.compress_all(precompress.web_client_dirs(ASSETS_DIR))
    print(f"(compressed copies made now: {made})", flush=True)
    load_before = os.getloadavg()
    renderers = [r.strip() for r in args.renderers.split(",") if r.strip()]
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, OFFLINE]
        )
        try:
            mbit = args.network_mbit if args.loads_only else None
            loads = {r: cold_loads(browser, tmp, args.loads, r, mbit) for r in renderers}
            if args.loads_only:
                print(json.dumps({"renderers": loads, "load_average_1m": os.getloadavg()[0]}))
                return
            taps = tap_figures(browser, tmp, args.samples, args.heap_taps)
            memory = memory_per_device(browser, tmp, args.devices)
        finally:
            browser.close()
    load_after = os.getloadavg()
    main_load = loads[renderers[0]]
    out = {
        "tap_ms": {f"x{r}": taps[f"x{r}"]["tap_ms"] for r in THROTTLES},
        "declaration_ms": {f"x{r}": taps[f"x{r}"]["declaration_ms"] for r in THROTTLES},
        "load_ms": {f"x{r}": main_load[f"x{r}"]["load_ms"] for r in THROTTLES},
        "bytes_first": main_load["x1"]["bytes_first"],
        "bytes_cached": main_load["x1"]["bytes_cached"],
        "heap_mib": taps["heap_mib"],
        "peer": None,
        "peer_null_reason": PEER_NULL_REASON,
        "tap_p95_ms": {f"x{r}": taps[f"x{r}"]["tap_p95_ms"] for r in THROTTLES},
        "samples": {f"x{r}": taps[f"x{r}"]["samples"] for r in THROTTLES},
        "renderers": loads,
        "server_memory": memory,
        "rss_mb_per_device": memory["rss_mb_per_device"],
        "server_cpu_ms_per_tap": {
            f"x{r}": taps[f"x{r}"]["server_cpu_ms_per_tap"] for r in THROTTLES
        },
        "viewport": PHONE,
        "machine": {
            "cpus": os.cpu_count(),
            "load_average_1m_before": round(load_before[0], 2),
            "load_average_1m_after": round(load_after[0], 2),
        },
    }
    results = ROOT / "benchmarks" / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / "bench_phone.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    for r in THROTTLES:
        k = f"x{r}"
        print(
            f"CPU {r}x: load {out['load_ms'][k]:.0f} ms, tap → painted {out['tap_ms'][k]:.0f} ms"
            f" (p95 {out['tap_p95_ms'][k]:.0f}), declaration {out['declaration_ms'][k]:.0f} ms"
        )
    for name, figures in loads.items():
        for k, f in figures.items():
            print(
                f"renderer {name} {k}: cold {f['load_ms']:.0f} ms, {f['bytes_first']} B in "
                f"{f['requests_first']} requests; cached {f['load_cached_ms']:.0f} ms, "
                f"{f['bytes_cached']} B; meant for outside: {len(f['requests_meant_for_outside'])}"
            )
    print(f"JS heap after {taps['heap_after_taps']} taps: {taps['heap_mib']} MiB")
    print(f"server memory per connected device: {memory['rss_mb_per_device']} MB")
    print(f"server CPU per tap: {out['server_cpu_ms_per_tap']} ms")
    print(f"(load average {load_before[0]:.2f} before, {load_after[0]:.2f} after)")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
