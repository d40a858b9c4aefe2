"""A finished match as the club counts it: who sat on each side, the side's final score and
its place. Ratings, standings and pairings read only this, never the deal-by-deal record.

The place comes from the engine's verdict, not from the totals: under R-TIE the winner of the
last trick wins even with the lower total, so the winner is ranked first and the other sides
after it by their totals. A finished partie always names a winner (equal leaders play on,
R-TIE / R-GAME); a draw (equal ranks) reaches the club only as a result the director enters,
such as an abandoned match the club agrees to count as drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from referee.club.errors import ResultError
from referee.match import Match


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a match: its players (one, or two partners), final score and place
    (1 = first; sides with equal places drew)."""

    players: tuple[str, ...]
    score: int
    rank: int


@dataclass(frozen=True, slots=True)
class ClubResult:
    """A finished match: two sides (two-hand, four-hand partnerships) or three (three-hand
    free-for-all). ``finished_at`` orders the club's history."""

    match_id: str
    finished_at: datetime
    sides: tuple[Side, ...]

    def __post_init__(self) -> None:
        where = f"match {self.match_id}"
        if len(self.sides) < 2:
            raise ResultError(f"{where}: a result needs at least two sides")
        seen: set[str] = set()
        for side in self.sides:
            if not side.players:
                raise ResultError(f"{where}: a side has no player")
            if side.rank < 1:
                raise ResultError(f"{where}: places start at 1, not {side.rank}")
            for p in side.players:
                if p in seen:
                    raise ResultError(f'{where}: "{p}" plays on two sides')
                seen.add(p)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(p for side in self.sides for p in side.players)

    @property
    def drawn(self) -> bool:
        """True when the first place is shared."""
        return sum(1 for s in self.sides if s.rank == 1) > 1


def result_of(
    match: Match,
    match_id: str,
    finished_at: datetime,
    player_ids: Mapping[str, str] | None = None,
) -> ClubResult:
    """The club's result of a replayed, finished match. ``player_ids`` maps the names seated
    in the match to the club's player ids (the names themselves by default). Raises
    ResultError for a match that is not finished."""
    res = match.result()
    if not res.finished or res.winner is None:
        raise ResultError(f"match {match_id} is not finished: it cannot be counted")
    ids = player_ids or {}
    winner = match.side_names.index(res.winner)
    others = sorted((s.total for i, s in enumerate(res.sides) if i != winner), reverse=True)
    sides = []
    for i, s in enumerate(res.sides):
        # competition ranking after the winner: equal totals share a place (1, 2, 2)
        rank = 1 if i == winner else 2 + others.index(s.total)
        sides.append(Side(tuple(ids.get(p, p) for p in s.players), s.total, rank))
    return ClubResult(match_id, finished_at, tuple(sides))
