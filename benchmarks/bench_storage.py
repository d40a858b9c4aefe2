"""Storage benchmarks (the figures in docs/storage.md come from here):

- recording one event durably (SQLite, WAL, synchronous=FULL): median < 5 ms wanted;
- reopening the app's last match of 200 events (open + find it + replay): < 50 ms wanted;
- statistics queries over 10,000 stored matches: each < 200 ms wanted.

Usage:
    .venv/bin/python benchmarks/bench_storage.py [--matches 10000] [--dir DIR]
        [--postgres URL] [--json OUT.json]

The generated database is kept in --dir (default: a temporary folder, deleted afterwards).
"""

from __future__ import annotations

import argparse
import copy
import json
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.record import parse_record, replay_record
from referee.storage import Store
from referee.storage.exchange import import_many

DEAL_EVENTS: list[dict[str, Any]] = [
    {"type": "declare", "player": 1, "new": ["QS", "JD"], "meld": "bezique"},
    {"type": "declare", "player": 0, "new": ["KH", "QH"], "meld": "trump_marriage"},
    {"type": "seven", "player": 0},
    {"type": "declare", "player": 1, "new": ["QC", "QD", "QH"], "table": ["QS"],
     "meld": "four_queens"},
    {"type": "declare", "player": 0, "new": ["AH", "10H", "JH"], "table": ["KH", "QH"],
     "meld": "trump_sequence"},
    {"type": "declare", "player": 1, "new": ["KC", "KD", "KH", "KS"], "meld": "four_kings"},
    {"type": "declare", "player": 0, "new": ["AC", "AD", "AS"], "table": ["AH"],
     "meld": "four_aces"},
    {"type": "stock_exhausted"},
    {"type": "last_trick", "winner": 0},
    {"type": "brisques", "counts": None},
]


def _deal(rng: random.Random, names: list[str], dealer: int) -> dict[str, Any]:
    """One plausible two-hand deal with random omissions and swapped roles."""
    swap = rng.random() < 0.5
    events: list[dict[str, Any]] = []
    for proto in DEAL_EVENTS:
        if proto["type"] not in ("stock_exhausted", "brisques") and rng.random() < 0.25:
            continue
        e = copy.deepcopy(proto)
        for key in ("player", "winner"):
            if key in e:
                e[key] = names[e[key] ^ int(swap)]
        if e["type"] == "brisques":
            a = rng.randint(0, 16)
            e["counts"] = {names[0]: a, names[1]: 16 - a}
        events.append(e)
    return {"dealer": names[dealer], "turn_up": "9H", "events": events}


def _record(rng: random.Random, pool: list[str]) -> dict[str, Any]:
    """A match of up to 6 deals, cut where the engine says the partie is won."""
    names = rng.sample(pool, 2)
    rec: dict[str, Any] = {
        "format": "bezique-match/1",
        "variant": "two-hand",
        "players": names,
        "tracking": "melds",
        "house_rules": [],
        "deals": [],
    }
    for d in range(rng.randint(1, 6)):
        rec["deals"].append(_deal(rng, names, d % 2))
        if replay_record(parse_record(rec)).result().finished:
            break
    return rec


