"""The deal screen's note that this deal ends the partie (a side past the target, the last
game of a Rubicon or six-pack match) or that a tie plays on: a compact note of at most two
small lines, under the header, never above it.

It was the 17-pt banner of the score sheet, about 100 px high over the tables zone: at 360 px
it pushed the players' tables and the cut-bonus buttons under the action bar, and on the end
form it sat above the header and pushed it 114 px down (QA P17). The whole sentence is the
note's accessible label, so nothing is lost if the words must end with an ellipsis."""

from __future__ import annotations

from typing import Any

import flet as ft

from ui.state.verdict import verdict_of
from ui.views.common import ViewContext

MAX_LINES = 2


def notes(ctx: ViewContext, match: Any, *, prefix: str = "verdict") -> list[ft.Control]:
    """The compact notes for ``match`` now (none while the partie is not decided soon)."""
    v = verdict_of(match, ctx.app.lang)
    out: list[ft.Control] = []
    if v.ends_with_deal:
        out.append(_note(v.ends_with_deal, f"{prefix}-ends-with-deal", ft.Icons.FLAG))
    if v.goes_on:
        out.append(_note(v.goes_on, f"{prefix}-goes-on", ft.Icons.UPDATE))
    return out


def _note(text: str, identifier: str, icon: ft.IconData) -> ft.Control:
    colour = ft.Colors.ON_SECONDARY_CONTAINER
    box = ft.Container(
        content=ft.Row(
            [
                ft.Icon(icon, size=18, color=colour),
                ft.Text(
                    text,
                    size=14,
                    color=colour,
                    max_lines=MAX_LINES,
                    overflow=ft.TextOverflow.ELLIPSIS,
                    expand=True,
                ),
            ],
            spacing=6,
            vertical_alignment=ft.CrossAxisAlignment.START,
        ),
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
        padding=ft.Padding.symmetric(horizontal=10, vertical=5),
        border_radius=12,
    )
    return ft.Semantics(identifier=identifier, label=text, container=True, content=box)
