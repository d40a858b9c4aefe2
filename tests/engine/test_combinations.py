"""RULES.md §4: every two-hand combination is recognised and scores the seed table's points.

Default trumps in these records: hearts (turn-up 9H, so no dealer's seven)."""

from __future__ import annotations

from collections import Counter

import pytest

from referee.cards import Suit, parse_cards
from referee.combinations import instances
from referee.variants import load_variant

from .conftest import decl, record, rejected, ruling, scores

# (meld, cards, points) -- the seed table, RULES.md §4, with hearts as trumps.
TABLE = [
    ("marriage", ["KC", "QC"], 20),
    ("trump_marriage", ["KH", "QH"], 40),
    ("double_marriage", ["KC", "KC", "QC", "QC"], 40),
    ("double_trump_marriage", ["KH", "QH", "KH", "QH"], 80),
    ("bezique", ["QS", "JD"], 40),
    ("double_bezique", ["QS", "JD", "QS", "JD"], 500),
    ("four_jacks", ["JS", "JH", "JD", "JC"], 40),
    ("four_queens", ["QS", "QH", "QD", "QC"], 60),
    ("four_kings", ["KS", "KH", "KD", "KC"], 80),
    ("four_aces", ["AS", "AH", "AD", "AC"], 100),
    ("sequence", ["AC", "10C", "KC", "QC", "JC"], 100),
    ("trump_sequence", ["AH", "10H", "KH", "QH", "JH"], 250),
]


@pytest.mark.parametrize(("meld", "cards", "points"), TABLE)
def test_r_combination_each_scores_its_points(meld: str, cards: list[str], points: int) -> None:
    # Named explicitly.
    assert scores(record([decl("Anna", cards, meld=meld)])) == (points, 0)
    # Left out: the cards form exactly one combination (a double bezique contains beziques,
    # a sequence a marriage; the larger one is the combination).
    assert scores(record([decl("Boris", cards)])) == (0, points)


@pytest.mark.parametrize(
    ("meld", "cards"),
    [
        ("marriage", ["KC", "QD"]),            # K and Q of different suits
        ("trump_marriage", ["KC", "QC"]),      # clubs are not trumps
        ("double_marriage", ["KC", "KC", "QC", "QD"]),
        ("double_trump_marriage", ["KH", "KH", "QH"]),
        ("bezique", ["QC", "JD"]),             # bezique is Q♠ with J♦ only
        ("bezique", ["QS", "JH"]),
        ("double_bezique", ["QS", "JD", "QS"]),
        ("four_jacks", ["JS", "JH", "JD"]),
        ("four_queens", ["QS", "QH", "QD", "JC"]),
        ("four_kings", ["KS", "KH", "KD", "QC"]),
        ("four_aces", ["AS", "AH", "AD", "10C"]),
        ("sequence", ["AC", "10C", "KC", "QC", "JD"]),
        ("trump_sequence", ["AH", "10H", "KH", "QH", "9H"]),
    ],
)
def test_r_combination_cards_that_do_not_form_it_are_rejected(meld: str, cards: list[str]
                                                               ) -> None:
    doc = record([decl("Anna", cards, meld=meld)])
    assert (0, 0) in rejected(doc)
    assert scores(doc) == (0, 0)


@pytest.mark.parametrize(
    ("meld", "cards", "points"),
    [
        ("four_aces", ["AS", "AS", "AH", "AD"], 100),  # suits are not required to differ
        ("four_kings", ["KC", "KC", "KD", "KD"], 80),
        ("four_queens", ["QS", "QS", "QH", "QH"], 60),
        ("four_jacks", ["JD", "JD", "JC", "JS"], 40),
    ],
)
def test_r_four_of_a_kind_suits_need_not_differ(meld: str, cards: list[str], points: int
                                                ) -> None:
    assert scores(record([decl("Anna", cards, meld=meld)])) == (points, 0)


def test_r_combination_cards_forming_no_combination_are_rejected() -> None:
    doc = record([decl("Anna", ["AS", "9C"])])
    assert rejected(doc) == {(0, 0): "P-FALSE-DECLARATION"}
    assert ruling(doc, 0).proposes == "P-FALSE-DECLARATION"


def test_r_combination_trumps_follow_the_turn_up() -> None:
    # Spades trumps (turn-up 9S): K♠ Q♠ is the trump marriage, 40; K♥ Q♥ a plain one, 20.
    assert scores(record([decl("Anna", ["KS", "QS"])], turn_up="9S")) == (40, 0)
    assert scores(record([decl("Anna", ["KH", "QH"])], turn_up="9S")) == (20, 0)
    # A♠ 10♠ K♠ Q♠ J♠ with spades trumps: trump sequence 250.
    assert scores(record([decl("Anna", ["AS", "10S", "KS", "QS", "JS"])], turn_up="8S")) == (
        250, 0)


def test_r_combination_a_meld_not_in_two_hand_is_rejected() -> None:
    # The triple marriage exists in three-hand only.
    doc = record([decl("Anna", ["KC", "KC", "KC", "QC", "QC", "QC"], meld="triple_marriage")])
    assert (0, 0) in rejected(doc)
    assert scores(doc) == (0, 0)


def test_r_combination_recogniser_finds_both_readings_of_k_q_spades_j_diamonds() -> None:
    variant = load_variant("two-hand")
    found = {i.meld for i in instances(Counter(parse_cards(["KS", "QS", "JD"])), variant,
                                       Suit.HEARTS)}
    assert found == {"marriage", "bezique"}
    found = {i.meld for i in instances(Counter(parse_cards(["KS", "QS", "JD"])), variant,
                                       Suit.SPADES)}
    assert found == {"trump_marriage", "bezique"}


def test_r_combination_recogniser_counts_copies() -> None:
    variant = load_variant("two-hand")
    one = {i.meld for i in instances(Counter(parse_cards(["QS", "JD", "JD"])), variant,
                                     Suit.HEARTS)}
    two = {i.meld for i in instances(Counter(parse_cards(["QS", "JD", "JD", "QS"])), variant,
                                     Suit.HEARTS)}
    assert "double_bezique" not in one
    assert "double_bezique" in two


def test_r_combination_ambiguous_cards_without_meld_are_rejected() -> None:
    # K♠ Q♠ J♦ are a marriage (20) and a bezique (40): the record must say which one scores.
    doc = record([decl("Anna", ["KS", "QS", "JD"])])
    assert rejected(doc) == {(0, 0): "R-PENDING"}
    assert scores(doc) == (0, 0)
