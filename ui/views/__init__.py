"""Thin Flet views, one module per screen; each ``build(ctx)`` returns a View."""

from __future__ import annotations

from collections.abc import Callable

from ui.views import (
    club,
    club_ratings,
    club_tournament,
    correction,
    deal,
    history,
    home,
    new_match,
    rules,
    score,
    viewer,
)
from ui.views.common import View, ViewContext

SCREENS: dict[str, Callable[[ViewContext], View]] = {
    "home": home.build,
    "new_match": new_match.build,
    "deal": deal.build,
    "score": score.build,
    "rules": rules.build,
    "history": history.build,
    "history_match": history.build_match,
    "stats": history.build_stats,
    "entries": correction.build_entries,
    "correction": correction.build,
    "viewer": viewer.build,
    "club": club.build,
    "club_tournament": club_tournament.build,
    "club_ratings": club_ratings.build_board,
    "club_player": club_ratings.build_player,
}
