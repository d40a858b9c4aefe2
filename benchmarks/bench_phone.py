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

The peer score pad of issue 14 (``--peer-dir``, a static web app built elsewhere from its
public source) is measured in the same run by the same method: its loads interleaved with this
app's (one context each, in turn), its score taps interleaved with this app's declarations
(one sample each, in turn), its score's pixels read from the same screencast; ``"ratio"`` is
this app ÷ the peer. Without ``--peer-dir``, ``"peer"`` is null. How to drive it::

    --peer-dir DIR --peer-ready SEL --peer-tap SEL --peer-score SEL [--peer-press click|hold]
    [--peer-setup JSON] [--peer-steps JSON] [--peer-undo SEL] [--peer-source TEXT]
    [--peer-wait-ms MS]

(``--peer-setup``: Playwright selectors clicked once, or ``{"fill": SEL, "text": T}``, from the
first screen to the scoring one; ``--peer-steps``: CSS selectors tapped before ``--peer-tap``
in one of the peer's own "declarations"; ``hold``: the pointer stays down until the score
changes, for pads that add on a long press.) docs/app.md gives the command for the peer used.

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

from peer_pad import PeerServer, PeerSpec  # noqa: E402
from PIL import Image  # noqa: E402
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright  # noqa: E402
from ui_e2e_harness import (  # type: ignore[import-not-found,unused-ignore]  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    AppServer,
    by_id,
    free_port,
    start_two_hand_deal,
    wait_words,
)

OFFLINE = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
THROTTLES = (1, 4)

CLICK_JS = """(id) => {
  const t = document.querySelector(`[flt-semantics-identifier="${id}"]`);
  const t0 = Date.now();
  (t.querySelector('[flt-tappable]') || t).click();
  return t0;
}"""

# The peer's taps, dispatched in its page as this app's are (the time is taken before the
# event: a React click handler renders synchronously inside ``click()``).
PEER_PRESS_JS = """([sel, how]) => {
  const el = document.querySelector(sel);
  if (!el) throw new Error(`no element ${sel}`);
  const t0 = Date.now();
  if (how === 'hold') {
    el.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true, cancelable: true,
      pointerId: 1, pointerType: 'touch', isPrimary: true, button: 0, buttons: 1}));
  } else {
    el.click();
  }
  return t0;
}"""

PEER_RELEASE_JS = """(sel) => {
  const el = document.querySelector(sel);
  if (el) el.dispatchEvent(new PointerEvent('pointerup', {bubbles: true, cancelable: true,
    pointerId: 1, pointerType: 'touch', isPrimary: true, button: 0, buttons: 0}));
}"""

SW_READY_JS = """() => navigator.serviceWorker
  ? Promise.race([navigator.serviceWorker.ready.then(() => true),
                  new Promise((r) => setTimeout(() => r(false), 10000))])
  : false"""

PEER_TEXT_JS = (
    """(sel) => { const e = document.querySelector(sel); return e ? e.textContent : null; }"""
)

