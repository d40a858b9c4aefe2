"""History (past matches, read-only score sheets, export) and per-player statistics."""

from __future__ import annotations

import flet as ft

from ui import backend
from ui.state.history import StatLine
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
    narrow,
    scroll_body,
    tagged,
    with_args,
)
from ui.views.files import export_buttons, import_handler
from ui.views.home import abandon_controls, keyed
from ui.views.score import sheet_controls


def build(ctx: ViewContext) -> View:
    app = ctx.app
    hs = app.history_screen
    out: list[ft.Control] = []
    matches = hs.matches()
    if app.notice is not None:
        out.append(banner(ctx.t(app.notice.key, **app.notice.args), error=app.notice.error))
    if app.may_write and app.club_table is None:  # a viewer imports nothing, nor a club phone
        out.append(_import(ctx))
    if not matches:
        out.append(body_text(ctx.t("history.empty")))
    out += [_match_card(ctx, m) for m in matches]
    keyed(out)
    return View(scroll_body(out), app_bar(ctx, ctx.t("history.title")))


def _import(ctx: ViewContext) -> ft.Control:
    """Import a match from a file, with what it does."""
    return ft.Column(
        [
            big_button(
                ctx.t("sheet.import"),
                import_handler(ctx),
                icon=ft.Icons.UPLOAD_FILE,
                identifier="import",
            ),
            body_text(ctx.t("sheet.import_help"), 14, color=ft.Colors.ON_SURFACE_VARIANT),
        ],
        spacing=4,
        tight=True,
    )


def _status(ctx: ViewContext, m: backend.MatchSummary) -> str:
    if m.finished:
        return ctx.t("history.finished", winner=m.winner)
    if m.abandoned:
        return ctx.t("sheet.abandoned")
    return ctx.t("history.unfinished")


def _match_card(ctx: ViewContext, m: backend.MatchSummary) -> ft.Control:
    app = ctx.app
    buttons: list[ft.Control] = []
    if not m.finished:
        buttons.append(
            big_button(
                ctx.t("sheet.resume" if app.may_write else "watch.sheet_resume"),
                with_args(app.matches.resume, m.id),
                primary=True,
                icon=ft.Icons.PLAY_ARROW,
                identifier=f"resume-{m.id}",
            )
        )
    buttons.append(
        big_button(
            ctx.t("history.open"),
            with_args(app.view_match, m.id),
            icon=ft.Icons.TABLE_CHART,
            identifier=f"open-{m.id}",
        )
    )
    lines: list[ft.Control] = [
        ft.Text(" — ".join(m.sides), size=19, weight=ft.FontWeight.W_600),
        body_text(
            ctx.t("history.created", date=m.created, variant=ctx.t(f"variant.{m.variant}")), 15
        ),
        tagged(
            f"status-{m.id}",
            body_text(f"{' : '.join(str(t) for t in m.totals)} · {_status(ctx, m)}", 16),
        ),
        ft.Row(buttons, wrap=True, spacing=8, run_spacing=8),
        *export_buttons(ctx, m.id),
    ]
    if not m.finished and not m.abandoned and app.may_write:
        lines += abandon_controls(ctx, m)
    card = tagged(
        f"match-{m.id}",
        ft.Container(
            content=ft.Column(lines, spacing=6, tight=True),
            padding=14,
            border_radius=14,
            bgcolor=ft.Colors.SURFACE_CONTAINER,
        ),
    )
    card.key = f"match-{m.id}"  # see home.keyed()
    return card


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
    out += sheet_controls(
        ctx, score_sheet(m, app.lang), prefix="hist", match=m, match_id=viewed.match_id
    )
    if app.may_write:  # a viewer corrects nothing
        out.append(correction.open_button(ctx, viewed))
    out += export_buttons(ctx, viewed.match_id, suffix="viewed")
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
        if narrow():
            out += [_stat_card(ctx, s, head) for s in stats]
            return View(scroll_body(out), app_bar(ctx, ctx.t("stats.title")))
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


def _stat_card(ctx: ViewContext, s: StatLine, head: list[str]) -> ft.Control:
    """One player on a phone: the name, then label-value pairs that wrap instead of a wide
    table that would need a sideways swipe."""
    values = [
        str(s.matches),
        str(s.wins),
        "—" if s.best_deal is None else str(s.best_deal),
        "—" if s.average is None else f"{s.average:.0f}",
    ]
    pairs = [
        ft.Column(
            [
                body_text(label, 14, color=ft.Colors.ON_SURFACE_VARIANT),
                ft.Text(value, size=22, weight=ft.FontWeight.BOLD),
            ],
            spacing=0,
            tight=True,
        )
        for label, value in zip(head[1:5], values, strict=True)
    ]
    return tagged(
        f"stat-{s.name}",
        ft.Container(
            content=ft.Column(
                [
                    ft.Text(s.name, size=20, weight=ft.FontWeight.BOLD),
                    ft.Row(pairs, wrap=True, spacing=20, run_spacing=6),
                    body_text(f"{head[5]}: {s.melds or '—'}", 15),
                ],
                spacing=6,
                tight=True,
            ),
            padding=14,
            border_radius=14,
            bgcolor=ft.Colors.SURFACE_CONTAINER,
        ),
    )
