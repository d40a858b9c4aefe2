"""A write or undo is judged against what the phone's screen showed when it was tapped, never
against what the server has since sent it (issue 22; QA P30). A phone whose screen had not
yet shown another device's change gets nothing done, a message naming that change in its own
language, and the match as stored; a phone that had shown everything is never refused, and
no time window decides either.

Each phone's screen is modelled as the phone reports it (ui/server/painted.py): ``Screen``
holds the match and log position of its last drawing; ``draw`` is the moment the server's
drawing reaches the phone. Between a move and ``draw`` the phone lags.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_ui_table import Hub, declare, shown, stored
from ui_helpers import new_match, start_deal

from ui.state.app import AppState


class Screen:
    """What one phone's screen shows, as the phone says with each tap."""

    def __init__(self, app: AppState) -> None:
        self.app = app
        self.showed: tuple[int, int] | None = None
        app.screen_showed = lambda: self.showed
        self.draw()

    def draw(self) -> None:
        """The server's latest drawing reached the phone."""
        self.showed = self.app.shown_now()


Table = tuple[Hub, AppState, AppState, Screen, Screen, int]


@pytest.fixture
def phones(store: Any) -> Table:
    """Anna's phone (English) and Boris's phone (Russian) on one match, both up to date."""
    hub = Hub()
    anna = AppState(store, lang="en")
    hub.join(anna, "Anna's phone")
    start_deal(new_match(anna))
    assert anna.session is not None and anna.deal is not None
    mid = anna.session.match_id
    boris = AppState(store, lang="ru")
    hub.join(boris, "Телефон Бориса")
    assert boris.open_route(f"/match/{mid}")
    assert boris.deal is not None
    hub.deliver(anna, boris)
    return hub, anna, boris, Screen(anna), Screen(boris), mid


def _events(store: Any, mid: int) -> list[dict[str, Any]]:
    return list(store.export_match(mid)["deals"][0]["events"])


def _said(app: AppState) -> str:
    assert app.deal is not None and app.deal.notice is not None
    n = app.deal.notice
    return app.t(n.key, **n.args)


def test_an_undo_from_a_screen_that_had_not_shown_another_phones_entry_undoes_nothing(
    phones: Table, store: Any
) -> None:
    """The issue's case: the lagging phone showed "Anna is penalised 10", Anna recorded a new
    penalty on her phone, the lagging phone tapped Undo meaning the entry it showed."""
    hub, anna, boris, anna_screen, boris_screen, mid = phones
    assert anna.deal is not None and boris.deal is not None
    assert anna.deal.penalty(0, "P-EARLY-DECLARE") is not None  # Anna is penalised 10
    hub.deliver(anna, boris)
    anna_screen.draw()
    boris_screen.draw()  # both screens show it
    assert anna.deal.penalty(0, "P-EARLY-DECLARE") is not None  # a new one, on Anna's phone
    hub.deliver(anna, boris)  # Boris's session has it; his screen has not drawn it yet
    before = _events(store, mid)
    assert len(before) == 2
    assert not boris.deal.undo()
    assert _events(store, mid) == before  # nothing undone, Anna's new entry kept
    notice = boris.deal.notice
    assert notice is not None and notice.error and notice.key == "unseen.undo"
    said = _said(boris)
    assert "Не отменено" in said and "Телефон Бориса" not in said
    assert "Anna's phone" in said and "штраф" in said.lower()  # the entry he had not seen
    assert shown(boris) == stored(store, mid)  # his screen is redrawn with the truth
    boris_screen.draw()
    assert boris.deal.undo()  # tapped again on a screen that shows it: done
    assert _events(store, mid) == before[:1]


def test_the_message_names_every_change_the_screen_had_not_shown_in_its_own_language(
    phones: Table, store: Any
) -> None:
    hub, anna, boris, _anna_screen, _boris_screen, mid = phones
    assert boris.deal is not None and anna.deal is not None
    assert declare(boris, 1, "KS KH KD KC") is not None  # Boris's four kings
    assert declare(boris, 1, "QS QH QD QC") is not None  # and four queens
    hub.deliver(anna, boris)  # Anna's screen is behind by both
    assert not anna.deal.undo()
    said = _said(anna)
    assert said.startswith("Not undone: this screen had not yet shown: ")
    assert "four kings" in said and "four queens" in said
    assert "Телефон Бориса" in said  # the device's own name, as it chose it
    assert len(_events(store, mid)) == 2


