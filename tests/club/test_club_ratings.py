"""Ratings are openskill's own computation over the results in finish order, and a corrected
or removed match changes the ratings after it and none before it."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import pairwise

import pytest
from club_samples import at, four_hand, three_hand, two_hand_double_bezique
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from referee.club.errors import ResultError
from referee.club.ratings import MODEL, Rating, Ratings, compute
from referee.club.results import ClubResult, Side, result_of


def r(match_id: str, minute: int, *sides: tuple[tuple[str, ...], int, int]) -> ClubResult:
    return ClubResult(match_id, at(minute), tuple(Side(p, s, k) for p, s, k in sides))


KNOWN = [
    r("m1", 10, (("Anna",), 1020, 1), (("Boris",), 640, 2)),  # two-hand
    r("m2", 20, (("Anna",), 700, 3), (("Boris",), 1510, 1), (("Vera",), 900, 2)),  # three-hand
    r("m3", 30, (("Anna", "Vera"), 1200, 2), (("Boris", "Gleb"), 1530, 1)),  # partnerships
    r("m4", 40, (("Gleb",), 0, 1), (("Vera",), 0, 1)),  # a draw the director entered
]


def test_the_model_is_plackett_luce_with_the_library_defaults() -> None:
    assert MODEL == "PlackettLuce"


def test_ratings_equal_openskills_own_computation_two_three_four_hand_and_a_draw() -> None:
    got = compute(KNOWN)
    pl = PlackettLuce()
    anna, boris, vera, gleb = (pl.rating() for _ in range(4))
    [[anna], [boris]] = pl.rate([[anna], [boris]], ranks=[1, 2])
    [[anna], [boris], [vera]] = pl.rate([[anna], [boris], [vera]], ranks=[3, 1, 2])
    [[anna, vera], [boris, gleb]] = pl.rate([[anna, vera], [boris, gleb]], ranks=[2, 1])
    [[gleb], [vera]] = pl.rate([[gleb], [vera]], ranks=[1, 1])
    expected = {"Anna": anna, "Boris": boris, "Vera": vera, "Gleb": gleb}
    assert set(got.current) == set(expected)
    for name, want in expected.items():
        assert got.current[name] == Rating(want.mu, want.sigma, want.ordinal())
    # the draw moved Gleb and Vera toward each other; ordinals are the library's mu - 3 sigma
    assert got.current["Gleb"].ordinal == pytest.approx(gleb.mu - 3 * gleb.sigma)


def test_history_has_the_rating_before_and_after_each_match_and_the_curve_follows_it() -> None:
    got = compute(KNOWN)
    steps = got.history["Anna"]
    assert [s.match_id for s in steps] == ["m1", "m2", "m3"]
    assert [s.rank for s in steps] == [1, 3, 2]
    assert steps[0].before == Rating.of(PlackettLuce().rating())
    assert all(a.after == b.before for a, b in pairwise(steps))
    assert steps[0].change > 0 > steps[1].change
    assert got.curve("Anna") == tuple((s.finished_at, s.after.ordinal) for s in steps)
    assert got.curve("nobody") == ()


def test_results_count_in_finish_order_whatever_order_they_are_given_in() -> None:
    shuffled = KNOWN[:]
    random.Random(4).shuffle(shuffled)
    assert compute(shuffled) == compute(KNOWN)
    assert compute(shuffled).order == ("m1", "m2", "m3", "m4")


def test_matches_finished_in_the_same_second_count_by_match_id() -> None:
    a = r("b", 10, (("Anna",), 1, 1), (("Boris",), 0, 2))
    b = r("a", 10, (("Boris",), 1, 1), (("Anna",), 0, 2))
    assert compute([a, b]).order == ("a", "b") == compute([b, a]).order


def _steps_before(ratings: Ratings, when: tuple[object, str]) -> dict[str, list[object]]:
    return {
        p: [s for s in h if (s.finished_at, s.match_id) < when] for p, h in ratings.history.items()
    }


def test_a_corrected_match_changes_the_ratings_after_it_and_none_before() -> None:
    corrected = [*KNOWN]
    # m2 corrected: Anna, not Boris, won the three-hand match
    corrected[1] = r("m2", 20, (("Anna",), 1510, 1), (("Boris",), 700, 3), (("Vera",), 900, 2))
    before, after = compute(KNOWN), compute(corrected)
    assert _steps_before(before, (at(20), "m2")) == _steps_before(after, (at(20), "m2"))
    for p in ("Anna", "Boris", "Vera"):
        assert before.history[p][1:] != after.history[p][1:]
    # Gleb never met the corrected match, but his later matches did meet its players
    assert before.history["Gleb"] != after.history["Gleb"]
    assert before.current["Gleb"] != after.current["Gleb"]


def test_a_removed_match_changes_the_ratings_after_it_and_none_before() -> None:
    removed = [x for x in KNOWN if x.match_id != "m3"]
    before, after = compute(KNOWN), compute(removed)
    assert _steps_before(before, (at(30), "m3")) == _steps_before(after, (at(30), "m3"))
    assert [s.match_id for s in after.history["Vera"]] == ["m2", "m4"]
    assert before.current["Vera"] != after.current["Vera"]


@st.composite
def histories(draw: st.DrawFn) -> list[ClubResult]:
    names = ["Anna", "Boris", "Vera", "Gleb", "Dina"]
    out = []
    for i in range(draw(st.integers(2, 8))):
        form = draw(st.sampled_from([2, 3, 4]))
        seated = draw(st.permutations(names))[:form]
        sides = [(p,) for p in seated] if form < 4 else [tuple(seated[:2]), tuple(seated[2:])]
        ranks = draw(st.lists(st.integers(1, len(sides)), min_size=len(sides), max_size=len(sides)))
        out.append(
            ClubResult(
                f"m{i}", at(i), tuple(Side(s, 0, k) for s, k in zip(sides, ranks, strict=True))
            )
        )
    return out


@settings(max_examples=60, deadline=None)
@given(histories(), st.data())
def test_any_correction_leaves_every_earlier_rating_as_it_was(
    results: list[ClubResult], data: st.DataObject
) -> None:
    k = data.draw(st.integers(0, len(results) - 1))
    flipped = tuple(replace(s, rank=len(results[k].sides) + 1 - s.rank) for s in results[k].sides)
    corrected = [*results[:k], replace(results[k], sides=flipped), *results[k + 1 :]]
    when = (results[k].finished_at, results[k].match_id)
    assert _steps_before(compute(results), when) == _steps_before(compute(corrected), when)


def test_leaderboard_best_first_equal_ratings_share_a_place_ordered_by_id() -> None:
    board = compute(KNOWN).leaderboard()
    ordinals = [row.rating.ordinal for row in board]
    assert ordinals == sorted(ordinals, reverse=True)
    assert [row.place for row in board] == [1, 2, 3, 4]
    drawn = compute([r("d", 1, (("Zoe",), 0, 1), (("Adam",), 0, 1))]).leaderboard()
    assert [(row.place, row.player, row.matches) for row in drawn] == [
        (1, "Adam", 1),
        (1, "Zoe", 1),
    ]
    assert drawn[0].rating.shown == round(drawn[0].rating.ordinal, 1)


def test_result_of_a_replayed_match_ranks_the_winner_first_then_by_total() -> None:
    three = result_of(three_hand(), "t", at(0))
    assert [(s.players, s.score, s.rank) for s in three.sides] == [
        (("A",), 80, 3),
        (("B",), 580, 1),
        (("C",), 90, 2),
    ]
    four = result_of(four_hand(), "f", at(1), {"A": "id-a"})
    assert [(s.players, s.rank) for s in four.sides] == [(("id-a", "C"), 2), (("B", "D"), 1)]
    two = result_of(two_hand_double_bezique(), "d", at(2))
    assert not two.drawn and two.sides[0].rank == 1
    compute([three, four, two])  # the three forms rate together


def test_a_match_given_twice_or_unfinished_or_malformed_is_refused() -> None:
    with pytest.raises(ResultError, match="given twice"):
        compute([KNOWN[0], KNOWN[0]])
    from referee.match import Match

    with pytest.raises(ResultError, match="not finished"):
        result_of(Match.new("two-hand", ["Anna", "Boris"]), "x", at(0))
    with pytest.raises(ResultError, match="two sides"):
        r("x", 0, (("Anna",), 0, 1))
    with pytest.raises(ResultError, match="plays on two sides"):
        r("x", 0, (("Anna",), 0, 1), (("Anna",), 0, 2))
    with pytest.raises(ValueError, match="places start at 1"):
        r("x", 0, (("Anna",), 0, 0), (("Boris",), 0, 1))
