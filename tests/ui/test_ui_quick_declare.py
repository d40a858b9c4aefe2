"""Declaring in one tap (issue 21), as state: the offers come from the engine
(referee.offers), one tap records the proposal, a plain marriage asks its suit, "change
cards" takes the entry back and opens the proposal, Undo takes it back."""

from __future__ import annotations

import flet as ft
from ui_helpers import find, new_match, order, start_deal, walk

from referee.cards import Suit, parse_card
from referee.events import Declare
from ui.state.app import AppState
from ui.state.deal import DealScreen
from ui.views import SCREENS
from ui.views.common import ViewContext


def screen(app: AppState, tracking: str = "melds") -> DealScreen:
    ds = new_match(app, tracking=tracking)
    start_deal(ds)
    return ds


def build(app: AppState) -> None:
    SCREENS[app.screen](ViewContext(app=app, page=None))  # type: ignore[arg-type]


def test_the_typical_deal_in_one_tap_a_declaration_scores_as_on_paper(app: AppState) -> None:
    ds = screen(app)
    build(app)
    ds.quick_declare(0, "marriage")
    assert ds.suit_choice == (0, "marriage")  # the one choice the engine cannot make
    build(app)
    view = ds.quick_suit(Suit.SPADES)
    assert view is not None and view.accepted
    for seat, meld in [
        (1, "bezique"),
        (0, "trump_marriage"),
        (1, "four_kings"),
        (0, "trump_sequence"),
        (1, "four_aces"),
    ]:
        view = ds.quick_declare(seat, meld)
        assert view is not None and view.accepted, (meld, view)
        build(app)
    assert ds.seven(0) is not None
    assert ds.deal_scores() == [320, 220]
    last = ds.match.current.log[4][0]
    assert sorted(c.code for c in last.table) == ["KH", "QH"]  # R-REUSE: the marriage reused


def test_the_offers_are_the_engines_and_none_in_phase_2(app: AppState) -> None:
    ds = screen(app)
    assert [o.meld for o in ds.offers(0)][:3] == ["marriage", "trump_marriage", "bezique"]
    ds.stock_exhausted()
    assert ds.offers(0) == () and ds.offers(1) == ()
    build(app)


def test_a_one_tap_declaration_is_taken_back_by_undo(app: AppState) -> None:
    ds = screen(app)
    ds.quick_declare(1, "bezique")
    assert ds.deal_scores() == [0, 40]
    assert ds.undo()
    assert ds.deal_scores() == [0, 0] and ds.quick_last is None


def test_change_cards_takes_the_entry_back_and_opens_its_proposal(app: AppState) -> None:
    ds = screen(app)
    ds.quick_declare(1, "four_kings")
    assert ds.quick_last is not None
    assert ds.change_quick()
    assert ds.deal_scores() == [0, 0]
    p = ds.picker
    assert p is not None and p.tab == "name" and p.named is not None
    assert p.named.meld == "four_kings" and p.named.proposal is not None
    assert sorted(c.code for c in p.named.proposal.new) == ["KC", "KD", "KH", "KS"]
    build(app)
    ds.change_proposed(0)  # one tap on a card, then confirm as before
    assert ds.declare_named() is not None and ds.deal_scores() == [0, 80]


def test_a_suit_choice_is_dropped_by_the_next_entry(app: AppState) -> None:
    ds = screen(app)
    ds.quick_declare(0, "marriage")
    assert ds.suit_choice_of(0) is not None and ds.suit_choice_of(1) is None
    ds.quick_declare(1, "bezique")
    assert ds.suit_choice is None
    ds.quick_declare(0, "marriage")
    ds.cancel_suit_choice()
    assert ds.suit_choice is None and ds.deal_scores() == [0, 40]


def test_r_declare_after_trick_with_tricks_only_the_winner_gets_offers(app: AppState) -> None:
    ds = screen(app, tracking="tricks")
    ds.trick(1)
    assert ds.offers(1) != () and ds.offers(0) == ()
    build(app)


def ids(app: AppState) -> list[str]:
    view = SCREENS[app.screen](ViewContext(app=app, page=None))  # type: ignore[arg-type]
    return order(view.body)


def test_the_zone_shows_two_rows_of_offers_and_the_rest_behind_more(app: AppState) -> None:
    ds = new_match(app, variant="six-pack")
    ds.set_dealer(0)
    assert ds.start_deal()
    ds.record(Declare(0, (parse_card("KS"), parse_card("QS")), (), "trump_marriage"))
    assert len(ds.offers(1)) > 8  # the engine offers more than two rows hold
    shown = [i for i in ids(app) if i.startswith("offer-1-")]
    assert shown == [f"offer-1-{o.meld}" for o in ds.offers(1)[:7]]
    assert "offer-more-1" in ids(app)


