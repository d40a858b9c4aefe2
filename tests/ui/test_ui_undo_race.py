"""Undo and Redo at a table never take an entry the phone's screen had not shown (QA P30): a
tap handled just after another device's entry, undo or redo reached this phone is not carried
out and the screen names the entry that is now the last one; the next tap undoes it."""

from __future__ import annotations

from typing import Any

import pytest
from test_ui_table import Hub, declare
from ui_helpers import new_match, start_deal

from ui.state.app import AppState
from ui.undo_guard import GRACE


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def phones(store: Any) -> tuple[Hub, AppState, AppState, int, Clock]:
    hub = Hub()
    clock = Clock()
    anna = AppState(store, lang="en")
    hub.join(anna, "Anna's phone")
    start_deal(new_match(anna))
    assert anna.session is not None and anna.deal is not None
    mid = anna.session.match_id
    boris = AppState(store, lang="ru")
    hub.join(boris, "Boris's phone")
    assert boris.open_route(f"/match/{mid}")
    assert boris.deal is not None
    anna.deal.clock = clock
    boris.deal.clock = clock
    hub.deliver(anna, boris)
    return hub, anna, boris, mid, clock


def _events(store: Any, mid: int) -> list[dict[str, Any]]:
    return list(store.export_match(mid)["deals"][0]["events"])


def test_two_undo_taps_at_once_take_back_one_entry(
    phones: tuple[Hub, AppState, AppState, int, Clock], store: Any
) -> None:
    hub, anna, boris, mid, clock = phones
    assert declare(anna, 0, "KS QS") is not None  # Anna's marriage
    hub.deliver(anna, boris)
    clock.now += 10
    assert declare(boris, 0, "KH KD KC KS") is not None  # four kings, by Boris's phone
    hub.deliver(anna, boris)
    clock.now += 10
    kept = _events(store, mid)[:1]
    assert boris.deal is not None and boris.deal.undo()  # lands first
    hub.deliver(anna, boris)  # reaches Anna's phone just before her own tap is handled
    assert anna.deal is not None and not anna.deal.undo()
    assert _events(store, mid) == kept  # the marriage stays: one entry taken back
    notice = anna.deal.notice
    assert notice is not None and notice.key == "undo_guard.just_changed"
    assert "marriage" in anna.t(notice.key, **notice.args)  # the entry now last, named
    clock.now += GRACE + 0.1
    assert anna.deal.undo()  # a deliberate second tap does what it says
    assert _events(store, mid) == []


def test_an_undo_at_the_moment_another_phone_records_keeps_that_entry(
    phones: tuple[Hub, AppState, AppState, int, Clock], store: Any
) -> None:
    hub, anna, boris, mid, clock = phones
    assert declare(anna, 0, "QS QH QD QC") is not None  # four queens
    hub.deliver(anna, boris)
    clock.now += 10
    assert declare(anna, 0, "JS JH JD JC") is not None  # four jacks, as Boris taps Undo
    hub.deliver(anna, boris)
    assert boris.deal is not None and not boris.deal.undo()
    assert len(_events(store, mid)) == 2  # Anna's four jacks are not taken


def test_two_redo_taps_at_once_restore_one_entry(
    phones: tuple[Hub, AppState, AppState, int, Clock], store: Any
) -> None:
    hub, anna, boris, mid, clock = phones
    assert declare(anna, 0, "KS QS") is not None
    assert declare(anna, 0, "QS QH QD QC") is not None
    hub.deliver(anna, boris)
    assert anna.deal is not None and anna.deal.undo() and anna.deal.undo()
    hub.deliver(anna, boris)
    clock.now += 10
    assert boris.deal is not None and boris.deal.redo()
    hub.deliver(anna, boris)
    assert not anna.deal.redo()
    assert len(_events(store, mid)) == 1
