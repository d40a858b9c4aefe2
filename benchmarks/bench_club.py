"""The club's ratings from storage (docs/club.md): ``store.club()`` over N finished matches,
i.e. read every finished match, replay it, build its ClubResult, rate them all in finish order
and find the records.

Usage:
    .venv/bin/python benchmarks/bench_club.py [--matches 3000] [--dir DIR] [--runs 3]

The matches are bench_storage.py's (two-hand, melds tracking, 1–6 deals, 40 players); the
generated database is kept in --dir (default: a temporary folder, deleted afterwards).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_storage import build_many

from referee.storage import Store


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=3000)
    ap.add_argument("--dir")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.dir or tmp) / f"club-{args.matches}.sqlite3"
        built = build_many(path, args.matches)
        print(f"built {args.matches} matches in {built:.1f} s", file=sys.stderr)
        cold: list[float] = []
        cpu: list[float] = []
        warm: list[float] = []
        for _ in range(args.runs):
            with Store.open(path) as store:  # a fresh store: every finished match replayed
                t, c = time.perf_counter(), time.process_time()
                club = store.club()
                cold.append(time.perf_counter() - t)
                cpu.append(time.process_time() - c)
                t = time.perf_counter()  # again: only the changed matches would be replayed
                store.club()
                warm.append(time.perf_counter() - t)
        print(
            f"store.club() over {len(club.results)} finished matches of {args.matches}"
            f" ({len(club.ratings.current)} players): cold median"
            f" {statistics.median(cold):.2f} s (CPU {statistics.median(cpu):.2f} s), warm"
            f" {statistics.median(warm):.2f} s; load {os.getloadavg()[0]:.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
