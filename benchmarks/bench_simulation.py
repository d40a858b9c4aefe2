"""The engine and storage proven against the deal simulator: fuzzing, load and growth.

    .venv/bin/python benchmarks/bench_simulation.py            # the full run (≈ 15-25 min)
    .venv/bin/python benchmarks/bench_simulation.py --quick    # a few minutes, smaller numbers

Sections (each can be skipped with --skip NAME):
- fuzz: ≥ 100,000 mutated simulated records replayed as ``bezique replay`` does; every one
  must end as "ok" (replayed, broken events rejected) or "input" (exit 2 naming the place);
  a crash or a record slower than --hang seconds is a failure.
- replay: replays per second of simulated parties, per variant and tracking level (the
  levels each variant offers: joker-multipack has no cards tracking). ``--variant V`` runs
  the rows of V only and merges them into the earlier results.
- growth: time per event as a deal (and a match) grows from 50 to 10,000 events; the SVG
  plot goes to benchmarks/results/growth.svg.
- memory: tracemalloc figures of the engine holding a 10,000-event match.
- storage: 10,000 simulated matches written to a fresh SQLite database, then the statistics
  queries over them.

Results: benchmarks/results/simulation.json (and the plot); the exit status is 1 if the fuzz
found a crash or a hang, or the legal simulated records were not accepted wholly.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import random
import signal
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.record import parse_record, replay_record  # noqa: E402
from referee.simulate import (  # noqa: E402
    SimOptions,
    check_text,
    house_rule_sets,
    mutate,
    player_counts,
    simulate_match,
    small_records,
    tracking_levels,
)
from referee.variants import variant_ids  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"


# ==================================================================================== fuzz
class _Hang(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Hang()


def _fuzz_worker(job: tuple[int, int, float]) -> dict[str, Any]:
    seed, count, hang = job
    signal.signal(signal.SIGALRM, _alarm)
    records = small_records(seed, 64)
    rng = random.Random(seed)
    kinds: Counter[str] = Counter()
    by_mutation: dict[str, Counter[str]] = {}
    rules: Counter[str] = Counter()
    crashes: list[dict[str, str]] = []
    worst = (0.0, "")
    start = time.perf_counter()
    for k in range(count):
        text, label = mutate(records[k % len(records)], rng)
        t0 = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, hang)
        try:
            out = check_text(text)
            kind = out.kind if not (out.kind == "input" and out.error) else "unnamed"
        except _Hang:
            kind, out = "hang", None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        dt = time.perf_counter() - t0
        if dt > worst[0]:
            worst = (dt, label)
        kinds[kind] += 1
        first = label.split("+")[0]
        by_mutation.setdefault(first, Counter())[kind] += 1
        if out is not None and out.kind == "ok":
            for _, _, rule in out.rejected[:1]:
                rules[rule] += 1
        if kind in ("crash", "hang", "unnamed") and len(crashes) < 20:
            crashes.append({"mutation": label, "kind": kind,
                            "error": out.error if out else "", "message":
                            out.message if out else "", "text": text[:2000]})
    return {
        "kinds": dict(kinds),
        "by_mutation": {k: dict(v) for k, v in by_mutation.items()},
        "first_rejections": dict(rules),
        "crashes": crashes,
        "worst": worst,
        "seconds": time.perf_counter() - start,
        "count": count,
    }


def bench_fuzz(total: int, workers: int, hang: float) -> dict[str, Any]:
    per = math.ceil(total / workers / 8)
    jobs = [(1000 + j, per, hang) for j in range(workers * 8)]
    start = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        parts = list(pool.map(_fuzz_worker, jobs))
    wall = time.perf_counter() - start
    kinds: Counter[str] = Counter()
    by_mutation: dict[str, Counter[str]] = {}
    rules: Counter[str] = Counter()
    crashes: list[dict[str, str]] = []
    worst = (0.0, "")
    for part in parts:
        kinds.update(part["kinds"])
        for k, v in part["by_mutation"].items():
            by_mutation.setdefault(k, Counter()).update(v)
        rules.update(part["first_rejections"])
        crashes.extend(part["crashes"])
        worst = max(worst, (float(part["worst"][0]), str(part["worst"][1])))
    n = sum(kinds.values())
    return {
        "records": n,
        "workers": workers,
        "wall_seconds": round(wall, 1),
        "records_per_second": round(n / wall),
        "outcomes": dict(kinds),
        "by_mutation": {k: dict(v) for k, v in sorted(by_mutation.items())},
        "first_rejection_rules": dict(rules.most_common()),
        "slowest_record_seconds": round(worst[0], 3),
        "slowest_mutation": worst[1],
        "failures": crashes,
    }


# ==================================================================================== replay
def _time(fn: Callable[[], Any], repeat: int = 3) -> float:
    best = math.inf
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def bench_replay(parties: int, variants: Sequence[str] = ()) -> dict[str, Any]:
    rows = []
    problems = []
    for variant in variants or variant_ids():
        for players in player_counts(variant):
            for tracking in tracking_levels(variant):
                texts = []
                events = 0
                sims = []
                for seed in range(parties):
                    rules = house_rule_sets(variant)[seed % len(house_rule_sets(variant))]
                    sim = simulate_match(variant, seed, tracking=tracking, players=players,
                                         house_rules=rules)
                    sims.append(sim)
                    texts.append(sim.to_json())
                    events += sim.events

                def run(texts: Sequence[str] = texts) -> None:
                    for text in texts:
                        replay_record(parse_record(json.loads(text))).result()

                for sim, text in zip(sims, texts, strict=True):
                    result = replay_record(parse_record(json.loads(text))).result()
                    if result.rejected or tuple(s.deal_scores for s in result.sides) != \
                            sim.deal_scores:
                        problems.append({"variant": variant, "players": players,
                                         "tracking": tracking, "rejected":
                                         [r.message for r in result.rejected[:3]]})
                seconds = _time(run)
                t0 = time.perf_counter()
                for seed in range(min(parties, 10)):
                    simulate_match(variant, seed, tracking=tracking, players=players)
                sim_rate = min(parties, 10) / (time.perf_counter() - t0)
                rows.append({
                    "variant": variant, "players": players, "tracking": tracking,
                    "parties": parties, "events": events,
                    "events_per_party": round(events / parties, 1),
                    "replays_per_second": round(parties / seconds, 1),
                    "events_per_second": round(events / seconds),
                    "simulated_parties_per_second": round(sim_rate, 1),
                })
                print(f"  replay {variant:10} {players}p {tracking:6} "
                      f"{rows[-1]['replays_per_second']:8.1f} parties/s "
                      f"{rows[-1]['events_per_second']:9d} events/s", flush=True)
    return {"rows": rows, "legal_records_not_accepted": problems}


# ==================================================================================== growth
def _padded_deal(size: int, seed: int = 1) -> str:
    """One two-hand deal (cards tracking) padded to ``size`` events after its third trick:
    the deal's declarations and sevens made by the player who lost that trick (each checked
    in full and rejected, R-DECLARE-AFTER-TRICK) and penalties (accepted)."""
    sim = simulate_match("two-hand", seed, tracking="cards", max_deals=1)
    obj = sim.to_obj()
    events = obj["deals"][0]["events"]
    body = [e for e in events if e["type"] != "brisques"]
    tail = [e for e in events if e["type"] == "brisques"]
    at = [i for i, e in enumerate(body) if e["type"] == "trick"][2] + 1
    loser = next(p for p in obj["players"] if p != body[at - 1]["winner"])
    fill = [dict(e, player=loser) for e in body if e["type"] in ("declare", "seven")]
    fill.append({"type": "penalty", "player": obj["players"][0], "offence": "P-REVOKE"})
    rng = random.Random(size)
    padding = [rng.choice(fill) for _ in range(max(0, size - len(events)))]
    obj["deals"][0]["events"] = body[:at] + padding + body[at:] + tail
    return json.dumps(obj)


def _long_match(size: int, seed: int = 1) -> str:
    sim = simulate_match("two-hand", seed, tracking="cards", target=10**9, max_deals=1,
                         min_events=size)
    return sim.to_json()


SIZES = (50, 100, 200, 500, 1000, 2000, 5000, 10_000)


def bench_growth(sizes: Sequence[int] = SIZES) -> dict[str, Any]:
    series: dict[str, list[dict[str, float]]] = {"one deal": [], "one match": []}
    for size in sizes:
        for name, build in (("one deal", _padded_deal), ("one match", _long_match)):
            text = build(size)
            data = json.loads(text)
            events = sum(len(d["events"]) for d in data["deals"])
            record = parse_record(data)
            def run(record: Any = record) -> None:
                replay_record(record).result()

            seconds = _time(run, repeat=5)
            series[name].append({"events": events, "seconds": seconds,
                                 "us_per_event": seconds / events * 1e6})
            print(f"  growth {name:9} {events:6d} events  "
                  f"{seconds / events * 1e6:7.1f} µs/event", flush=True)
    verdict = {}
    for name, points in series.items():
        small = statistics.mean(p["us_per_event"] for p in points[:3])
        big = points[-1]["us_per_event"]
        verdict[name] = {"us_per_event_small": round(small, 2),
                         "us_per_event_10000": round(big, 2), "ratio": round(big / small, 2)}
    return {"series": series, "linearity": verdict}


def growth_svg(series: dict[str, list[dict[str, float]]], path: Path) -> None:
    """A log-x line plot of µs per event against events, written by hand (no matplotlib)."""
    w, h, left, right, top, bottom = 720, 420, 70, 20, 40, 60
    xs = [p["events"] for s in series.values() for p in s]
    ys = [p["us_per_event"] for s in series.values() for p in s]
    x0, x1 = math.log10(min(xs)), math.log10(max(xs))
    y1 = max(ys) * 1.15

    def px(x: float) -> float:
        return left + (math.log10(x) - x0) / (x1 - x0) * (w - left - right)

    def py(y: float) -> float:
        return h - bottom - y / y1 * (h - top - bottom)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<text x="{w / 2}" y="22" text-anchor="middle" font-size="15">Replay time per event '
        'as a deal / match grows (two-hand, cards tracking)</text>',
        f'<line x1="{left}" y1="{h - bottom}" x2="{w - right}" y2="{h - bottom}" '
        'stroke="black"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{h - bottom}" stroke="black"/>',
    ]
    for x in SIZES:
        if min(xs) <= x <= max(xs):
            parts.append(f'<line x1="{px(x):.1f}" y1="{h - bottom}" x2="{px(x):.1f}" '
                         f'y2="{h - bottom + 5}" stroke="black"/>')
            parts.append(f'<text x="{px(x):.1f}" y="{h - bottom + 18}" '
                         f'text-anchor="middle">{x}</text>')
    step = 10 ** math.floor(math.log10(y1 / 4)) if y1 > 0 else 1
    while y1 / step > 8:
        step *= 2
    y = 0.0
    while y <= y1:
        parts.append(f'<line x1="{left - 5}" y1="{py(y):.1f}" x2="{w - right}" '
                     f'y2="{py(y):.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{left - 8}" y="{py(y) + 4:.1f}" text-anchor="end">'
                     f'{y:g}</text>')
        y += step
    parts.append(f'<text x="{w / 2}" y="{h - 15}" text-anchor="middle">events in the record '
                 '(log scale)</text>')
    parts.append(f'<text x="18" y="{h / 2}" text-anchor="middle" '
                 f'transform="rotate(-90 18 {h / 2})">µs per event</text>')
    colours = ["#1f77b4", "#d62728", "#2ca02c"]
    for k, (name, points) in enumerate(series.items()):
        c = colours[k % len(colours)]
        coords = " ".join(f"{px(p['events']):.1f},{py(p['us_per_event']):.1f}" for p in points)
        parts.append(f'<polyline points="{coords}" fill="none" stroke="{c}" '
                     'stroke-width="2"/>')
        for p in points:
            parts.append(f'<circle cx="{px(p["events"]):.1f}" cy="{py(p["us_per_event"]):.1f}"'
                         f' r="3" fill="{c}"/>')
        parts.append(f'<rect x="{w - 170}" y="{top + 8 + 18 * k}" width="12" height="12" '
                     f'fill="{c}"/><text x="{w - 152}" y="{top + 18 + 18 * k}">{name}</text>')
    parts.append("</svg>")
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")


# ==================================================================================== memory
def bench_memory() -> dict[str, Any]:
    out = {}
    for name, text in (("10,000-event match", _long_match(10_000)),
                       ("10,000-event deal", _padded_deal(10_000))):
        record = parse_record(json.loads(text))
        events = sum(len(d.events) for d in record.deals)
        gc.collect()
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        match = replay_record(match_record := record)
        match.result()
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        del match, match_record
        out[name] = {"events": events, "deals": len(record.deals),
                     "held_mib": round((current - base) / 2**20, 2),
                     "peak_mib": round((peak - base) / 2**20, 2),
                     "bytes_per_event": round((current - base) / events)}
        print(f"  memory {name}: {out[name]}", flush=True)
    return out


# ==================================================================================== storage
def _storage_record(k: int) -> dict[str, Any]:
    ids = variant_ids()
    variant = ids[k % len(ids)]
    counts = player_counts(variant)
    rng = random.Random(k)
    levels = tracking_levels(variant)
    sim = simulate_match(variant, k, tracking=levels[k // len(ids) % len(levels)],
                         players=rng.choice(counts),
                         house_rules=rng.choice(house_rule_sets(variant)),
                         options=SimOptions(penalty_rate=0.2))
    return sim.to_obj()


def bench_storage(count: int) -> dict[str, Any]:
    try:
        from referee.storage import Store
    except ImportError:
        return {"skipped": "referee.storage is not there"}
    workers = os.cpu_count() or 1
    t0 = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        records = list(pool.map(_storage_record, range(count), chunksize=50))
    sim_seconds = time.perf_counter() - t0
    events = sum(len(d["events"]) for r in records for d in r["deals"])
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        store = Store.open(str(path))
        t0 = time.perf_counter()
        ids = []
        for k, record in enumerate(records):
            ids.append(store.import_match(record))
            if (k + 1) % 1000 == 0:
                print(f"  storage {k + 1} matches written "
                      f"({time.perf_counter() - t0:.0f} s)", flush=True)
        write = time.perf_counter() - t0
        size = path.stat().st_size
        queries: dict[str, float] = {}
        rng = random.Random(0)
        for name, fn in (
            ("player_stats", store.player_stats),
            ("biggest_deals(10)", lambda: store.biggest_deals(10)),
            ("best_combinations(10)", lambda: store.best_combinations(10)),
            ("list_matches", store.list_matches),
            ("load_match (random)", lambda: store.load_match(rng.choice(ids))),
            ("export_match (random)", lambda: store.export_match(rng.choice(ids))),
        ):
            times = []
            for _ in range(5):
                t1 = time.perf_counter()
                fn()
                times.append(time.perf_counter() - t1)
            queries[name] = round(statistics.median(times) * 1000, 2)
            print(f"  storage query {name}: {queries[name]} ms", flush=True)
        sample = rng.sample(ids, min(50, len(ids)))
        agree = all(
            json.dumps(store.load_match(i).result().to_json(), sort_keys=True)
            == json.dumps(replay_record(parse_record(records[i - ids[0]])).result().to_json(),
                          sort_keys=True)
            for i in sample
        )
        store.close()
    return {
        "matches": count, "events": events,
        "simulated_in_seconds": round(sim_seconds, 1),
        "write_seconds": round(write, 1),
        "matches_written_per_second": round(count / write, 1),
        "events_written_per_second": round(events / write),
        "database_mib": round(size / 2**20, 1),
        "query_ms_median_of_5": queries,
        "replayed_sample_agrees": agree,
    }


# ==================================================================================== report
def markdown(results: dict[str, Any]) -> str:
    """The figures as Markdown tables (pasted into docs/simulation.md)."""
    out = [f"Measured {results['started']} on {results['machine']['platform']}, Python "
           f"{results['machine']['python']}, {results['machine']['cpus']} CPUs.", ""]
    if "fuzz" in results:
        f = results["fuzz"]
        out += [
            f"**Fuzzing**: {f['records']:,} mutated records in {f['wall_seconds']} s "
            f"({f['records_per_second']:,}/s on {f['workers']} processes): "
            + ", ".join(f"{k} {v:,}" for k, v in sorted(f["outcomes"].items()))
            + f"; slowest record {f['slowest_record_seconds']} s ({f['slowest_mutation']}); "
            f"failures (crash, hang, unnamed input error): {len(f['failures'])}.", "",
            "| mutation (first applied) | ok (replayed, rejections) | input error (exit 2) |",
            "|---|---:|---:|",
        ]
        for name, kinds in f["by_mutation"].items():
            out.append(f"| {name} | {kinds.get('ok', 0):,} | {kinds.get('input', 0):,} |")
        out.append("")
    if "replay" in results:
        out += ["**Replays** (JSON text → parse → replay → result; best of 3):", "",
                "| variant | players | tracking | events/partie | parties/s | events/s |",
                "|---|---:|---|---:|---:|---:|"]
        for r in results["replay"]["rows"]:
            out.append(f"| {r['variant']} | {r['players']} | {r['tracking']} | "
                       f"{r['events_per_party']} | {r['replays_per_second']} | "
                       f"{r['events_per_second']:,} |")
        bad = results["replay"]["legal_records_not_accepted"]
        out += ["", f"Legal simulated records not accepted wholly: {len(bad)}.", ""]
    if "growth" in results:
        g = results["growth"]
        out += ["**Growth** (µs per event, best of 5):", "",
                "| events | one deal | one match |", "|---:|---:|---:|"]
        for a, b in zip(g["series"]["one deal"], g["series"]["one match"], strict=True):
            out.append(f"| {a['events']:,} / {b['events']:,} | {a['us_per_event']:.1f} | "
                       f"{b['us_per_event']:.1f} |")
        out += ["", "Ratio 10,000-event µs/event to the small sizes: " + ", ".join(
            f"{k} {v['ratio']}" for k, v in g["linearity"].items()), ""]
    if "memory" in results:
        out += ["**Memory** (tracemalloc, the Match held after replay):", "",
                "| record | events | deals | held MiB | peak MiB | bytes/event |",
                "|---|---:|---:|---:|---:|---:|"]
        for name, m in results["memory"].items():
            out.append(f"| {name} | {m['events']:,} | {m['deals']} | {m['held_mib']} | "
                       f"{m['peak_mib']} | {m['bytes_per_event']} |")
        out.append("")
    if "storage" in results:
        st = results["storage"]
        if "skipped" in st:
            out.append(f"**Storage**: skipped ({st['skipped']}).")
        else:
            out += [f"**Storage** (SQLite): {st['matches']:,} simulated matches "
                    f"({st['events']:,} events) written by `Store.import_match` in "
                    f"{st['write_seconds']} s ({st['matches_written_per_second']} matches/s, "
                    f"{st['events_written_per_second']:,} events/s), database "
                    f"{st['database_mib']} MiB; a replayed sample agrees with the store: "
                    f"{st['replayed_sample_agrees']}.", "",
                    "| query over them | median ms |", "|---|---:|"]
            for name, ms in st["query_ms_median_of_5"].items():
                out.append(f"| {name} | {ms} |")
            out.append("")
    return "\n".join(out) + "\n"


def _merge_replay(earlier: dict[str, Any], new: dict[str, Any], variants: Sequence[str]
                  ) -> dict[str, Any]:
    """The earlier replay rows with those of ``variants`` replaced by the new ones."""
    order = {v: k for k, v in enumerate(variant_ids())}
    rows = [r for r in earlier["rows"] if r["variant"] not in variants] + new["rows"]
    rows.sort(key=lambda r: order.get(r["variant"], len(order)))
    bad = [b for b in earlier["legal_records_not_accepted"] if b["variant"] not in variants]
    return {"rows": rows, "legal_records_not_accepted": bad + new["legal_records_not_accepted"]}


# ==================================================================================== main
def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smaller numbers, a few minutes")
    ap.add_argument("--fuzz", type=int, default=None, help="mutated records (100,000)")
    ap.add_argument("--storage", type=int, default=None, help="matches written (10,000)")
    ap.add_argument("--parties", type=int, default=None, help="parties per replay row (20)")
    ap.add_argument("--hang", type=float, default=30.0, help="seconds a record may take")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--skip", action="append", default=[],
                    choices=["fuzz", "replay", "growth", "memory", "storage"])
    ap.add_argument("--variant", action="append", default=[], choices=variant_ids(),
                    help="replay rows of this variant only, merged into the earlier results")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    fuzz_n = args.fuzz or (5_000 if args.quick else 100_000)
    storage_n = args.storage or (300 if args.quick else 10_000)
    parties = args.parties or (4 if args.quick else 20)
    args.out.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {
        "machine": {"python": platform.python_version(), "platform": platform.platform(),
                    "cpus": os.cpu_count()},
        "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
    }
    ok = True
    if "replay" not in args.skip:
        print("replay", flush=True)
        results["replay"] = bench_replay(parties, args.variant)
        ok &= not results["replay"]["legal_records_not_accepted"]
    if "growth" not in args.skip:
        print("growth", flush=True)
        results["growth"] = bench_growth()
        growth_svg(results["growth"]["series"], args.out / "growth.svg")
    if "memory" not in args.skip:
        print("memory", flush=True)
        results["memory"] = bench_memory()
    if "fuzz" not in args.skip:
        print(f"fuzz {fuzz_n} records on {args.workers} workers", flush=True)
        results["fuzz"] = bench_fuzz(fuzz_n, args.workers, args.hang)
        print(f"  {results['fuzz']['outcomes']} in {results['fuzz']['wall_seconds']} s",
              flush=True)
        ok &= not results["fuzz"]["failures"]
    if "storage" not in args.skip:
        print(f"storage {storage_n} matches", flush=True)
        results["storage"] = bench_storage(storage_n)
    results["finished"] = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    name = "simulation-quick.json" if args.quick else "simulation.json"
    if args.skip and (args.out / name).exists():  # a partial run updates its sections only
        earlier = json.loads((args.out / name).read_text(encoding="utf-8"))
        results = earlier | {k: v for k, v in results.items() if k != "started"}
        if args.variant and "replay" in earlier and "replay" not in args.skip:
            results["replay"] = _merge_replay(earlier["replay"], results["replay"],
                                              args.variant)
    (args.out / name).write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n",
                                 encoding="utf-8")
    (args.out / name.replace(".json", ".md")).write_text(markdown(results), encoding="utf-8")
    print(f"written {args.out / name} and the .md", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
