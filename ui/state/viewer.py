"""The viewer screen's content: what someone across the table reads off a phone held up to
them — each side's total, how far to the target, the deal in play, the match's last ruling.
Numbers and rulings are the engine's, read from the session's match (which ui/live.py keeps
equal to storage)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ui import backend
from ui.state.deal_summary import summary_sides


@dataclass(frozen=True)
class SideLine:
    name: str
    total: int
    deal: int  # this deal's points so far
    to_go: int


@dataclass(frozen=True)
class Reading:
    sides: tuple[SideLine, ...]
    target: int
    deal_number: int  # 0: no deal yet
    last_ruling: str | None
    last_accepted: bool
    winner: str | None
    games: int | None = None  # a match over a number of games (Rubicon …): no target


def reading(match: Any, lang: str) -> Reading:
    """The viewer's lines for a match (the engine's result and the current deal's log)."""
    result = match.result()
    target = int(getattr(result, "target", 0) or match.target)
    current = match.current
    # where each deal is a game, its points as the game counts them: no brisques that do
    # not count (QA P13; ui/state/deal_summary.py, the engine's GameScore.counted)
    deal_scores = (
        [s.points for s in summary_sides(match, len(match.deals) - 1)]
        if current is not None
        else [0] * len(result.sides)
    )
    sides = tuple(
        SideLine(s.name, int(s.total), int(deal_scores[i]), max(0, target - int(s.total)))
        for i, s in enumerate(result.sides)
    )
    last: str | None = None
    accepted = True
    if current is not None and current.log:
        _, ruling = current.log[-1]
        last = backend.ruling_words(ruling, lang)  # read across the table: words, no rule id
        accepted = bool(ruling.accepted)
    return Reading(
        sides=sides,
        target=target,
        deal_number=len(match.deals),
        last_ruling=last,
        last_accepted=accepted,
        winner=result.winner if result.finished else None,
        games=getattr(match, "games", None) if target <= 0 else None,
    )