def test_a_screen_that_had_shown_every_change_is_never_refused(
    phones: Table, store: Any
) -> None:
    """No time window: a phone up to date undoes, redoes and records at once."""
    hub, anna, boris, anna_screen, boris_screen, mid = phones
    assert anna.deal is not None and boris.deal is not None
    assert declare(anna, 0, "KS QS") is not None
    hub.deliver(anna, boris)
    boris_screen.draw()  # the very moment the drawing arrives
    assert boris.deal.undo(), boris.deal.notice
    hub.deliver(anna, boris)
    anna_screen.draw()
    assert anna.deal.redo(), anna.deal.notice
    hub.deliver(anna, boris)
    boris_screen.draw()
    assert declare(boris, 1, "KH KD KC KS") is not None
    hub.deliver(anna, boris)
    assert boris.deal.notice is None
    assert len(_events(store, mid)) == 2
    assert shown(anna) == shown(boris) == stored(store, mid)


def test_a_phone_is_not_refused_for_its_own_entries_its_screen_has_not_drawn_yet(
    phones: Table, store: Any
) -> None:
    """Quick taps on one phone: its own entries are not news to it."""
    hub, anna, boris, _anna_screen, _boris_screen, mid = phones
    assert anna.deal is not None
    assert declare(anna, 0, "KS QS") is not None
    assert declare(anna, 0, "QS QH QD QC") is not None  # before the first one was drawn
    assert anna.deal.undo()  # and an undo of the newest, still undrawn
    hub.deliver(anna, boris)
    assert len(_events(store, mid)) == 1
    assert shown(anna) == shown(boris) == stored(store, mid)


def test_a_record_from_a_screen_that_had_not_shown_another_phones_entry_is_refused(
    phones: Table, store: Any
) -> None:
    hub, anna, boris, _anna_screen, boris_screen, mid = phones
    assert anna.deal is not None and boris.deal is not None
    assert declare(anna, 0, "KS QS") is not None  # Anna's marriage
    hub.deliver(anna, boris)
    assert declare(boris, 1, "KH KD KC KS") is None  # Boris's screen did not show it yet
    assert len(_events(store, mid)) == 1  # nothing of Boris's recorded
    assert boris.deal.notice is not None and boris.deal.notice.key == "unseen.write"
    assert "Не записано" in _said(boris) and "Anna's phone" in _said(boris)
    assert shown(boris) == stored(store, mid)
    boris_screen.draw()
    assert declare(boris, 1, "KH KD KC KS") is not None  # again, on the screen that shows it
    hub.deliver(anna, boris)
    assert len(_events(store, mid)) == 2


def test_a_new_deal_from_a_screen_that_had_not_shown_an_undo_elsewhere_is_refused(
    phones: Table, store: Any
) -> None:
    hub, anna, boris, _anna_screen, boris_screen, mid = phones
    assert anna.deal is not None and boris.deal is not None
    assert declare(anna, 0, "KS QS") is not None
    hub.deliver(anna, boris)
    boris_screen.draw()
    assert boris.deal.undo()
    hub.deliver(anna, boris)  # Anna's screen still shows her marriage
    assert not declare(anna, 0, "QS QH QD QC")
    assert anna.deal.notice is not None and anna.deal.notice.key == "unseen.write"
    assert "Телефон Бориса undid" in _said(anna)
    assert _events(store, mid) == []


def test_two_undo_taps_at_once_take_back_one_entry(phones: Table, store: Any) -> None:
    hub, anna, boris, anna_screen, boris_screen, mid = phones
    assert anna.deal is not None and boris.deal is not None
    assert declare(anna, 0, "KS QS") is not None  # Anna's marriage
    hub.deliver(anna, boris)
    boris_screen.draw()
    assert declare(boris, 1, "KH KD KC KS") is not None  # four kings, by Boris's phone
    hub.deliver(anna, boris)
    anna_screen.draw()
    boris_screen.draw()
    kept = _events(store, mid)[:1]
    assert boris.deal.undo()  # lands first
    hub.deliver(anna, boris)  # reaches Anna's session before her own tap is handled
    assert not anna.deal.undo()  # her screen showed the four kings as last
    assert _events(store, mid) == kept  # the marriage stays: one entry taken back
    assert anna.deal.notice is not None and anna.deal.notice.key == "unseen.undo"
    assert "four kings" in _said(anna)  # what had changed: Boris's undo of the four kings
    anna_screen.draw()
    assert anna.deal.undo()  # a deliberate second tap does what it says
    assert _events(store, mid) == []


