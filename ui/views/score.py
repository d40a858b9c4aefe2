"""Score sheet: deal by deal like on paper, totals, target, the race chart, the winner."""

from __future__ import annotations

from typing import Any

import flet as ft

from ui.state.score import ScoreSheet, score_sheet
from ui.views.common import View, ViewContext, app_bar, body_text, heading, scroll_body, tagged
from ui.views.correction import open_button
from ui.views.files import export_buttons
from ui.views.sheet_table import sheet_table
from ui.views.verdict import in_play_notes, verdict_panel

LINE_COLOURS = ["#1565C0", "#C62828", "#2E7D32", "#6A1B9A"]


def build(ctx: ViewContext) -> View:
    session = ctx.app.session
    if session is None:
        return View(
            scroll_body([body_text(ctx.t("score.no_deals"))]), app_bar(ctx, ctx.t("score.title"))
        )
    sheet = score_sheet(session.match, ctx.app.lang)
    controls = [
        *sheet_controls(ctx, sheet, match=session.match, match_id=session.match_id),
        *([open_button(ctx, session)] if ctx.app.may_write else []),
        *export_buttons(ctx, session.match_id, suffix="sheet"),
    ]
    return View(scroll_body(controls), app_bar(ctx, ctx.t("score.title")))


def sheet_controls(
    ctx: ViewContext,
    sheet: ScoreSheet,
    *,
    prefix: str = "sheet",
    match: Any = None,
    match_id: int | None = None,
) -> list[ft.Control]:
    """The sheet's table, chart and verdict (shared with the read-only history view)."""
    out: list[ft.Control] = []
    title = (
        sheet.games.heading(ctx.app.t, sheet.target)
        if sheet.games is not None
        else ctx.t("score.target", target=sheet.target)
    )
    if sheet.games is not None and sheet.games.standing:  # "Games played: 1 of 2"
        # the engine's standing says the games played of N: said once, as the heading
        title = sheet.games.standing.rstrip(".")
    out.append(tagged(f"{prefix}-target", heading(title, 20)))
    if match is not None:
        out += verdict_panel(
            ctx, match, match_id, identifier=f"{prefix}-winner", rematch=match_id is not None
        )
        out += in_play_notes(ctx, match, prefix=prefix)
    out.append(sheet_table(ctx, sheet, prefix))
    if sheet.rows:
        chart_title = (
            ctx.t("score.chart", target=sheet.target)
            if sheet.target > 0
            else ctx.t("rubicon.sheet.chart")
        )
        out.append(heading(chart_title, 19))
        out.append(_chart(ctx, sheet))
        out.append(
            ft.Row(
                [
                    ft.Row(
                        [
                            ft.Container(
                                width=18, height=6, bgcolor=LINE_COLOURS[i % 4], border_radius=3
                            ),
                            body_text(
                                ctx.t("score.to_go", name=name, n=sheet.to_go()[i])
                                if sheet.to_go()
                                else name,
                                15,
                            ),
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


def _chart(ctx: ViewContext, sheet: ScoreSheet) -> ft.Control:
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
    if sheet.target > 0:  # the target's dashed line (a match over games has none)
        series.append(_target_line(sheet.target, len(sheet.rows)))
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
                title=ft.Text(ctx.t("sheet.chart_y"), size=14),
                title_size=22,
            ),
            bottom_axis=fch.ChartAxis(
                labels=[
                    fch.ChartAxisLabel(value=x, label=ft.Text(str(x), size=14))
                    for x in range(0, n + 1, step)
                ],
                label_size=28,
                title=ft.Text(ctx.t("sheet.chart_x"), size=14),
                title_size=22,
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


def _target_line(target: int, deals: int) -> Any:
    import flet_charts as fch

    return fch.LineChartData(
        points=[
            fch.LineChartDataPoint(x=0, y=target),
            fch.LineChartDataPoint(x=max(1, deals), y=target),
        ],
        color="#9E9E9E",
        stroke_width=2,
        dash_pattern=[8, 6],
        point=False,
    )
