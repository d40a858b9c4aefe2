"""Penalties with their cost shown first.

Each offence is offered with the amount the engine would apply now (``verify`` on the
penalty event: "−320" for a false declaration that wipes 320), so nobody taps a penalty
without seeing it. A heavy one asks to be confirmed. Which offences can have happened now
comes from the engine when it says so (``possible_penalties``); otherwise every offence of
the variant is offered, as before. No amount or rule is computed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.events import Penalty

HEAVY_POINTS = 100  # a penalty costing this much or more is confirmed before it is recorded


@dataclass(frozen=True)
class PenaltyOption:
    offence: str
    points: int | None  # the change to the offender's side (negative), None if unknown
    to_opponents: bool  # H-PENALTY-TO-OPPONENT: the points go to the other side(s)
    wipes: bool  # "all points": the amount depends on the deal so far

    @property
    def heavy(self) -> bool:
        return self.wipes or abs(self.points or 0) >= HEAVY_POINTS


def preview(match: Any, seat: int, offence: str) -> PenaltyOption:
    """The engine's ruling on the penalty, not recorded: its amount and direction."""
    amount = match.variant.penalties.get(offence)
    try:
        ruling = match.verify(Penalty(seat, offence))
    except ValueError:
        return PenaltyOption(offence, None, False, amount == "all")
    to_opponents = ruling.key == "penalty_to_opponents"
    return PenaltyOption(offence, int(ruling.points or 0), to_opponents, amount == "all")


def possible(match: Any, seat: int) -> list[str]:
    """The offences to offer now: the engine's "possible penalties now" if it has it."""
    ask = getattr(match, "possible_penalties", None)
    if callable(ask):
        try:
            return [str(p) for p in ask(seat)]
        except (TypeError, ValueError):
            pass
    return [str(k) for k in match.variant.penalties]


def options(match: Any, seat: int) -> list[PenaltyOption]:
    return [preview(match, seat, p) for p in possible(match, seat)]
