"""QA P20 wording: a viewer's Home offers to watch a match, not to resume it; the Rubicon
sheet says the games played of N once, not in a heading and again under it."""

from __future__ import annotations

from typing import Any

from test_ui_layout_fixed import ctx, texts
from test_ui_rubicon import _rubicon_record_match
from ui_helpers import new_match, start_deal

from ui.state.app import AppState
from ui.state.score import score_sheet
from ui.views import home, score


def test_a_viewers_home_offers_to_watch_the_match(app: AppState, store: Any) -> None:
    start_deal(new_match(app))
    viewer = AppState(store, lang="en", role="viewer")
    shown = texts(home.build(ctx(viewer)).body)
    assert "Watch the match" in shown and "Resume the match" not in shown
    scorer = AppState(store, lang="ru")
    assert "Продолжить партию" in texts(home.build(ctx(scorer)).body)


def test_the_rubicon_sheet_says_the_games_played_once(app: AppState, store: Any) -> None:
    mid, _ = _rubicon_record_match(store)
    rec = store.export_match(mid)
    rec["deals"] = rec["deals"][:1]
    m = store.load_match(store.import_match(rec))
    sheet = score_sheet(m, "en")
    shown = [t for c in score.sheet_controls(ctx(app), sheet)[:3] for t in texts(c)]
    assert len([t for t in shown if "played" in t.lower()]) == 1, shown