def test_a_two_hand_zone_needs_no_more_button(app: AppState) -> None:
    ds = screen(app)
    built = ids(app)
    assert "offer-more-0" not in built
    assert [i for i in built if i.startswith("offer-0-")] == [
        f"offer-0-{o.meld}" for o in ds.offers(0)
    ]


def test_three_players_the_bar_offers_the_chosen_players_declarations(app: AppState) -> None:
    # three zones of offers do not fit a phone over the bar: one player's at a time, in the
    # bar, the player chosen by a tap on their zone (the first lead's before any choice)
    ds = new_match(app, ("Anna", "Boris", "Clara"), variant="three-hand")
    start_deal(ds)
    assert ds.offers_shown() and not ds.offers_in_zones()
    first = ds.leader()
    assert first is not None and ds.chosen_declarer() == first
    built = ids(app)
    others = [i for i in built if i.startswith("offer-") and not i.startswith(f"offer-{first}-")]
    assert others == []
    assert [i for i in built if i.startswith(f"offer-{first}-")] == [
        f"offer-{first}-{o.meld}" for o in ds.offers(first)
    ]
    assert f"declare-{first}" in built and {"choose-0", "choose-1", "choose-2"} <= set(built)
    ds.choose_declarer(2)
    built = ids(app)
    assert "offer-2-four_kings" in built and not [i for i in built if i.startswith("offer-1-")]
    assert "declare-2" in built and "declare-1" not in built
    view = ds.quick_declare(2, "four_kings")
    assert view is not None and view.accepted and ds.deal_scores() == [0, 0, 80]
    assert ds.chosen_declarer() == 2  # the choice stays: the same player may declare again
    assert "change-cards-2" in ids(app)
    ds.quick_declare(2, "marriage")  # the suit is asked in the bar's block
    assert "offer-suit-2-S" in ids(app)
    ds.choose_declarer(0)  # another player chosen: the half-made choice is dropped
    assert ds.suit_choice is None and "offer-suit-2-S" not in ids(app)


def test_four_players_choose_any_partner_and_every_zone_is_one_row(app: AppState) -> None:
    ds = new_match(app, ("Anna", "Boris", "Clara", "Dmitri"), variant="four-hand")
    start_deal(ds)
    ds.choose_declarer(3)
    assert ds.chosen_declarer() == 3
    ds.quick_declare(3, "bezique")
    assert ds.deal_scores() == [0, 40]  # sides: Anna & Clara, Boris & Dmitri
    built = ids(app)
    assert [i for i in built if i.startswith("player-")] == [f"player-{s}" for s in range(4)]
    assert "table-3" in built and "offers-3" in built


def test_three_players_with_tricks_the_winner_is_chosen_by_the_trick(app: AppState) -> None:
    ds = new_match(app, ("Anna", "Boris", "Clara"), variant="three-hand", tracking="tricks")
    start_deal(ds)
    ds.choose_declarer(0)
    ds.trick(2)  # R-DECLARE-AFTER-TRICK: only Clara may declare now, her offers are shown
    assert ds.chosen_declarer() == 2 and ds.offers(2) != () and ds.offers(0) == ()
    ds.choose_declarer(0)  # still choosable: the bar says she has nothing to declare
    assert "offers-none-0" in ids(app)


def test_three_players_a_trick_recorded_any_way_makes_its_winner_the_declarer(
    app: AppState,
) -> None:
    # the trick form (cards tracking) records a Trick too: a choice made before a trick
    # gives way to its winner, whichever screen recorded it
    from referee.events import Trick

    ds = new_match(app, ("Anna", "Boris", "Clara"), variant="three-hand", tracking="tricks")
    start_deal(ds)
    ds.choose_declarer(0)
    assert ds.chosen_declarer() == 0
    assert ds.record(Trick(2)) is not None  # not through ds.trick
    assert ds.chosen_declarer() == 2
    ds.choose_declarer(1)  # chosen after the trick: it holds
    assert ds.chosen_declarer() == 1


def test_three_players_a_pending_combination_scores_from_the_bar(app: AppState) -> None:
    ds = new_match(app, ("Anna", "Boris", "Clara"), variant="three-hand")
    start_deal(ds)
    ds.choose_declarer(1)
    ds.record(Declare(1, tuple(parse_card(c) for c in ("KS", "QS", "JD")), (), "bezique"))
    assert [p.meld for p in ds.pending(1)] == ["marriage"] and ds.pending(1)[0].ready
    built = ids(app)
    assert "score-pending-1-0" in built
    assert built.index("score-pending-1-0") < built.index("offer-1-trump_marriage")
    view = ds.score_pending(1, 0)
    assert view is not None and view.accepted and ds.deal_scores()[1] == 60


