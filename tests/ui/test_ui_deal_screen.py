"""The deal screen of issue 10 and issue 15's penalties, as state (no page): declaring by
name, the ruling strip's clock, brisques typed, the end of a deal with tricks, messages that
stay current, phase 2, and penalties with their amount first."""

from __future__ import annotations

from typing import Any

from ui_helpers import new_match, start_deal

from referee.cards import parse_card
from ui.state.app import AppState
from ui.state.brisques_entry import BrisquesEntry
from ui.state.deal import DealScreen
from ui.state.ruling_toast import HOLD_SECONDS
from ui.views import SCREENS
from ui.views.common import ViewContext


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def screen(app: AppState, tracking: str = "melds") -> tuple[DealScreen, Clock]:
    ds = new_match(app, tracking=tracking)
    clock = Clock()
    ds.clock = clock
    start_deal(ds)
    return ds, clock


def declare(ds: DealScreen, seat: int, meld: str) -> Any:
    ds.open_picker(seat)
    assert ds.picker is not None and ds.picker.tab == "name"
    ds.choose_meld(meld)
    return ds.declare_named()


def build(app: AppState) -> None:
    SCREENS[app.screen](ViewContext(app=app, page=None))  # type: ignore[arg-type]


# ------------------------------------------------------------------ declaring by name
def test_the_typical_deal_declared_by_name_scores_as_on_paper(app: AppState) -> None:
    ds, _ = screen(app)
    for seat, meld in [(0, "marriage"), (1, "bezique"), (0, "trump_marriage"),
                       (1, "four_kings"), (0, "trump_sequence"), (1, "four_aces")]:
        view = declare(ds, seat, meld)
        assert view is not None and view.accepted, view
        build(app)
    assert ds.seven(0) is not None
    assert ds.deal_scores() == [320, 220]
    last = ds.match.current.log[4][0]
    assert sorted(c.code for c in last.table) == ["KH", "QH"]  # the trump marriage reused


def test_a_proposed_card_changes_with_one_tap(app: AppState) -> None:
    ds, _ = screen(app)
    ds.open_picker(0)
    ds.choose_meld("marriage")
    p = ds.picker
    assert p is not None and p.named is not None and p.named.proposal is not None
    assert {c.code for c in p.named.proposal.new} == {"KS", "QS"}
    build(app)
    ds.change_proposed(0)
    assert {c.code for c in p.named.proposal.new} == {"KD", "QD"}
    view = ds.declare_named()
    assert view is not None and view.accepted
    assert {c.code for c in ds.table(0)} == {"KD", "QD"}


def test_declaring_before_naming_says_name_it_first(app: AppState) -> None:
    ds, _ = screen(app)
    ds.open_picker(0)
    assert ds.declare_named() is None
    assert ds.notice is not None and ds.notice.key == "declare.name_first"


def test_the_free_choice_picker_stays(app: AppState) -> None:
    ds, _ = screen(app)
    ds.open_picker(1)
    ds.set_picker_tab("cards")
    ds.add_new(parse_card("QS"))
    ds.add_new(parse_card("JD"))
    build(app)
    assert [o.meld for o in ds.options()] == ["bezique"]


def test_r_no_declare_after_stock_a_player_can_still_try_and_get_the_ruling(
    app: AppState,
) -> None:
    ds, _ = screen(app)
    declare(ds, 0, "marriage")
    ds.stock_exhausted()
    assert ds.declared_back_in_hand()  # "the declared cards went back to the hands"
    view = declare(ds, 0, "trump_marriage")
    assert view is not None and not view.accepted and view.rule == "R-NO-DECLARE-AFTER-STOCK"
    assert not ds.can_correct_last()  # not a mis-tap: nothing to correct
    build(app)


# ------------------------------------------------------------------ rulings
def test_an_accepted_ruling_goes_away_by_itself_a_rejected_one_stays(app: AppState) -> None:
    ds, clock = screen(app)
    declare(ds, 0, "marriage")
    assert ds.shown_ruling() is not None
    clock.now += HOLD_SECONDS + 0.1
    assert ds.shown_ruling() is None  # gone by itself
    ds.stock_exhausted()
    declare(ds, 1, "bezique")
    clock.now += 60
    shown = ds.shown_ruling()
    assert shown is not None and not shown.accepted  # stays until read
    ds.dismiss_ruling()
    assert ds.shown_ruling() is None


def test_the_last_rulings_reopen_in_one_tap(app: AppState) -> None:
    ds, clock = screen(app)
    declare(ds, 0, "marriage")
    declare(ds, 1, "bezique")
    clock.now += 60
    ds.reopen_rulings()
    assert ds.toast.listing and [r.accepted for r in ds.toast.recent] == [True, True]
    build(app)
    ds.close_rulings()
    assert not ds.toast.listing


