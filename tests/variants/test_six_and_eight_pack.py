"""Six-pack (Chinese) and eight-pack Bezique (RULES.md §8): every line of their tables, the
trump fours and fives, the bezique by trumps (a house rule), carte blanche 250 (none in
eight-pack), last trick 250, brisques that never count, the game (+1000, rubicon under 3000
/ 5000) and the cut bonus; a full example record computed by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.cards import parse_cards
from referee.events import (
    CarteBlanche,
    CutBonus,
    Declare,
    Trick,
)
from referee.games import game_score
from referee.match import Match
from referee.record import load_record, replay_record
from referee.variants import load_variant

RECORDS = Path(__file__).parent / "records"


def match(variant: str, rules: tuple[str, ...] = (), tracking: str = "melds") -> Match:
    m = Match.new(variant, ["Anna", "Boris"], house_rules=rules, tracking=tracking)
    m.start_deal(0, None)
    return m


def show(m: Match, seat: int, new: str, table: str = "", meld: str | None = None) -> object:
    return m.apply(Declare(seat, tuple(parse_cards(new.split())),
                           tuple(parse_cards(table.split())), meld))


@pytest.mark.parametrize(("variant", "packs", "hand", "stock", "total", "brisques"), [
    ("six-pack", 6, 12, 84, 96, 48),    # 192 − 24 = 168 drawn
    ("eight-pack", 8, 15, 113, 128, 64),  # 256 − 30 = 226 drawn
])
def test_six_and_eight_pack_deal_structure(variant: str, packs: int, hand: int, stock: int,
                                           total: int, brisques: int) -> None:
    v = load_variant(variant)
    assert (v.packs(2), v.hand_size, v.stock_tricks(2), v.total_tricks(2)) == (
        packs, hand, stock, total)
    assert v.brisques_total(2) == brisques and v.last_trick_points == 250
    assert v.game is not None and v.game.bonus == 1000 and v.game.brisques == "never"


@pytest.mark.parametrize(("variant", "meld", "cards", "points"), [
    ("six-pack", "four_trump_aces", "AH AH AH AH", 1000),
    ("six-pack", "four_trump_tens", "10H 10H 10H 10H", 900),
    ("six-pack", "four_trump_kings", "KH KH KH KH", 800),
    ("six-pack", "four_trump_queens", "QH QH QH QH", 600),
    ("six-pack", "four_trump_jacks", "JH JH JH JH", 400),
    ("six-pack", "four_aces", "AS AH AD AC", 100),
    ("six-pack", "quadruple_bezique", "QS QS QS QS JD JD JD JD", 4500),
    ("six-pack", "sequence", "AS 10S KS QS JS", 150),
    ("eight-pack", "five_trump_aces", "AH AH AH AH AH", 2000),
    ("eight-pack", "five_trump_tens", "10H 10H 10H 10H 10H", 1800),
    ("eight-pack", "five_trump_kings", "KH KH KH KH KH", 1600),
    ("eight-pack", "five_trump_queens", "QH QH QH QH QH", 1200),
    ("eight-pack", "five_trump_jacks", "JH JH JH JH JH", 800),
    ("eight-pack", "four_trump_aces", "AH AH AH AH", 1000),
    ("eight-pack", "quintuple_bezique", "QS QS QS QS QS JD JD JD JD JD", 9000),
])
def test_six_and_eight_pack_every_line_of_the_table(variant: str, meld: str, cards: str,
                                                    points: int) -> None:
    m = match(variant)
    assert show(m, 1, "KH QH").accepted  # type: ignore[attr-defined]  # ♥ trumps
    r = show(m, 0, cards, meld=meld)
    assert r.accepted and r.points == points and r.meld == meld  # type: ignore[attr-defined]


def test_four_trump_aces_meld_left_out_is_the_higher_reading() -> None:
    m = match("six-pack")
    show(m, 1, "KH QH")
    r = show(m, 0, "AH AH AH AH")
    assert r.accepted and r.meld == "four_trump_aces" and r.points == 1000  # type: ignore[attr-defined]


@pytest.mark.parametrize("variant", ["six-pack", "eight-pack"])
def test_r_pending_four_aces_laid_with_four_trump_aces_keeps_the_trump_aces_pending(
        variant: str) -> None:
    """R-PENDING: A♦ A♦ A♦ A♦ A♣ named four aces (♦ trumps) score the four aces on
    A♦ A♦ A♦ A♣ and keep the four trump aces A♦ ×4 pending, rather than scoring the plain
    kind on the very cards of the trump one and losing it."""
    m = match(variant, tracking="melds")
    assert show(m, 1, "KD QD").accepted  # type: ignore[attr-defined]  # ♦ trumps
    r = show(m, 0, "AD AD AD AD AC", meld="four_aces")
    assert r.accepted and r.meld == "four_aces" and r.points == 100  # type: ignore[attr-defined]
    trump_aces = tuple(parse_cards(["AD"] * 4))
    assert ("four_trump_aces", trump_aces) in r.pending  # type: ignore[attr-defined]
    r = show(m, 0, "", table="AD AD AD AD", meld="four_trump_aces")
    assert r.accepted and r.rule == "R-PENDING" and r.points == 1000  # type: ignore[attr-defined]


def test_four_trump_aces_need_trumps() -> None:
    r = show(match("six-pack"), 0, "AH AH AH AH", meld="four_trump_aces")
    assert not r.accepted  # type: ignore[attr-defined]


def test_eight_pack_has_no_five_trump_in_six_pack() -> None:
    m = match("six-pack")
    show(m, 1, "KH QH")
    assert not show(m, 0, "AH AH AH AH AH", meld="five_trump_aces").accepted  # type: ignore[attr-defined]


@pytest.mark.parametrize(("trumps", "queen", "jack"), [
    ("S", "QS", "JD"), ("D", "QD", "JS"), ("H", "QH", "JC"), ("C", "QC", "JH"),
])
def test_h_bezique_by_trumps(trumps: str, queen: str, jack: str) -> None:
    m = match("six-pack", ("H-BEZIQUE-BY-TRUMPS",))
    assert not show(m, 0, f"{queen} {jack}", meld="bezique").accepted  # type: ignore[attr-defined]
    assert show(m, 1, f"K{trumps} Q{trumps}").accepted  # type: ignore[attr-defined]
    r = show(m, 0, f"{queen} {jack}", meld="bezique")
    assert r.accepted and r.points == 40  # type: ignore[attr-defined]
    if trumps != "S":
        assert not show(m, 0, "QS JD", meld="bezique").accepted  # type: ignore[attr-defined]


def test_six_pack_default_bezique_is_q_spades_j_diamonds() -> None:
    m = match("six-pack")
    show(m, 1, "KH QH")
    assert show(m, 0, "QS JD").accepted  # type: ignore[attr-defined]


def test_six_pack_carte_blanche_250_and_none_in_eight_pack() -> None:
    m = match("six-pack")
    r = m.apply(CarteBlanche(1))
    assert r.accepted and r.points == 250
    r = match("eight-pack").apply(CarteBlanche(1))
    assert not r.accepted and r.key == "no_carte_blanche"


def test_r_cut_bonus_dealer_250_non_dealer_150_once_before_the_first_trick() -> None:
    m = match("six-pack", tracking="tricks")  # Anna deals
    assert m.apply(CutBonus(0)).points == 250
    assert m.apply(CutBonus(1)).points == 150
    again = m.apply(CutBonus(1))
    assert not again.accepted and again.key == "cut_bonus_once"
    m2 = match("six-pack", tracking="tricks")
    m2.apply(Trick(1))
    assert m2.apply(CutBonus(0)).key == "cut_bonus_late"
    two = Match.new("two-hand", ["A", "B"])
    from referee.cards import parse_card
    two.start_deal(0, parse_card("9H"))
    assert two.apply(CutBonus(0)).key == "no_cut_bonus"


def test_six_pack_brisques_never_count_and_the_rubicon_is_3000() -> None:
    spec = load_variant("six-pack").game
    assert spec is not None
    g = game_score(spec, [2000, 2000], [200, 280])  # a tie: brisques do not break it
    assert g.winner is None and not g.brisques_counted
    g = game_score(spec, [3500, 2900], [100, 380])  # 2900 < 3000, brisques not included
    assert g.rubicon and g.scores == (3500 + 2900 + 1000, 0)
    g = game_score(spec, [3550, 3020], [200, 280])
    assert not g.rubicon and g.scores == (4550, 3020)  # no fractions dropped


def test_eight_pack_rubicon_under_5000() -> None:
    spec = load_variant("eight-pack").game
    assert spec is not None
    assert game_score(spec, [6000, 4990], [0, 0]).rubicon
    assert not game_score(spec, [6000, 5000], [0, 0]).rubicon


def test_example_six_pack_record_replays_to_hand_computed_results() -> None:
    result = replay_record(load_record(RECORDS / "six-pack.json")).result()
    # Anna deals. Cut bonus: Anna lifted 24 (250), Boris guessed (150). Boris carte blanche
    #   250. Boris's bezique before trumps is refused (H-BEZIQUE-BY-TRUMPS: no trumps yet).
    #   Anna's marriage ♥ fixes trumps 40, four trump aces 1000, bezique Q♥ J♣ (reusing her
    #   Q♥) 40, four trump queens (three new, the Q♥ again) 600 → 250 + 1680 = 1930.
    #   Boris: 150 + 250, plain sequence ♠ 150, four trump kings 800, last trick 250 → 1600.
    #   Brisques 24 / 24 never count. Boris is under 3000: rubiconed. Anna scores
    #   1930 + 1600 + 1000 = 4530; Boris 0.
    assert [s.total for s in result.sides] == [4530, 0]
    assert [(r.event, r.rule) for r in result.rejected] == [(3, "H-BEZIQUE-BY-TRUMPS")]
    game = result.games[0]
    assert game is not None and game.rubicon and not game.brisques_counted
    assert game.key == "game_rubicon_no_brisques"
    assert result.finished and result.winner == "Anna"


def test_example_eight_pack_record_replays_to_hand_computed_results() -> None:
    result = replay_record(load_record(RECORDS / "eight-pack.json")).result()
    # Boris deals and lifted exactly 24: 250. Anna's carte blanche: none in eight-pack.
    # Anna: her ♣ sequence fixes trumps 250, quintuple bezique 9000, last trick 250 → 9500.
    # Boris: 250, five trump aces 2000, marriage ♠ 20, five trump jacks 800 → 3070.
    # Brisques never count; Boris is under 5000: Anna scores 9500 + 3070 + 1000 = 13570.
    assert [s.total for s in result.sides] == [13570, 0]
    assert [(r.event, r.rule) for r in result.rejected] == [(1, "R-CARTE-BLANCHE")]
    assert result.games[0] is not None and result.games[0].rubicon
    assert result.finished and result.winner == "Anna"


@pytest.mark.parametrize("name", ["rubicon", "six-pack", "eight-pack"])
def test_game_variant_records_export_and_import_identically(name: str) -> None:
    import json

    from referee.record import parse_record, record_to_obj

    match = replay_record(load_record(RECORDS / f"{name}.json"))
    again = replay_record(parse_record(json.loads(json.dumps(record_to_obj(match.to_record())))))
    assert again.result() == match.result()


@pytest.mark.parametrize("variant", ["six-pack", "eight-pack"])
def test_where_brisques_never_count_the_last_trick_alone_ends_the_deal(variant: str) -> None:
    from referee.deal_end_entries import end_entries
    from referee.events import Brisques, LastTrick, StockExhausted

    m = match(variant)
    deal = m.current
    assert deal is not None
    m.apply(StockExhausted())
    assert end_entries(deal) == ("last_trick",)  # nobody counts the brisques for nothing
    m.apply(LastTrick(1))
    assert deal.complete and end_entries(deal) == ()
    game = m.game(0)
    assert game is not None and game.winner == 1
    # a record that counted them anyway still reads, and they change nothing
    scores = m.totals()
    m.apply(Brisques({0: 20, 1: m.variant.brisques_total(2) - 20}))
    assert m.totals() == scores


def test_rubicon_asks_for_the_brisques_they_may_break_a_tie_or_save_the_loser() -> None:
    from referee.deal_end_entries import end_entries
    from referee.events import LastTrick, StockExhausted

    m = match("rubicon")
    deal = m.current
    assert deal is not None
    m.apply(StockExhausted())
    m.apply(LastTrick(0))
    assert not deal.complete and end_entries(deal) == ("brisques",)
