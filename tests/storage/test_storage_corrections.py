"""Corrections are log entries: the original stays in the history, what follows is replayed
on top of the correction, export writes the corrected events, undo/redo keep working."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from storage_samples import SAMPLE_EVENTS

from referee.record import parse_record, replay_record
from referee.storage import StorageError, StorageInputError, Store
from referee.storage.log import Entry, LogCorrupt, derive

BEZIQUE_BORIS = SAMPLE_EVENTS[0]
BEZIQUE_ANNA = {**BEZIQUE_BORIS, "player": "Anna"}


def _match(store: Store, events: list[dict[str, Any]]) -> int:
    mid = store.create_match("two-hand", ["Anna", "Boris"], target=100_000)
    store.start_deal(mid, "Anna", "9H")
    for ev in events:
        store.record(mid, ev)
    return mid


def _seat_scores(m: Any) -> list[list[int]]:
    return [
        [d.scores()[m.setup.side_of[s]] for s in range(len(m.players))] for d in m.deals
    ]


def _consistent(store: Store, mid: int) -> dict[str, Any]:
    """The export replays to what the store says, and the caches equal the replay."""
    exported = store.export_match(mid)
    m = store.load_match(mid)
    assert replay_record(parse_record(exported)).result().to_json() == m.result().to_json()
    assert store.cached_scores(mid) == _seat_scores(m)
    return exported


def test_correcting_the_player_of_a_bezique_moves_its_points_and_keeps_the_original(
    store: Store,
) -> None:
    mid = _match(store, [BEZIQUE_BORIS, {"type": "declare", "player": "Anna", "new": ["KC", "QC"]}])
    seq = store.event_seqs(mid)[0][0]
    before = store.load_match(mid).totals()
    done = store.correct(mid, seq, BEZIQUE_ANNA)
    assert store.load_match(mid).totals() == [before[0] + 40, before[1] - 40]
    assert [(t.side, t.before, t.after) for t in done.diff.totals] == [
        ("Anna", before[0], before[0] + 40),
        ("Boris", before[1], before[1] - 40),
    ]
    exported = _consistent(store, mid)
    assert exported["deals"][0]["events"][0]["player"] == "Anna"  # no correction entries
    history = store.history(mid)
    original = next(r for r in history if r.seq == seq)
    fix = history[-1]
    assert original.payload == BEZIQUE_BORIS and original.replaced_by == fix.seq
    assert (fix.kind, fix.target_seq, fix.payload["player"], fix.effective) == (
        "correct",
        seq,
        "Anna",
        True,
    )
    # the statistics cache credits Anna now
    assert next((seat, m) for _, seat, m, _ in store.cached_melds(mid)) == (0, "bezique")


def test_a_preview_stores_nothing(store: Store) -> None:
    mid = _match(store, [BEZIQUE_BORIS])
    seq = store.event_seqs(mid)[0][0]
    length = len(store.history(mid))
    worked = store.preview_correction(mid, seq, BEZIQUE_ANNA)
    assert worked.after.totals() == [40, 0]
    assert len(store.history(mid)) == length and store.load_match(mid).totals() == [0, 40]


def test_deleting_an_entry_keeps_it_in_the_history_and_out_of_the_export(store: Store) -> None:
    mid = _match(store, SAMPLE_EVENTS[:3])
    seqs = store.event_seqs(mid)[0]
    store.correct(mid, seqs[1], None)
    assert store.event_seqs(mid) == [[seqs[0], seqs[2]]]
    exported = _consistent(store, mid)
    assert exported["deals"][0]["events"] == [SAMPLE_EVENTS[0], SAMPLE_EVENTS[2]]
    row = next(r for r in store.history(mid) if r.seq == seqs[1])
    assert row.effective and row.replaced_by == store.history(mid)[-1].seq
    with pytest.raises(StorageInputError, match="no event that counts"):
        store.correct(mid, seqs[1], SAMPLE_EVENTS[1])


def test_undo_takes_a_correction_back_and_redo_restores_it(store: Store) -> None:
    mid = _match(store, SAMPLE_EVENTS[:2])
    seq = store.event_seqs(mid)[0][0]
    store.correct(mid, seq, BEZIQUE_ANNA)
    assert store.load_match(mid).totals() == [80, 0]
    assert store.can_undo(mid) and not store.can_redo(mid)
    assert store.undo(mid)
    assert store.load_match(mid).totals() == [40, 40]
    _consistent(store, mid)
    assert store.redo(mid)
    assert store.load_match(mid).totals() == [80, 0]
    # undo walks on past the correction into the events themselves
    assert store.undo(mid) and store.undo(mid)
    assert store.export_match(mid)["deals"][0]["events"] == [BEZIQUE_BORIS]
    _consistent(store, mid)


def test_a_new_event_after_a_correction_forgets_what_could_be_redone(store: Store) -> None:
    mid = _match(store, [BEZIQUE_BORIS])
    store.correct(mid, store.event_seqs(mid)[0][0], BEZIQUE_ANNA)
    store.undo(mid)
    store.record(mid, SAMPLE_EVENTS[1])
    assert not store.can_redo(mid)
    assert store.load_match(mid).totals() == [40, 40]


def test_a_second_correction_of_the_same_entry_replaces_the_first(store: Store) -> None:
    mid = _match(store, [BEZIQUE_BORIS])
    seq = store.event_seqs(mid)[0][0]
    store.correct(mid, seq, BEZIQUE_ANNA)
    store.correct(mid, seq, {"type": "declare", "player": "Boris", "new": ["KC", "QC"]})
    assert store.event_seqs(mid) == [[seq]]
    assert store.load_match(mid).totals() == [0, 20]
    _consistent(store, mid)


def test_a_correction_that_contradicts_a_later_entry_is_refused_and_stores_nothing(
    store: Store,
) -> None:
    # The brisques must add up to 16: correcting them to 9 + 9 contradicts the pack.
    mid = _match(store, SAMPLE_EVENTS)
    seq = store.event_seqs(mid)[0][-1]
    length = len(store.history(mid))
    with pytest.raises(StorageInputError, match="no longer fits"):
        store.correct(mid, seq, {"type": "brisques", "counts": {"Anna": 9, "Boris": 9}})
    assert len(store.history(mid)) == length


def test_a_malformed_correction_names_the_field_and_stores_nothing(store: Store) -> None:
    mid = _match(store, [BEZIQUE_BORIS])
    seq = store.event_seqs(mid)[0][0]
    with pytest.raises(StorageInputError, match="Olga"):
        store.correct(mid, seq, {**BEZIQUE_BORIS, "player": "Olga"})
    assert len(store.history(mid)) == 2


def test_corrections_survive_reopening(db_url: str) -> None:
    with Store.open(db_url) as s:
        mid = _match(s, [BEZIQUE_BORIS])
        s.correct(mid, s.event_seqs(mid)[0][0], BEZIQUE_ANNA)
    with Store.open(db_url) as s:
        assert s.load_match(mid).totals() == [40, 0]
        assert s.can_undo(mid)


def test_a_correction_in_an_earlier_deal_replays_the_later_deals(store: Store) -> None:
    mid = _match(store, SAMPLE_EVENTS)
    store.start_deal(mid, "Boris", "9H")
    store.record(mid, BEZIQUE_BORIS)
    store.correct(mid, store.event_seqs(mid)[0][0], BEZIQUE_ANNA)
    m = store.load_match(mid)
    assert len(m.deals) == 2 and m.deals[1].scores() == [0, 40]
    _consistent(store, mid)


def test_the_log_refuses_a_correction_that_names_no_event() -> None:
    with pytest.raises(LogCorrupt):
        derive([Entry(1, "deal"), Entry(2, "correct", 1)])
    with pytest.raises(LogCorrupt):
        derive([Entry(1, "deal"), Entry(2, "event"), Entry(3, "delete", 2),
                Entry(4, "correct", 2)])
    with pytest.raises(LogCorrupt):
        derive([Entry(1, "deal"), Entry(2, "correct", 9)])
    state = derive([Entry(1, "deal"), Entry(2, "event"), Entry(3, "correct", 2),
                    Entry(4, "undo", 3)])
    assert dict(state.corrections) == {} and state.redoable == (3,)


def test_a_log_with_a_broken_correction_is_reported_not_replayed(store: Store) -> None:
    from sqlalchemy import insert

    from referee.storage.models import TABLES

    mid = _match(store, [BEZIQUE_BORIS])
    with store.engine.begin() as conn:
        conn.execute(insert(TABLES["log_entry"]).values(
            match_id=mid, seq=9, kind="correct", target_seq=1, payload=None))
    with pytest.raises(StorageError, match="no event that counts"):
        store.load_match(mid)


# Random record / correct / delete / undo / redo, compared with a plain stack model.
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("event"), st.integers(0, len(SAMPLE_EVENTS) - 1), st.just(0)),
        st.tuples(st.just("fix"), st.integers(0, 9), st.integers(-1, len(SAMPLE_EVENTS) - 1)),
        st.tuples(st.just("undo"), st.just(0), st.just(0)),
        st.tuples(st.just("redo"), st.just(0), st.just(0)),
    ),
    max_size=20,
)


def _model_events(stack: list[tuple[str, Any]]) -> list[Any]:
    events: dict[int, Any] = {}
    for i, (kind, value) in enumerate(stack):
        if kind == "event":
            events[i] = value
        else:
            target, payload = value
            if payload is None:
                del events[target]
            else:
                events[target] = payload
    return list(events.values())


@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_corrections_with_undo_redo_match_a_simple_model(
    store: Store, ops: list[tuple[str, int, int]]
) -> None:
    mid = _match(store, [])
    stack: list[tuple[str, Any]] = []  # ("event", payload) | ("fix", (stack index, payload))
    redo: list[tuple[str, Any]] = []
    seq_of: dict[int, int] = {}  # stack index of an event → its log seq
    for op, a, b in ops:
        if op == "event":
            try:
                store.record(mid, SAMPLE_EVENTS[a])
            except StorageInputError:
                continue
            seq_of[len(stack)] = store.history(mid)[-1].seq
            stack.append(("event", SAMPLE_EVENTS[a]))
            redo.clear()
        elif op == "fix":
            live = [i for i, (k, _) in enumerate(stack) if k == "event"]
            live = [i for i in live if all(
                not (k == "fix" and v[0] == i and v[1] is None) for k, v in stack)]
            if not live:
                continue
            target = live[a % len(live)]
            payload = None if b < 0 else SAMPLE_EVENTS[b]
            try:
                store.correct(mid, seq_of[target], payload)
            except StorageInputError:
                continue
            stack.append(("fix", (target, payload)))
            redo.clear()
        elif op == "undo":
            assert store.undo(mid)  # the deal start is always there to undo
            if stack:
                redo.append(stack.pop())
            else:  # only the deal start was left: put it back
                store.redo(mid)
        else:
            assert store.redo(mid) == bool(redo)
            if redo:
                stack.append(redo.pop())
    exported = _consistent(store, mid)
    assert exported["deals"][0]["events"] == _model_events(stack)
    store.delete_match(mid)
