"""QA P28: the viewer's big totals never wrap or get cut ("1100" read across the table as
"110" over "0"): each figure stays on one line at a size that fits its box at 360 px."""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest
from test_ui_layout_fixed import ctx, walk

from ui.state.app import AppState
from ui.state.viewer import Reading, SideLine
from ui.views import viewer
from ui.views.common import VIEWPORT_WIDTH

DIGIT_EM = 0.5625  # Roboto Bold's digit advance (1152 of 2048 units): the figure's real width


def box_width(viewport: float, columns: int) -> float:
    """A side box's inner width: the scroll body's 16 px paddings, 10 px gaps, 8 px paddings."""
    return (min(viewport, 720) - 32 - 10 * (columns - 1)) / columns - 16


def figure_width(text: str, size: float) -> float:
    return len(text) * DIGIT_EM * size


def reading_of(totals: list[int], games: int | None = None) -> Reading:
    sides = tuple(SideLine(f"P{i}", t, 0, max(0, 1000 - t)) for i, t in enumerate(totals))
    return Reading(sides, 1000, 3, None, True, None, games)


def big_figures(control: Any, n: int) -> list[ft.Text]:
    out = []
    for c in walk(control):
        if getattr(c, "identifier", "") in {f"viewer-total-{i}" for i in range(n)}:
            out.append(c.content)
    return out


@pytest.mark.parametrize("width", [360.0, 390.0])
@pytest.mark.parametrize(
    "totals", [[1100, 940], [2100, 3320], [-1240, 10450], [1100, 2300, 980, 40]]
)
def test_the_viewers_totals_stay_on_one_line_inside_their_box(
    app: AppState, width: float, totals: list[int]
) -> None:
    token = VIEWPORT_WIDTH.set(width)
    try:
        view = viewer._totals(ctx(app), reading_of(totals))
    finally:
        VIEWPORT_WIDTH.reset(token)
    figures = big_figures(view, len(totals))
    assert len(figures) == len(totals)
    per_row = 2 if len(totals) > 3 else len(totals)  # three sides share one row (issue 22)
    room = box_width(width, per_row)
    for f in figures:
        assert f.no_wrap is True
        assert figure_width(f.value, f.size) <= room
    assert len({f.size for f in figures}) == 1  # the sides' totals read alike
