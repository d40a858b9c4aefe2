"""A round robin of three-hand tables (a Kirkman triple system): every pair of entrants at a
table exactly once, everyone seated every round, (N − 1)/2 rounds, no bye; refused in words
for a number of entrants no such schedule fits (N ≢ 3 mod 6), and given up in words at the
search's bound."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.club import three_hand_round_robin as module
from referee.club.errors import RoundError, ThreeHandCountError, ThreeHandSearchError
from referee.club.rounds import validate_round
from referee.club.three_hand_round_robin import (
    allows,
    counts_allowed,
    three_hand_round_robin,
)


def names(n: int) -> list[str]:
    return [f"P{i:02d}" for i in range(n)]


@pytest.fixture
def fresh_search() -> Iterator[None]:
    """The search run again, not its kept result (and nothing kept from a patched bound)."""
    module._search.cache_clear()
    yield
    module._search.cache_clear()


@pytest.mark.parametrize("n", [3, 9, 15, 21, 27, 33])
def test_every_pair_meets_exactly_once_and_everyone_plays_every_round(n: int) -> None:
    players = names(n)
    rounds = three_hand_round_robin(players)
    assert len(rounds) == (n - 1) // 2
    for number, rnd in enumerate(rounds, start=1):
        assert rnd.number == number
        assert rnd.byes == ()
        assert all(len(table) == 3 for table in rnd.tables)
        assert len(rnd.tables) == n // 3
        assert sorted(rnd.seated) == players  # everyone, once
    met = Counter(pair for rnd in rounds for t in rnd.tables for pair in combinations(sorted(t), 2))
    assert set(met) == set(combinations(players, 2))
    assert set(met.values()) == {1}


@pytest.mark.parametrize("n", [9, 15, 21])
def test_the_director_s_check_passes_each_round_with_no_repeat(n: int) -> None:
    players = names(n)
    rounds = three_hand_round_robin(players)
    for i, rnd in enumerate(rounds):
        assert validate_round(rnd, players, rounds[:i], table_size=3) == ()


@pytest.mark.parametrize("n", [3, 9, 15, 21])
def test_the_same_entrants_give_the_same_schedule_searched_again(
    n: int, fresh_search: None
) -> None:
    first = three_hand_round_robin(names(n))
    module._search.cache_clear()
    assert three_hand_round_robin(names(n)) == first


@settings(max_examples=20, deadline=None)
@given(
    st.sampled_from([3, 9, 15, 21]).flatmap(
        lambda n: st.lists(st.text(min_size=1, max_size=8), min_size=n, max_size=n, unique=True)
    )
)
def test_the_entrants_order_is_the_seeding(entrants: list[str]) -> None:
    """Entrants in the same places get the same seats, whatever their names: the schedule
    follows the order given, not the names' sorting."""
    rounds = three_hand_round_robin(entrants)
    seed = names(len(entrants))
    place = dict(zip(entrants, seed, strict=True))
    renamed = [
        (rnd.number, [[place[p] for p in table] for table in rnd.tables], list(rnd.byes))
        for rnd in rounds
    ]
    expected = [
        (rnd.number, [list(table) for table in rnd.tables], list(rnd.byes))
        for rnd in three_hand_round_robin(seed)
    ]
    assert renamed == expected


@pytest.mark.parametrize("n", [0, 1, 2, 4, 5, 6, 7, 8, 10, 12, 18, 24])
def test_other_numbers_of_entrants_are_refused_naming_those_that_work(n: int) -> None:
    assert not allows(n)
    with pytest.raises(ThreeHandCountError) as refused:
        three_hand_round_robin(names(n))
    assert isinstance(refused.value, RoundError)
    assert refused.value.count == n
    message = str(refused.value)
    assert "3, 9, 15, 21" in message and "N ≡ 3 mod 6" in message
    assert message.endswith(f"not {n}")


def test_the_counts_that_work_are_the_odd_multiples_of_three() -> None:
    assert counts_allowed(33) == (3, 9, 15, 21, 27, 33)
    assert [n for n in range(40) if allows(n)] == [3, 9, 15, 21, 27, 33, 39]


def test_an_entrant_named_twice_is_refused() -> None:
    with pytest.raises(RoundError, match="named once"):
        three_hand_round_robin(["Anna", "Boris", "Anna"])


def test_the_search_gives_up_at_its_bound_in_words(
    monkeypatch: pytest.MonkeyPatch, fresh_search: None
) -> None:
    monkeypatch.setattr(module, "STEP_BOUND", 100)  # 33 players take about 11,000 steps
    with pytest.raises(ThreeHandSearchError) as gave_up:
        three_hand_round_robin(names(33))
    assert isinstance(gave_up.value, RoundError)
    assert gave_up.value.count == 33 and gave_up.value.steps == 100
    assert "no schedule of three-hand tables was found for 33 players" in str(gave_up.value)
    assert "Swiss" in str(gave_up.value)
    assert len(three_hand_round_robin(names(9))) == 4  # a small N still fits the bound


@pytest.mark.parametrize("n", [39, 45, 51, 57])
def test_every_count_up_to_57_is_found_within_the_bound(n: int) -> None:
    rounds = three_hand_round_robin(names(n))
    met = Counter(pair for rnd in rounds for t in rnd.tables for pair in combinations(sorted(t), 2))
    assert len(rounds) == (n - 1) // 2 and len(met) == n * (n - 1) // 2
    assert set(met.values()) == {1}
