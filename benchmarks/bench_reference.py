"""Reference search speed: one query typed at the table, ranked for the open match (every
keystroke re-runs it), cold (first query of a process: indexes built) and warm.

Run: .venv/bin/python benchmarks/bench_reference.py   (writes benchmarks/results/reference.json)
Figures are medians of repeated runs on this machine; nothing here is asserted.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.reference_search import Setting, search  # noqa: E402

QUERIES = [
    ("bezik", "en"),
    ("what is a bezique", "en"),
    ("двойной безик", "ru"),
    ("500", "ru"),
    ("сколько стоит семёрка козырей?", "ru"),
    ("revoke in the last tricks", "en"),
]


def main() -> None:
    setting = Setting("two-hand", frozenset({"H-MUST-WIN"}))
    t0 = time.perf_counter()
    search("bezique", "en", setting)
    search("безик", "ru", setting)
    cold_ms = (time.perf_counter() - t0) * 1000
    per_query: dict[str, float] = {}
    for query, lang in QUERIES:
        samples = []
        for _ in range(30):
            start = time.perf_counter()
            search(query, lang, setting)
            samples.append(time.perf_counter() - start)
        per_query[f"{lang}:{query}"] = round(statistics.median(samples) * 1000, 3)
    result = {
        "benchmark": "reference_search",
        "cold_first_queries_ms": round(cold_ms, 1),
        "warm_query_median_ms": per_query,
        "warm_query_worst_median_ms": max(per_query.values()),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }
    out = ROOT / "benchmarks" / "results" / "reference.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
