"""The phone build offline (issue 20), in Debian's headless Chromium with a phone's viewport
and touch, the built folder served on 127.0.0.1 by a plain static server
(benchmarks/static_server.py: files as they are, or their .gz copies).

    python benchmarks/bench_offline.py [--build] [--dir dist/phone] [--launches 3]
                                       [--taps 10]

- ``install_bytes``: what the first visit moved over the wire until the service worker said
  everything is kept for offline use (the server's count of body bytes sent).
- ``launch_ms``: from the navigation to a usable Home (its "New match" button in the page's
  accessibility tree), the network off, everything from the service worker's cache, a fresh
  browser on the same profile each time (a phone's cold start of an installed app), at CPU
  1x and 4x (CDP ``Emulation.setCPUThrottlingRate``); median of ``--launches``. ``split``
  says where the time goes, from the marks the app logs ("bezique-mark", ui/phone_app.py):
  the page until Python's worker loaded Pyodide (or restored this build's Python image:
  ``image-restored``), the storage mount, unpacking the archive, the app's imports, loading
  pydantic-core's compiled extension, the storage layer's imports (SQLModel, pydantic),
  opening the store (migrations), waiting for Flutter's engine to ask for the first screen,
  building it in Python, and Flutter drawing it (``first-screen``). ``launch_ms`` is a start
  from this build's Python image (scripts/phone/python-image.js), which the phone makes once
  per build; ``launch_without_image_ms`` is the start before it exists, measured alternately
  with the other at each rate, so both see the same machine load.
- ``launch_after_use_ms``: the same start from the image, measured again after the taps
  below (a phone that has been played on: Chromium keeps V8's compiled code of Flutter's
  WebAssembly only after real use, so the starts above are a fresh install's).
- ``tap_ms``: the one tap that records a declaration (Boris's bezique offer) → the new score
  painted (CDP screencast
  frames; the first frame whose pixels around the score equal the settled ones), median of
  ``--taps``, offline, at 1x and 4x. ``tap_split_ms``: the click → its message to Python's
  worker (``to_python``) → the worker's answer, the screen's update (``python``, with its
  ``update_bytes``) → painted (``drawn_after``: Flutter), medians.
- ``heap_mib``: the page's JS heap after the taps (the Python heap lives in the worker's wasm
  memory, reported as ``worker_wasm_mib`` where the browser says).
- ``offline_reload``, ``kept_after_restart``: the app came up with the network off; a
  match recorded before the browser was closed was on Home after it reopened.
- ``requests_outside``: requests for any host but 127.0.0.1 (the browser runs with every
  other name unresolvable, so none could leave the machine anyway).

A benchmark waits for what it taps and never fails on a slow frame. The last line printed is
one JSON object; the same goes to benchmarks/results/bench_offline.json, with the load
average.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests" / "ui" / "e2e"))

from bench_phone import CLICK_JS, SCORE_IS  # noqa: E402
from phone_page import by_id as _by  # noqa: E402
from phone_page import new_two_hand_match, wait_home  # noqa: E402
from playwright.sync_api import BrowserContext, Page, sync_playwright  # noqa: E402
from ui_e2e_harness import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

from benchmarks.static_server import StaticServer  # noqa: E402

# Every name but 127.0.0.1 resolves to nothing: no request could leave the machine.
ARGS = [*CHROMIUM_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
PHONE = {"width": 390, "height": 844}
MARKS = (
    "image-asked",
    "wasm-compiled",
    "image-read",
    "image-expanded",
    "wasm-instantiated",
    "image-restored",
    "pyodide-loaded",
    "app-unpacked",
    "storage-mounted",
    "python-app-start",
    "imports-done",
    "extension-loaded",
    "storage-imported",
    "store-open",
    "session-start",
    "settings-read",
    "language-known",
    "home-state",
    "home-rendered",
    "first-screen-sent",
)

DPR = 2.625  # a phone's device pixel ratio (Pixel 7); --dpr changes it


def open_context(pw: Any, profile: str, rate: int = 1) -> tuple[BrowserContext, Page]:
    """A browser on ``profile`` (kept between launches, as a phone keeps its browser's data)
    with a phone's viewport and touch, CPU throttled ``rate`` times."""
    ctx = pw.chromium.launch_persistent_context(
        profile,
        executable_path=CHROMIUM,
        headless=True,
        args=ARGS,
        viewport=PHONE,
        device_scale_factor=DPR,
        is_mobile=True,
        has_touch=True,
        locale="en-GB",
    )
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    if rate != 1:
        ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
    return ctx, page


class Watch:
    """What a page and its workers said (console marks) and where its requests went."""

    def __init__(self, ctx: BrowserContext, page: Page) -> None:
        self.marks: dict[str, float] = {}
        self.outside: list[str] = []  # sent (CSP-stopped ones are taken out again)
        self.errors: list[str] = []
        self.said: list[str] = []  # the last console lines, for a start that never came up
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.errors.append(str(e)[:300]))
        page.on("worker", lambda w: w.on("console", self._console))
        ctx.on("request", self._request)
        ctx.on("requestfailed", self._failed)

    def _console(self, msg: Any) -> None:
        text = msg.text
        self.said = [*self.said[-40:], text[:200]]
        if text.startswith("bezique-mark "):
            _, name, ms = text.split()
            self.marks.setdefault(name, float(ms))

    @staticmethod
    def _far(url: str) -> bool:
        return url.startswith(("http:", "https:", "ws:", "wss:")) and "//127.0.0.1:" not in url

    def _request(self, req: Any) -> None:
        if self._far(req.url):
            self.outside.append(req.url)

    def _failed(self, req: Any) -> None:
        # The page's Content-Security-Policy stopped it: the browser never sent it.
        if self._far(req.url) and "CSP" in str(req.failure or "").upper():
            self.outside.remove(req.url)


