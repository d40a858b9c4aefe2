"""History and players: past matches (read-only, with score sheet) and per-player
statistics, all read from the storage layer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ui import backend
from ui.state.common import Notice
from ui.state.stat_kinds import kind_name

if TYPE_CHECKING:
    from ui.state.app import AppState


@dataclass(frozen=True)
class StatLine:
    name: str
    matches: int
    wins: int
    best_deal: int | None
    average: float | None
    melds: str = ""


class HistoryScreen:
    """Lists matches and statistics (files go to the device: ui.state.matches)."""

    def __init__(self, app: AppState) -> None:
        self.app = app

    def matches(self) -> list[backend.MatchSummary]:
        self.app.flush()
        try:
            return backend.list_matches(self.app.store)
        except Exception as exc:  # a broken row must not take the screen down
            self.app.notice = Notice("error.storage", {"why": str(exc)}, error=True)
            return []

    def stats(self) -> list[StatLine]:
        self.app.flush()
        try:
            raw = backend.player_stats(self.app.store)
        except Exception as exc:
            self.app.notice = Notice("error.storage", {"why": str(exc)}, error=True)
            return []
        return [_stat_line(s, self.app.lang) for s in raw]


def _stat_line(s: Any, lang: str) -> StatLine:
    """referee.storage.stats.PlayerStats → one row of the players screen."""
    melds = ", ".join(
        f"{kind_name(m.meld, lang)} ×{m.count}" for m in getattr(s, "best_melds", ())
    )
    avg = s.average_points_per_deal
    return StatLine(
        name=str(s.name),
        matches=int(s.matches_played),
        wins=int(s.matches_won),
        best_deal=None if s.biggest_deal is None else int(s.biggest_deal),
        average=None if avg is None else float(avg),
        melds=melds,
    )

