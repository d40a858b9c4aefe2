"""Abandoning a match sets it aside without losing it: the log stays whole, history lists it
as abandoned, it is not offered for resuming, and restoring brings it back as it was."""

from __future__ import annotations

from typing import Any

import pytest
from storage_samples import SAMPLE_EVENTS, sample_record

from referee.storage import StorageInputError, Store, UnknownMatchError


def _begun(store: Store, events: list[dict[str, Any]] = SAMPLE_EVENTS[:2]) -> int:
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    store.start_deal(mid, "Anna", "9H")
    for ev in events:
        store.record(mid, ev)
    return mid


def test_abandoned_match_is_kept_listed_and_not_resumed(store: Store) -> None:
    older = _begun(store)
    newer = _begun(store)
    before = store.export_match(newer)
    assert store.unfinished_match() == newer
    info = store.abandon_match(newer)
    assert info.abandoned and not info.finished
    assert store.unfinished_match() == older  # the next unfinished one is offered instead
    listed = {m.id: m for m in store.list_matches()}
    assert listed[newer].abandoned and not listed[older].abandoned
    assert [m.id for m in store.list_matches(unfinished_only=True)] == [older]
    assert store.export_match(newer) == before  # nothing of the log is lost


def test_restoring_an_abandoned_match_makes_it_resumable_again(store: Store) -> None:
    mid = _begun(store)
    store.abandon_match(mid)
    assert store.unfinished_match() is None
    info = store.restore_match(mid)
    assert not info.abandoned
    assert store.unfinished_match() == mid
    assert store.load_match(mid).totals() == [40, 40]


def test_abandon_survives_reopening_the_database(db_url: str) -> None:
    with Store.open(db_url) as s:
        mid = _begun(s)
        s.abandon_match(mid)
    with Store.open(db_url) as s:
        assert s.match_info(mid).abandoned
        assert s.unfinished_match() is None


def test_a_finished_match_cannot_be_abandoned(store: Store) -> None:
    mid = store.import_match(sample_record(deals=1) | {"target": 100})
    with pytest.raises(StorageInputError, match="finished"):
        store.abandon_match(mid)
    assert not store.match_info(mid).abandoned
    with pytest.raises(UnknownMatchError):
        store.abandon_match(9999)


def test_last_finished_match_is_the_most_recent_result(store: Store) -> None:
    assert store.last_finished_match() is None
    _begun(store)
    first = store.import_match(sample_record(deals=1) | {"target": 100})
    assert store.last_finished_match() == first
    second = store.import_match(sample_record(deals=1) | {"target": 100})
    assert store.last_finished_match() == second


def test_a_matchs_version_moves_with_every_change_and_only_its_own(store: Store) -> None:
    """``versions``: what a screen of many matches compares to know which to read again."""
    one, two = _begun(store), _begun(store)
    before = store.versions([one, two, 999])
    assert set(before) == {one, two}  # a match not stored is left out
    assert store.versions([]) == {}
    store.record(one, SAMPLE_EVENTS[2])
    after = store.versions([one, two])
    assert after[one] != before[one] and after[two] == before[two]
    store.undo(one)
    undone = store.versions([one, two])
    assert undone[one] not in (before[one], after[one]) and undone[two] == before[two]
    store.abandon_match(two)
    assert store.versions([two])[two] != before[two]
    store.restore_match(two)
    assert store.versions([two])[two] == before[two]  # as it was: nothing else changed
