"""Compare-and-append: a write names the log position its device's view showed, and storage
appends it only if the match's log is still there. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import threading

import pytest

from referee.storage import StaleWrite, Store, UnknownMatchError

PENALTY = {"type": "penalty", "player": "Anna", "offence": "P-REVOKE"}


def _match(store: Store) -> int:
    mid = store.create_match("two-hand", ["Anna", "Boris"], target=10**9)
    store.start_deal(mid, "Anna", "9H")
    return mid


def test_position_is_the_newest_log_entry_and_each_write_moves_it_by_one(store: Store) -> None:
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    assert store.log_position(mid) == 0
    store.start_deal(mid, "Anna", "9H", at=0)
    assert store.log_position(mid) == 1
    store.record(mid, PENALTY, at=1)
    assert store.log_position(mid) == 2
    assert store.undo(mid, at=2)
    assert store.log_position(mid) == 3
    assert store.redo(mid, at=3)
    assert store.log_position(mid) == 4
    assert [h.seq for h in store.history(mid)] == [1, 2, 3, 4]


def test_a_write_made_on_a_stale_view_is_refused_and_stores_nothing(store: Store) -> None:
    mid = _match(store)
    seen = store.log_position(mid)
    store.record(mid, {"type": "declare", "player": "Boris", "new": ["KS", "KH", "KD", "KC"]})
    before = store.history(mid)
    scores = store.cached_scores(mid)
    with pytest.raises(StaleWrite) as caught:
        store.record(mid, {"type": "declare", "player": "Anna", "new": ["QS", "JD"]}, at=seen)
    assert (caught.value.expected, caught.value.actual) == (seen, seen + 1)
    assert store.history(mid) == before
    assert store.cached_scores(mid) == scores
    # re-applied on the current state, the same event lands
    store.record(mid, {"type": "declare", "player": "Anna", "new": ["QS", "JD"]}, at=seen + 1)
    assert store.log_position(mid) == seen + 2


def test_a_stale_undo_never_removes_an_entry_its_device_has_not_seen(store: Store) -> None:
    mid = _match(store)
    seen = store.log_position(mid)
    store.record(mid, PENALTY)  # another device's entry
    with pytest.raises(StaleWrite):
        store.undo(mid, at=seen)
    with pytest.raises(StaleWrite):
        store.redo(mid, at=seen)
    assert len(store.load_match(mid).current.log) == 1
    assert store.undo(mid, at=seen + 1)
    assert len(store.load_match(mid).current.log) == 0


def test_a_stale_deal_start_is_refused(store: Store) -> None:
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    store.start_deal(mid, "Anna", "9H")
    with pytest.raises(StaleWrite):
        store.start_deal(mid, "Boris", "9S", at=0)
    assert len(store.load_match(mid).deals) == 1


def test_position_of_an_unknown_match_is_an_unknown_match_error(store: Store) -> None:
    with pytest.raises(UnknownMatchError):
        store.log_position(424242)


def test_two_writers_at_the_same_position_one_lands_the_other_is_refused(db_url: str) -> None:
    """Two stores (two app servers on one database), released together at the same log
    position, round after round: exactly one entry lands each round, the other writer gets
    StaleWrite, and the log stays gap-free with every landed entry in it once."""
    stores = [Store.open(db_url), Store.open(db_url)]
    try:
        mid = _match(stores[0])
        rounds = 12
        outcome: dict[int, list[str]] = {}
        gate = threading.Barrier(2)
        failures: list[BaseException] = []

        def writer(store: Store, who: str) -> None:
            try:
                for r in range(rounds):
                    gate.wait(timeout=30)
                    at = 1 + r  # deal start, then one entry per round
                    event = {"type": "penalty", "player": who, "offence": "P-REVOKE"}
                    try:
                        store.record(mid, event, at=at)
                        outcome.setdefault(r, []).append(who)
                    except StaleWrite:
                        outcome.setdefault(r, []).append("refused")
                    gate.wait(timeout=30)
            except BaseException as exc:  # reported below
                failures.append(exc)

        threads = [
            threading.Thread(target=writer, args=(s, who))
            for s, who in zip(stores, ("Anna", "Boris"), strict=True)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert failures == []
        for r in range(rounds):
            assert sorted(outcome[r]).count("refused") == 1, outcome[r]
        history = stores[1].history(mid)
        assert [h.seq for h in history] == list(range(1, rounds + 2))
        landed = [h.payload["player"] for h in history[1:] if h.payload]
        assert landed == [next(w for w in outcome[r] if w != "refused") for r in range(rounds)]
        assert stores[0].load_match(mid).result().sides == stores[1].load_match(mid).result().sides
    finally:
        for s in stores:
            s.close()
