"""A round of an evening (its tables and byes), what earlier rounds say about who has met,
and the check of a round the director edited before it is played.

The check refuses what cannot be played (an unknown player, a player seated twice or not at
all, a table of the wrong size) with one error class each, and only warns about a repeated
pairing: the director may want it, the server only avoids it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from referee.club.errors import (
    PlayerMissingError,
    PlayerTwiceError,
    TableSizeError,
    UnknownPlayerError,
)


@dataclass(frozen=True, slots=True)
class Round:
    """Round ``number`` (from 1): the tables, each the players (or teams) seated at it, and
    those with a bye."""

    number: int
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()

    @property
    def seated(self) -> tuple[str, ...]:
        return tuple(p for t in self.tables for p in t)


@dataclass(frozen=True, slots=True)
class RepeatWarning:
    """Two players seated together again; ``rounds`` are the earlier rounds they met in."""

    players: tuple[str, str]
    rounds: tuple[int, ...]

    @property
    def message(self) -> str:
        a, b = self.players
        earlier = ", ".join(str(n) for n in self.rounds)
        return f"{a} and {b} have already met (round {earlier})"


def pairs(table: Iterable[str]) -> list[frozenset[str]]:
    """Every two players of a table (one pair at a two-hand table, three at a three-hand)."""
    return [frozenset(p) for p in combinations(table, 2)]


def meetings(history: Iterable[Round]) -> dict[frozenset[str], list[int]]:
    """Who has sat at a table with whom, and in which rounds."""
    out: dict[frozenset[str], list[int]] = {}
    for rnd in history:
        for table in rnd.tables:
            for pair in pairs(table):
                out.setdefault(pair, []).append(rnd.number)
    return out


def bye_counts(history: Iterable[Round]) -> Counter[str]:
    return Counter(p for rnd in history for p in rnd.byes)


def validate_round(
    rnd: Round,
    players: Sequence[str],
    history: Iterable[Round] = (),
    table_size: int = 2,
) -> tuple[RepeatWarning, ...]:
    """Check a round before it is played: every player of the evening seated once or given a
    bye, nobody else, every table of ``table_size``. Raises a RoundError subclass for the first
    fault; returns a warning for each pair that has met before."""
    known = set(players)
    seen: set[str] = set()
    for p in (*rnd.seated, *rnd.byes):
        if p not in known:
            raise UnknownPlayerError(p)
        if p in seen:
            raise PlayerTwiceError(p)
        seen.add(p)
    for table in rnd.tables:
        if len(table) != table_size:
            raise TableSizeError(table, table_size)
    for p in players:
        if p not in seen:
            raise PlayerMissingError(p)
    met = meetings(history)
    warnings = []
    for table in rnd.tables:
        for pair in pairs(table):
            if pair in met:
                a, b = sorted(pair)
                warnings.append(RepeatWarning((a, b), tuple(met[pair])))
    return tuple(warnings)
