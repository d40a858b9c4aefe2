"""The club's benchmarks (docs/club.md).

A club night under load (issue #24; benchmarks/club_night_bench.py says what and how):
    BEZIQUE_TEST_POSTGRES_URL=postgresql+psycopg://… \
        .venv/bin/python benchmarks/bench_club.py [--tables 20] [--workers 2] [--pace 5]
(it WIPES that database), its last line the issue's JSON object.

``--ratings``: the club's ratings from storage: ``store.club()`` over N finished matches, i.e.
read every finished match, replay it, build its ClubResult, rate them all in finish order and
find the records:
    .venv/bin/python benchmarks/bench_club.py --ratings [--matches 3000] [--dir DIR] [--runs 3]

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
    argv = sys.argv[1:] if argv is None else argv
    if "--ratings" in argv:
        return ratings([a for a in argv if a != "--ratings"])
    from club_night_bench import main as night

    night(argv)
    return 0


def ratings(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="the club's ratings from storage")
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
