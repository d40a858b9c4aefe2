"""Round robin and Swiss rounds: each pair once in a round robin with the byes even, and a
Swiss evening that never seats a pair twice when it can be avoided."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.club.errors import RoundError
from referee.club.results import ClubResult, Side
from referee.club.round_robin import round_robin
from referee.club.rounds import Round, bye_counts, meetings, validate_round
from referee.club.standings import ranking, standings
from referee.club.swiss import swiss_round


def names(n: int) -> list[str]:
    return [f"P{i:02d}" for i in range(n)]


@pytest.mark.parametrize("n", [4, 5, 8])
def test_round_robin_each_pair_meets_exactly_once_and_byes_are_even(n: int) -> None:
    players = names(n)
    rounds = round_robin(players)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter(frozenset(t) for rnd in rounds for t in rnd.tables)
    assert set(met) == {frozenset(p) for p in combinations(players, 2)}
    assert set(met.values()) == {1}
    byes = bye_counts(rounds)
    assert byes == (Counter() if n % 2 == 0 else Counter(players))
    for i, rnd in enumerate(rounds):
        assert rnd.number == i + 1
        assert validate_round(rnd, players, rounds[:i]) == ()


def test_round_robin_of_teams_pairs_the_teams() -> None:
    teams = ["Anna & Boris", "Vera & Gleb", "Dina & Egor"]
    rounds = round_robin(teams)
    assert sorted(b for r in rounds for b in r.byes) == sorted(teams)
    assert {frozenset(t) for r in rounds for t in r.tables} == {
        frozenset(p) for p in combinations(teams, 2)
    }


def test_round_robin_needs_two_distinct_entrants() -> None:
    with pytest.raises(RoundError):
        round_robin(["Anna"])
    with pytest.raises(RoundError):
        round_robin(["Anna", "Anna", "Boris"])


def _play(rnd: Round, rng: random.Random, minute: int) -> list[ClubResult]:
    """Random results for a round's tables (draws included)."""
    out = []
    for i, table in enumerate(rnd.tables):
        ranks = [rng.randint(1, len(table)) for _ in table]
        scores = [rng.randrange(0, 2000, 10) for _ in table]
        sides = tuple(Side((p,), s, k) for p, s, k in zip(table, scores, ranks, strict=True))
        when = datetime(2026, 12, 2, 19, minute, tzinfo=UTC)
        out.append(ClubResult(f"r{rnd.number}t{i}", when, sides))
    return out


def _evening(players: list[str], rounds: int, seed: int, size: int = 2) -> list[Round]:
    rng = random.Random(seed)
    history: list[Round] = []
    results: list[ClubResult] = []
    for _ in range(rounds):
        table = standings(results, players, bye_counts(history), "match_points")
        rnd = swiss_round(ranking(table), history, size)
        assert validate_round(rnd, players, history, size) == ()  # no repeat, all seated
        history.append(rnd)
        results += _play(rnd, rng, len(history))
    return history


@pytest.mark.parametrize("n", [4, 5, 8])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_swiss_over_three_rounds_never_pairs_twice_and_never_gives_a_second_bye(
    n: int, seed: int
) -> None:
    history = _evening(names(n), 3, seed)
    assert all(len(v) == 1 for v in meetings(history).values())
    assert max(bye_counts(history).values(), default=0) <= 1
    assert [r.number for r in history] == [1, 2, 3]


def test_swiss_round_one_pairs_by_seeding_and_the_lowest_seed_has_the_bye() -> None:
    rnd = swiss_round(["A", "B", "C", "D", "E"])
    assert rnd == Round(1, (("A", "B"), ("C", "D")), ("E",))


def test_swiss_pairs_the_next_in_the_standing_that_a_player_has_not_met() -> None:
    history = [Round(1, (("A", "B"), ("C", "D")))]
    assert swiss_round(["A", "B", "C", "D"], history).tables == (("A", "C"), ("B", "D"))


def test_swiss_the_bye_goes_to_the_lowest_who_has_not_had_one() -> None:
    history = [Round(1, (("A", "B"), ("C", "D")), ("E",))]
    rnd = swiss_round(["E", "A", "C", "B", "D"], history)
    assert rnd.byes == ("D",)


def test_swiss_when_every_pair_has_met_it_repeats_as_few_as_it_must() -> None:
    players = ["A", "B", "C", "D"]
    rr = list(round_robin(players))
    rnd = swiss_round(players, rr)
    assert rnd.number == 4 and len(rnd.tables) == 2
    assert len(validate_round(rnd, players, rr)) == 2  # both tables repeat: unavoidable


def test_five_players_over_five_swiss_rounds_each_have_one_bye() -> None:
    history: list[Round] = []
    players = names(5)
    for _ in range(5):
        history.append(swiss_round(players, history))
    assert bye_counts(history) == Counter(players)


def test_three_hand_tables_nine_players_two_rounds_nobody_meets_twice() -> None:
    history = _evening(names(9), 2, seed=3, size=3)
    assert all(len(t) == 3 for r in history for t in r.tables)
    assert all(len(v) == 1 for v in meetings(history).values())


def test_three_hand_tables_leave_the_remainder_on_byes() -> None:
    rnd = swiss_round(names(8), (), table_size=3)
    assert rnd.tables == (("P00", "P01", "P02"), ("P03", "P04", "P05"))
    assert rnd.byes == ("P06", "P07")


def test_three_hand_six_players_second_round_repeats_only_what_it_must() -> None:
    players = names(6)
    first = swiss_round(players, (), 3)
    second = swiss_round(players, [first], 3)
    # two tables of three drawn from two earlier tables: each holds two who met (pigeonhole)
    assert len(validate_round(second, players, [first], 3)) == 2


def test_swiss_is_deterministic_and_refuses_bad_input() -> None:
    assert _evening(names(8), 3, 7) == _evening(names(8), 3, 7)
    with pytest.raises(RoundError):
        swiss_round(["A", "A"])
    with pytest.raises(RoundError):
        swiss_round(["A", "B"], table_size=4)
    with pytest.raises(RoundError):
        swiss_round(["A", "B"], table_size=3)