def wait_offline_ready(page: Page, timeout_s: float = 300) -> str:
    page.wait_for_function(
        "() => window.beziqueOffline && ['ready', 'failed'].includes(window.beziqueOffline.state)",
        timeout=timeout_s * 1000,
    )
    return str(page.evaluate("window.beziqueOffline.state"))


def launch_once(pw: Any, profile: str, url: str, rate: int, after: str = "") -> dict[str, Any]:
    """One cold start of the installed app with the network off; then (``after``) drop this
    build's Python image, or stay until the phone made it again, for the next start."""
    ctx, page = open_context(pw, profile, rate)
    try:
        ctx.set_offline(True)
        watch = Watch(ctx, page)
        t0 = time.time() * 1000
        page.goto(url)
        try:
            wait_home(page)
        except Exception:
            state = page.evaluate("JSON.stringify(window.beziqueOffline || null)")
            print(f"no Home: {state}\n" + "\n".join(watch.said + watch.errors), flush=True)
            raise
        home = time.time() * 1000
        nav = float(page.evaluate("performance.timeOrigin"))
        start = min(nav, t0)
        split: dict[str, float] = {}
        prev = start
        # In the order they happened: the image is read while Python's WebAssembly compiles.
        for name in sorted((n for n in MARKS if n in watch.marks), key=watch.marks.__getitem__):
            split[name] = round(watch.marks[name] - prev)
            prev = watch.marks[name]
        split["first-screen"] = round(home - prev)
        if after == "drop-image":
            page.evaluate(
                "async () => { for (const n of await caches.keys())"
                " if (n.startsWith('bezique-image-')) await caches.delete(n);"
                " try { await (await navigator.storage.getDirectory())"
                ".removeEntry('python-image', { recursive: true }); } catch (e) {} }"
            )
        elif after == "make-image":
            wait_image(page)
        return {
            "ms": round(home - start),
            "split": split,
            "outside": watch.outside,
            "image": "image-restored" in watch.marks,
        }
    finally:
        ctx.close()


def make_image(pw: Any, profile: str, url: str, timeout_s: float = 300) -> dict[str, Any]:
    """A start that stays open until the phone made this build's Python image
    (scripts/phone/python-image.js, a few seconds after the app is up and ready offline)."""
    ctx, page = open_context(pw, profile)
    try:
        ctx.set_offline(True)
        page.goto(url)
        wait_home(page)
        wait_image(page, timeout_s)
        info = page.evaluate("window.beziqueOffline.imageInfo || null")
        return {"state": page.evaluate("window.beziqueOffline.image"), "info": info}
    finally:
        ctx.close()


def wait_image(page: Page, timeout_s: float = 300) -> None:
    page.wait_for_function(
        "() => { const s = (window.beziqueOffline || {}).image || '';"
        " return s === 'ready' || s === 'present' || s.startsWith('image-'); }",
        timeout=timeout_s * 1000,
    )


