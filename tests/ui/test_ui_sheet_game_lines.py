"""The Rubicon sheet's game lines on a narrow phone (QA P12): the label and the number of each
cell are separate texts, the number on a line of its own that never wraps, so "очки
проигравшего −200" can no longer wrap and lose its number; the points say the fractions of 100
the game dropped ("420 → 400", QA P13)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import flet as ft
import pytest
from test_ui_layout_fixed import walk

from ui.state.game_lines import games_info
from ui.views.game_lines import _cells

RECORD = Path(__file__).resolve().parents[1] / "variants" / "records" / "rubicon.json"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_game_line_cell_keeps_its_number_apart_from_its_label(
    store: Any, lang: str
) -> None:
    m = store.load_match(store.import_match(str(RECORD)))
    games = games_info(m, lang)
    assert games is not None
    for d, lines in games.by_deal.items():
        game = m.game(d - 1)
        for line in lines:
            assert len(line.parts) == len(line.cells)
            for side, (label, number) in enumerate(line.parts):
                if not line.cells[side]:
                    assert (label, number) == ("", "")
                    continue
                assert label and label not in number
                moved = [g.points for g in game.lines if g.kind == line.kind and g.side == side]
                assert str(abs(moved[0])) in number
                if line.kind == "points":
                    before, after = game.counted(side)
                    assert number == (f"{before} → {after}" if before != after else str(after))
            texts = [c for c in walk(ft.Row(_cells(line.parts))) if isinstance(c, ft.Text)]
            numbers = [c for c in texts if c.value in {n for _, n in line.parts}]
            assert numbers and all(c.no_wrap for c in numbers)
