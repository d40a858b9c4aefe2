"""A round robin (each meets each exactly once) by the circle method: the first entrant stays,
the others turn one place a round. With an odd number a bye takes the empty place, so each
entrant has exactly one bye over N rounds; with an even number there are N − 1 rounds and no
bye. Entrants are players or fixed partnerships (a team's id), the tables two-sided; a round
robin of three-hand tables needs a resolvable design, not the circle: three_hand_round_robin.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.club.errors import RoundError
from referee.club.rounds import Round


def round_robin(entrants: Sequence[str]) -> tuple[Round, ...]:
    """Every round of the round robin, in order; the entrants' order is the seeding."""
    if len(entrants) < 2:
        raise RoundError("a round robin needs at least two entrants")
    if len(set(entrants)) != len(entrants):
        raise RoundError("each entrant may be named once")
    circle: list[str | None] = [*entrants, None] if len(entrants) % 2 else list(entrants)
    n = len(circle)
    rounds = []
    for number in range(1, n):
        tables: list[tuple[str, ...]] = []
        byes: list[str] = []
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            if a is not None and b is not None:
                tables.append((a, b))
            else:
                byes.extend(p for p in (a, b) if p is not None)
        rounds.append(Round(number, tuple(tables), tuple(byes)))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return tuple(rounds)
