"""The end of a deal is one step (QA P21, issue 10: a deal is never half ended): one Undo
after "Record the end of the deal" takes back the last trick and the brisques together, on
one device and at a table of several; a record that holds a last trick without brisques
(imported, or an older log) is closed by asking only for the brisques."""

from __future__ import annotations

from typing import Any

from test_ui_table import Hub
from ui_helpers import a_moment_later, new_match, start_deal

from referee.events import LastTrick
from ui.state.app import AppState
from ui.state.deal import DealScreen


def _ended(app: AppState) -> DealScreen:
    ds = new_match(app)
    start_deal(ds)
    ds.stock_exhausted()
    ds.open_end(last=1)
    ds.set_brisques(0, "8")
    assert ds.finish_deal()
    assert str(ds.mode) == "summary"
    return ds


def test_one_undo_after_the_end_of_deal_takes_back_last_trick_and_brisques(
    app: AppState,
) -> None:
    ds = _ended(app)
    assert ds.undo()
    deal = ds.deal
    assert not deal.last_trick_scored and not deal.brisques_scored
    assert str(ds.mode) == "play" and ds.needs_last_trick() and ds.needs_brisques()
    # the end form closes it again, whoever took the last trick this time
    ds.open_end(last=0)
    ds.set_brisques(0, "9")
    assert ds.finish_deal(), (ds.notice, ds.end_errors)
    assert ds.deal.last_trick_winner == 0 and str(ds.mode) == "summary"


def test_one_redo_puts_the_whole_end_of_deal_back(app: AppState) -> None:
    ds = _ended(app)
    scores = ds.deal_scores()
    assert ds.undo() and ds.redo()
    assert str(ds.mode) == "summary" and ds.deal_scores() == scores
    assert not ds.can_redo()


def test_a_last_trick_without_brisques_asks_only_for_the_brisques(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    ds.stock_exhausted()
    assert ds.record(LastTrick(1)) is not None  # as an imported record may hold it
    assert not ds.needs_last_trick() and ds.needs_brisques()
    ds.open_end()
    assert ds.end_last == 1  # shown as the record says, not asked again
    ds.set_brisques(0, "8")
    assert ds.finish_deal(), (ds.notice, ds.end_errors)
    assert ds.notice is None and str(ds.mode) == "summary"
    assert ds.deal_scores() == [80, 90]


def test_at_a_table_an_undo_on_one_phone_takes_the_whole_end_back_on_every_phone(
    store: Any,
) -> None:
    hub = Hub()
    anna = AppState(store, lang="en")
    hub.join(anna, "Anna's phone")
    _ended(anna)
    assert anna.session is not None
    mid = anna.session.match_id
    boris = AppState(store, lang="en")
    hub.join(boris, "Boris's phone")
    assert boris.open_route(f"/match/{mid}")
    hub.deliver(anna, boris)
    assert boris.deal is not None and str(boris.deal.mode) == "summary"
    a_moment_later(boris)
    assert boris.deal.undo()
    hub.deliver(anna, boris)
    for app in (anna, boris):
        ds = app.deal
        assert ds is not None and str(ds.mode) == "play"
        assert ds.needs_last_trick() and ds.needs_brisques()
    ds = anna.deal
    assert ds is not None
    ds.open_end(last=0)
    ds.set_brisques(0, "8")
    assert ds.finish_deal(), (ds.notice, ds.end_errors)
    hub.deliver(anna, boris)
    assert boris.deal is not None and str(boris.deal.mode) == "summary"
    m = store.load_match(mid)
    assert m.current.last_trick_winner == 0 and m.current.brisques_scored
