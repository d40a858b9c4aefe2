"""The viewer screen: the live match made for reading across the table — each side's total
in large figures, points to go, the deal in play, the last ruling, then the score sheet. It
offers nothing to record: a viewer's session is read-only in the backend as well."""

from __future__ import annotations

from typing import Any

import flet as ft

from ui.state.common import points_text
from ui.state.score import ScoreSheet, score_sheet
from ui.state.viewer import Reading, reading
from ui.views.common import (
    VIEWPORT_WIDTH,
    View,
    ViewContext,
    app_bar,
    body_text,
    heading,
    narrow,
    scroll_body,
    tagged,
)
from ui.views.fit_text import fitting_size


def build(ctx: ViewContext) -> View:
    app = ctx.app
    session = app.session
    bar = app_bar(ctx, ctx.t("table.viewer.title"), back=True)
    if session is None:
        return View(scroll_body([body_text(ctx.t("score.no_deals"))]), bar)
    r = reading(session.match, app.lang)
    controls: list[ft.Control] = [_totals(ctx, r)]
    if r.winner:
        controls.append(
            tagged(
                "viewer-winner",
                heading(ctx.t("table.viewer.winner", name=r.winner), 28),
            )
        )
    controls.append(_last(ctx, r))
    controls.append(heading(ctx.t("table.viewer.sheet"), 20))
    controls.append(_sheet(ctx, score_sheet(session.match, app.lang)))
    return View(scroll_body(controls, max_width=720), bar)


def _sheet(ctx: ViewContext, sheet: ScoreSheet) -> ft.Control:
    """Deal by deal in columns that share the width (nothing cut off on a 360 px phone)."""

    def cell(text: str, *, bold: bool = False, ident: str | None = None, flex: int = 2) -> Any:
        t = ft.Text(
            text,
            size=19 if bold else 18,
            weight=ft.FontWeight.BOLD if bold else None,
            text_align=ft.TextAlign.LEFT if flex == 3 else ft.TextAlign.RIGHT,
            no_wrap=True,
            overflow=ft.TextOverflow.ELLIPSIS,
        )
        return ft.Container(tagged(ident, t) if ident else t, expand=flex)

    def row(first: str, values: list[str], *, bold: bool = False, ident: str = "") -> ft.Row:
        return ft.Row(
            [
                cell(first, bold=bold, flex=3),
                *[
                    cell(v, bold=bold, ident=f"{ident}-{i}" if ident else None)
                    for i, v in enumerate(values)
                ],
            ],
            spacing=8,
        )

    rows: list[ft.Control] = [row(ctx.t("score.deal"), list(sheet.sides), bold=True)]
    rows.append(ft.Divider(height=2))
    if not sheet.rows:
        rows.append(body_text(ctx.t("score.no_deals")))
    for r in sheet.rows:
        label = ctx.t("score.deal_n", n=r.deal) + (" •" if r.in_play else "")
        rows.append(row(label, [str(v) for v in r.scores], ident=f"viewer-sheet-d{r.deal}"))
    rows.append(ft.Divider(height=2))
    rows.append(
        row(
            ctx.t("score.total"),
            [str(v) for v in sheet.totals],
            bold=True,
            ident="viewer-sheet-total",
        )
    )
    return ft.Container(
        content=ft.Column(rows, spacing=6, tight=True),
        padding=14,
        border_radius=14,
        bgcolor=ft.Colors.SURFACE_CONTAINER,
    )


def _totals(ctx: ViewContext, r: Reading) -> ft.Control:
    """One big block per side: name, total (the largest thing on screen), points to go."""
    per_row = 2 if len(r.sides) > 2 and narrow() else len(r.sides)
    width = VIEWPORT_WIDTH.get()
    box = None if width is None else (min(width, 720) - 32 - 10 * (per_row - 1)) / per_row - 16
    totals = [points_text(side.total) for side in r.sides]
    big = fitting_size(totals, box, 64 if narrow() else 88)  # one line, never "110" over "0"
    lead = leader(r)
    blocks: list[ft.Control] = []
    for i, side in enumerate(r.sides):
        blocks.append(
            ft.Container(
                content=ft.Column(
                    [
                        ft.Text(
                            side.name,
                            size=22,
                            weight=ft.FontWeight.W_600,
                            no_wrap=True,
                            overflow=ft.TextOverflow.ELLIPSIS,
                            text_align=ft.TextAlign.CENTER,
                        ),
                        tagged(
                            f"viewer-total-{i}",
                            ft.Text(
                                totals[i],
                                size=big,
                                weight=ft.FontWeight.BOLD,
                                text_align=ft.TextAlign.CENTER,
                                no_wrap=True,
                            ),
                        ),
                        body_text(
                            ctx.t("table.viewer.to_go", points=side.to_go)
                            if r.games is None and r.winner is None
                            else "",  # no points to go over games, nor once it is won
                            18,
                            text_align=ft.TextAlign.CENTER,
                        ),
                        tagged(
                            f"viewer-deal-{i}",
                            body_text(
                                f"+{side.deal}" if side.deal >= 0 else str(side.deal),
                                20,
                                text_align=ft.TextAlign.CENTER,
                                color=ft.Colors.ON_SURFACE_VARIANT,
                            ),
                        ),
                    ],
                    spacing=2,
                    tight=True,
                    horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                ),
                padding=ft.Padding.symmetric(horizontal=8, vertical=12),
                border_radius=16,
                # green for the side ahead (or the winner) only: across the table green reads
                # "winning"; level sides are both plain
                bgcolor=ft.Colors.PRIMARY_CONTAINER if i == lead else ft.Colors.SURFACE_CONTAINER,
                expand=True,
            )
        )
    deal = ctx.t("table.viewer.deal", n=r.deal_number)
    if not r.deal_number:
        deal = ctx.t("table.viewer.no_deal")
    head = body_text(
        f"{deal} · {ctx.t('table.viewer.target', target=r.target)}"
        if r.games is None
        else f"{deal} · {ctx.t('rubicon.viewer.games', n=r.games)}",
        19,
        text_align=ft.TextAlign.CENTER,
    )
    rows = (
        [ft.Row(blocks[i : i + 2], spacing=10) for i in range(0, len(blocks), 2)]
        if len(blocks) > 2 and narrow()
        else [ft.Row(blocks, spacing=10)]
    )
    return tagged(
        "viewer-totals",
        ft.Column([head, *rows], spacing=10, tight=True),
    )


def leader(r: Reading) -> int | None:
    """The side to paint as ahead: the winner once there is one, else the one highest total
    (None when level)."""
    names = [side.name for side in r.sides]
    if r.winner is not None and r.winner in names:
        return names.index(r.winner)
    totals = [side.total for side in r.sides]
    best = max(totals, default=0)
    return totals.index(best) if totals.count(best) == 1 else None


def _last(ctx: ViewContext, r: Reading) -> ft.Control:
    text = r.last_ruling or ctx.t("table.viewer.none")
    return tagged(
        "viewer-last",
        ft.Container(
            content=ft.Column(
                [heading(ctx.t("table.viewer.last"), 18), ft.Text(text, size=20)],
                spacing=6,
                tight=True,
            ),
            padding=14,
            border_radius=14,
            bgcolor=ft.Colors.SECONDARY_CONTAINER if r.last_accepted else ft.Colors.ERROR_CONTAINER,
        ),
    )
