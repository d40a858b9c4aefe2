""""Resume" offers the match played last by the order of changes, never by the wall clock: a
clock set back a day, or forward a year once, must not change which match that is."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from referee.storage import Store
from referee.storage import store as store_module

PENALTY = {"type": "penalty", "player": "Anna", "offence": "P-REVOKE"}


def _clock(monkeypatch: pytest.MonkeyPatch, shift: timedelta) -> None:
    monkeypatch.setattr(store_module, "utcnow", lambda: datetime.now(UTC) + shift)


def _two_matches(store: Store) -> tuple[int, int]:
    a = store.create_match("two-hand", ["Anna", "Boris"])
    store.start_deal(a, "Anna", "9H")
    b = store.create_match("two-hand", ["Anna", "Cyril"])
    store.start_deal(b, "Anna", "9H")
    return a, b


@pytest.mark.parametrize(
    ("first", "then"),
    [(timedelta(0), timedelta(days=-1)), (timedelta(days=365), timedelta(0))],
    ids=["clock-set-back-a-day", "clock-forward-a-year-once"],
)
def test_resume_follows_the_log_not_the_clock(
    store: Store, monkeypatch: pytest.MonkeyPatch, first: timedelta, then: timedelta
) -> None:
    a, b = _two_matches(store)
    _clock(monkeypatch, first)
    store.record(b, PENALTY)
    _clock(monkeypatch, then)
    store.record(a, PENALTY)  # played last, though its clock says earlier
    assert store.unfinished_match() == a
    assert store.list_matches()[0].id == a
    _clock(monkeypatch, first)
    store.undo(b)
    assert store.unfinished_match() == b
    c = store.create_match("two-hand", ["Anna", "Dora"])
    assert store.unfinished_match() == c
