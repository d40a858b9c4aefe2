"""What one tap → new score painted costs in Flet itself here: a trivial app (one score, one
button; benchmarks/floor_app.py) served as the real app is, measured by bench_phone's method
(the semantics click → the first screencast frame whose pixels around the score equal the
settled new score), its button variants interleaved in one browser so they share the load.

    python benchmarks/bench_floor.py [--samples 30] [--rates 1,4] [--variants filled,plain,gesture]
                                     [--phone-screen]

With ``--phone-screen`` the pages have bench_offline.py's screen (390×844 at a phone's device
pixel ratio, 2.625, mobile, touch) instead of bench_phone's: what the phone build's tap
budget asks of the framework alone, on this machine's software renderer.

Prints one line per variant and throttle; the last line is one JSON object (also written to
benchmarks/results/bench_floor.json).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_phone as bp  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402
from ui_e2e_harness import wait_serving  # type: ignore[import-not-found,unused-ignore]  # noqa: E402


class FloorServer:
    """One floor_app.py process on 127.0.0.1."""

    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.port = bp.free_port()
        env = dict(os.environ, FLET_FORCE_WEB_SERVER="1", PYTHONUNBUFFERED="1")
        env.pop("DISPLAY", None)
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "floor_app.py"), "--variant", variant,
             "--port", str(self.port)],
            cwd=HERE.parent,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if not wait_serving(self.url, 120, self.proc):
            raise TimeoutError(f"floor app {variant} did not answer on {self.url}")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Side:
    def __init__(self, page: Page) -> None:
        self.page = page
        self.frames = bp.Frames(page)
        self.taps: list[float] = []
        self.expect = 0

    def tap(self) -> None:
        page, frames = self.page, self.frames
        frames.settle(300)
        box = bp._score_box(page, "floor-score")
        t0 = page.evaluate(bp.CLICK_JS, "floor-tap")
        self.expect += 20
        page.wait_for_function(
            bp.SCORE_IS, arg=["floor-score", str(self.expect), True], timeout=60_000
        )
        frames.settle(400)
        painted = frames.first_matching(t0, box)
        if painted is not None:
            self.taps.append(painted - t0)
        if self.expect >= 200:  # back to 0 now and then (two digits, like the deal's score)
            page.evaluate(bp.CLICK_JS, "floor-reset")
            self.expect = 0
            page.wait_for_function(bp.SCORE_IS, arg=["floor-score", "0", True], timeout=60_000)
        frames.items.clear()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=30, help="taps per variant and throttle")
    ap.add_argument("--rates", default="1,4")
    ap.add_argument("--variants", default="filled,plain,gesture")
    ap.add_argument("--phone-screen", action="store_true", help="bench_offline.py's screen")
    args = ap.parse_args()
    variants = args.variants.split(",")
    out: dict[str, Any] = {"cpus": os.cpu_count()}
    screen: dict[str, Any] = {"viewport": bp.PHONE}
    if args.phone_screen:
        import bench_offline as bo

        screen = {"viewport": bo.PHONE, "device_scale_factor": bo.DPR, "is_mobile": True,
                  "has_touch": True}
        out["screen"] = {**bo.PHONE, "dpr": bo.DPR}
    servers = [FloorServer(v) for v in variants]
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=bp.CHROMIUM, headless=True, args=[*bp.CHROMIUM_ARGS, bp.OFFLINE]
            )
            sides: dict[str, Side] = {}
            for srv in servers:
                page = browser.new_context(**screen).new_page()
                page.goto(srv.url)
                bp._enable_semantics(page)
                bp.by_id(page, "floor-tap").first.wait_for(timeout=120_000)
                sides[srv.variant] = Side(page)
            for rate in (int(r) for r in args.rates.split(",")):
                for side in sides.values():
                    bp._throttle(side.page, rate)
                    side.taps = []
                loads = []
                for i in range(args.samples):
                    order = variants if i % 2 == 0 else variants[::-1]
                    for name in order:
                        sides[name].tap()
                    loads.append(os.getloadavg()[0])
                out[f"load_x{rate}"] = round(statistics.mean(loads), 2)
                for name, side in sides.items():
                    out.setdefault(name, {})[f"x{rate}"] = {
                        "tap_ms": bp._median(side.taps),
                        "tap_p95_ms": bp._p95(side.taps),
                        "samples": len(side.taps),
                    }
                print(
                    f"CPU {rate}x (load average {out[f'load_x{rate}']}): "
                    + "; ".join(
                        f"{n} {out[n][f'x{rate}']['tap_ms']:.0f} ms" for n in variants
                    ),
                    flush=True,
                )
            browser.close()
    finally:
        for srv in servers:
            srv.stop()
    results = HERE / "results"
    results.mkdir(exist_ok=True)
    name = "bench_floor_phone_screen.json" if args.phone_screen else "bench_floor.json"
    (results / name).write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
