"""An evening's standings under each scoring, with the stated tie-breaks."""

from __future__ import annotations

from fractions import Fraction

import pytest
from club_samples import at

from referee.club.results import ClubResult, Side
from referee.club.standings import ranking, standings


def r(match_id: str, *sides: tuple[tuple[str, ...], int, int]) -> ClubResult:
    return ClubResult(match_id, at(0), tuple(Side(p, s, k) for p, s, k in sides))


def test_wins_count_one_a_draw_a_half_and_a_bye_a_win() -> None:
    results = [
        r("1", (("Anna",), 1000, 1), (("Boris",), 500, 2)),
        r("2", (("Vera",), 0, 1), (("Gleb",), 0, 1)),
    ]
    table = {s.player: s for s in standings(results, ["Dina"], {"Dina": 1})}
    assert table["Anna"].points == 1 and table["Anna"].wins == 1
    assert table["Vera"].points == Fraction(1, 2) == table["Gleb"].points
    assert table["Vera"].draws == 1
    assert table["Dina"].points == 1 and table["Dina"].byes == 1 and table["Dina"].played == 0
    assert table["Boris"].points == 0 and table["Boris"].losses == 1


def test_match_points_and_game_points() -> None:
    results = [r("1", (("Anna",), 1000, 1), (("Boris",), 1200, 2))]  # R-TIE: lower total won
    mp = {s.player: s.points for s in standings(results, scoring="match_points")}
    assert mp == {"Anna": 2, "Boris": 0}
    gp = standings(results, byes={"Vera": 1}, scoring="game_points")
    assert [(s.player, int(s.points)) for s in gp] == [("Boris", 1200), ("Anna", 1000), ("Vera", 0)]


def test_three_hand_only_the_first_place_wins_partners_share_their_sides_outcome() -> None:
    results = [
        r("1", (("Anna",), 900, 2), (("Boris",), 1500, 1), (("Vera",), 300, 3)),
        r("2", (("Anna", "Vera"), 1500, 1), (("Boris", "Gleb"), 700, 2)),
    ]
    table = {s.player: s for s in standings(results)}
    assert (table["Anna"].wins, table["Anna"].losses) == (1, 1)
    assert (table["Vera"].wins, table["Boris"].wins, table["Gleb"].wins) == (1, 1, 0)
    # game-point difference: own score less the mean of the other sides' scores
    assert table["Anna"].difference == (900 - Fraction(1800, 2)) + (1500 - 700)


def test_ties_are_broken_by_head_to_head_before_game_point_difference() -> None:
    results = [
        r("1", (("Anna",), 1000, 1), (("Boris",), 990, 2)),  # Anna beat Boris narrowly
        r("2", (("Boris",), 1500, 1), (("Gleb",), 0, 2)),  # Boris won big
        r("3", (("Vera",), 1000, 1), (("Anna",), 900, 2)),
        r("4", (("Vera",), 1000, 1), (("Gleb",), 900, 2)),
    ]
    table = standings(results)
    # Anna and Boris level on one win; Anna beat Boris, though Boris's difference is larger
    assert ranking(table) == ["Vera", "Anna", "Boris", "Gleb"]
    anna, boris = table[1], table[2]
    assert (anna.head_to_head, boris.head_to_head) == (Fraction(1), Fraction(0))
    assert anna.difference < boris.difference


def test_a_cycle_of_head_to_head_falls_to_the_game_point_difference() -> None:
    results = [
        r("1", (("Anna",), 1000, 1), (("Boris",), 990, 2)),  # difference +10
        r("2", (("Boris",), 1500, 1), (("Vera",), 0, 2)),  # +1500
        r("3", (("Vera",), 1000, 1), (("Anna",), 900, 2)),  # +100
    ]
    table = standings(results)
    assert {s.head_to_head for s in table} == {1}
    assert [(s.player, int(s.difference)) for s in table] == [
        ("Boris", 1490),
        ("Anna", -90),
        ("Vera", -1400),
    ]


def test_equal_in_everything_the_player_id_decides_and_places_follow() -> None:
    results = [r("1", (("Zoe",), 0, 1), (("Adam",), 0, 1))]
    assert [(s.place, s.player) for s in standings(results)] == [(1, "Adam"), (2, "Zoe")]


def test_an_unknown_scoring_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown scoring"):
        standings([], scoring="elo")  # type: ignore[arg-type]
