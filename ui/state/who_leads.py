"""Who leads the next trick, and whether the deal's tricks are all played: what the deal
screen's header and the viewer both say, read from the engine's deal (R-LEAD), in one place."""

from __future__ import annotations

from typing import Any

from referee.lead import next_leader


def play_over(match: Any) -> bool:
    """All the current deal's tricks are played (or the last trick closed the play)."""
    d = match.current
    if d is None:
        return False
    total = int(match.setup.total_tricks)
    return bool(d.tricks_played >= total or getattr(d, "play_closed", False))


def leader(match: Any) -> int | None:
    """The seat that leads the next trick (the engine's R-LEAD); None with no deal in play."""
    if match.current is None or play_over(match):
        return None
    return int(next_leader(match.current))