def _summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    ms = [r["ms"] for r in runs]
    best = sorted(runs, key=lambda r: r["ms"])[len(runs) // 2]
    return {
        "median": round(statistics.median(ms)),
        "all": ms,
        "split": best["split"],
        "image": [r["image"] for r in runs],
        "outside": [u for r in runs for u in r["outside"]],
    }


def first_visit(pw: Any, profile: str, srv: StaticServer) -> dict[str, Any]:
    ctx, page = open_context(pw, profile)
    try:
        watch = Watch(ctx, page)
        sent0 = srv.sent_bytes
        t0 = time.time() * 1000
        page.goto(srv.url)
        wait_home(page)
        home = time.time() * 1000
        state = wait_offline_ready(page)
        return {
            "bytes": srv.sent_bytes - sent0,
            "home_ms": round(home - t0),
            "offline_state": state,
            "outside": watch.outside,
            "errors": watch.errors,
        }
    finally:
        ctx.close()


def start_deal(page: Page) -> None:
    """From Home: a two-hand match of Anna and Boris, turn-up 9♥, the deal open."""
    new_two_hand_match(page)
    _by(page, "turn-up-9H").click()
    _by(page, "start-deal").click()
    _by(page, "offer-1-bezique").wait_for(timeout=60_000)


def declare_bezique(page: Page) -> int:
    """Boris declares a bezique in one tap (his zone's offer); returns the tap's epoch ms."""
    _by(page, "offer-1-bezique").wait_for(timeout=60_000)
    return int(page.evaluate(CLICK_JS, "offer-1-bezique"))


# The page's messages to and from Python's worker, with Date.now() and their size: a tap's
# time splits into the click reaching the worker, Python's answer (the screen's update) and
# Flutter drawing it.
WORKER_LOG_JS = """(() => {
  window.__worker = [];
  const Orig = window.Worker;
  const size = (d) => (d && (d.byteLength || (typeof d === 'string' ? d.length : 0))) || 0;
  window.Worker = class extends Orig {
    constructor(...a) {
      super(...a);
      this.addEventListener('message',
        (e) => window.__worker.push([Date.now(), 'in', size(e.data)]));
    }
    postMessage(d, t) {
      window.__worker.push([Date.now(), 'out', size(d)]);
      return super.postMessage(d, t);
    }
  };
})();"""


def tap_split(log: list[list[Any]], tapped: float, painted: float) -> dict[str, float] | None:
    """The tap → its message to the worker → the worker's first message back → painted."""
    out = [x for x in log if x[1] == "out" and x[0] >= tapped]
    back = [x for x in log if x[1] == "in" and out and x[0] >= out[0][0]]
    if not out or not back:
        return None
    return {"to_python": out[0][0] - tapped, "python": back[0][0] - out[0][0],
            "update_bytes": back[0][2], "drawn_after": painted - back[0][0]}


def taps(pw: Any, profile: str, url: str, rate: int, samples: int) -> dict[str, Any]:
    """Declarations then undo, offline; each confirm tap → the score's settled pixels, and
    where the time went (``split``: medians of :func:`tap_split`)."""
    from bench_phone import Frames

    ctx, page = open_context(pw, profile, rate)
    try:
        ctx.add_init_script(WORKER_LOG_JS)
        ctx.set_offline(True)
        page.goto(url)
        wait_home(page)
        start_deal(page)
        frames = Frames(page)
        box = _score_box(page, frames)
        out: list[float] = []
        splits: list[dict[str, float]] = []
        for _ in range(samples):
            frames.settle(300)
            page.evaluate("window.__worker = []")
            t = declare_bezique(page)
            page.wait_for_function(SCORE_IS, arg=["deal-score-1", "0", False], timeout=60_000)
            frames.settle(400)
            painted = frames.first_matching(t, box)
            if painted is not None:
                out.append(painted - t)
                split = tap_split(page.evaluate("window.__worker"), t, painted)
                if split is not None:
                    splits.append(split)
            page.evaluate(CLICK_JS, "undo")
            page.wait_for_function(SCORE_IS, arg=["deal-score-1", "0", True], timeout=60_000)
        frames.stop()
        cdp = ctx.new_cdp_session(page)
        cdp.send("HeapProfiler.collectGarbage")
        heap = cdp.send("Runtime.getHeapUsage")["usedSize"] / 2**20
        split = {
            k: round(statistics.median(x[k] for x in splits), 1) for k in splits[0]
        } if splits else {}
        return {"tap_ms": round(statistics.median(out), 1) if out else None, "n": len(out),
                "heap_mib": round(heap, 1), "all": [round(x, 1) for x in out],
                "split": split, "splits": splits}
    finally:
        ctx.close()


def _score_box(page: Page, frames: Any) -> tuple[int, int, int, int]:
    """Around the score's node, in the screencast's pixels (its frames may be scaled)."""
    import base64
    import io

    from PIL import Image

    frames.settle(300)
    b = _by(page, "deal-score-1").bounding_box()
    assert b is not None and frames.items
    w, _h = Image.open(io.BytesIO(base64.b64decode(frames.items[-1][1]))).size
    k = w / PHONE["width"]
    return (
        max(0, int((b["x"] - 50) * k)),
        max(0, int((b["y"] - 40) * k)),
        int((b["x"] + b["width"] + 50) * k),
        int((b["y"] + b["height"] + 4) * k),
    )


def kept_after_restart(pw: Any, profile: str, url: str) -> bool:
    """The match recorded in ``taps`` (left open) is on Home after the browser reopened."""
    ctx, page = open_context(pw, profile)
    try:
        ctx.set_offline(True)
        page.goto(url)
        wait_home(page)
        _by(page, "resume").wait_for(timeout=30_000)
        return True
    except Exception:
        return False
    finally:
        ctx.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dir", default=str(ROOT / "dist" / "phone"))
    p.add_argument("--build", action="store_true", help="build the folder first")
    p.add_argument("--launches", type=int, default=3)
    p.add_argument("--taps", type=int, default=10)
    p.add_argument("--dpr", type=float, default=DPR, help="device pixel ratio (default 2.625)")
    args = p.parse_args()
    globals()["DPR"] = args.dpr
    folder = Path(args.dir)
    if args.build or not (folder / "index.html").exists():
        subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "build_phone.py"), "--out", str(folder)],
            check=True,
        )
    result: dict[str, Any] = {"load_before": os.getloadavg()}
    with StaticServer(folder) as srv, sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        profile = str(Path(tmp) / "profile")
        visit = first_visit(pw, profile, srv)
        print(f"first visit: {visit['bytes'] / 1e6:.2f} MB, Home at {visit['home_ms']} ms,"
              f" offline: {visit['offline_state']}", flush=True)
        outside = list(visit["outside"])
        launch: dict[str, Any] = {}
        splits: dict[str, Any] = {}
        # With and without this build's Python image, alternately (the same machine load for
        # both): a start without one is what a player sees once per build, the first time.
        image = make_image(pw, profile, srv.url)
        print(f"Python image: {image}", flush=True)
        without_image: dict[str, Any] = {}
        without_split: dict[str, Any] = {}
        for rate in (1, 4):
            pairs = []
            for _ in range(args.launches):
                with_image = launch_once(pw, profile, srv.url, rate, after="drop-image")
                without = launch_once(pw, profile, srv.url, rate, after="make-image")
                pairs.append((with_image, without))
                outside += with_image["outside"] + without["outside"]
            got, plain = _summary([a for a, _ in pairs]), _summary([b for _, b in pairs])
            launch[f"x{rate}"], splits[f"x{rate}"] = got["median"], got["split"]
            without_image[f"x{rate}"], without_split[f"x{rate}"] = plain["median"], plain["split"]
            print(
                f"launch offline, CPU {rate}x, from the image: {got['all']} ms {got['image']};"
                f" split {got['split']}\n  no image yet (a new build's first starts):"
                f" {plain['all']} ms {plain['image']}; split {plain['split']}",
                flush=True,
            )
        tap: dict[str, Any] = {}
        tap_split: dict[str, Any] = {}
        heap = None
        for rate in (1, 4):
            t = taps(pw, profile, srv.url, rate, args.taps)
            tap[f"x{rate}"], tap_split[f"x{rate}"] = t["tap_ms"], t["split"]
            heap = t["heap_mib"] if heap is None else heap
            print(f"tap → score painted, CPU {rate}x: {t['tap_ms']} ms (n={t['n']});"
                  f" split {t['split']}", flush=True)
        # The same starts again, now that the phone has been played on (the taps above: a
        # deal's declarations and undos, a minute or two): Chromium keeps V8's compiled code
        # of Flutter's WebAssembly only after real use, so these are a player's usual starts.
        used: dict[str, Any] = {}
        used_split: dict[str, Any] = {}
        for rate in (1, 4):
            got = _summary([launch_once(pw, profile, srv.url, rate) for _ in range(args.launches)])
            used[f"x{rate}"], used_split[f"x{rate}"] = got["median"], got["split"]
            outside += got["outside"]
            print(f"launch offline after use, CPU {rate}x: {got['all']} ms; split {got['split']}",
                  flush=True)
        kept = kept_after_restart(pw, profile, srv.url)
    result.update(
        {
            "install_bytes": visit["bytes"],
            "launch_ms": launch,
            "launch_split_ms": splits,
            "launch_after_use_ms": used,
            "launch_after_use_split_ms": used_split,
            "launch_without_image_ms": without_image,
            "launch_without_image_split_ms": without_split,
            "image": image,
            "tap_ms": tap,
            "tap_split_ms": tap_split,
            "heap_mib": heap,
            "offline_reload": all(v is not None for v in launch.values()),
            "kept_after_restart": kept,
            "requests_outside": len(outside),
            "load_after": os.getloadavg(),
        }
    )
    (ROOT / "benchmarks" / "results").mkdir(exist_ok=True)
    (ROOT / "benchmarks" / "results" / "bench_offline.json").write_text(
        json.dumps(result, indent=1) + "\n"
    )
    keys = ("install_bytes", "launch_ms", "tap_ms", "heap_mib", "offline_reload",
            "kept_after_restart", "requests_outside")
    print(json.dumps({k: result[k] for k in keys}))


if __name__ == "__main__":
    main()
