"""The viewer's reading (ui/state/viewer.py) holds what onlookers ask first (issue 22): the deal
in play as the deal screen's header says it, the dealer's turned-up seven as the engine's
ruling, who won and why with the rule, and a sheet short enough for a phone whose rows still
add up to the Total row."""

from __future__ import annotations

from typing import Any

import pytest
from sheet_samples import play_deal, sample_match
from test_ui_layout_fixed import ctx, ids, texts

from referee.cards import Suit
from ui.state.app import AppState
from ui.state.score import score_sheet
from ui.state.viewer import reading
from ui.views import viewer
from ui.views.common import VIEWPORT_WIDTH


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_turned_up_seven_is_the_last_ruling_before_any_entry(store: Any, lang: str) -> None:
    mid = store.create_match("two-hand", ["Anna", "Boris"], tracking="tricks")
    store.start_deal(mid, "Anna", "7H")
    match = store.load_match(mid)
    r = reading(match, lang)
    seven = match.current.dealer_seven()
    assert seven is not None and r.last_ruling == seven.text(lang) and r.last_accepted
    assert "Anna" in r.last_ruling and "R-DEALER-SEVEN" not in r.last_ruling
    assert r.play is not None
    assert (r.play.trumps, r.play.phase, r.play.dealer, r.play.leader) == (
        Suit.HEARTS, 1, "Anna", "Boris")
    assert r.play.stock_left == match.current.stock_left and r.play.tricks_played == 0
    assert not r.play.first_lead_only  # tricks are tracked: who leads each trick is known


def test_the_leader_follows_the_tricks_and_the_stock_goes_down(store: Any) -> None:
    mid = store.create_match("two-hand", ["Anna", "Boris"], tracking="tricks")
    store.start_deal(mid, "Anna", "9H")
    before = reading(store.load_match(mid), "en").play
    for winner in ("Boris", "Anna"):
        store.record(mid, {"type": "trick", "winner": winner})
    after = reading(store.load_match(mid), "en").play
    assert before is not None and after is not None
    assert after.leader == "Anna" and after.tricks_played == 2
    assert after.stock_left == (before.stock_left or 0) - 2


def test_no_deal_in_play_no_play_line(store: Any) -> None:
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    assert reading(store.load_match(mid), "en").play is None  # no deal yet
    play_deal(store, mid, ("Anna", "Boris"), "two-hand", 0)
    assert reading(store.load_match(mid), "en").play is None  # the deal is over


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_who_won_and_why_with_the_rule_that_decided(store: Any, lang: str) -> None:
    mid = int(store.create_match(variant="two-hand", players=["Anna", "Boris"], target=100))
    play_deal(store, mid, ("Anna", "Boris"), "two-hand", 0, last=1)  # both pass 100
    r = reading(store.load_match(mid), lang)
    assert r.winner == "Boris" and r.verdict is not None
    assert r.verdict.rule == "R-TIE" and "Boris" in r.verdict.reason
    app = AppState(store, lang=lang)
    app.role = "viewer"
    assert app.open_route(f"/view/{mid}")
    body = viewer.build(ctx(app)).body
    shown = ids(body)
    assert "viewer-verdict" in shown and "viewer-rule" in shown
    assert "viewer-last" not in shown  # once won, the verdict says what counts
    assert r.verdict.reason in texts(body)




@pytest.mark.parametrize("sides", [2, 3])
def test_earlier_deals_are_brought_forward_and_the_column_adds_up(
    store: Any, sides: int
) -> None:
    mid = sample_match(store, sides, deals=7)
    sheet = score_sheet(store.load_match(mid), "en")
    carried = viewer.brought_forward(sheet, 3)
    assert carried is not None
    last, sums = carried
    assert last == 5  # deals 1-5 in one row, 6, 7 and 8 (in play) on their own
    shown = sheet.rows[-3:]
    for i, total in enumerate(sheet.totals):
        assert sums[i] + sum(r.scores[i] for r in shown) == total
        assert sums[i] == sum(r.scores[i] for r in sheet.rows[:5])
    assert viewer.brought_forward(sheet, 8) is None  # every row fits: none brought forward


def test_a_long_match_on_a_phone_shows_the_last_deals_and_the_total(store: Any) -> None:
    mid = sample_match(store, 2, deals=7)
    app = AppState(store, lang="en")
    app.role = "viewer"
    assert app.open_route(f"/view/{mid}")
    token = VIEWPORT_WIDTH.set(360.0)
    try:
        shown = ids(viewer.build(ctx(app)).body)
    finally:
        VIEWPORT_WIDTH.reset(token)
    assert "viewer-sheet-carried-0" in shown and "viewer-sheet-total-0" in shown
    assert "viewer-sheet-d8-0" in shown and "viewer-sheet-d5-0" not in shown
    assert {"viewer-play", "viewer-trumps", "viewer-who"} <= set(shown)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_side_past_the_target_in_play_is_said_with_the_rule(store: Any, lang: str) -> None:
    mid = int(store.create_match(variant="two-hand", players=["Anna", "Boris"], target=100))
    play_deal(store, mid, ("Anna", "Boris"), "two-hand", 0, finish=False)
    assert reading(store.load_match(mid), lang).verdict is None  # nobody near 100 yet
    store.record(mid, {"type": "declare", "player": "Anna", "new": ["AS", "AH", "AD", "AC"],
                       "meld": "four_aces"})
    r = reading(store.load_match(mid), lang)
    assert r.winner is None and r.verdict is not None
    assert r.verdict.ends_with_deal and "Anna" in r.verdict.ends_with_deal
    assert r.verdict.rule


def test_a_wide_screen_shows_every_deal_on_its_own(store: Any) -> None:
    mid = sample_match(store, 2, deals=7)
    app = AppState(store, lang="en")
    app.role = "viewer"
    assert app.open_route(f"/view/{mid}")
    token = VIEWPORT_WIDTH.set(900.0)
    try:
        shown = ids(viewer.build(ctx(app)).body)
    finally:
        VIEWPORT_WIDTH.reset(token)
    assert "viewer-sheet-carried-0" not in shown
    assert all(f"viewer-sheet-d{d}-0" in shown for d in range(1, 9))
