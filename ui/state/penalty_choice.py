"""Penalties with their cost shown first (issue 15), from the engine.

Each offence is offered with the amount the engine will apply (``Match.penalty_preview``:
"−320" for a false declaration that wipes 320), only when it can have happened now
(``Match.penalty_options``), and a heavy one (the engine's ``heavy``: a wipe, or 100 or
more) is confirmed before it is recorded. No amount or rule is computed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee import penalties as engine


@dataclass(frozen=True)
class PenaltyOption:
    """An offence as the screen offers it, with the engine's preview."""

    offence: str
    points: int  # the change to the offender's side (negative), or + to each opponent
    to_opponents: bool  # H-PENALTY-TO-OPPONENT: the points go to the other side(s)
    wipes: bool  # "all points": the amount is what the side has so far
    heavy: bool  # ask the table to confirm first
    proposed: bool = False  # the referee proposed it in this deal (listed first)


def _view(option: engine.PenaltyOption) -> PenaltyOption:
    effect = option.effect
    points = effect.amount if effect.to_opponents else effect.offender_change
    return PenaltyOption(
        option.offence,
        int(points),
        bool(effect.to_opponents),
        bool(effect.wipes),
        bool(option.heavy),
        bool(option.proposed_at),
    )


def preview(match: Any, seat: int, offence: str) -> PenaltyOption:
    """What the penalty would do now (nothing is recorded)."""
    effect = match.penalty_preview(seat, offence)
    return _view(engine.PenaltyOption(offence, effect, ()))


def options(match: Any, seat: int) -> list[PenaltyOption]:
    """The offences that can have happened by now for this player, proposed ones first."""
    return [_view(o) for o in match.penalty_options(seat)]
