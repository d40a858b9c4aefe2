"""Score sheet: deal by deal like on paper, totals, target, the race chart, the winner."""

from __future__ import annotations

from typing import Any

import flet as ft

from ui.state.score import ScoreSheet, score_sheet
from ui.views.common import View, ViewContext, app_bar, body_text, heading, scroll_body, tagged
from ui.views.correction import open_button

LINE_COLOURS = ["#1565C0", "#C62828", "#2E7D32", "#6A1B9A"]


def build(ctx: ViewContext) -> View:
    session = ctx.app.session
    if session is None:
        return View(
            scroll_body([body_text(ctx.t("score.no_deals"))]), app_bar(ctx, ctx.t("score.title"))
        )
    sheet = score_sheet(session.match, ctx.app.lang)
    controls = [*sheet_controls(ctx, sheet), open_button(ctx, session)]
    return View(scroll_body(controls), app_bar(ctx, ctx.t("score.title")))


def sheet_controls(
    ctx: ViewContext, sheet: ScoreSheet, *, prefix: str = "sheet"
) -> list[ft.Control]:
    """The sheet's table, chart and verdict (shared with the read-only history view)."""
    out: list[ft.Control] = []
    out.append(tagged(f"{prefix}-target", heading(ctx.t("score.target", target=sheet.target), 20)))
    if sheet.finished and sheet.winner:
        verdict: list[ft.Control] = [
            ft.Text(ctx.t("score.winner", name=sheet.winner), size=24, weight=ft.FontWeight.BOLD)
        ]
        if sheet.decided_by:
            verdict.append(
                body_text(
                    ctx.t("score.tie_rule", rule=sheet.decided_by, title=sheet.decided_title or "")
                )
            )
        out.append(
            tagged(
                f"{prefix}-winner",
                ft.Container(
                    content=ft.Column(verdict, tight=True),
                    padding=14,
                    border_radius=14,
                    bgcolor=ft.Colors.PRIMARY_CONTAINER,
                ),
            )
        )
    out.append(_table(ctx, sheet, prefix))
    if sheet.rows:
        out.append(heading(ctx.t("score.chart", target=sheet.target), 19))
        out.append(_chart(sheet))
        out.append(
            ft.Row(
                [
                    ft.Row(
                        [
                            ft.Container(
                                width=18, height=6, bgcolor=LINE_COLOURS[i % 4], border_radius=3
                            ),
                            body_text(ctx.t("score.to_go", name=name, n=sheet.to_go()[i]), 15),
                        ],
                        spacing=6,
                        tight=True,
                    )
                    for i, name in enumerate(sheet.sides)
                ],
                wrap=True,
                spacing=16,
            )
        )
    if sheet.rejected:
        out.append(heading(ctx.t("score.rejected"), 18))
        for line in sheet.rejected:
            out.append(body_text(line, 14, color=ft.Colors.ON_SURFACE_VARIANT))
    return out


def _cell(
    text: str, *, bold: bool = False, width: float = 120, ident: str | None = None
) -> ft.Control:
    t = ft.Text(
        text,
        size=20 if bold else 18,
        weight=ft.FontWeight.BOLD if bold else None,
        text_align=ft.TextAlign.RIGHT,
        width=width,
        no_wrap=True,
        overflow=ft.TextOverflow.ELLIPSIS,
    )
    return tagged(ident, t) if ident else t


def _table(ctx: ViewContext, sheet: ScoreSheet, prefix: str) -> ft.Control:
    first = 80
    rows: list[ft.Control] = [
        ft.Row(
            [
                _cell(ctx.t("score.deal"), width=first, bold=True),
                *[_cell(name, bold=True) for name in sheet.sides],
            ],
            spacing=8,
        )
    ]
    rows.append(ft.Divider(height=2))
    if not sheet.rows:
        rows.append(body_text(ctx.t("score.no_deals")))
    for row in sheet.rows:
        label = ctx.t("score.deal_n", n=row.deal) + (
            f" {ctx.t('score.in_progress')}" if row.in_play else ""
        )
        rows.append(
            ft.Row(
                [
                    _cell(label, width=first + (60 if row.in_play else 0)),
                    *[
                        _cell(str(v), ident=f"{prefix}-d{row.deal}-s{i}")
                        for i, v in enumerate(row.scores)
                    ],
                ],
                spacing=8,
            )
        )
    rows.append(ft.Divider(height=2))
    rows.append(
        ft.Row(
            [
                _cell(ctx.t("score.total"), width=first, bold=True),
                *[
                    _cell(str(v), bold=True, ident=f"{prefix}-total-{i}")
                    for i, v in enumerate(sheet.totals)
                ],
            ],
            spacing=8,
        )
    )
    return ft.Container(
        content=ft.Row([ft.Column(rows, spacing=6, tight=True)], scroll=ft.ScrollMode.AUTO),
        padding=14,
        border_radius=14,
        bgcolor=ft.Colors.SURFACE_CONTAINER,
    )


def _chart(sheet: ScoreSheet) -> ft.Control:
    import flet_charts as fch  # type: ignore[import-untyped]

    lines = sheet.race()
    top = max([sheet.target, *(p[1] for line in lines for p in line)])
    bottom = min([0, *(p[1] for line in lines for p in line)])
    series: list[Any] = []
    for i, line in enumerate(lines):
        series.append(
            fch.LineChartData(
                points=[fch.LineChartDataPoint(x=x, y=y) for x, y in line],
                color=LINE_COLOURS[i % len(LINE_COLOURS)],
                stroke_width=4,
                point=True,
            )
        )
    series.append(
        fch.LineChartData(
            points=[
                fch.LineChartDataPoint(x=0, y=sheet.target),
                fch.LineChartDataPoint(x=max(1, len(sheet.rows)), y=sheet.target),
            ],
            color="#9E9E9E",
            stroke_width=2,
            dash_pattern=[8, 6],
            point=False,
        )
    )
    y_step = _nice_step(top - bottom)
    top = ((int(top) + y_step - 1) // y_step) * y_step
    low = int(bottom) - int(bottom) % y_step
    n = max(1, len(sheet.rows))
    step = max(1, n // 8)
    return ft.Container(
        content=fch.LineChart(
            data_series=series,
            min_x=0,
            max_x=n,
            min_y=low,
            max_y=top,
            left_axis=fch.ChartAxis(
                labels=[
                    fch.ChartAxisLabel(value=v, label=ft.Text(str(v), size=13))
                    for v in range(low, int(top) + 1, y_step)
                ],
                label_size=52,
            ),
            bottom_axis=fch.ChartAxis(
                labels=[
                    fch.ChartAxisLabel(value=x, label=ft.Text(str(x), size=14))
                    for x in range(0, n + 1, step)
                ],
                label_size=28,
            ),
            horizontal_grid_lines=fch.ChartGridLines(color=ft.Colors.OUTLINE_VARIANT, width=1),
            interactive=False,
            expand=True,
        ),
        height=260,
        padding=ft.Padding.only(right=16, top=8),
    )


def _nice_step(span: float) -> int:
    """An axis step of 1, 2, 2.5 or 5 times a power of ten giving about five labels."""
    raw = max(1.0, span / 5)
    power = 10 ** len(str(int(raw))) // 10
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * power:
            return max(1, int(m * power))
    return int(10 * power)
