"""History and players: past matches (read-only, with score sheet and export) and per-player
statistics, all read from the storage layer."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ui import backend
from ui.state.common import Notice

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
    """Lists matches and statistics; exports a match record to a file."""

    def __init__(self, app: AppState) -> None:
        self.app = app
        self.export_dir: Path | None = None

    def matches(self) -> list[backend.MatchSummary]:
        self.app.flush()
        try:
            return backend.list_matches(self.app.store)
        except Exception as exc:  # a broken row must not take the screen down
            self.app.notice = Notice("error.storage", {"why": str(exc)}, error=True)
            return []

    def export(self, match_id: int) -> Path | None:
        """Save the record as JSON next to the database (or in the folder set for tests)."""
        self.app.flush()
        folder = self.export_dir or _default_export_dir(self.app.store)
        try:
            path = backend.export_match(self.app.store, match_id, folder)
        except Exception as exc:
            self.app.notice = Notice("history.export_failed", {"why": str(exc)}, error=True)
            return None
        self.app.notice = Notice("history.exported", {"path": str(path)})
        return path

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
        f"{backend.meld_name(m.meld, lang)} ×{m.count}" for m in getattr(s, "best_melds", ())
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


def _default_export_dir(store: Any) -> Path:
    loc = getattr(store, "location", None)
    path = getattr(loc, "path", None)
    if path is not None:
        return Path(path).parent / "exports"
    return Path.home() / "bezique-exports"
