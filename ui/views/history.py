"""History (past matches, read-only score sheets, export) and per-player statistics."""

from __future__ import annotations

import flet as ft

from ui.state.score import score_sheet
from ui.views import correction
from ui.views.common import (
    View,
    ViewContext,
    app_bar,
    banner,
    big_button,
    body_text,
    heading,
    scroll_body,
    tagged,
    with_args,
)
from ui.views.score import sheet_controls


def build(ctx: ViewContext) -> View:
    app = ctx.app
    hs = app.history_screen
    out: list[ft.Control] = []
    matches = hs.matches()
    if app.notice is not None:
        out.append(banner(ctx.t(app.notice.key, **app.notice.args), error=app.notice.error))
    if not matches:
        out.append(body_text(ctx.t("history.empty")))
    for m in matches:
        status = (
            ctx.t("history.finished", winner=m.winner)
            if m.finished
            else ctx.t("history.unfinished")
        )
        out.append(
            tagged(
                f"match-{m.id}",
                ft.Container(
                    content=ft.Column(
                        [
                            ft.Text(" — ".join(m.sides), size=19, weight=ft.FontWeight.W_600),
                            body_text(
                                ctx.t(
                                    "history.created",
                                    date=m.created,
                                    variant=ctx.t(f"variant.{m.variant}"),
                                ),
                                15,
                            ),
                            body_text(f"{' : '.join(str(t) for t in m.totals)} · {status}", 16),
                            ft.Row(
                                [
                                    big_button(
                                        ctx.t("history.open"),
                                        with_args(app.view_match, m.id),
                                        icon=ft.Icons.TABLE_CHART,
                                        identifier=f"open-{m.id}",
                                    ),
                                    big_button(
                                        ctx.t("history.export"),
                                        with_args(_export, ctx, m.id),
                                        icon=ft.Icons.DOWNLOAD,
                                        identifier=f"export-{m.id}",
                                    ),
                                ],
                                wrap=True,
                                spacing=8,
                            ),
                        ],
                        spacing=6,
                        tight=True,
                    ),
                    padding=14,
                    border_radius=14,
                    bgcolor=ft.Colors.SURFACE_CONTAINER,
                ),
            )
        )
    return View(scroll_body(out), app_bar(ctx, ctx.t("history.title")))


def _export(ctx: ViewContext, match_id: int) -> None:
    ctx.app.history_screen.export(match_id)
    ctx.app.changed()


def build_match(ctx: ViewContext) -> View:
    app = ctx.app
    viewed = app.viewed
    out: list[ft.Control] = []
    if app.notice is not None:
        out.append(banner(ctx.t(app.notice.key, **app.notice.args), error=app.notice.error))
    if viewed is None:
        return View(
            scroll_body([body_text(ctx.t("history.empty"))]), app_bar(ctx, ctx.t("history.title"))
        )
    m = viewed.match
    out.append(heading(" — ".join(m.side_names), 22))
    out.append(body_text(ctx.t("history.readonly"), 15, color=ft.Colors.ON_SURFACE_VARIANT))
    out += sheet_controls(ctx, score_sheet(m, app.lang), prefix="hist")
    out.append(
        big_button(
            ctx.t("history.export"),
            lambda _e: _export(ctx, viewed.match_id),
            icon=ft.Icons.DOWNLOAD,
            identifier="export-viewed",
        )
    )
    out.append(correction.open_button(ctx, viewed))
    return View(scroll_body(out), app_bar(ctx, ctx.t("score.title")))


def build_stats(ctx: ViewContext) -> View:
    app = ctx.app
    stats = app.history_screen.stats()
    out: list[ft.Control] = []
    if app.notice is not None:
        out.append(banner(ctx.t(app.notice.key, **app.notice.args), error=app.notice.error))
    if not stats:
        out.append(body_text(ctx.t("stats.empty")))
    else:
        head = [
            ctx.t("stats.player"),
            ctx.t("stats.matches"),
            ctx.t("stats.wins"),
            ctx.t("stats.best_deal"),
            ctx.t("stats.average"),
            ctx.t("stats.melds"),
        ]
        rows: list[ft.Control] = [
            ft.Row(
                [
                    ft.Text(h, size=16, weight=ft.FontWeight.BOLD, width=w)
                    for h, w in zip(head, WIDTHS, strict=True)
                ],
                spacing=8,
            )
        ]
        for s in stats:
            vals = [
                s.name,
                str(s.matches),
                str(s.wins),
                "—" if s.best_deal is None else str(s.best_deal),
                "—" if s.average is None else f"{s.average:.0f}",
                s.melds or "—",
            ]
            rows.append(
                tagged(
                    f"stat-{s.name}",
                    ft.Row(
                        [
                            ft.Text(
                                v, size=17, width=w, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS
                            )
                            for v, w in zip(vals, WIDTHS, strict=True)
                        ],
                        spacing=8,
                    ),
                )
            )
        out.append(
            ft.Container(
                content=ft.Row([ft.Column(rows, spacing=8, tight=True)], scroll=ft.ScrollMode.AUTO),
                padding=14,
                border_radius=14,
                bgcolor=ft.Colors.SURFACE_CONTAINER,
            )
        )
    return View(scroll_body(out), app_bar(ctx, ctx.t("stats.title")))


WIDTHS = [150, 80, 70, 110, 110, 260]
