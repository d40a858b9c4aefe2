"""A device back at the table after its connection dropped (issue 22): while it was away it
was told no moves (ui/live.py unsubscribes a disconnected session); back on the same session,
it shows storage's match, counts what it missed as changed elsewhere (half-done work on it is
dropped, as after another device's undo), and keeps its work when nothing moved."""

from __future__ import annotations

from typing import Any

from test_ui_table import Hub, declare, shown, stored
from ui_helpers import new_match, start_deal

from ui.state.app import AppState


def at_the_table(store: Any) -> tuple[Hub, AppState, AppState, Any, int]:
    hub = Hub()
    anna = AppState(store, lang="en")
    hub.join(anna, "Anna's phone")
    start_deal(new_match(anna))
    assert anna.session is not None
    mid = anna.session.match_id
    boris = AppState(store, lang="en")
    boris_link = hub.join(boris, "Boris's phone")
    assert boris.open_route(f"/match/{mid}")
    hub.deliver(anna, boris)
    return hub, anna, boris, boris_link, mid


def test_a_device_back_after_missed_moves_shows_storage_and_drops_its_half_done_work(
    store: Any,
) -> None:
    hub, anna, boris, boris_link, mid = at_the_table(store)
    hub.links.remove(boris_link)  # Boris's phone went off the Wi-Fi: told nothing
    assert boris.deal is not None
    boris.deal.open_picker(0)  # half-done when it went
    assert declare(anna, 1, "KS KH KD KC") is not None
    hub.deliver(anna, boris)
    assert shown(boris) != stored(store, mid)  # what it showed while away
    boris_link.catch_up()  # back on the same session
    assert shown(boris) == shown(anna) == stored(store, mid)
    assert boris.session is not None and boris.session.foreign_mark == boris.session.position
    assert boris.deal.picker is None


def test_a_device_back_when_nothing_moved_keeps_its_work(store: Any) -> None:
    _hub, _anna, boris, boris_link, mid = at_the_table(store)
    assert boris.deal is not None and boris.session is not None
    boris.deal.open_picker(0)
    mark = boris.session.foreign_mark
    boris_link.catch_up()
    assert shown(boris) == stored(store, mid)
    assert boris.deal.picker is not None and boris.deal.picker.player == 0
    assert boris.session.foreign_mark == mark
