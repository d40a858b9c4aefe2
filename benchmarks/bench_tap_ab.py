"""Tap figures of two checkouts side by side, in one browser (issue 14): declarations
alternate between a baseline's server and this checkout's, so both see the same machine load
(on a shared, loaded machine two runs one after the other cannot be compared).

    git archive main | tar -x -C /tmp/base          # a baseline checkout
    python benchmarks/bench_tap_ab.py --a /tmp/base [--b .] [--samples 30] [--rates 1,4]

The method is bench_phone.py's (its functions, unchanged): a bezique declared by name on a
412x915 page, the confirm tap → the first screen frame whose pixels around the score equal
the settled new score (CDP screencast), the whole declaration (declare, bezique, confirm) →
the same frame; the order of the two sides alternates per sample. It also counts the bytes of
the websocket messages the server sends for each of the three taps. The last line is one JSON
object: ``{"a": {"x1": {...}, "x4": {...}}, "b": {...}, "load_x1": L, "load_x4": L}``.
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
import ui_e2e_harness  # type: ignore[import-not-found,unused-ignore]  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402


class Side:
    """One checkout's server, page, screencast and received websocket bytes."""

    def __init__(self, page: Page, frames: bp.Frames, received: list[int]) -> None:
        self.page = page
        self.frames = frames
        self.received = received
        self.box = bp._score_box(page, "deal-score-1")
        self.samples: list[dict[str, float]] = []

    def declaration(self) -> None:
        page, frames = self.page, self.frames
        frames.settle(300)
        n0 = len(self.received)
        t_first = page.evaluate(bp.CLICK_JS, "declare-1")
        bp.by_id(page, "name-bezique").first.wait_for()
        n1 = len(self.received)
        page.evaluate(bp.CLICK_JS, "name-bezique")
        bp.wait_words(page, "declare-confirm", "·")
        n2 = len(self.received)
        t_last = page.evaluate(bp.CLICK_JS, "declare-confirm")
        page.wait_for_function(bp.SCORE_IS, arg=["deal-score-1", "0", False], timeout=60_000)
        frames.settle(400)
        n3 = len(self.received)
        painted = frames.first_matching(t_last, self.box)
        if painted is not None:
            self.samples.append(
                {
                    "tap": painted - t_last,
                    "whole": painted - t_first,
                    "bytes_declare": sum(self.received[n0:n1]),
                    "bytes_name": sum(self.received[n1:n2]),
                    "bytes_confirm": sum(self.received[n2:n3]),
                }
            )
        bp.undo(page)
        page.wait_for_function(bp.SCORE_IS, arg=["deal-score-1", "0", True], timeout=60_000)

    def figures(self) -> dict[str, Any]:
        s, self.samples = self.samples, []
        col = {k: [x[k] for x in s] for k in (s[0] if s else {})}
        return {
            "tap_ms": bp._median(col.get("tap", [])),
            "tap_p95_ms": bp._p95(col.get("tap", [])),
            "declaration_ms": bp._median(col.get("whole", [])),
            "ws_bytes": {
                k[6:]: int(statistics.median(v)) for k, v in col.items() if k.startswith("bytes_")
            },
            "samples": len(s),
        }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True, help="the baseline checkout")
    ap.add_argument("--b", default=str(HERE.parent), help="the checkout to compare")
    ap.add_argument("--samples", type=int, default=30, help="declarations per side and throttle")
    ap.add_argument("--rates", default="1,4", help="CPU throttles")
    args = ap.parse_args()
    out: dict[str, Any] = {"a_root": args.a, "b_root": args.b, "cpus": os.cpu_count()}
    servers = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=bp.CHROMIUM, headless=True, args=[*bp.CHROMIUM_ARGS, bp.OFFLINE]
        )
        try:
            sides: dict[str, Side] = {}
            for name, root in (("a", args.a), ("b", args.b)):
                ui_e2e_harness.ROOT = Path(root).resolve()
                srv = bp._server(tmp, f"taps-{name}")
                servers.append(srv)
                page = browser.new_context(viewport=bp.PHONE).new_page()  # type: ignore[arg-type]
                received: list[int] = []
                page.on(
                    "websocket",
                    lambda ws, r=received: ws.on("framereceived", lambda p: r.append(len(p))),
                )
                bp._new_match(page, srv.url)
                sides[name] = Side(page, bp.Frames(page), received)
            for rate in (int(r) for r in args.rates.split(",")):
                for side in sides.values():
                    bp._throttle(side.page, rate)
                loads = []
                for i in range(args.samples):
                    for name in ("a", "b") if i % 2 == 0 else ("b", "a"):
                        sides[name].declaration()
                    loads.append(os.getloadavg()[0])
                for name, side in sides.items():
                    out.setdefault(name, {})[f"x{rate}"] = side.figures()
                out[f"load_x{rate}"] = round(statistics.mean(loads), 2)
                print(
                    f"CPU {rate}x (load average {out[f'load_x{rate}']}): "
                    + "; ".join(
                        f"{n}: tap {out[n][f'x{rate}']['tap_ms']} ms, declaration "
                        f"{out[n][f'x{rate}']['declaration_ms']} ms"
                        for n in sides
                    ),
                    flush=True,
                )
        finally:
            for srv in servers:
                srv.stop()
            browser.close()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
