"""The multi-pack joker variant ("инфузорка", seed 000; reading in docs/joker-multipack.md):
every line of its scoring table, jokers in each kind of combination, and a full example
computed by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.cards import JOKER, parse_card, parse_cards
from referee.errors import BeziqueError, RecordError
from referee.events import Declare, Seven, StockExhausted, Trick
from referee.match import Match
from referee.record import load_record, parse_record, replay_record
from referee.variants import load_variant

RECORDS = Path(__file__).parent / "records"


def hearts_match(players: tuple[str, ...] = ("A", "B")) -> Match:
    m = Match.new("joker-multipack", list(players))
    m.start_deal(0, parse_card("9H"))  # hearts are trumps; the bezique jack is J♦
    return m


def show(m: Match, player: int, new: str, meld: str, table: str = "") -> int | None:
    """The points of an accepted showing, None when rejected."""
    ruling = m.apply(Declare(player, tuple(parse_cards(new.split())),
                             tuple(parse_cards(table.split())), meld))
    return ruling.points if ruling.accepted else None


# ------------------------------------------------------------------------ the pack (J-PACK)
def test_j_pack_eight_packs_of_twenty_plus_nines_and_jokers() -> None:
    v = load_variant("joker-multipack")
    # 8 × 20 + 12 nines + 2 jokers = 174 cards; 2 × 18 dealt → 138 in the stock → 69 leads
    assert v.cards_total(2) == 174
    assert v.stock_tricks(2) == 69 and v.total_tricks(2) == 87
    assert v.copies(parse_card("QH"), 2) == 8
    assert v.copies(parse_card("9S"), 2) == 3
    assert v.copies(JOKER, 2) == 2
    assert v.copies(parse_card("7H"), 2) == 0 and v.copies(parse_card("8C"), 2) == 0
    # three or four players: 10 packs, 214 cards, three are dealt 18 each → 160 / 3 = 53 leads
    assert v.cards_total(3) == 214 and v.stock_tricks(4) == 53


def test_h_joker_ten_packs() -> None:
    v = load_variant("joker-multipack", frozenset({"H-JOKER-TEN-PACKS"}))
    assert v.packs(2) == 10 and v.cards_total(2) == 214


def test_j_pack_no_sevens_and_no_jokers_elsewhere() -> None:
    m = hearts_match()
    assert show(m, 0, "7H 8H KH", "trump_marriage") is None
    record = {"format": "bezique-match/1", "variant": "two-hand", "players": ["A", "B"],
              "deals": [{"dealer": "A", "turn_up": "9H", "events": [
                  {"type": "declare", "player": "A", "new": ["KH", "JOKER"]}]}]}
    with pytest.raises(RecordError, match=r"events\[0\]\.new\[1\].*no jokers"):
        parse_record(record)


def test_j_joker_turn_up_is_refused() -> None:
    m = Match.new("joker-multipack", ["A", "B"])
    with pytest.raises(BeziqueError, match="joker cannot be turned up"):
        m.start_deal(0, JOKER)


# ------------------------------------------------------------------------ the scoring table
@pytest.mark.parametrize(
    ("meld", "cards", "values"),
    [
        # "Козырный марьяж ценится: первый — в 4 очка, второй — в 8, третий — в 16, четвертый —
        # в 32"; a fifth continues the doubling: 64
        ("trump_marriage", "KH QH", [4, 8, 16, 32, 64]),
        # "Первый безик ценится в 25 очков, второй в 50, третий в 100, четвертый в 200"
        ("bezique", "QH JD", [25, 50, 100, 200]),
        # "Козырный квинт … первый—50 очков, второй—100, третий—200 и т. д."
        ("trump_quint", "AH 10H KH QH JH", [50, 100, 200, 400]),
        # "Четыре дамы разной масти … 6", shown again "вдвойне", "втройне"
        ("four_queens", "QS QH QD QC", [6, 12, 18]),
        ("four_kings", "KS KH KD KC", [8, 16]),
        ("four_aces", "AS AH AD AC", [10, 20]),
        ("four_jacks", "JS JH JD JC", [4, 8]),
    ],
)
def test_j_showing_series(meld: str, cards: str, values: list[int]) -> None:
    m = hearts_match()
    assert [show(m, 0, cards, meld) for _ in values] == values


@pytest.mark.parametrize(
    ("meld", "card", "steps"),
    [
        # four trump queens 176; the 5th +100, 6th +200, 7th +400, 8th +1152 (800 + 352)
        ("trump_queens", "QH", [176, 100, 200, 400, 1152]),
        # four trump kings 88; 5th +50, 6th +100, 7th +200, 8th +576 (400 + 176)
        ("trump_kings", "KH", [88, 50, 100, 200, 576]),
        # trump aces 110, then as kings: 8th 400 + 2 × 110
        ("trump_aces", "AH", [110, 50, 100, 200, 620]),
        # trump jacks 44, then as kings: 8th 400 + 2 × 44
        ("trump_jacks", "JH", [44, 50, 100, 200, 488]),
        # trump tens 90, 5th 50, 6th 100, (7th 200, 8th 400 + 2 × 90: our continuation)
        ("trump_tens", "10H", [90, 50, 100, 200, 580]),
        # bezique jacks (J♦ with hearts trumps) 164, then as queens: 8th 800 + 2 × 164
        ("bezique_jacks", "JD", [164, 100, 200, 400, 1128]),
    ],
)
def test_j_showing_sets_grow_card_by_card(meld: str, card: str, steps: list[int]) -> None:
    m = hearts_match()
    got = [show(m, 0, " ".join([card] * 4), meld)]
    got += [show(m, 0, card, meld) for _ in range(4)]
    assert got == steps
    # eight packs hold eight: a ninth is R-PACK
    ruling = m.apply(Declare(0, (parse_card(card),), (), meld))
    assert not ruling.accepted and ruling.rule == "R-PACK"


def test_j_showing_set_needs_four_cards() -> None:
    m = hearts_match()
    ruling = m.apply(Declare(0, tuple(parse_cards(["QH", "QH", "QH"])), (), "trump_queens"))
    assert not ruling.accepted
    # all at once: 4 + 2 → 176 + 100 + 200
    assert show(m, 0, "QH QH QH QH QH QH", "trump_queens") == 476


def test_j_plain_marriages_score_nothing() -> None:
    m = hearts_match()
    assert show(m, 0, "KS QS", "trump_marriage") is None
    assert not m.apply(Declare(0, tuple(parse_cards(["KS", "QS"])), (), "marriage")).accepted


def test_j_four_queens_must_be_of_different_suits() -> None:
    m = hearts_match()
    assert show(m, 0, "QS QS QD QC", "four_queens") is None


def test_j_quint_may_take_the_bezique_jack() -> None:
    m = hearts_match()
    # "(или при безиковом валете)": A K Q 10 of hearts with J♦
    assert show(m, 0, "AH 10H KH QH JD", "trump_quint") == 50


# ------------------------------------------------------------------------ jokers
@pytest.mark.parametrize(
    ("meld", "cards", "points", "stands_for"),
    [
        ("trump_marriage", "KH JOKER", 4, "Q♥"),
        ("trump_marriage", "JOKER QH", 4, "K♥"),
        ("bezique", "QH JOKER", 25, "J♦"),
        ("bezique", "JOKER JD", 25, "Q♥"),
        ("trump_quint", "AH 10H JOKER QH JH", 50, "K♥"),
        ("four_queens", "QS JOKER QD QC", 6, "Q♥"),
        ("four_kings", "KS KH KD JOKER", 8, "K♣"),
        ("trump_queens", "QH QH JOKER QH", 176, "Q♥"),
        ("bezique_jacks", "JD JOKER JD JD", 164, "J♦"),
    ],
)
def test_j_joker_stands_for_any_card(meld: str, cards: str, points: int,
                                     stands_for: str) -> None:
    m = hearts_match()
    ruling = m.apply(Declare(0, tuple(parse_cards(cards.split())), (), meld))
    assert ruling.accepted and ruling.points == points
    assert f"★ = {stands_for}" in ruling.message


def test_j_joker_added_to_four_queens_is_the_fifth() -> None:
    # "если приложить ее к четырем дамам — она будет пятая"
    m = hearts_match()
    assert show(m, 0, "QH QH QH QH", "trump_queens") == 176
    assert show(m, 0, "JOKER", "trump_queens") == 100


def test_j_jokers_alone_form_nothing_and_there_are_two() -> None:
    m = hearts_match()
    assert show(m, 0, "JOKER JOKER", "trump_marriage") is None
    assert show(m, 0, "KH JOKER", "trump_marriage") == 4
    assert show(m, 1, "QH JOKER", "bezique") == 25
    ruling = m.apply(Declare(0, tuple(parse_cards(["KH", "JOKER"])), (), "trump_marriage"))
    assert not ruling.accepted and ruling.rule == "R-PACK"  # both jokers are on the tables


# ------------------------------------------------------------------------ the deal
def test_j_declare_only_after_winning_a_lead() -> None:
    m = Match.new("joker-multipack", ["A", "B"], tracking="tricks")
    m.start_deal(0, parse_card("AH"))
    m.apply(Trick(1))
    ruling = m.apply(Declare(0, tuple(parse_cards(["KH", "QH"])), (), "trump_marriage"))
    assert not ruling.accepted and ruling.rule == "R-DECLARE-AFTER-TRICK"
    assert show(m, 1, "KH QH", "trump_marriage") == 4


def test_j_no_cards_tracking_no_brisques_no_sevens() -> None:
    with pytest.raises(BeziqueError, match="melds or tricks"):
        Match.new("joker-multipack", ["A", "B"], tracking="cards")
    m = hearts_match()
    ruling = m.apply(Seven(0))
    assert not ruling.accepted and ruling.rule == "J-NINE"


def test_j_four_the_dealer_sits_out() -> None:
    m = Match.new("joker-multipack", ["A", "B", "C", "D"])
    m.start_deal(2, parse_card("AH"))
    ruling = m.apply(Declare(2, tuple(parse_cards(["KH", "QH"])), (), "trump_marriage"))
    assert not ruling.accepted and ruling.rule == "J-FOUR"
    assert show(m, 3, "KH QH", "trump_marriage") == 4


def test_j_reuse_in_another_kind_but_never_the_same() -> None:
    m = hearts_match()
    assert show(m, 0, "KH QH", "trump_marriage") == 4
    assert show(m, 0, "JD", "bezique", table="QH") == 25  # the queen again, another kind
    assert show(m, 0, "KH", "trump_marriage", table="QH") is None  # same kind: R-REUSE


def test_j_ends_with_the_stock() -> None:
    m = hearts_match()
    m.apply(StockExhausted())
    assert show(m, 0, "KH QH", "trump_marriage") is None
    assert m.result().finished is False


def test_example_joker_record_replays_to_hand_computed_results() -> None:
    result = replay_record(load_record(RECORDS / "joker-multipack.json")).result()
    # Hearts trumps (turn-up A♥), bezique jack J♦, eight packs.
    # Anna: trump marriages 4, 8 (K♥ + joker as Q♥), 16; four trump queens (the two Q♥ of
    #   her first and third marriages + two new) 176; a fifth Q♥ +100; trump quint A♥ 10♥ J♦
    #   + K♥ Q♥ from the table (J♦ as the bezique jack) 50 → 354. Her seven: J-NINE.
    # Boris: bezique 25, bezique with a joker as J♦ 50, four queens of different suits 6 → 81.
    #   Q♥ laid: Anna 5, Boris 3 = all eight. His second four queens wants a third joker
    #   (both are on the tables: R-PACK), a ninth Q♥ is R-PACK, four aces after the stock too.
    assert [s.total for s in result.sides] == [354, 81]
    assert [(r.event, r.rule) for r in result.rejected] == [
        (8, "R-PACK"), (10, "R-PACK"), (11, "J-NINE"), (13, "R-NO-DECLARE-AFTER-STOCK"),
    ]
    assert not result.finished


def test_j_three_dealt_in_leave_the_turn_up_undrawn() -> None:
    # 10 packs: 214 − 3 × 18 = 160 in the stock → 53 leads of three draws, one card left:
    # the turn-up is never drawn and stays a known copy when the stock is exhausted
    m = Match.new("joker-multipack", ["A", "B", "C"], tracking="tricks")
    m.start_deal(0, parse_card("AH"))
    for lead in range(54):
        m.apply(Trick(1 + lead % 2))
    assert m.current is not None and m.current.stock_exhausted
    assert m.current.turn_up == parse_card("AH")
    # two players (8 packs): 138 = 69 × 2, the last drawer takes it into the hand
    two = Match.new("joker-multipack", ["A", "B"], tracking="tricks")
    two.start_deal(0, parse_card("AH"))
    for _ in range(70):
        two.apply(Trick(1))
    assert two.current is not None and two.current.turn_up is None
    assert two.current.known_in_hand[0][parse_card("AH")] == 1


# ------------------------------------------------------------ a set that grows, both ways
@pytest.mark.parametrize("with_table", [False, True])
def test_j_showing_set_growth_recorded_either_way(with_table: bool) -> None:
    # spec (joker-multipack): the fifth trump queen may be recorded alone, or with the four
    # already shown in `table`: the same showing, the same points, and later growths follow.
    m = hearts_match()
    assert show(m, 0, "QH QH QH QH", "trump_queens") == 176
    got = []
    for shown in (4, 5, 6, 7):
        table = " ".join(["QH"] * shown) if with_table else ""
        got.append(show(m, 0, "QH", "trump_queens", table=table))
    assert got == [100, 200, 400, 1152]
    assert m.result().sides[0].total == 176 + 100 + 200 + 400 + 1152


def test_j_showing_set_growth_with_the_table_and_meld_left_out() -> None:
    m = hearts_match()
    assert show(m, 0, "QH QH QH QH", "trump_queens") == 176
    ruling = m.apply(Declare(0, (parse_card("QH"),), tuple(parse_cards(["QH"] * 4)), None))
    assert ruling.accepted and ruling.points == 100 and ruling.meld == "trump_queens"


def test_j_showing_set_growth_with_a_joker_in_the_set() -> None:
    m = hearts_match()
    assert show(m, 0, "QH QH JOKER QH", "trump_queens") == 176
    assert show(m, 0, "QH", "trump_queens", table="QH QH JOKER QH") == 100


def test_j_showing_set_growth_may_take_a_queen_shown_in_another_kind() -> None:
    # A Q♥ of a trump marriage on the table joins the set (another kind: allowed), and the
    # set's four listed with it are the set shown before, not a reuse.
    m = hearts_match()
    assert show(m, 0, "KH QH", "trump_marriage") == 4
    assert show(m, 0, "QH QH QH QH", "trump_queens") == 176
    assert show(m, 0, "QH", "trump_queens", table="QH QH QH QH QH") == 300  # 5th and 6th


def test_j_showing_set_cards_listed_twice_in_the_same_kind_still_r_reuse() -> None:
    # Before a set was shown, table cards that scored the kind cannot score it again.
    m = hearts_match()
    assert show(m, 0, "KH QH", "trump_marriage") == 4
    assert show(m, 0, "KH", "trump_marriage", table="QH") is None
