"""Tap (or launch) figures of two phone builds side by side (issue 20): rounds of
declarations alternate between build A and build B, each installed in its own browser
profile and served on 127.0.0.1, so both see the same machine load (two runs one after the
other on this shared 2-core machine cannot be compared).

    python scripts/build_phone.py --out /tmp/A          # from a baseline checkout
    python scripts/build_phone.py --out /tmp/B          # from this one
    python benchmarks/bench_offline_ab.py --a /tmp/A --b /tmp/B [--rounds 4] [--samples 5]
    python benchmarks/bench_offline_ab.py --a /tmp/A --b /tmp/B --launches 6 [--rate 1]

The method is bench_offline.py's ``taps`` (unchanged): offline, from the Python image, Boris's
bezique offer tapped once → the first screencast frame whose pixels around the score equal the
settled new score, then undone. With ``--launches N`` it times starts instead, by
bench_offline.py's ``launch_once`` (offline, from the Python image, a fresh browser on the
installed profile, to a usable Home), N of each build, alternating A B, B A, ..., with the
median split of each. A tap's split (bench_offline.py ``_split``): the click reaching Python's
worker, Python's answer, Flutter drawing it. The last line is one JSON object: ``{"a":
{"median": ms, "all": [...], "split": {...}}, "b": {...}, "rate": R, "load_before": L,
"load_after": L}``.
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

import bench_offline as bo  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from benchmarks.static_server import StaticServer  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--a", required=True, help="build A's folder")
    p.add_argument("--b", required=True, help="build B's folder")
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--samples", type=int, default=5, help="taps per round and build")
    p.add_argument("--rate", type=int, default=1, help="CPU throttling rate")
    p.add_argument("--launches", type=int, default=0, help="time N starts of each, not taps")
    args = p.parse_args()
    out: dict[str, Any] = {"rate": args.rate, "load_before": os.getloadavg()}
    taps: dict[str, list[float]] = {"a": [], "b": []}
    with (
        StaticServer(Path(args.a)) as srv_a,
        StaticServer(Path(args.b)) as srv_b,
        sync_playwright() as pw,
        tempfile.TemporaryDirectory() as tmp,
    ):
        sides = {"a": (srv_a, str(Path(tmp) / "a")), "b": (srv_b, str(Path(tmp) / "b"))}
        for name, (srv, profile) in sides.items():
            bo.first_visit(pw, profile, srv)
            bo.make_image(pw, profile, srv.url)
            print(f"{name}: installed, image made", flush=True)
        splits: dict[str, list[dict[str, float]]] = {"a": [], "b": []}
        for r in range(args.launches or args.rounds):
            order = ("a", "b") if r % 2 == 0 else ("b", "a")
            for name in order:
                srv, profile = sides[name]
                if args.launches:
                    run = bo.launch_once(pw, profile, srv.url, args.rate)
                    taps[name].append(run["ms"])
                    splits[name].append(run["split"])
                    print(f"start {r + 1} {name}: {run['ms']} ms, image {run['image']}",
                          flush=True)
                    continue
                got = bo.taps(pw, profile, srv.url, args.rate, args.samples)
                taps[name] += got["all"]
                splits[name] += got["splits"]
                print(f"round {r + 1} {name}: {got['all']}; split {got['split']}", flush=True)
    for name, values in taps.items():
        out[name] = {
            "median": round(statistics.median(values), 1) if values else None,
            "all": values,
        }
        if splits[name]:
            marks = {k for split in splits[name] for k in split}
            out[name]["split"] = {
                k: round(statistics.median(s.get(k, 0) for s in splits[name])) for k in marks
            }
    out["load_after"] = os.getloadavg()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
