"""The club's records from its finished matches: the highest deal score and the most double
beziques one player declared in a match.

They are read from the replayed match (``Match``), never from the record's text: a deal's
score is what the engine scored (where each deal is a game, its points as the game counts
them, brisques that do not count left out, as the players' statistics do), and a double
bezique counts only when the referee accepted it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from referee.club.errors import ResultError
from referee.events import Declare
from referee.match import Match

DOUBLE_BEZIQUE = "double_bezique"


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A side's score in one deal (``deal`` from 0)."""

    match_id: str
    finished_at: datetime
    variant: str
    deal: int
    side: str
    players: tuple[str, ...]
    points: int


@dataclass(frozen=True, slots=True)
class DoubleBeziqueRecord:
    """How many double beziques ``player`` declared, accepted, in one match."""

    match_id: str
    finished_at: datetime
    variant: str
    player: str
    count: int


@dataclass(frozen=True, slots=True)
class ClubRecords:
    """The best of each record, best first. Equal marks are ordered by who set them first
    (finish time), then match id, so the holder of a record is the one who reached it first."""

    highest_deals: tuple[DealRecord, ...]
    most_double_beziques: tuple[DoubleBeziqueRecord, ...]


def deal_score(match: Match, deal: int, side: int) -> int:
    """A side's score in one deal, as the statistics count it."""
    game = match.game(deal) if match.variant.game is not None else None
    if game is not None:
        return game.counted(side)[0]
    return match.deals[deal].scores()[side]


def double_beziques(match: Match) -> Counter[str]:
    """Each player's accepted double bezique declarations in the match."""
    out: Counter[str] = Counter()
    for deal in match.deals:
        for event, ruling in deal.log:
            if isinstance(event, Declare) and ruling.accepted and ruling.meld == DOUBLE_BEZIQUE:
                out[match.players[event.player]] += 1
    return out


def match_records(
    match_id: str, finished_at: datetime, match: Match
) -> tuple[list[DealRecord], list[DoubleBeziqueRecord]]:
    """Every deal score (each side, each deal) and each player's double beziques of one
    finished match: what :func:`club_records` ranks. Raises ResultError for a match that is
    not finished."""
    if not match.result().finished:
        raise ResultError(f"match {match_id} is not finished: it holds no record yet")
    variant = match.variant.id
    side_players = [
        tuple(p for seat, p in enumerate(match.players) if match.setup.side_of[seat] == s)
        for s in range(len(match.side_names))
    ]
    deals = [
        DealRecord(
            match_id, finished_at, variant, d, name, side_players[s], deal_score(match, d, s)
        )
        for d in range(len(match.deals))
        for s, name in enumerate(match.side_names)
    ]
    doubles = [
        DoubleBeziqueRecord(match_id, finished_at, variant, player, count)
        for player, count in double_beziques(match).items()
    ]
    return deals, doubles


def top_records(
    deals: Iterable[DealRecord], doubles: Iterable[DoubleBeziqueRecord], limit: int = 10
) -> ClubRecords:
    """The best ``limit`` of each record; equal marks to the first to set them."""
    best_deals = sorted(deals, key=lambda r: (-r.points, r.finished_at, r.match_id, r.deal, r.side))
    best_doubles = sorted(doubles, key=lambda r: (-r.count, r.finished_at, r.match_id, r.player))
    return ClubRecords(tuple(best_deals[:limit]), tuple(best_doubles[:limit]))


def club_records(matches: Iterable[tuple[str, datetime, Match]], limit: int = 10) -> ClubRecords:
    """The top ``limit`` of each record over finished matches (id, finish time, replayed
    match). Raises ResultError for a match that is not finished."""
    deals: list[DealRecord] = []
    doubles: list[DoubleBeziqueRecord] = []
    for match_id, finished_at, match in matches:
        d, b = match_records(match_id, finished_at, match)
        deals.extend(d)
        doubles.extend(b)
    return top_records(deals, doubles, limit)