def _timed(fn: Callable[[], object], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def _summary(name: str, ms: list[float], limit: float | None) -> dict[str, Any]:
    med = statistics.median(ms)
    p95 = sorted(ms)[max(0, int(len(ms) * 0.95) - 1)]
    verdict = "" if limit is None else ("ok" if med < limit else "TOO SLOW")
    print(f"{name:48} median {med:8.2f} ms  p95 {p95:8.2f} ms  n={len(ms):<5} {verdict}")
    return {"name": name, "median_ms": round(med, 3), "p95_ms": round(p95, 3), "runs": len(ms),
            "limit_ms": limit}


def bench_record(url: str, label: str, n: int = 400) -> dict[str, Any]:
    store = Store.open(url)
    mid = store.create_match("two-hand", ["Anna", "Boris"], target=10**9)
    store.start_deal(mid, "Anna", "9H")
    store.record(mid, {"type": "penalty", "player": "Anna", "offence": "P-REVOKE"})  # warm up
    i = 0

    def one() -> None:
        nonlocal i
        i += 1
        who = ["Anna", "Boris"][i % 2]
        store.record(mid, {"type": "penalty", "player": who, "offence": "P-REVOKE"})

    ms = _timed(one, n)
    store.close()
    return _summary(f"record one event durably ({label})", ms, 5.0 if label == "SQLite" else None)


def bench_reopen(path: Path, events: int = 200, runs: int = 40) -> dict[str, Any]:
    store = Store.open(path)
    mid = store.create_match("two-hand", ["Anna", "Boris"], target=10**9)
    store.start_deal(mid, "Anna", "9H")
    for k in range(events - 1):
        store.record(mid, {"type": "penalty", "player": ["Anna", "Boris"][k % 2],
                           "offence": "P-REVOKE"})
    store.close()

    def reopen() -> None:
        s = Store.open(path)
        found = s.unfinished_match()
        assert found == mid
        m = s.load_match(found)
        assert sum(len(d.events) for d in m.deals) + len(m.deals) == events
        s.close()

    reopen()  # warm the OS cache, as a second app start would
    return _summary(f"reopen last match ({events} log entries)", _timed(reopen, runs), 50.0)


def build_many(path: Path, matches: int, seed: int = 1) -> float:
    rng = random.Random(seed)
    pool = [f"Player {i:02d}" for i in range(40)]
    store = Store.open(path)
    have = len(store.list_matches())
    t = time.perf_counter()
    batch: list[dict[str, Any]] = []
    for _ in range(have, matches):
        batch.append(_record(rng, pool))
        if len(batch) == 250:
            import_many(store, batch)
            batch.clear()
    if batch:
        import_many(store, batch)
    store.close()
    return time.perf_counter() - t


def bench_stats(path: Path, runs: int = 20) -> list[dict[str, Any]]:
    store = Store.open(path)
    n = len(store.list_matches())
    out = [
        _summary(f"player_stats() over {n} matches", _timed(store.player_stats, runs), 200.0),
        _summary(f"biggest_deals(10) over {n} matches",
                 _timed(lambda: store.biggest_deals(10), runs), 200.0),
        _summary(f"best_combinations(10) over {n} matches",
                 _timed(lambda: store.best_combinations(10), runs), 200.0),
        _summary(f"unfinished_match() over {n} matches",
                 _timed(store.unfinished_match, runs), 200.0),
        _summary(f"list_matches() over {n} matches", _timed(store.list_matches, runs), None),
    ]
    store.close()
    return out


BENCH_SCHEMA = "bezique_bench"


def _own_schema(url: str) -> str:
    """The URL with its search_path on a schema of the benchmark's own, emptied first, so a
    benchmark never touches the tables of a real (club) database."""
    import psycopg

    plain = url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {BENCH_SCHEMA} CASCADE")
        conn.execute(f"CREATE SCHEMA {BENCH_SCHEMA}")
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options=-csearch_path%3D{BENCH_SCHEMA}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--matches", type=int, default=10_000)
    ap.add_argument("--dir", type=Path, help="keep the generated databases here")
    ap.add_argument("--postgres", help="also time recording on this PostgreSQL URL")
    ap.add_argument("--json", type=Path, help="write the figures as JSON")
    args = ap.parse_args(argv)
    tmp = None
    if args.dir is None:
        tmp = tempfile.TemporaryDirectory()
        folder = Path(tmp.name)
    else:
        folder = args.dir
        folder.mkdir(parents=True, exist_ok=True)
    print(f"Python {platform.python_version()}, {platform.machine()}, "
          f"SQLite in {folder}")
    results: list[dict[str, Any]] = []
    try:
        rec = folder / "record.sqlite3"
        rec.unlink(missing_ok=True)
        results.append(bench_record(str(rec), "SQLite"))
        if args.postgres:
            results.append(bench_record(_own_schema(args.postgres), "PostgreSQL"))
        reopen = folder / "reopen.sqlite3"
        reopen.unlink(missing_ok=True)
        results.append(bench_reopen(reopen))
        many = folder / f"stats-{args.matches}.sqlite3"
        took = build_many(many, args.matches)
        print(f"(generated {args.matches} matches in {took:.1f} s, "
              f"{many.stat().st_size / 1e6:.1f} MB)")
        results += bench_stats(many)
        def reopen_big() -> None:
            s = Store.open(many)
            found = s.unfinished_match()
            if found is not None:
                s.load_match(found)
            s.close()

        results.append(_summary(f"reopen last match among {args.matches} matches",
                                _timed(reopen_big, 10), None))
    finally:
        if tmp is not None:
            tmp.cleanup()
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    slow = [r for r in results if r["limit_ms"] is not None and r["median_ms"] >= r["limit_ms"]]
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
