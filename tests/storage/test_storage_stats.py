"""Statistics from the caches agree with what the engine's replay of every stored match says."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from storage_samples import SAMPLE_EVENTS, sample_record

from referee.storage import Store


def _random_record(rng: random.Random, players: list[str]) -> dict[str, Any]:
    rec = sample_record(deals=rng.randint(1, 3)) | {"players": players}
    rec["target"] = rng.choice([300, 800, 100_000])
    names = {"Anna": players[0], "Boris": players[1]}
    deals = []
    for d, deal in enumerate(rec["deals"]):
        events = [e for e in deal["events"] if rng.random() < 0.8 or e["type"] == "brisques"]
        out = []
        for e in events:
            e = dict(e)
            for key in ("player", "winner"):
                if key in e:
                    e[key] = names[e[key]]
            if "counts" in e:
                e["counts"] = {names[k]: v for k, v in e["counts"].items()}
            out.append(e)
        deals.append({"dealer": players[d % 2], "turn_up": "9H", "events": out})
    rec["deals"] = deals
    return rec


def test_player_stats_agree_with_the_replays(store: Store) -> None:
    rng = random.Random(7)
    people = ["Anna", "Boris", "Carl", "Dora"]
    for _ in range(12):
        pair = rng.sample(people, 2)
        try:
            store.import_match(_random_record(rng, pair))
        except ValueError:
            continue  # a random cut the engine refuses is fine: it stored nothing
    mid = store.create_match("two-hand", ["Carl", "Anna"])
    store.start_deal(mid, "Carl", "9H")
    store.record(mid, {**SAMPLE_EVENTS[0], "player": "Anna"})
    store.undo(mid)  # an undone declaration does not count

    played: dict[str, int] = defaultdict(int)
    won: dict[str, int] = defaultdict(int)
    deal_points: dict[str, list[int]] = defaultdict(list)
    melds: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for info in store.list_matches():
        m = store.load_match(info.id)
        res = m.result()
        for seat, name in enumerate(m.players):
            played[name] += 1
            side = m.setup.side_of[seat]
            if res.winner == m.side_names[side]:
                won[name] += 1
            deal_points[name].extend(d.scores()[side] for d in m.deals)
        for deal in m.deals:
            for event, ruling in deal.log:
                if ruling.accepted and ruling.points and hasattr(event, "player"):
                    kind = ruling.meld or ("seven" if type(event).__name__ == "Seven" else None)
                    if kind:
                        melds[m.players[event.player]][kind].append(ruling.points)
    stats = {s.name: s for s in store.player_stats()}
    assert set(stats) == set(played)
    assert sum(won.values()) > 0, "some generated matches should be finished"
    for name, s in stats.items():
        assert s.matches_played == played[name]
        assert s.matches_won == won[name]
        assert s.deals_played == len(deal_points[name])
        if deal_points[name]:
            assert s.average_points_per_deal is not None
            mean = sum(deal_points[name]) / len(deal_points[name])
            assert abs(s.average_points_per_deal - mean) < 1e-9
            assert s.biggest_deal == max(deal_points[name])
        want = sorted(
            ((-max(v), -len(v), k) for k, v in melds[name].items())
        )[:3]
        assert [(-p, -n, k) for p, n, k in want] == [
            (b.best_points, b.count, b.meld) for b in s.best_melds
        ]
    everyone = sorted(
        (p for pts in deal_points.values() for p in pts), reverse=True
    )
    assert [d.points for d in store.biggest_deals(5)] == everyone[:5]
    top = store.best_combinations(3)
    assert top[0][1].best_points == max(max(v) for d in melds.values() for v in d.values())