def test_undo_and_the_end_form_clear_stale_messages(app: AppState) -> None:
    ds, _ = screen(app)
    declare(ds, 0, "marriage")
    ds.trick(0)  # melds tracking: the engine refuses, a red notice
    assert ds.notice is not None and ds.notice.error
    ds.undo()
    assert ds.notice is None
    ds.trick(0)
    assert ds.notice is not None
    ds.open_end()
    assert ds.notice is None


# ------------------------------------------------------------------ brisques
def test_brisques_with_two_players_the_second_is_derived_from_the_total() -> None:
    e = BrisquesEntry(2, 16)
    e.type(0, "8")
    assert e.texts == ["8", "8"] and e.derived(1) and e.total_error() is None
    e.type(0, "11")
    assert e.counts() == [11, 5]


def test_brisques_wrong_totals_are_explained_on_the_field() -> None:
    e = BrisquesEntry(3, 24)
    e.type(0, "30")
    assert e.field_error(0) is not None and e.field_error(0).key.endswith("too_many")
    e.type(0, "9")
    e.type(1, "9")
    assert e.texts[2] == "6"  # the last one derived
    e.type(2, "7")  # typed over: now all typed and 25
    assert e.field_error(2) is None  # the total is said once, under the fields
    err = e.total_error()
    assert err is not None and err.key.endswith("wrong_total") and err.args["sum"] == 25
    e.type(1, "x")
    assert e.field_error(1) is not None and e.field_error(1).key.endswith("not_number")


def test_the_typical_end_of_deal_is_one_typed_number(app: AppState) -> None:
    ds, _ = screen(app)
    ds.stock_exhausted()
    ds.open_end(last=1)
    ds.set_brisques(0, "8")
    assert ds.finish_deal()
    assert ds.deal_scores() == [80, 90]


# ------------------------------------------------------------------ tricks tracking
def test_tricks_the_deal_closes_after_the_stock_with_the_last_trick_alone(
    app: AppState,
) -> None:
    ds, _ = screen(app, "tricks")
    for k in range(24):
        assert ds.can_win_trick()
        assert not ds.can_close_play()
        ds.trick(k % 2)
    assert ds.can_close_play()
    ds.open_end(last=1)
    assert ds.needs_last_trick()
    ds.set_brisques(0, "8")
    assert ds.finish_deal()
    assert ds.deal.complete and str(ds.mode) == "summary"
    assert ds.deal_scores() == [80, 90]


def test_tricks_never_half_an_end_of_deal(app: AppState) -> None:
    ds, _ = screen(app, "tricks")
    for k in range(10):
        ds.trick(k % 2)
    ds.open_end(last=1)  # before the stock ran out: the last trick cannot close the play
    ds.set_brisques(0, "8")
    entries = len(ds.deal.log)
    assert not ds.finish_deal()
    assert len(ds.deal.log) == entries  # nothing recorded, not even the brisques
    assert not ds.deal.brisques_scored


def test_tricks_won_the_trick_is_not_offered_once_all_are_played(app: AppState) -> None:
    ds, _ = screen(app, "tricks")
    for k in range(32):
        ds.trick(k % 2)
    assert not ds.can_win_trick() and not ds.needs_last_trick()
    build(app)
    ds.open_end()
    ds.set_brisques(0, "8")
    assert ds.finish_deal()


# ------------------------------------------------------------------ penalties (issue 15)
def test_penalties_show_the_engines_amount_before_applying(app: AppState) -> None:
    ds, _ = screen(app)
    declare(ds, 0, "trump_sequence")
    declare(ds, 0, "four_aces")
    options = {o.offence: o for o in ds.penalty_options(0)}
    assert options["P-FALSE-DECLARATION"].points == -350 and options["P-FALSE-DECLARATION"].heavy
    assert options["P-EARLY-DECLARE"].points == -10 and not options["P-EARLY-DECLARE"].heavy
    ds.open_penalty(0)
    build(app)
    assert ds.penalty(0, "P-FALSE-DECLARATION") is None  # heavy: confirm first
    build(app)
    assert ds.deal_scores()[0] == 350
    assert ds.confirm_penalty() is not None and ds.deal_scores()[0] == 0


def test_a_likely_mis_tap_offers_to_correct_the_cards_first(app: AppState) -> None:
    ds, _ = screen(app)
    declare(ds, 0, "four_queens")
    declare(ds, 1, "four_queens")
    ds.open_picker(0, tab="cards")
    for code in ("QC", "KC"):  # a third Q♣ with two packs: R-PACK
        ds.add_new(parse_card(code))
    view = ds.declare("marriage")
    assert view is not None and not view.accepted and view.rule == "R-PACK"
    proposed = ds.proposed_penalty()
    assert proposed is not None and proposed.points == -60
    assert ds.can_correct_last()
    build(app)
    ds.correct_last()
    assert ds.picker is not None and {c.code for c in ds.picker.new} == {"QC", "KC"}
    assert all(r.accepted for _, r in ds.deal.log)  # the mis-tap is taken back
