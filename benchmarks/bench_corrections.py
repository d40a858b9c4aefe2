"""Correction benchmarks: how long the table waits for the preview of a correction (storage
reads the log, replays it twice and compares) and for the correction itself (one more
replay to rebuild the caches, written durably), on a match of about 200 entries with the
corrected entry in its first deal, so everything after it is replayed.

Usage:
    .venv/bin/python benchmarks/bench_corrections.py [--deals 20] [--runs 30] [--postgres URL]

Prints one JSON object on its last line.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from referee.storage import Store

DEAL: list[dict[str, Any]] = [
    {"type": "declare", "player": "Boris", "new": ["QS", "JD"]},
    {"type": "declare", "player": "Anna", "new": ["KH", "QH"]},
    {"type": "seven", "player": "Anna"},
    {"type": "declare", "player": "Boris", "new": ["QC", "QD", "QH"], "table": ["QS"]},
    {"type": "declare", "player": "Anna", "new": ["AH", "10H", "JH"], "table": ["KH", "QH"]},
    {"type": "declare", "player": "Boris", "new": ["KC", "KD", "KH", "KS"]},
    {"type": "declare", "player": "Anna", "new": ["AC", "AD", "AS"], "table": ["AH"]},
    {"type": "stock_exhausted"},
    {"type": "last_trick", "winner": "Anna"},
    {"type": "brisques", "counts": {"Anna": 9, "Boris": 7}},
]


def _match(store: Store, deals: int) -> int:
    mid = store.create_match("two-hand", ["Anna", "Boris"], target=10**8)
    for d in range(deals):
        store.start_deal(mid, d % 2, "9H")
        for ev in DEAL:
            store.record(mid, ev)
    return mid


def _ms(samples: list[float]) -> dict[str, float]:
    s = sorted(samples)
    return {
        "median_ms": round(statistics.median(s) * 1000, 2),
        "p95_ms": round(s[int(0.95 * (len(s) - 1))] * 1000, 2),
    }


def run(url: str, deals: int, runs: int) -> dict[str, Any]:
    with Store.open(url) as store:
        mid = _match(store, deals)
        seq = store.event_seqs(mid)[0][0]
        entries = len(store.history(mid))
        anna = {**DEAL[0], "player": "Anna"}
        boris = DEAL[0]
        preview: list[float] = []
        correct: list[float] = []
        for i in range(runs):
            t0 = time.perf_counter()
            store.preview_correction(mid, seq, anna if i % 2 == 0 else boris)
            preview.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            store.correct(mid, seq, anna if i % 2 == 0 else boris)
            correct.append(time.perf_counter() - t0)
        return {"entries": entries, "preview": _ms(preview), "correct": _ms(correct)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--postgres", default=None)
    args = ap.parse_args(argv)
    out: dict[str, Any] = {"python": platform.python_version(), "deals": args.deals}
    with tempfile.TemporaryDirectory() as tmp:
        out["sqlite"] = run(str(Path(tmp) / "bench.sqlite3"), args.deals, args.runs)
    if args.postgres:
        out["postgresql"] = run(args.postgres, args.deals, args.runs)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
