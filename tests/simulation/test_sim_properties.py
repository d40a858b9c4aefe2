"""Properties of the engine with the deal simulator as the generator (issue 6).

- every simulated legal event is accepted, and the score is the simulator's own sum;
- every score equals the sum of its events;
- replay is deterministic, and so is the simulator;
- export → import → replay is identical (engine records and the storage);
- undo of the last k entries equals replaying the log without them (storage).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from referee.record import DealRecord, MatchRecord, dump_record, record_to_obj
from referee.simulate import simulate_match
from referee.variants import variant_ids
from simulation.sim_helpers import SimArgs, replay_obj, result_json, sim_args

REPO = Path(__file__).resolve().parents[2]
FAST = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FAST
@given(sim_args())
# R-PENDING: A♦ ×4 A♣ laid as four aces keeps the four trump aces pending (scored later).
@example(SimArgs("eight-pack", 2, "cards", ("H-PENALTY-TO-OPPONENT", "H-FALSE-ALL-MATCH"),
                 3789, 1, 0.0, 2))
@example(SimArgs("eight-pack", 2, "melds", (), 162, 2, 0.0, 1))
# R-PENDING + R-REFORM under H-REUSE-CLASSES: the seed that showed a copy choice by card
# alone spoiled a pending marriage (ENGINE-COPY-CHOICE-REFORM, docs/simulation.md).
@example(SimArgs("eight-pack", 2, "tricks", ("H-REUSE-CLASSES",), 188, 1, 0.0, 2))
def test_every_simulated_legal_event_is_accepted(args: SimArgs) -> None:
    sim = args.run()
    match = replay_obj(sim.to_obj())
    result = match.result()
    assert [(r.deal, r.event, r.rule, r.message) for r in result.rejected] == []
    assert [(p.deal, p.event, p.penalty) for p in result.proposals] == []
    assert tuple(s.deal_scores for s in result.sides) == sim.deal_scores
    assert (result.finished, result.winner) == (sim.finished, sim.winner)


@pytest.mark.parametrize("variant", variant_ids())
def test_whole_parties_of_every_variant_and_tracking(variant: str) -> None:
    """A full partie per variant, player count and tracking: accepted wholly, same score."""
    from referee.simulate import player_counts, tracking_levels

    for players in player_counts(variant):
        for tracking in tracking_levels(variant):
            sim = simulate_match(variant, 2026, tracking=tracking, players=players)
            result = replay_obj(sim.to_obj()).result()
            assert result.rejected == (), (players, tracking, result.rejected[:3])
            assert tuple(s.deal_scores for s in result.sides) == sim.deal_scores
            assert result.winner == sim.winner


@FAST
@given(sim_args())
def test_every_score_is_the_sum_of_its_events(args: SimArgs) -> None:
    match = replay_obj(args.run().to_obj())
    result = match.result()
    for deal in match.deals:
        by_side: dict[int, int] = defaultdict(int)
        for entry in deal.ledger:
            by_side[entry.side] += entry.points
            if entry.event is None:
                assert entry.reason == "R-DEALER-SEVEN"
                continue
            event, ruling = deal.log[entry.event]
            assert ruling.accepted, (entry, event)
        assert deal.scores() == [by_side[s] for s in range(len(match.side_names))]
        for index, (_, ruling) in enumerate(deal.log):
            if ruling.meld is not None:  # a declaration's points are its ledger entry
                got = sum(e.points for e in deal.ledger if e.event == index)
                assert got == ruling.points
    for side in result.sides:
        assert side.total == sum(side.deal_scores)
    assert [s.total for s in result.sides] == match.totals()


@FAST
@given(sim_args())
def test_replay_and_simulation_are_deterministic(args: SimArgs) -> None:
    sim = args.run()
    again = args.run()
    assert sim.to_json() == again.to_json()
    assert result_json(replay_obj(sim.to_obj())) == result_json(replay_obj(again.to_obj()))


def test_simulation_does_not_depend_on_the_hash_seed() -> None:
    code = ("from referee.simulate import simulate_match as s;"
            "print(s('three-hand', 5, tracking='cards', max_deals=2).to_json())")
    outs = set()
    for hash_seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        outs.add(subprocess.run([sys.executable, "-c", code], env=env, cwd=REPO,
                                capture_output=True, text=True, check=True).stdout)
    assert len(outs) == 1


@FAST
@given(sim_args())
def test_export_import_replay_is_identical(args: SimArgs) -> None:
    sim = args.run()
    match = replay_obj(sim.to_obj())
    exported = match.to_record()
    assert dump_record(exported) == sim.to_json()
    again = replay_obj(record_to_obj(exported))
    assert result_json(again) == result_json(match)


def _storage() -> object:
    return pytest.importorskip("referee.storage")


STORE = settings(max_examples=8, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                        HealthCheck.function_scoped_fixture])


@STORE
@given(sim_args(max_deals=2), st.integers(0, 2**31))
def test_storage_export_import_replay_is_identical(
    tmp_path_factory: pytest.TempPathFactory, args: SimArgs, salt: int
) -> None:
    storage = _storage()
    path = tmp_path_factory.mktemp("db") / f"s{salt}.sqlite3"
    store = storage.Store.open(str(path))  # type: ignore[attr-defined]
    try:
        sim = args.run()
        mid = store.import_match(sim.to_obj())
        expected = result_json(replay_obj(sim.to_obj()))
        assert result_json(store.load_match(mid)) == expected
        exported = store.export_match(mid)
        assert result_json(replay_obj(exported)) == expected
        mid2 = store.import_match(exported)
        assert store.export_match(mid2) == exported
    finally:
        store.close()


def _entries(record: MatchRecord) -> list[tuple[int, int | None]]:
    """The log as the storage keeps it: a deal start, then its events, deal after deal."""
    out: list[tuple[int, int | None]] = []
    for d, deal in enumerate(record.deals):
        out.append((d, None))
        out.extend((d, i) for i in range(len(deal.events)))
    return out


def _undo_steps(record: MatchRecord) -> list[int]:
    """How many log entries each Undo takes back, newest first: one, but the end of a deal
    (brisques right after the last trick, recorded together by the end form) is one step."""
    kinds = [None if i is None else type(record.deals[d].events[i]).__name__
             for d, i in _entries(record)]
    deals = [d for d, _ in _entries(record)]
    steps: list[int] = []
    j = len(kinds) - 1
    while j >= 0:
        pair = (j >= 1 and kinds[j] == "Brisques" and kinds[j - 1] == "LastTrick"
                and deals[j] == deals[j - 1])
        steps.append(2 if pair else 1)
        j -= steps[-1]
    return steps


def _without_last(record: MatchRecord, k: int) -> MatchRecord:
    kept = _entries(record)[: max(0, len(_entries(record)) - k)]
    deals: list[DealRecord] = []
    for d, i in kept:
        if i is None:
            deals.append(DealRecord(record.deals[d].dealer, record.deals[d].turn_up, ()))
        else:
            last = deals[-1]
            deals[-1] = DealRecord(last.dealer, last.turn_up,
                                   (*last.events, record.deals[d].events[i]))
    return MatchRecord(record.variant, record.players, record.tracking, record.house_rules,
                       record.target, tuple(deals), record.games)


@STORE
@given(sim_args(max_deals=2), st.integers(1, 40), st.integers(0, 2**31))
def test_undo_of_the_last_k_events_is_the_log_without_them(
    tmp_path_factory: pytest.TempPathFactory, args: SimArgs, k: int, salt: int
) -> None:
    storage = _storage()
    path = tmp_path_factory.mktemp("db") / f"u{salt}.sqlite3"
    store = storage.Store.open(str(path))  # type: ignore[attr-defined]
    try:
        sim = args.run()
        mid = store.import_match(sim.to_obj())
        steps = _undo_steps(sim.record)[:k]  # one Undo takes back one step
        for _ in steps:
            assert store.undo(mid)
        expected = replay_obj(record_to_obj(_without_last(sim.record, sum(steps))))
        assert result_json(store.load_match(mid)) == result_json(expected)
        # and redo brings them all back
        for _ in steps:
            assert store.redo(mid)
        assert result_json(store.load_match(mid)) == result_json(replay_obj(sim.to_obj()))
    finally:
        store.close()


def test_cli_simulate_prints_reproducible_records(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    assert main(["simulate", "--variant", "four-hand", "--seed", "9", "--matches", "2"]) == 0
    first = capsys.readouterr().out
    records = json.loads(first)
    assert len(records) == 2 and all(r["variant"] == "four-hand" for r in records)
    assert main(["simulate", "--variant", "four-hand", "--seed", "10", "--jsonl"]) == 0
    line = capsys.readouterr().out.strip()
    assert json.loads(line) == records[1]
    assert main(["simulate", "--variant", "two-hand", "--players", "3"]) == 2
    assert "2 players" in capsys.readouterr().err


@FAST
@given(sim_args(max_deals=2))
def test_the_pickers_options_offer_every_legal_declaration(args: SimArgs) -> None:
    """What the app's picker offers (Match.options) before each simulated declaration holds
    that declaration, accepted, with the points it then scores."""
    from referee.events import Declare
    from referee.match import Match

    sim = args.run()
    record = sim.record
    match = Match.new(record.variant, record.players, record.tracking, record.house_rules,
                      record.target, record.games)
    for deal in record.deals:
        match.start_deal(deal.dealer, deal.turn_up)
        for event in deal.events:
            if isinstance(event, Declare):
                offered = {o.meld: o for o in match.options(event.player, event.new,
                                                              event.table)}
                ruling = match.apply(event)
                assert ruling.accepted
                option = offered.get(ruling.meld or "")
                assert option is not None, (event, sorted(offered))
                assert option.ruling.accepted and option.points == ruling.points
            else:
                match.apply(event)


@FAST
@given(sim_args(max_deals=3), st.sampled_from([0.2, 0.6]))
def test_revokes_a_later_card_proves_are_proposed(args: SimArgs, rate: float) -> None:
    """Sloppy players (phase 2 cards the rules forbid): with cards tracking the referee
    proposes P-REVOKE exactly when a later card of the same player proves it, and at the
    trick that proves it; nothing is rejected and the score does not change."""
    from referee.simulate import SimOptions

    sim = simulate_match(args.variant, args.seed, tracking=args.tracking,
                         house_rules=args.house_rules, players=args.players,
                         max_deals=args.max_deals, options=SimOptions(revoke_rate=rate))
    result = replay_obj(sim.to_obj()).result()
    got = sorted((p.deal, p.event, p.player) for p in result.proposals
                 if p.penalty == "P-REVOKE")
    assert got == sorted(sim.revokes)
    assert result.rejected == ()
    assert tuple(s.deal_scores for s in result.sides) == sim.deal_scores


def test_storage_archive_round_trip_replays_identically(tmp_path: Path) -> None:
    """Simulated matches of every variant through a backup archive and into a fresh store."""
    storage = _storage()
    first = storage.Store.open(str(tmp_path / "a.sqlite3"))  # type: ignore[attr-defined]
    second = storage.Store.open(str(tmp_path / "b.sqlite3"))  # type: ignore[attr-defined]
    try:
        from referee.simulate import player_counts, tracking_levels

        expected = []
        for k, variant in enumerate(variant_ids()):
            levels = tracking_levels(variant)
            for players in player_counts(variant):
                sim = simulate_match(variant, 77 + k, tracking=levels[k % len(levels)],
                                     players=players, max_deals=2)
                first.import_match(sim.to_obj())
                expected.append(result_json(replay_obj(sim.to_obj())))
        assert first.export_archive(tmp_path / "backup.zip") == len(expected)
        ids = second.import_archive(tmp_path / "backup.zip")
        assert sorted(result_json(second.load_match(i)) for i in ids) == sorted(expected)
    finally:
        first.close()
        second.close()
