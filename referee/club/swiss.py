"""The next round of a Swiss evening: players who stand level meet, nobody meets anyone twice
when that can be avoided, and the bye goes round.

The rule, in order of priority:

1. The fewest repeated meetings (a pair at a table who met in an earlier round); zero whenever
   some seating has none.
2. The bye (one when the players do not fill the tables: N mod 2 at two-hand tables, N mod 3
   at three-hand) goes to those with the fewest byes so far, and among them to the lowest in
   the standing.
3. Monrad order: the highest-placed player still unseated sits with the next highest they can
   (at three-hand tables, the next two), so the first seating in standing order that meets 1
   and 2 is the one proposed.

``ranking`` is the standing (``standings.ranking``; the seeding before round 1), so ties are
broken however the standings broke them, and the same inputs always give the same round. The
search backtracks and remembers the dead ends; it is meant for a club evening (tens of
players), not a congress.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from referee.club.errors import RoundError
from referee.club.rounds import Round, bye_counts, meetings, pairs


def swiss_round(
    ranking: Sequence[str],
    history: Sequence[Round] = (),
    table_size: int = 2,
) -> Round:
    """The round after ``history`` for the players in ``ranking`` (best first)."""
    if table_size not in (2, 3):
        raise RoundError(f"tables seat 2 or 3 players, not {table_size}")
    if len(set(ranking)) != len(ranking):
        raise RoundError("each player may be named once")
    if len(ranking) < table_size:
        raise RoundError(f"{len(ranking)} players cannot fill a table of {table_size}")
    met = meetings(history)
    number = max((r.number for r in history), default=0) + 1
    worst = len(ranking) // table_size * (table_size * (table_size - 1) // 2)
    for allowed in range(worst + 1):
        for byes in _bye_choices(ranking, history, len(ranking) % table_size):
            rest = tuple(p for p in ranking if p not in byes)
            tables = _Seating(met, table_size).seat(rest, allowed)
            if tables is not None:
                return Round(number, tuple(tables), byes)
    raise AssertionError("a seating with every pair repeated always exists")


def _bye_choices(
    ranking: Sequence[str], history: Sequence[Round], count: int
) -> Iterator[tuple[str, ...]]:
    """Who could have the bye, best choice first: fewest byes so far, then lowest standing."""
    if count == 0:
        yield ()
        return
    had = bye_counts(history)
    place = {p: i for i, p in enumerate(ranking)}
    choices = sorted(
        combinations(ranking, count),
        key=lambda c: (
            max(had[p] for p in c),
            sum(had[p] for p in c),
            sorted(-place[p] for p in c),
        ),
    )
    yield from choices


class _Seating:
    """Backtracking over tables in Monrad order, with a memo of the dead ends."""

    def __init__(self, met: dict[frozenset[str], list[int]], size: int) -> None:
        self.met = met
        self.size = size
        self.dead: set[tuple[tuple[str, ...], int]] = set()

    def seat(self, rest: tuple[str, ...], allowed: int) -> list[tuple[str, ...]] | None:
        if not rest:
            return []
        if (rest, allowed) in self.dead:
            return None
        first, others = rest[0], rest[1:]
        for mates in combinations(others, self.size - 1):
            table = (first, *mates)
            cost = sum(1 for pair in pairs(table) if pair in self.met)
            if cost > allowed:
                continue
            left = tuple(p for p in others if p not in mates)
            below = self.seat(left, allowed - cost)
            if below is not None:
                return [table, *below]
        self.dead.add((rest, allowed))
        return None
