"""The deal's summary where each deal is a game (QA P13, P14): the end form asks only for what
counts (no brisques in six-pack), "this deal" holds no brisques that do not count, and the
fractions of 100 the game drops are said with the rule, so a player adding by hand sees why."""

from __future__ import annotations

import pytest
from test_ui_layout_fixed import texts
from ui_helpers import new_match

from referee.cards import parse_cards
from referee.events import CarteBlanche, Declare
from ui.i18n import Translator
from ui.state.app import AppState
from ui.state.deal import DealScreen
from ui.state.deal_summary import summary_sides
from ui.views import SCREENS
from ui.views.common import ViewContext


def _deal(app: AppState, variant: str) -> DealScreen:
    ds = new_match(app, variant=variant)
    ds.set_dealer(0)
    assert ds.start_deal(), ds.setup_errors
    return ds


def _declare(ds: DealScreen, seat: int, new: str, table: str = "") -> None:
    ruling = ds.record(Declare(seat, tuple(parse_cards(new.split())),
                               tuple(parse_cards(table.split())), None))
    assert ruling is not None and ruling.accepted, ruling


def test_six_pack_end_form_asks_only_for_the_last_trick_and_closes_the_deal(
    app: AppState,
) -> None:
    ds = _deal(app, "six-pack")
    _declare(ds, 1, "AS AH AD AC")
    ds.stock_exhausted()
    ds.open_end(last=0)
    assert ds.needs_last_trick() and not ds.needs_brisques()  # nobody counts 48 for nothing
    assert ds.finish_deal(), (ds.notice, ds.end_errors)
    assert str(ds.mode) in ("summary", "finished")
    assert ds.deal.complete and not ds.deal.brisques_scored


def _rubicon_game(app: AppState) -> DealScreen:
    """Anna 340 (trump marriage 40, trump sequence 250, last trick 50), Boris 150 (carte
    blanche 50, four aces 100), brisques 12 / 20: Boris is rubiconed, nobody's brisques save
    anything, and the game counts 300 and 100."""
    ds = _deal(app, "rubicon")
    assert ds.record(CarteBlanche(1)) is not None
    _declare(ds, 0, "KH QH")
    _declare(ds, 0, "AH 10H JH", "KH QH")
    _declare(ds, 1, "AS AH AD AC")
    ds.stock_exhausted()
    ds.open_end(last=0)
    ds.set_brisques(0, "12")
    assert ds.finish_deal(), (ds.notice, ds.end_errors)
    return ds


def test_rubicon_summary_leaves_out_brisques_that_do_not_count_and_says_what_is_dropped(
    app: AppState,
) -> None:
    ds = _rubicon_game(app)
    game = ds.match.game(0)
    assert game is not None and game.rubicon and not game.brisques_in_points
    anna, boris = summary_sides(ds.match, 0)
    for seat, side in enumerate((anna, boris)):
        assert side.points == sum(p for _, p in side.parts)  # what is listed adds up
        assert "R-BRISQUE" not in dict(side.parts)
        assert side.uncounted_brisques == game.brisques[seat]
        assert side.points == game.counted(seat)[0]
    assert anna.points == 340 and anna.dropped == (340, 300) and anna.rule == "R-GAME"
    assert boris.points == 150 and boris.dropped == (150, 100)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_summary_screen_says_340_becomes_300_with_the_rule(app: AppState, lang: str) -> None:
    app.set_language(lang)
    _rubicon_game(app)
    view = SCREENS[app.screen](ViewContext(app=app, page=None))  # type: ignore[arg-type]
    words = " ".join(texts(view.body))
    t = Translator(lang)
    rule = "R\u2011GAME"  # a non-breaking hyphen: never "R-" and "GAME" on two lines (issue 21)
    assert t("deal_summary.dropped", before=340, after=300, rule=rule) in words
    assert t("deal_summary.brisques_not_counted", points=120, rule=rule) in words
    assert t("summary.row", name="Anna", points="340", total=ds_total(app, 0)) in words


def ds_total(app: AppState, side: int) -> int:
    assert app.deal is not None
    return int(app.deal.match.result().sides[side].total)


def test_classic_summary_still_counts_the_brisques(app: AppState) -> None:
    ds = new_match(app)
    from ui_helpers import start_deal

    start_deal(ds)
    ds.stock_exhausted()
    ds.open_end(last=1)
    ds.set_brisques(0, "8")
    assert ds.finish_deal()
    sides = summary_sides(ds.match, 0)
    assert [s.points for s in sides] == ds.deal_scores() == [80, 90]
    assert all(s.dropped is None and not s.uncounted_brisques for s in sides)
    assert ("R-BRISQUE", 80) in sides[0].parts


def test_the_table_viewer_shows_the_games_points_not_uncounted_brisques(app: AppState) -> None:
    from ui.state.viewer import reading

    ds = _rubicon_game(app)
    assert [s.deal for s in reading(ds.match, "en").sides] == [340, 150]
