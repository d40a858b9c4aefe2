"""The game lines under a deal on the score sheet (Rubicon …): the same geometry as every
other line of the sheet (ui/views/sheet_table.py), smaller and quieter than the deal's own
score, each labelled in its column ("game +500", "rubicon +1000")."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import flet as ft

from ui.state.game_lines import GamesInfo, games_info
from ui.views.common import ViewContext, banner, body_text, tagged


def game_rows(
    ctx: ViewContext,
    games: GamesInfo | None,
    deal: int,
    prefix: str,
    row: Callable[..., ft.Control],
) -> list[ft.Control]:
    """The deal's game lines, then the game in words; nothing where deals are not games."""
    if games is None or deal not in games.by_deal:
        return []
    out: list[ft.Control] = []
    for line in games.by_deal[deal]:
        out.append(
            tagged(
                f"{prefix}-d{deal}-{line.kind.replace('_', '-')}",
                row(ft.Container(width=1), _cells(line.parts or [(c, "") for c in line.cells])),
            )
        )
    words = games.outcomes.get(deal)
    if words:
        out.append(
            tagged(
                f"{prefix}-d{deal}-game",
                ft.Container(
                    body_text(words, 14, color=ft.Colors.ON_SURFACE_VARIANT),
                    padding=ft.Padding.only(left=8, right=6, bottom=6),
                ),
            )
        )
    return out


def _cells(cells: Sequence[tuple[str, str]]) -> list[ft.Control]:
    """Each side's cell: the label above (it may take two lines), the number under it on a
    line of its own, so a narrow column (Russian, 360 px) never cuts the number (QA P12)."""
    out: list[ft.Control] = []
    for label, number in cells:
        texts: list[ft.Control] = []
        if label:
            texts.append(
                ft.Text(label, size=12, text_align=ft.TextAlign.RIGHT, max_lines=2,
                        color=ft.Colors.ON_SURFACE_VARIANT)
            )
        if number:
            texts.append(
                ft.Text(number, size=14, text_align=ft.TextAlign.RIGHT, no_wrap=True,
                        color=ft.Colors.ON_SURFACE_VARIANT)
            )
        out.append(
            ft.Column(texts, spacing=0, horizontal_alignment=ft.CrossAxisAlignment.END,
                      tight=True)
        )
    return out


def game_summary(ctx: ViewContext, match: Any, deal: int) -> list[ft.Control]:
    """On the deal's summary: what the deal scored as a game (bonus, rubicon), in words."""
    games = games_info(match, ctx.app.lang)
    words = games.outcomes.get(deal) if games is not None else None
    if not words:
        return []
    return [banner(words, identifier="summary-game")]
