"""How long a damaged database takes to salvage at open: a file of N matches (each one deal of
E penalty entries) gets one bad log page; the script times Store.open (check, keep the file,
salvage every readable row, rebuild the caches by replaying the log) and prints JSON last.

    .venv/bin/python benchmarks/bench_salvage.py [--matches 300] [--entries 330]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from referee.storage import Store
from referee.storage.exchange import import_many


def _record(entries: int) -> dict[str, Any]:
    return {
        "format": "bezique-match/1",
        "variant": "two-hand",
        "players": ["Anna", "Boris"],
        "deals": [
            {
                "dealer": "Anna",
                "turn_up": "9H",
                "events": [
                    {"type": "penalty", "player": ["Anna", "Boris"][k % 2], "offence": "P-REVOKE"}
                    for k in range(entries)
                ],
            }
        ],
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=300)
    ap.add_argument("--entries", type=int, default=330)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bezique-bench-salvage-"))
    path = work / "bezique.sqlite3"
    s = Store.open(path)
    for start in range(0, args.matches, 50):
        import_many(s, [_record(args.entries)] * min(50, args.matches - start))
    s.close()
    size = path.stat().st_size
    conn = sqlite3.connect(path)
    pages = [
        int(r[0])
        for r in conn.execute(
            "SELECT pageno FROM dbstat WHERE name = 'log_entry' AND pagetype = 'leaf'"
            " ORDER BY pageno"
        )
    ]
    page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
    conn.close()
    data = bytearray(path.read_bytes())
    off = (pages[len(pages) // 2] - 1) * page_size
    data[off : off + page_size] = b"\xa5" * page_size
    path.write_bytes(bytes(data))
    t0 = time.perf_counter()
    s = Store.open(path)
    if s.notice is None:  # above the full-check size: found on a read, salvaged next open
        try:
            for m in s.list_matches():
                s.load_match(m.id)
        except Exception:
            pass
        s.close()
        t0 = time.perf_counter()
        s = Store.open(path)
    elapsed = time.perf_counter() - t0
    matches = s.list_matches()
    entries = sum(len(s.history(m.id)) for m in matches)
    s.close()
    print(
        json.dumps(
            {
                "file_mb": round(size / 1e6, 1),
                "matches_before": args.matches,
                "entries_before": args.matches * (args.entries + 1),
                "matches_recovered": len(matches),
                "entries_recovered": entries,
                "salvage_open_s": round(elapsed, 2),
                "python": sys.version.split()[0],
                "sqlite": sqlite3.sqlite_version,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
