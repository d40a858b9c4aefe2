"""The club's records come from the replayed matches: the highest deal as the engine scored
it, and the double beziques the referee accepted."""

from __future__ import annotations

import pytest
from club_samples import at, declare, four_hand, one_deal, three_hand, two_hand_double_bezique

from referee.club.errors import ResultError
from referee.club.records import club_records, double_beziques
from referee.match import Match


def test_highest_deal_and_most_double_beziques_over_the_three_forms() -> None:
    rec = club_records(
        [
            ("two", at(0), two_hand_double_bezique()),
            ("three", at(1), three_hand()),
            ("four", at(2), four_hand()),
        ],
        limit=3,
    )
    assert [(d.match_id, d.side, d.players, d.points) for d in rec.highest_deals] == [
        ("four", "B & D", ("B", "D"), 620),
        ("two", "Anna", ("Anna",), 600),
        ("three", "B", ("B",), 580),
    ]
    assert [(d.match_id, d.player, d.count) for d in rec.most_double_beziques] == [
        ("two", "Anna", 1),
        ("three", "B", 1),
        ("four", "B", 1),
    ]


def test_two_double_beziques_in_one_match_lead_and_equal_marks_go_to_the_first_to_set_them() -> (
    None
):
    two = one_deal(
        "two-hand",
        ["Vera", "Gleb"],
        1000,
        [declare(0, "QS QS JD JD"), declare(1, "AH AH"), declare(0, "QS QS JD JD")],
        {0: 10, 1: 6},
        1,
    )
    assert double_beziques(two) == {
        "Vera": 1
    }  # the second is refused: both packs' Q♠ and J♦ already lie on the table
    rec = club_records(
        [("late", at(9), two_hand_double_bezique()), ("early", at(1), two_hand_double_bezique())]
    )
    assert [d.match_id for d in rec.most_double_beziques] == ["early", "late"]
    assert rec.highest_deals[0].match_id == "early"


def test_a_refused_double_bezique_is_not_counted() -> None:
    m = one_deal(
        "two-hand",
        ["Anna", "Boris"],
        100,
        [declare(0, "QS JD"), declare(0, "QS JD JD QS")],  # the second in the same turn
        {0: 10, 1: 6},
        0,
    )
    assert not m.deals[0].log[1][1].accepted
    assert double_beziques(m) == {}


def test_an_unfinished_match_holds_no_record_yet() -> None:
    with pytest.raises(ResultError, match="not finished"):
        club_records([("x", at(0), Match.new("two-hand", ["Anna", "Boris"]))])