def test_three_players_the_bar_is_as_high_in_phase_2(app: AppState) -> None:
    # the offers block keeps its place after the stock (a quiet line in it): the bar keeps
    # its rows and "Stock exhausted" / the last trick's names stay where they were
    ds = new_match(app, ("Anna", "Boris", "Clara"), variant="three-hand")
    start_deal(ds)
    before = bar_outline(app)
    ds.stock_exhausted()
    assert "offers-none-" + str(ds.chosen_declarer()) in ids(app)
    assert bar_outline(app) == before


def bar_outline(app: AppState) -> list[tuple[str, object]]:
    """The action bar's rows: each fixed-height box and button, in order."""
    view = SCREENS[app.screen](ViewContext(app=app, page=None))  # type: ignore[arg-type]
    bar = next(c for c in walk(view.body) if getattr(c, "identifier", None) == "action-bar")
    column = bar.content.content
    return [(type(r).__name__, getattr(r, "height", None)) for r in column.controls]


def test_the_offers_follow_an_undo_and_another_entry_of_the_same_length(app: AppState) -> None:
    from referee.offers import offers

    ds = screen(app)
    ds.quick_declare(1, "bezique")
    after_bezique = ds.offers(1)  # shown once: kept for this log
    assert ds.undo()
    ds.quick_declare(1, "four_kings")  # the log is as long as with the bezique
    assert ds.offers(1) == offers(ds.deal, 1) != after_bezique


def both_in_one_row(app: AppState) -> bool:
    """Both players' declare buttons in one row of the bar (and nothing of the deal's row)."""
    view = SCREENS[app.screen](ViewContext(app=app, page=None))  # type: ignore[arg-type]
    for row in walk(view.body):
        if isinstance(row, ft.Row):
            inside = {getattr(x, "identifier", None) for x in walk(row)}
            if {"declare-0", "declare-1"} <= inside and not inside & {
                "stock-exhausted", "stock-done", "last-trick-1", "end-deal"
            }:
                return True
    return False


def test_the_bar_keeps_its_rows_when_the_stock_runs_out(app: AppState) -> None:
    # "Stock exhausted" and then the last trick's names stay in the same place: the bar's
    # rows (both players sharing one) do not change with the phase
    ds = screen(app)
    assert ds.offers_shown() and both_in_one_row(app)
    ds.stock_exhausted()
    assert not ds.offers_shown() and both_in_one_row(app)
    assert "last-trick-1" in ids(app)


def test_three_players_a_full_table_is_written_by_suit_high_to_low(app: AppState) -> None:
    # past a line of faces (six at 360 px) a zone's cards are one line of text by suit, as a
    # hand is written: four zones of ten cards stay over the bar
    from ui.views.common import VIEWPORT_WIDTH

    ds = new_match(app, ("Anna", "Boris", "Clara"), variant="three-hand")
    start_deal(ds)
    cards = lambda *codes: tuple(parse_card(c) for c in codes)  # noqa: E731
    ds.record(Declare(0, cards("KS", "KH", "KD", "KC"), (), "four_kings"))
    token = VIEWPORT_WIDTH.set(360.0)
    try:
        view = SCREENS[app.screen](ViewContext(app=app, page=None))  # type: ignore[arg-type]
        faces = [x for x in walk(find(view.body, "table-0")) if getattr(x, "width", None) == 26]
        assert len(faces) == 4  # four faces fit a line
        ds.record(Declare(0, cards("AS", "AH", "AD", "AC"), (), "four_aces"))
        ds.record(Declare(0, cards("KS", "QS"), (), "marriage"))
        view = SCREENS[app.screen](ViewContext(app=app, page=None))  # type: ignore[arg-type]
        zone = find(view.body, "table-0")
        texts = [x.value for x in walk(zone) if isinstance(x, ft.Text)]
        assert [t for t in texts if "\u2009" in t or len(t) <= 2] == [
            "♠", "A\u2009K\u2009K\u2009Q", "♥", "A\u2009K", "♦", "A\u2009K", "♣", "A\u2009K"
        ]
        assert not [x for x in walk(zone) if getattr(x, "width", None) == 26]  # no faces
    finally:
        VIEWPORT_WIDTH.reset(token)
