"""The next partie at the same table: the same variant, house rules, tracking and target, with
the seats kept or moved on one place.

Moving every player one seat on (the last player takes the first seat) changes who deals and
leads the first deal (R-LEAD: players sit in the order listed) while partners, sitting
opposite, stay partners: seats i and i+2 are still two apart after the move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rematch:
    """Settings for the next partie, ready for ``Store.create_match``."""

    variant: str
    players: tuple[str, ...]
    tracking: str
    house_rules: tuple[str, ...]
    target: int | None


def next_seating(players: Sequence[str], *, rotate: bool) -> tuple[str, ...]:
    """The seating order of the next partie (kept, or every player one seat on)."""
    seats = tuple(players)
    if not rotate or len(seats) < 2:
        return seats
    return (seats[-1], *seats[:-1])


def rematch(
    variant: str,
    players: Sequence[str],
    tracking: str,
    house_rules: Sequence[str],
    target: int | None,
    *,
    rotate: bool,
) -> Rematch:
    """The settings of a finished partie carried over to the next one."""
    return Rematch(
        variant, next_seating(players, rotate=rotate), tracking, tuple(house_rules), target
    )
