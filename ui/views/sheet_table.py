"""The score sheet's table, laid out like the paper it replaces and fitted to the screen.

Every row (names, each deal, the totals) is built by one function with the same fixed first
column, the same paddings and equally expanding side columns, so a number always stands under
its name whatever the row holds (the deal in play is marked by a tint, never by a longer
label). Sizes shrink with the number of sides so that four sides fit 360 px without cutting a
digit; names may take two lines instead of being cut.
"""

from __future__ import annotations

from collections.abc import Sequence

import flet as ft

from ui.state.common import points_text
from ui.state.score import ScoreSheet
from ui.views.common import VIEWPORT_WIDTH, ViewContext, body_text, tagged
from ui.views.game_lines import game_rows

FIRST = 40  # the deal number column
GAP = 6
# (name, deal number, total) font sizes by the number of sides
SIZES = {2: (18, 22, 32), 3: (16, 20, 28), 4: (15, 19, 24)}


def _sizes(n: int) -> tuple[int, int, int]:
    return SIZES.get(n, SIZES[4])


def _name_text(name: str, size: int, n: int, winner: bool) -> ft.Text:
    """A side's name over its column: on two lines between words, smaller if one word is too
    long for the column, cut with an ellipsis only as a last resort (the screen's title has
    every name in full), so Flutter never breaks a name in the middle of a word."""
    width = VIEWPORT_WIDTH.get() or 860.0
    column = (min(width, 860.0) - 32 - 8 - 12 - FIRST - GAP * n) / max(1, n)
    longest = max((len(w) for w in name.split()), default=1) + (2 if winner else 0)
    fits = size
    while fits > 12 and longest * 0.6 * fits > column:
        fits -= 1
    cut = longest * 0.6 * fits > column
    return ft.Text(
        ("★ " if winner else "") + name,
        size=fits,
        weight=ft.FontWeight.BOLD,
        text_align=ft.TextAlign.RIGHT,
        max_lines=1 if cut else 2,
        overflow=ft.TextOverflow.ELLIPSIS,
        color=ft.Colors.PRIMARY if winner else None,
    )


def _row(
    first: ft.Control, cells: Sequence[ft.Control], *, tint: str | None = None
) -> ft.Control:
    """One line of the sheet: the same geometry for every line."""
    return ft.Container(
        content=ft.Row(
            [
                ft.Container(first, width=FIRST, alignment=ft.Alignment.CENTER_LEFT),
                *[
                    ft.Container(c, expand=1, alignment=ft.Alignment.CENTER_RIGHT)
                    for c in cells
                ],
            ],
            spacing=GAP,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        padding=ft.Padding.symmetric(horizontal=6, vertical=4),
        border_radius=8,
        bgcolor=tint,
    )


def _num(text: str, size: int, *, bold: bool = False, ident: str | None = None,
         color: str | None = None) -> ft.Control:
    t = ft.Text(
        text,
        size=size,
        weight=ft.FontWeight.BOLD if bold else None,
        text_align=ft.TextAlign.RIGHT,
        no_wrap=True,
        color=color,
    )
    return tagged(ident, t) if ident else t


def _with_running(score: ft.Control, total: int | None, size: int, ident: str) -> ft.Control:
    """A deal's score with the side's running total under it, smaller and quieter, as paper
    keeps it ("= 1340"); the first deal's would repeat its score, so it has none."""
    if total is None:
        return score
    return ft.Column(
        [score, _num(f"= {points_text(total)}", max(12, size - 6), ident=ident,
                     color=ft.Colors.ON_SURFACE_VARIANT)],
        spacing=0,
        tight=True,
        horizontal_alignment=ft.CrossAxisAlignment.END,
    )


def sheet_table(ctx: ViewContext, sheet: ScoreSheet, prefix: str) -> ft.Control:
    n = len(sheet.sides)
    name_size, deal_size, total_size = _sizes(n)
    winner = sheet.winner if sheet.finished else None
    head = [
        tagged(f"{prefix}-name-{i}", _name_text(name, name_size, n, name == winner))
        for i, name in enumerate(sheet.sides)
    ]
    rows: list[ft.Control] = [
        _row(ft.Text(ctx.t("sheet.deal_short"), size=name_size, weight=ft.FontWeight.BOLD), head)
    ]
    rows.append(ft.Divider(height=2))
    if not sheet.rows:
        rows.append(body_text(ctx.t("score.no_deals")))
    in_play = None
    running = sheet.running()
    for k, row in enumerate(sheet.rows):
        if row.in_play:
            in_play = row.deal
        rows.append(
            tagged(
                f"{prefix}-row-{row.deal}",
                _row(
                    ft.Text(
                        str(row.deal),
                        size=deal_size - 2,
                        weight=ft.FontWeight.BOLD if row.in_play else None,
                        color=ft.Colors.ON_SURFACE_VARIANT,
                    ),
                    [
                        _with_running(
                            _num(str(v), deal_size, ident=f"{prefix}-d{row.deal}-s{i}"),
                            running[k][i] if k else None,
                            deal_size,
                            f"{prefix}-run{row.deal}-s{i}",
                        )
                        for i, v in enumerate(row.scores)
                    ],
                    tint=ft.Colors.SECONDARY_CONTAINER if row.in_play else None,
                ),
            )
        )
        rows += game_rows(ctx, sheet.games, row.deal, prefix, _row)  # Rubicon …: game lines
    rows.append(ft.Divider(height=2))
    rows.append(
        _row(
            ft.Icon(ft.Icons.FUNCTIONS, size=total_size - 2),
            [
                _num(
                    str(v),
                    total_size,
                    bold=True,
                    ident=f"{prefix}-total-{i}",
                    color=ft.Colors.PRIMARY if sheet.sides[i] == winner else None,
                )
                for i, v in enumerate(sheet.totals)
            ],
        )
    )
    if in_play is not None:
        rows.append(
            tagged(
                f"{prefix}-in-play",
                body_text(
                    ctx.t("sheet.in_play_note", n=in_play), 14, color=ft.Colors.ON_SURFACE_VARIANT
                ),
            )
        )
    return tagged(
        f"{prefix}-table",
        ft.Container(
            content=ft.Column(rows, spacing=2, tight=True),
            padding=ft.Padding.symmetric(horizontal=4, vertical=10),
            border_radius=14,
            bgcolor=ft.Colors.SURFACE_CONTAINER,
        ),
    )
