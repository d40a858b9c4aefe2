"""Each screen opens at its top (QA P23): the body of each screen carries a key of its own,
so Flet builds a new scrolling column instead of reusing the previous screen's (Home opened
~900 px down after the Players screen); taps within one screen keep the key (nothing moves)."""

from __future__ import annotations

from ui_helpers import new_match, start_deal

from ui.state.app import AppState
from ui.views.screen_key import screen_key


def test_home_players_and_history_have_keys_of_their_own(app: AppState) -> None:
    home = screen_key(app)
    app.go("stats")
    stats = screen_key(app)
    app.back()
    assert home != stats and screen_key(app) == home


def test_end_form_summary_and_sheet_each_open_at_their_top(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    play = screen_key(app)
    ds.stock_exhausted()
    assert screen_key(app) == play  # a tap within the deal keeps its place
    ds.open_end(last=1)
    end = screen_key(app)
    ds.set_brisques(0, "8")
    assert screen_key(app) == end
    assert ds.finish_deal()
    summary = screen_key(app)
    app.show_score()
    sheet = screen_key(app)
    assert len({play, end, summary, sheet}) == 4
    app.back()
    ds.next_deal()
    assert screen_key(app) not in (play, end, summary, sheet)  # the next deal's setup
