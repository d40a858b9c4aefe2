"""R-PACK / R-RANK basics and the card spelling of the record (spec, "Cards")."""

from __future__ import annotations

import pytest

from referee.cards import ALL_CARDS, Card, Rank, Suit, cards_text, parse_card, parse_cards
from referee.errors import InvalidCardError

from .conftest import decl, record, result


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("QS", Rank.QUEEN, Suit.SPADES),
        ("10D", Rank.TEN, Suit.DIAMONDS),
        ("TD", Rank.TEN, Suit.DIAMONDS),
        ("J♦", Rank.JACK, Suit.DIAMONDS),
        ("A♠", Rank.ACE, Suit.SPADES),
        ("K♥", Rank.KING, Suit.HEARTS),
        ("7♣", Rank.SEVEN, Suit.CLUBS),
        ("qs", Rank.QUEEN, Suit.SPADES),
        ("td", Rank.TEN, Suit.DIAMONDS),
        ("jD", Rank.JACK, Suit.DIAMONDS),
        ("8c", Rank.EIGHT, Suit.CLUBS),
        ("9h", Rank.NINE, Suit.HEARTS),
    ],
)
def test_r_pack_card_spellings_are_read(text: str, rank: Rank, suit: Suit) -> None:
    card = parse_card(text)
    assert (card.rank, card.suit) == (rank, suit)


def test_r_pack_ten_spellings_name_the_same_card() -> None:
    assert parse_card("10D") is parse_card("TD") is parse_card("t♦") is parse_card("10d")


@pytest.mark.parametrize("text", ["1S", "QX", "11D", "", "Q", "S", "KQS", "0H", "10", "JJ"])
def test_r_pack_bad_card_error_names_the_text(text: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_card(text)
    assert f'"{text}"' in str(info.value)


@pytest.mark.parametrize("value", [None, 12, ["QS"]])
def test_r_pack_a_card_must_be_text(value: object) -> None:
    with pytest.raises(InvalidCardError):
        parse_card(value)


def test_r_pack_a_pack_is_32_distinct_cards() -> None:
    # 8 ranks (A 10 K Q J 9 8 7) x 4 suits = 32
    assert len(ALL_CARDS) == 32
    assert len(set(ALL_CARDS)) == 32
    assert {c.rank for c in ALL_CARDS} == set(Rank)
    assert {c.suit for c in ALL_CARDS} == set(Suit)


def test_r_pack_every_card_code_reads_back() -> None:
    for card in ALL_CARDS:
        assert parse_card(card.code) is card
        assert parse_card(str(card)) is card  # the symbol spelling, "Q♠"


def test_r_rank_order_in_a_trick() -> None:
    order = [parse_card(t + "S").rank for t in ["A", "10", "K", "Q", "J", "9", "8", "7"]]
    assert order == sorted(order, reverse=True)
    assert len(set(order)) == 8


def test_r_brisque_only_aces_and_tens_are_brisques() -> None:
    assert {c.code for c in ALL_CARDS if c.is_brisque} == {
        "AS", "10S", "AH", "10H", "AD", "10D", "AC", "10C"
    }


def test_r_pack_parse_cards_keeps_copies() -> None:
    assert parse_cards(["QS", "qs", "Q♠"]) == [Card(Rank.QUEEN, Suit.SPADES)] * 3


def test_r_pack_record_spellings_are_equivalent_in_a_declaration() -> None:
    # J♦ / jd / JD and Q♠ / qs are the same cards: bezique either way = 40.
    a = result(record([decl("Anna", ["Q♠", "j♦"])]))
    b = result(record([decl("Anna", ["qs", "JD"])]))
    assert a["sides"][0]["deal_scores"] == b["sides"][0]["deal_scores"] == [40]


@pytest.mark.parametrize("text", ["Q♠\ufe0f", "Q♤", " QS ", "q♤"])
def test_r_pack_pasted_suit_symbols_are_read(text: str) -> None:
    assert parse_card(text) is parse_card("QS")


def test_r_rank_cards_are_listed_high_to_low_as_players_say_them() -> None:
    assert cards_text(parse_cards(["QS", "KS"])) == "K♠ Q♠"
    assert cards_text(parse_cards(["JH", "QH", "KH", "10H", "AH"])) == "A♥ 10♥ K♥ Q♥ J♥"
    assert cards_text(parse_cards(["JD", "QS"])) == "Q♠ J♦"  # a bezique: each suit together
    assert cards_text(parse_cards(["KC", "AS", "KS"])) == "A♠ K♠ K♣"