PEER_TEXT_IS = """([sel, text, equal]) => {
  const e = document.querySelector(sel);
  return !!e && (e.textContent === text) === equal;
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
        self.cdp.on("Network.responseReceived", self._response)
        self.cdp.on("Network.loadingFinished", self._done)
        self.cdp.on("Network.loadingFailed", self._failed)

    def _sent(self, e: dict[str, Any]) -> None:
        self.requests.setdefault(e["requestId"], {"url": e["request"]["url"]})

    def _response(self, e: dict[str, Any]) -> None:
        # A page answered by its service worker's cache moved nothing over the wire.
        if e["response"].get("fromServiceWorker"):
            self.requests.get(e["requestId"], {}).update(service_worker=True)

    def _done(self, e: dict[str, Any]) -> None:
        self.requests.get(e["requestId"], {}).update(bytes=e["encodedDataLength"])

    def _failed(self, e: dict[str, Any]) -> None:
        self.requests.get(e["requestId"], {}).update(failed=e.get("blockedReason") or "error")

    def total(self) -> int:
        return int(
            sum(r.get("bytes", 0) for r in self.requests.values() if not r.get("service_worker"))
        )

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


def _visit(
    ctx: BrowserContext, url: str, rate: int, mbit: float | None, ready: Callable[[Page], None]
) -> dict[str, Any]:
    """One load of ``url`` in ``ctx``: time to the first frame equal to the settled screen
    (``ready`` says when the screen is there), bytes and requests over the wire."""
    page = ctx.new_page()
    _throttle(page, rate)
    wire = Wire(page, mbit)
    frames = Frames(page)
    t0 = time.time() * 1000.0
    page.goto(url)
    ready(page)
    frames.wait_frame_after(time.time() * 1000.0)
    frames.settle()
    drawn = frames.first_matching(t0, None)
    frames.stop()
    out = {
        "ms": (drawn - t0) if drawn is not None else float("nan"),
        "bytes": wire.total(),
        "requests": len(wire.requests),
        "outside": wire.outside(),
        "page": page,
    }
    return out


def _app_ready(page: Page) -> None:
    _enable_semantics(page)
    by_id(page, "new-match").first.wait_for(timeout=120_000)


def _peer_ready(spec: PeerSpec) -> Callable[[Page], None]:
    def ready(page: Page) -> None:
        page.wait_for_selector(spec.ready, timeout=120_000)

    return ready


def _load_summary(visits: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    cold, cached = visits["cold"], visits["cached"]
    outside: set[str] = set()
    for v in cold + cached:
        outside.update(v["outside"])
    out = {
        "load_ms": _median([v["ms"] for v in cold]),
        "load_cached_ms": _median([v["ms"] for v in cached]),
        "bytes_first": int(statistics.median(v["bytes"] for v in cold)),
        "bytes_cached": int(statistics.median(v["bytes"] for v in cached)),
        "requests_first": int(statistics.median(v["requests"] for v in cold)),
        "requests_meant_for_outside": sorted(outside),
        "loads": len(cold),
    }
    if cold and "served" in cold[0]:
        out["bytes_served_first_with_service_worker"] = int(
            statistics.median(v["served"] for v in cold)
        )
    return out


def cold_loads(
    browser: Browser,
    tmp: str,
    loads: int,
    renderer: str,
    mbit: float | None = None,
    peer: tuple[PeerSpec, PeerServer] | None = None,
) -> dict[str, Any]:
    """Cold and cached loads at each throttle with one renderer (over a network of ``mbit``
    Mbit/s when given, else loopback's unlimited speed); with ``peer``, each of this app's
    loads is followed by one of the peer's, the same way (its figures under ``"peer"``)."""
    env = {"FLET_WEB_RENDERER": renderer} if renderer != "auto" else {}
    srv = _server(tmp, f"load-{renderer}", env)
    out: dict[str, Any] = {}
    peer_out: dict[str, Any] = {}
    try:
        for rate in THROTTLES:
            app_visits: dict[str, list[dict[str, Any]]] = {"cold": [], "cached": []}
            peer_visits: dict[str, list[dict[str, Any]]] = {"cold": [], "cached": []}
            for _ in range(loads):
                ctx = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
                for visit in ("cold", "cached"):
                    v = _visit(ctx, srv.url, rate, mbit, _app_ready)
                    v.pop("page").close()
                    app_visits[visit].append(v)
                ctx.close()
                if peer is None:
                    continue
                spec, peer_srv = peer
                ctx = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
                for visit in ("cold", "cached"):
                    served0 = peer_srv.served_bytes()
                    v = _visit(ctx, peer_srv.url, rate, mbit, _peer_ready(spec))
                    page = v.pop("page")
                    if visit == "cold":  # what its service worker fetched too (not timed)
                        with contextlib.suppress(Exception):
                            page.evaluate(SW_READY_JS)
                        page.wait_for_timeout(300)
                        v["served"] = peer_srv.served_bytes() - served0
                    page.close()
                    peer_visits[visit].append(v)
                ctx.close()
            out[f"x{rate}"] = _load_summary(app_visits)
            if peer is not None:
                peer_out[f"x{rate}"] = _load_summary(peer_visits)
    finally:
        srv.stop()
    if peer is not None:
        out["peer"] = peer_out
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
        undo(page)
        page.wait_for_function(SCORE_IS, arg=["deal-score-1", "0", True], timeout=60_000)
        count(4)
    return {"tap": taps, "whole": whole}


def undo(page: Page) -> None:
    """Undo as a finger does: a tap and no pointer left behind (a mouse click would leave it
    over the button, whose tooltip then fades in during the next sample)."""
    by_id(page, "undo").first.wait_for(state="visible", timeout=20_000)
    page.evaluate(CLICK_JS, "undo")


class PeerPad:
    """The peer's page on its scoring screen, timed as this app's deal screen is: a tap, then
    the first frame whose pixels around the score equal the settled new score."""

    def __init__(self, browser: Browser, spec: PeerSpec, url: str) -> None:
        self.spec = spec
        self.ctx = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
        self.page = self.ctx.new_page()
        self.page.goto(url)
        self.page.wait_for_selector(spec.ready, timeout=120_000)
        for step in spec.setup:
            if isinstance(step, dict) and "fill" in step:
                self.page.locator(step["fill"]).first.fill(str(step.get("text", "")))
            else:
                self.page.locator(str(step)).first.click()
        self.page.wait_for_selector(spec.tap, timeout=60_000)
        self.page.wait_for_selector(spec.score, timeout=60_000)
        self.frames = Frames(self.page)
        self.taps = 0

    def _box(self) -> tuple[int, int, int, int]:
        box = self.page.locator(self.spec.score).first.bounding_box()
        assert box is not None, f"--peer-score {self.spec.score}: not on screen"
        return (
            max(0, int(box["x"]) - 4),
            max(0, int(box["y"]) - 4),
            int(box["x"] + box["width"]) + 4,
            int(box["y"] + box["height"]) + 4,
        )

    def declaration(self) -> tuple[float, float] | None:
        """One score added (the peer's steps, then its scoring tap), then undone: (tap →
        painted, first tap → painted) in ms, or None when no frame showed it."""
        spec, page = self.spec, self.page
        self.frames.settle(300)
        before = page.evaluate(PEER_TEXT_JS, spec.score)
        box = self._box()
        t_first: float | None = None
        for sel in spec.steps:
            page.wait_for_selector(sel, timeout=60_000)
            t = page.evaluate(PEER_PRESS_JS, [sel, "click"])
            t_first = t if t_first is None else t_first
            self.taps += 1
        page.wait_for_selector(spec.tap, timeout=60_000)
        t_last = page.evaluate(PEER_PRESS_JS, [spec.tap, spec.press])
        page.wait_for_function(PEER_TEXT_IS, arg=[spec.score, before, False], timeout=60_000)
        if spec.press == "hold":
            page.evaluate(PEER_RELEASE_JS, spec.tap)
        self.taps += 1
        self.frames.settle(400)
        painted = self.frames.first_matching(t_last, box)
        if spec.undo:
            page.evaluate(PEER_PRESS_JS, [spec.undo, "click"])
            page.wait_for_function(PEER_TEXT_IS, arg=[spec.score, before, True], timeout=60_000)
            self.taps += 1
        if painted is None:
            return None
        return painted - t_last, painted - (t_first if t_first is not None else t_last)

    def heap_mib(self) -> float:
        return _heap_mib(self.ctx, self.page)

    def close(self) -> None:
        self.frames.stop()
        self.ctx.close()


def _heap_mib(ctx: BrowserContext, page: Page) -> float:
    """The page's JS heap after a forced garbage collection."""
    cdp = ctx.new_cdp_session(page)
    cdp.send("HeapProfiler.enable")
    cdp.send("HeapProfiler.collectGarbage")
    heap = cdp.send("Runtime.getHeapUsage")
    return round(heap["usedSize"] / 2**20, 1)


def _tap_summary(taps: list[float], whole: list[float]) -> dict[str, Any]:
    return {
        "tap_ms": _median(taps),
        "tap_p95_ms": _p95(taps),
        "declaration_ms": _median(whole),
        "samples": len(taps),
    }


def tap_figures(
    browser: Browser,
    tmp: str,
    samples: int,
    heap_taps: int,
    peer: tuple[PeerSpec, PeerServer] | None = None,
) -> dict[str, Any]:
    """This app's declarations at each throttle (and the heap after ``heap_taps`` taps); with
    ``peer``, each declaration is followed by one of the peer's (its figures under "peer")."""
    srv = _server(tmp, "taps")
    pad: PeerPad | None = None
    try:
        ctx = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
        page = ctx.new_page()
        _new_match(page, srv.url)
        frames = Frames(page)
        if peer is not None:
            pad = PeerPad(browser, peer[0], peer[1].url)
        tapped = [0]

        def count(n: int) -> None:
            tapped[0] += n

        out: dict[str, Any] = {}
        peer_out: dict[str, Any] = {}
        assert srv.proc is not None
        for rate in THROTTLES:
            _throttle(page, rate)
            if pad is not None:
                _throttle(pad.page, rate)
            cpu0, taps0 = _cpu_s(srv.proc.pid), tapped[0]
            got: dict[str, list[float]] = {"tap": [], "whole": []}
            peer_got: dict[str, list[float]] = {"tap": [], "whole": []}
            for _ in range(samples):  # interleaved: one of each in turn
                one = declarations(page, frames, 1, count)
                got["tap"] += one["tap"]
                got["whole"] += one["whole"]
                if pad is not None:
                    sample = pad.declaration()
                    if sample is not None:
                        peer_got["tap"].append(sample[0])
                        peer_got["whole"].append(sample[1])
            cpu_ms_per_tap = 1000 * (_cpu_s(srv.proc.pid) - cpu0) / max(1, tapped[0] - taps0)
            out[f"x{rate}"] = {
                "server_cpu_ms_per_tap": round(cpu_ms_per_tap, 1),
                **_tap_summary(got["tap"], got["whole"]),
            }
            if pad is not None:
                peer_out[f"x{rate}"] = _tap_summary(peer_got["tap"], peer_got["whole"])
            if rate == 1:  # the heap after ``heap_taps`` taps, all at 1x
                while tapped[0] < heap_taps:
                    declarations(page, frames, 1, count)
                out["heap_mib"] = _heap_mib(ctx, page)
                out["heap_after_taps"] = tapped[0]
                if pad is not None:
                    while pad.taps < heap_taps:
                        pad.declaration()
                    peer_out["heap_mib"] = pad.heap_mib()
                    peer_out["heap_after_taps"] = pad.taps
        frames.stop()
        ctx.close()
        if pad is not None:
            out["peer"] = peer_out
    finally:
        if pad is not None:
            with contextlib.suppress(Exception):
                pad.close()
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


RATIO_KEYS = ("load_ms", "tap_ms", "declaration_ms")


def _ratio(app: float, peer: float) -> float | None:
    if not peer or peer != peer or app != app:  # zero or NaN
        return None
    return round(app / peer, 2)


def _peer_summary(
    spec: PeerSpec, loads: dict[str, Any], taps: dict[str, Any], url: str
) -> dict[str, Any]:
    return {
        "source": spec.source,
        "served_from": url,
        "drive": {
            "ready": spec.ready,
            "setup": spec.setup,
            "steps": spec.steps,
            "tap": spec.tap,
            "press": spec.press,
            "score": spec.score,
            "undo": spec.undo,
        },
        "tap_ms": {f"x{r}": taps[f"x{r}"]["tap_ms"] for r in THROTTLES},
        "declaration_ms": {f"x{r}": taps[f"x{r}"]["declaration_ms"] for r in THROTTLES},
        "load_ms": {f"x{r}": loads[f"x{r}"]["load_ms"] for r in THROTTLES},
        "bytes_first": loads["x1"]["bytes_first"],
        "bytes_cached": loads["x1"]["bytes_cached"],
        "requests_first": loads["x1"]["requests_first"],
        "bytes_served_first_with_service_worker": loads["x1"].get(
            "bytes_served_first_with_service_worker"
        ),
        "heap_mib": taps["heap_mib"],
        "heap_after_taps": taps["heap_after_taps"],
        "wait_on_purpose_ms": spec.wait_ms,
        "tap_after_its_wait_ms": {
            f"x{r}": round(taps[f"x{r}"]["tap_ms"] - spec.wait_ms, 1) for r in THROTTLES
        },
        "tap_p95_ms": {f"x{r}": taps[f"x{r}"]["tap_p95_ms"] for r in THROTTLES},
        "samples": {f"x{r}": taps[f"x{r}"]["samples"] for r in THROTTLES},
        "loads": {f"x{r}": loads[f"x{r}"] for r in THROTTLES},
    }


def _ratios(out: dict[str, Any], peer: dict[str, Any]) -> dict[str, Any]:
    ratio: dict[str, Any] = {
        key: {k: _ratio(out[key][k], peer[key][k]) for k in out[key]} for key in RATIO_KEYS
    }
    ratio["bytes_first"] = _ratio(out["bytes_first"], peer["bytes_first"])
    ratio["heap_mib"] = _ratio(out["heap_mib"], peer["heap_mib"])
    return ratio


def _peer_spec(args: argparse.Namespace) -> PeerSpec | None:
    if not args.peer_dir:
        return None
    missing = [o for o in ("peer_ready", "peer_tap", "peer_score") if not getattr(args, o)]
    if missing:
        raise SystemExit(
            "--peer-dir needs " + ", ".join("--" + m.replace("_", "-") for m in missing)
        )
    try:
        return PeerSpec(
            dir=Path(args.peer_dir).resolve(),
            ready=args.peer_ready,
            tap=args.peer_tap,
            score=args.peer_score,
            press=args.peer_press,
            setup=PeerSpec.json_list("--peer-setup", args.peer_setup),
            steps=[str(x) for x in PeerSpec.json_list("--peer-steps", args.peer_steps)],
            undo=args.peer_undo,
            source=args.peer_source or "",
            wait_ms=args.peer_wait_ms,
        )
    except ValueError as exc:
        raise SystemExit(str(exc)) from exc


def _ensure_compressed(precompress: Any, web_dirs: list[Path], timeout_s: float = 900) -> int:
    """Make the web client's compressed copies, waiting while another process holds the
    compressor's lock (another checkout's server or benchmark): without the copies this app
    would be measured serving 13.6 MB uncompressed."""
    root = precompress.cache_root()
    files = list(precompress.files_to_compress(web_dirs))
    made, deadline = 0, time.monotonic() + timeout_s
    while True:
        made += precompress.compress_all(web_dirs)
        missing = [
            f for f in files for e in ("gzip", "br") if precompress.fresh_copy(root, f, e) is None
        ]
        if not missing:
            return made
        if time.monotonic() > deadline:
            raise SystemExit(f"{len(missing)} compressed copies still missing in {root}")
        print(
            f"(waiting for the compressor's lock: {len(missing)} copies missing; another"
            " process is compressing; BEZIQUE_WEB_CACHE=DIR gives this run its own copies)",
            flush=True,
        )
        time.sleep(10)


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
    peer_opts = ap.add_argument_group("peer score pad (issue 14), measured in the same run")
    peer_opts.add_argument("--peer-dir", help="the peer's built static folder (has index.html)")
    peer_opts.add_argument("--peer-ready", help="selector shown on its first screen")
    peer_opts.add_argument("--peer-tap", help="CSS selector of the tap that adds a score")
    peer_opts.add_argument("--peer-score", help="CSS selector of the score that tap changes")
    peer_opts.add_argument("--peer-press", default="click", choices=("click", "hold"))
    peer_opts.add_argument("--peer-setup", help="JSON list: clicks from first screen to scoring")
    peer_opts.add_argument("--peer-steps", help="JSON list: its taps before --peer-tap")
    peer_opts.add_argument("--peer-undo", help="CSS selector that takes the score back")
    peer_opts.add_argument("--peer-source", help="repository, commit, licence (recorded)")
    peer_opts.add_argument(
        "--peer-wait-ms",
        type=float,
        default=0,
        help="a delay its source makes on purpose before adding (reported, not timed)",
    )
    args = ap.parse_args()
    spec = _peer_spec(args)
    if args.app_root:
        import ui_e2e_harness

        ui_e2e_harness.ROOT = Path(args.app_root).resolve()

    from ui.main import ASSETS_DIR
    from ui.server import precompress

    made = _ensure_compressed(precompress, precompress.web_client_dirs(ASSETS_DIR))
    print(f"(compressed copies made now: {made})", flush=True)
    load_before = os.getloadavg()
    renderers = [r.strip() for r in args.renderers.split(",") if r.strip()]
    peer_srv: PeerServer | None = None
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, OFFLINE]
        )
        try:
            peer: tuple[PeerSpec, PeerServer] | None = None
            if spec is not None:
                peer_srv = PeerServer(spec.dir, free_port(), Path(tmp) / "peer-served.log")
                peer_srv.start()
                peer = (spec, peer_srv)
            mbit = args.network_mbit if args.loads_only else None
            loads = {
                r: cold_loads(browser, tmp, args.loads, r, mbit, peer if i == 0 else None)
                for i, r in enumerate(renderers)
            }
            peer_loads = loads[renderers[0]].pop("peer", None)
            if args.loads_only:
                print(
                    json.dumps(
                        {
                            "renderers": loads,
                            "peer_loads": peer_loads,
                            "load_average_1m": os.getloadavg()[0],
                        }
                    )
                )
                return
            taps = tap_figures(browser, tmp, args.samples, args.heap_taps, peer)
            peer_taps = taps.pop("peer", None)
            memory = memory_per_device(browser, tmp, args.devices)
        finally:
            browser.close()
            if peer_srv is not None:
                peer_srv.stop()
    load_after = os.getloadavg()
    main_load = loads[renderers[0]]
    out: dict[str, Any] = {
        "tap_ms": {f"x{r}": taps[f"x{r}"]["tap_ms"] for r in THROTTLES},
        "declaration_ms": {f"x{r}": taps[f"x{r}"]["declaration_ms"] for r in THROTTLES},
        "load_ms": {f"x{r}": main_load[f"x{r}"]["load_ms"] for r in THROTTLES},
        "bytes_first": main_load["x1"]["bytes_first"],
        "bytes_cached": main_load["x1"]["bytes_cached"],
        "heap_mib": taps["heap_mib"],
        "peer": None,
    }
    if spec is not None and peer_loads is not None and peer_taps is not None:
        assert peer_srv is not None
        out["peer"] = _peer_summary(spec, peer_loads, peer_taps, peer_srv.url)
        out["ratio"] = _ratios(out, out["peer"])
    else:
        out["peer_null_reason"] = "no --peer-dir given"
    out.update(
        {
            "tap_p95_ms": {f"x{r}": taps[f"x{r}"]["tap_p95_ms"] for r in THROTTLES},
            "samples": {f"x{r}": taps[f"x{r}"]["samples"] for r in THROTTLES},
            "renderers": loads,
            "server_memory": memory,
            "rss_mb_per_device": memory["rss_mb_per_device"],
            "server_cpu_ms_per_tap": {
                f"x{r}": taps[f"x{r}"]["server_cpu_ms_per_tap"] for r in THROTTLES
            },
            "viewport": PHONE,
            "throttles": list(THROTTLES),
            "machine": {
                "cpus": os.cpu_count(),
                "load_average_1m_before": round(load_before[0], 2),
                "load_average_1m_after": round(load_after[0], 2),
            },
        }
    )
    results = ROOT / "benchmarks" / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / "bench_phone.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    for r in THROTTLES:
        k = f"x{r}"
        print(
            f"CPU {r}x: load {out['load_ms'][k]:.0f} ms, tap → painted {out['tap_ms'][k]:.0f} ms"
            f" (p95 {out['tap_p95_ms'][k]:.0f}), declaration {out['declaration_ms'][k]:.0f} ms"
        )
        if out["peer"] is not None:
            p = out["peer"]
            print(
                f"  peer {r}x: load {p['load_ms'][k]:.0f} ms, tap → painted {p['tap_ms'][k]:.0f}"
                f" ms (p95 {p['tap_p95_ms'][k]:.0f}), declaration {p['declaration_ms'][k]:.0f} ms"
                f"; ratio load {out['ratio']['load_ms'][k]}, tap {out['ratio']['tap_ms'][k]},"
                f" declaration {out['ratio']['declaration_ms'][k]}"
            )
    for name, figures in loads.items():
        for k, f in figures.items():
            print(
                f"renderer {name} {k}: cold {f['load_ms']:.0f} ms, {f['bytes_first']} B in "
                f"{f['requests_first']} requests; cached {f['load_cached_ms']:.0f} ms, "
                f"{f['bytes_cached']} B; meant for outside: {len(f['requests_meant_for_outside'])}"
            )
    print(f"JS heap after {taps['heap_after_taps']} taps: {taps['heap_mib']} MiB")
    if out["peer"] is not None:
        p = out["peer"]
        print(
            f"peer: cold {p['bytes_first']} B in {p['requests_first']} requests (with its service"
            f" worker's precache {p['bytes_served_first_with_service_worker']} B served); JS heap"
            f" after {p['heap_after_taps']} taps {p['heap_mib']} MiB; ratio bytes"
            f" {out['ratio']['bytes_first']}, heap {out['ratio']['heap_mib']}"
        )
    print(f"server memory per connected device: {memory['rss_mb_per_device']} MB")
    print(f"server CPU per tap: {out['server_cpu_ms_per_tap']} ms")
    print(
        f"(load average {load_before[0]:.2f} before, {load_after[0]:.2f} after; CPU throttles"
        f" {', '.join(f'{r}x' for r in THROTTLES)})"
    )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
