"""The log is the truth: what is recorded replays to the engine's score, undo/redo are logged
entries, and reopening returns to the same place."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from storage_samples import SAMPLE_EVENTS, sample_record

from referee.record import parse_record, replay_record
from referee.storage import StorageInputError, Store, UnknownMatchError


def _play_sample(store: Store, events: list[dict[str, Any]] = SAMPLE_EVENTS) -> int:
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    store.start_deal(mid, "Anna", "9H")
    for ev in events:
        store.record(mid, ev)
    return mid


def _engine_result(record: dict[str, Any]) -> dict[str, Any]:
    return replay_record(parse_record(record)).result().to_json()


def test_recorded_match_replays_to_the_engines_result(store: Store) -> None:
    mid = _play_sample(store)
    want = _engine_result(sample_record())
    assert store.load_match(mid).result().to_json() == want
    assert store.export_match(mid, format="bezique-match/1") == sample_record()
    # The cache of deal scores agrees with the replay.
    assert store.cached_scores(mid) == [[s["deal_scores"][0] for s in want["sides"]]]


def test_record_returns_the_engines_ruling_and_keeps_rejected_events(store: Store) -> None:
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    store.start_deal(mid, "Anna", "9H")
    rulings = [store.record(mid, ev) for ev in SAMPLE_EVENTS]
    expected = replay_record(parse_record(sample_record())).deals[0].log
    assert [(r.accepted, r.rule, r.points) for r in rulings] == [
        (r.accepted, r.rule, r.points) for _, r in expected
    ]
    assert not all(r.accepted for r in rulings), "the sample holds rejected declarations"
    assert len(store.export_match(mid)["deals"][0]["events"]) == len(SAMPLE_EVENTS)


def test_malformed_event_names_the_field_and_stores_nothing(store: Store) -> None:
    mid = _play_sample(store, SAMPLE_EVENTS[:2])
    before = store.history(mid)
    with pytest.raises(StorageInputError) as err:
        store.record(mid, {"type": "declare", "player": "Anna", "new": ["KH", "1S"]})
    assert "new[1]" in str(err.value) and "1S" in str(err.value)
    with pytest.raises(StorageInputError) as err:
        store.record(mid, {"type": "declare", "player": "Zoe", "new": ["KH"]})
    assert "Zoe" in str(err.value)
    with pytest.raises(StorageInputError):
        store.record(mid, {"type": "nonsense"})
    assert store.history(mid) == before
    # The store still works after the refusals.
    store.record(mid, SAMPLE_EVENTS[2])
    assert len(store.history(mid)) == len(before) + 1


def test_inconsistent_event_is_refused_and_stores_nothing(store: Store) -> None:
    mid = _play_sample(store, SAMPLE_EVENTS[:2])
    before = store.history(mid)
    with pytest.raises(StorageInputError):
        store.record(mid, {"type": "brisques", "counts": {"Anna": 30, "Boris": 30}})
    assert store.history(mid) == before
    assert store.load_match(mid).result().to_json() == _engine_result(
        sample_record()
        | {"deals": [{"dealer": "Anna", "turn_up": "9H", "events": SAMPLE_EVENTS[:2]}]}
    )


def test_event_before_any_deal_is_refused(store: Store) -> None:
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    with pytest.raises(StorageInputError, match="deal"):
        store.record(mid, SAMPLE_EVENTS[0])


def test_bad_match_settings_are_refused(store: Store) -> None:
    with pytest.raises(StorageInputError):
        store.create_match("two-hand", ["Anna", "Boris", "Carl", "Dora", "Emil"])
    with pytest.raises(StorageInputError):
        store.create_match("no-such-variant", ["Anna", "Boris"])
    assert store.list_matches() == []


def test_unknown_match(store: Store) -> None:
    with pytest.raises(UnknownMatchError):
        store.record(12345, SAMPLE_EVENTS[0])
    with pytest.raises(UnknownMatchError):
        store.load_match(12345)


def test_undo_and_redo_are_logged_and_change_the_effective_events(store: Store) -> None:
    mid = _play_sample(store, SAMPLE_EVENTS[:4])
    assert store.undo(mid) and store.undo(mid)
    events = store.export_match(mid)["deals"][0]["events"]
    assert events == SAMPLE_EVENTS[:2]
    assert store.load_match(mid).result().to_json() == _engine_result(
        sample_record()
        | {"deals": [{"dealer": "Anna", "turn_up": "9H", "events": SAMPLE_EVENTS[:2]}]}
    )
    assert store.redo(mid)
    assert store.export_match(mid)["deals"][0]["events"] == SAMPLE_EVENTS[:3]
    history = store.history(mid)
    kinds = [h.kind for h in history]
    assert kinds == ["deal", "event", "event", "event", "event", "undo", "undo", "redo"]
    # Nothing was deleted: the undone fourth event is still in the audit trail.
    assert history[4].payload == SAMPLE_EVENTS[3] and not history[4].effective
    assert history[5].target_seq == 5 and history[6].target_seq == 4
    assert history[7].target_seq == 4


def test_new_event_forgets_what_could_be_redone(store: Store) -> None:
    mid = _play_sample(store, SAMPLE_EVENTS[:3])
    assert store.undo(mid)
    assert store.can_redo(mid)
    store.record(mid, SAMPLE_EVENTS[4])
    assert not store.can_redo(mid)
    assert not store.redo(mid)


def test_undo_walks_back_through_deals_without_limit(store: Store) -> None:
    mid = _play_sample(store, SAMPLE_EVENTS[:2])
    store.start_deal(mid, "Boris", "8C")
    store.record(mid, {"type": "seven", "player": "Anna"})
    steps = 0
    while store.undo(mid):
        steps += 1
    assert steps == 5  # event, deal start, two events, first deal start
    assert not store.can_undo(mid)
    assert store.export_match(mid)["deals"] == []
    while store.redo(mid):
        steps -= 1
    assert steps == 0
    deals = store.export_match(mid)["deals"]
    assert [d["dealer"] for d in deals] == ["Anna", "Boris"]
    assert deals[1]["events"] == [{"type": "seven", "player": "Anna"}]


def test_caches_follow_undo(store: Store) -> None:
    mid = _play_sample(store)
    while store.undo(mid):
        m = store.load_match(mid)
        per_deal = [list(_seat_scores(m, i)) for i in range(len(m.deals))]
        assert store.cached_scores(mid) == per_deal


def _seat_scores(m: Any, i: int) -> list[int]:
    scores = m.deals[i].scores()
    return [scores[m.setup.side_of[s]] for s in range(len(m.players))]


def test_resume_after_reopening(db_url: str) -> None:
    s = Store.open(db_url)
    done = _play_sample(s)
    open_mid = _play_sample(s, SAMPLE_EVENTS[:5])
    s.undo(open_mid)
    want = s.load_match(open_mid).result().to_json()
    s.close()
    s2 = Store.open(db_url)
    try:
        assert s2.unfinished_match() == open_mid
        assert s2.load_match(open_mid).result().to_json() == want
        assert s2.can_redo(open_mid)
        assert s2.redo(open_mid)
        assert s2.export_match(open_mid)["deals"][0]["events"] == SAMPLE_EVENTS[:5]
        assert {m.id for m in s2.list_matches()} == {done, open_mid}
    finally:
        s2.close()


def test_resume_picks_the_last_played_unfinished_match(store: Store) -> None:
    a = _play_sample(store, SAMPLE_EVENTS[:1])
    b = _play_sample(store, SAMPLE_EVENTS[:1])
    assert store.unfinished_match() == b
    store.record(a, SAMPLE_EVENTS[1])
    assert store.unfinished_match() == a


def test_finished_match_is_not_resumed_and_winner_is_cached(store: Store) -> None:
    rec = sample_record(deals=1) | {"target": 100}
    mid = store.import_match(rec)
    res = _engine_result(rec)
    assert res["finished"]
    info = store.match_info(mid)
    assert info.finished and info.winner == res["winner"]
    assert store.unfinished_match() is None
    # Undoing reopens the match at the point the engine says so: the cached verdict follows
    # the replay after every step.
    reopened = False
    while store.undo(mid):
        now = store.load_match(mid).result()
        info = store.match_info(mid)
        assert (info.finished, info.winner) == (now.finished, now.winner)
        assert (store.unfinished_match() == mid) == (not now.finished)
        reopened = reopened or not now.finished
    assert reopened


def test_two_stores_on_one_database_see_each_others_events(db_url: str) -> None:
    a = Store.open(db_url)
    b = Store.open(db_url)
    try:
        mid = _play_sample(a, SAMPLE_EVENTS[:1])
        b.record(mid, SAMPLE_EVENTS[1])  # b has no replay of it yet
        a.record(mid, SAMPLE_EVENTS[2])  # a's replay is stale and must be rebuilt
        assert a.export_match(mid)["deals"][0]["events"] == SAMPLE_EVENTS[:3]
        assert [h.seq for h in b.history(mid)] == [1, 2, 3, 4]
    finally:
        a.close()
        b.close()


def test_delete_match(store: Store) -> None:
    mid = _play_sample(store, SAMPLE_EVENTS[:2])
    keep = _play_sample(store, SAMPLE_EVENTS[:1])
    store.delete_match(mid)
    assert [m.id for m in store.list_matches()] == [keep]
    with pytest.raises(UnknownMatchError):
        store.history(mid)


# Random sequences of record / undo / redo / new deal, compared with a plain list model.
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("event"), st.integers(0, len(SAMPLE_EVENTS) - 1)),
        st.tuples(st.just("undo"), st.just(0)),
        st.tuples(st.just("redo"), st.just(0)),
        st.tuples(st.just("deal"), st.integers(0, 1)),
    ),
    max_size=25,
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(ops=OPS)
def test_undo_redo_matches_a_simple_model(store: Store, ops: list[tuple[str, int]]) -> None:
    mid = store.create_match("two-hand", ["Anna", "Boris"], target=100_000)
    model: list[tuple[str, Any]] = []
    redo: list[tuple[str, Any]] = []
    for op, arg in ops:
        if op == "event":
            if not any(k == "deal" for k, _ in model):
                continue
            try:
                store.record(mid, SAMPLE_EVENTS[arg])
            except StorageInputError:
                continue
            model.append(("event", SAMPLE_EVENTS[arg]))
            redo.clear()
        elif op == "deal":
            store.start_deal(mid, arg, "9H")
            model.append(("deal", ["Anna", "Boris"][arg]))
            redo.clear()
        elif op == "undo":
            assert store.undo(mid) == bool(model)
            if model:
                ends = _is_end(model[-2:], "last_trick", "brisques")
                redo.append(model.pop())
                if ends:  # the end of a deal is one step
                    redo.append(model.pop())
        else:
            assert store.redo(mid) == bool(redo)
            if redo:
                ends = _is_end(redo[-2:], "brisques", "last_trick")
                model.append(redo.pop())
                if ends:
                    model.append(redo.pop())
    deals: list[dict[str, Any]] = []
    for kind, value in model:
        if kind == "deal":
            deals.append({"dealer": value, "turn_up": "9H", "events": []})
        else:
            deals[-1]["events"].append(value)
    exported = store.export_match(mid)
    assert exported["deals"] == deals
    m = store.load_match(mid)
    assert m.result().to_json() == _engine_result(exported)
    assert store.cached_scores(mid) == [_seat_scores(m, i) for i in range(len(m.deals))]
    counted = [row for row in store.history(mid) if row.effective]
    for count in (0, 1, 2, 5):  # what an undo's message reads: the newest entries that count
        assert store.newest_effective(mid, count) == (counted[-count:] if count else [])
    store.delete_match(mid)


def _is_end(pair: list[tuple[str, Any]], first: str, second: str) -> bool:
    """The model's reading of undo_steps: a last trick and the brisques after it, adjacent
    in one deal (no deal start between them), form one step."""
    return (
        len(pair) == 2
        and all(kind == "event" for kind, _ in pair)
        and pair[0][1]["type"] == first
        and pair[1][1]["type"] == second
    )


def test_one_undo_takes_back_the_whole_end_of_a_deal_and_one_redo_restores_it(
    store: Store,
) -> None:
    mid = _play_sample(store)
    ended = store.export_match(mid)
    assert [e["type"] for e in SAMPLE_EVENTS[-2:]] == ["last_trick", "brisques"]
    assert store.undo(mid)
    assert store.export_match(mid)["deals"][0]["events"] == SAMPLE_EVENTS[:-2]
    deal = store.load_match(mid).current
    assert deal is not None and not deal.last_trick_scored and not deal.brisques_scored
    assert [h.kind for h in store.history(mid)][-2:] == ["undo", "undo"]
    assert store.redo(mid)
    assert store.export_match(mid) == ended
    # Then each other entry is a step of its own.
    assert store.undo(mid) and store.undo(mid)
    assert store.export_match(mid)["deals"][0]["events"] == SAMPLE_EVENTS[:-3]


def test_list_matches_pages_newest_first(store: Store) -> None:
    ids = [_play_sample(store, SAMPLE_EVENTS[:1]) for _ in range(5)]
    everything = [m.id for m in store.list_matches()]
    assert everything == ids[::-1]
    page = store.list_matches(limit=2, offset=1)
    assert [m.id for m in page] == everything[1:3]
    assert all(m.players == ("Anna", "Boris") for m in page)


def test_concurrent_writers_never_interleave_or_lose_events(db_url: str) -> None:
    """Two stores (as two app instances would), two threads each, on one match: every event
    lands, once, with a gap-free log."""
    import threading

    stores = [Store.open(db_url), Store.open(db_url)]
    try:
        mid = stores[0].create_match("two-hand", ["Anna", "Boris"], target=10**9)
        stores[0].start_deal(mid, "Anna", "9H")
        errors: list[BaseException] = []

        def writer(store: Store, who: str) -> None:
            try:
                for _ in range(15):
                    store.record(mid, {"type": "penalty", "player": who, "offence": "P-REVOKE"})
            except BaseException as exc:  # reported below
                errors.append(exc)

        threads = [
            threading.Thread(target=writer, args=(s, who))
            for s in stores
            for who in ("Anna", "Boris")
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        history = stores[1].history(mid)
        assert [h.seq for h in history] == list(range(1, 62))
        events = stores[1].export_match(mid)["deals"][0]["events"]
        assert [e["player"] for e in events].count("Anna") == 30
        assert len(events) == 60
        m = stores[0].load_match(mid)
        assert stores[0].cached_scores(mid) == [_seat_scores(m, 0)]
    finally:
        for s in stores:
            s.close()
