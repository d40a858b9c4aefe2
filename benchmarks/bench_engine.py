"""Engine speed: checking one declaration, replaying a full two-hand deal tracked with cards,
and how the cost grows with the number of events.

Run: .venv/bin/python benchmarks/bench_engine.py   (writes benchmarks/results/engine.json)
Figures are medians of repeated runs on this machine; nothing here is asserted.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.cards import parse_card, parse_cards  # noqa: E402
from referee.events import Declare, Seven, Trick  # noqa: E402
from referee.match import Match  # noqa: E402
from referee.record import parse_record, replay_record  # noqa: E402


def median_time(fn: Callable[[], object], repeat: int, inner: int = 1) -> float:
    """Median seconds per call of fn over `repeat` samples of `inner` calls."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - start) / inner)
    return statistics.median(samples)


def bench_declaration_check() -> dict[str, float]:
    """A mid-deal table (bezique, trump marriage, four queens laid) and typical declarations."""
    m = Match.new("two-hand", ["Anna", "Boris"], tracking="tricks")
    m.start_deal(0, parse_card("9S"))
    m.apply(Trick(1))
    m.apply(Declare(1, tuple(parse_cards(["KS", "QS", "JD"])), (), "bezique"))
    m.apply(Trick(1))
    m.apply(Declare(1, tuple(parse_cards(["QC", "QD", "QH"])), tuple(parse_cards(["QS"])),
                    "four_queens"))
    m.apply(Trick(1))
    cases = {
        "accepted: pending trump marriage": Declare(1, (), tuple(parse_cards(["KS", "QS"])),
                                                   "trump_marriage"),
        "accepted: trump sequence reusing K Q": Declare(
            1, tuple(parse_cards(["AS", "10S", "JS"])), tuple(parse_cards(["KS", "QS"])),
            "trump_sequence"),
        "accepted: double bezique": Declare(1, tuple(parse_cards(["QS", "JD"])),
                                            tuple(parse_cards(["QS", "JD"])), "double_bezique"),
        "rejected: marriage reusing a four-queens queen": Declare(
            1, tuple(parse_cards(["KH"])), tuple(parse_cards(["QH"])), "marriage"),
        "rejected: not the trick's winner": Declare(0, tuple(parse_cards(["KH", "QH"])), (),
                                                    "marriage"),
        "no meld named, one combination": Declare(1, tuple(parse_cards(["AH", "AD", "AC", "AS"]))),
    }
    out = {}
    for name, event in cases.items():
        out[name] = median_time(lambda e=event: m.verify(e), repeat=200, inner=50)  # type: ignore[misc]
    out["seven"] = median_time(lambda: m.verify(Seven(1)), repeat=200, inner=50)
    return out


def simulated_cards_deal(seed: int) -> dict[str, Any]:
    """One full two-hand deal tracked with cards, from the simulator."""
    from referee.simulate import simulate_match

    return simulate_match("two-hand", seed, tracking="cards", max_deals=1).to_obj()


def bench_cards_deal() -> dict[str, float]:
    """Median over 20 different simulated deals of each deal's median replay time."""
    per_deal, with_parse, events = [], [], []
    for seed in range(20):
        record = simulated_cards_deal(seed)
        parsed = parse_record(record)
        events.append(sum(len(d.events) for d in parsed.deals))
        per_deal.append(median_time(lambda p=parsed: replay_record(p), repeat=15, inner=3))  # type: ignore[misc]
        with_parse.append(median_time(
            lambda r=record: replay_record(parse_record(r)), repeat=9, inner=2))  # type: ignore[misc]
    return {"events": statistics.median(events),
            "replay_seconds": statistics.median(per_deal),
            "parse_and_replay_seconds": statistics.median(with_parse)}


def growth_record(n_events: int) -> dict[str, Any]:
    """A melds-tracked deal with n events: declarations, sevens and penalties, repeated."""
    pattern: list[dict[str, Any]] = [
        {"type": "declare", "player": "Anna", "new": ["KH", "QH"]},
        {"type": "declare", "player": "Boris", "new": ["QS", "JD"]},
        {"type": "seven", "player": "Anna"},
        {"type": "penalty", "player": "Boris", "offence": "P-EARLY-DECLARE"},
        {"type": "declare", "player": "Anna", "new": ["KC"], "table": ["QH"]},
    ]
    events = [pattern[i % len(pattern)] for i in range(n_events)]
    return {"format": "bezique-match/1", "variant": "two-hand", "players": ["Anna", "Boris"],
            "deals": [{"dealer": "Anna", "turn_up": "9S", "events": events}]}


def bench_growth() -> list[dict[str, float]]:
    rows = []
    for n in (50, 200, 1000, 5000, 10000):
        parsed = parse_record(growth_record(n))
        seconds = median_time(lambda p=parsed: replay_record(p), repeat=7)  # type: ignore[misc]
        rows.append({"events": n, "seconds": seconds, "us_per_event": seconds / n * 1e6})
    return rows


def main() -> None:
    results: dict[str, Any] = {"python": sys.version.split()[0]}
    decl = bench_declaration_check()
    results["declaration_check_seconds"] = decl
    print("Checking one declaration (median):")
    for name, s in decl.items():
        print(f"  {name:50} {s * 1e6:8.1f} µs")
    deal = bench_cards_deal()
    results["cards_deal"] = deal
    print(f"Replaying a full two-hand deal tracked with cards ({deal['events']:.0f} events): "
          f"{deal['replay_seconds'] * 1e3:.2f} ms (with parsing "
          f"{deal['parse_and_replay_seconds'] * 1e3:.2f} ms)")
    growth = bench_growth()
    results["growth"] = growth
    print("Growth (one melds-tracked deal):")
    for row in growth:
        print(f"  {row['events']:6.0f} events  {row['seconds'] * 1e3:9.2f} ms  "
              f"{row['us_per_event']:6.1f} µs/event")
    out = ROOT / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "engine.json").write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