def test_two_redo_taps_at_once_restore_one_entry(phones: Table, store: Any) -> None:
    hub, anna, boris, anna_screen, boris_screen, mid = phones
    assert anna.deal is not None and boris.deal is not None
    assert declare(anna, 0, "KS QS") is not None
    assert declare(anna, 0, "QS QH QD QC") is not None
    assert anna.deal.undo() and anna.deal.undo()
    hub.deliver(anna, boris)
    anna_screen.draw()
    boris_screen.draw()
    assert boris.deal.redo()
    hub.deliver(anna, boris)
    assert not anna.deal.redo()
    assert anna.deal.notice is not None and anna.deal.notice.key == "unseen.redo"
    assert len(_events(store, mid)) == 1


def test_a_screen_that_says_nothing_is_judged_by_its_session(phones: Table, store: Any) -> None:
    """A device that does not report its screen (a desktop window, the phone build alone)
    keeps the session's view: its session shows what it draws at once."""
    hub, anna, boris, _anna_screen, _boris_screen, mid = phones
    assert anna.deal is not None and boris.deal is not None
    boris.screen_showed = None
    assert declare(anna, 0, "KS QS") is not None
    hub.deliver(anna, boris)
    assert boris.deal.undo()
    assert _events(store, mid) == []


def test_a_correction_from_a_screen_that_had_not_shown_another_phones_entry_is_refused(
    phones: Table, store: Any
) -> None:
    from ui.state import correction as corr

    hub, anna, boris, _anna_screen, boris_screen, mid = phones
    assert anna.deal is not None and boris.deal is not None
    assert declare(anna, 0, "KS QS") is not None
    hub.deliver(anna, boris)
    boris.show_score()
    corr.open_entries(boris, boris.session)
    boris_screen.draw()  # Boris's entries screen shows the marriage
    assert boris.session is not None
    lines = corr.entry_lines(boris.session, "ru")
    line = next(x for deal in lines for x in deal if x.correctable)
    assert corr.open_correction(boris, line)
    assert declare(anna, 0, "QS QH QD QC") is not None  # meanwhile, on Anna's phone
    hub.deliver(anna, boris)
    cs = boris.correction
    cs.delete()
    assert not corr.confirm(boris)
    assert cs.notice is not None and cs.notice.key == "unseen.write"
    assert len(_events(store, mid)) == 2


def test_what_the_screen_shows_is_the_match_and_log_position_of_the_screen_drawn(
    phones: Table, store: Any
) -> None:
    """The position sent to the phone with each drawing: the deal screen's session, the
    viewer's match, the entries' match, nothing on a screen without a match."""
    from ui.state import correction as corr

    hub, anna, boris, _anna_screen, _boris_screen, mid = phones
    assert anna.session is not None
    assert declare(anna, 0, "KS QS") is not None  # on screen at once, stored a moment later
    hub.deliver(anna, boris)
    assert anna.shown_now() == (mid, store.log_position(mid)) == (mid, 2)
    other = store.create_match("two-hand", ["Clara", "Dmitri"])
    assert anna.view_match(other)
    anna.go("viewer")
    assert anna.shown_now() == (other, store.log_position(other))
    corr.open_entries(anna, anna.viewed)
    assert anna.shown_now() == (other, store.log_position(other))
    fresh = AppState(store, lang="en")
    assert fresh.shown_now() is None  # Home, no match open


def test_a_tap_from_a_screen_that_showed_another_match_writes_nothing_here(
    phones: Table, store: Any
) -> None:
    _hub, _anna, boris, _anna_screen, boris_screen, mid = phones
    assert boris.deal is not None
    boris_screen.showed = (mid + 1, 99)  # its screen still showed another match
    assert not boris.deal.undo() and declare(boris, 1, "KH KD KC KS") is None
    assert boris.deal.notice is not None and boris.deal.notice.key.startswith("unseen.")
    assert store.log_position(mid) == 1  # the deal start only
