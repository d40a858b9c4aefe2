"""Home: every unfinished match to resume (or abandon), the last result, a new match (with a
warning while others are unfinished), history, players, rules."""

from __future__ import annotations

from typing import Any

import flet as ft

from ui import backend, runtime
from ui.state.common import points_text
from ui.views import join_codes, joined, phone_panel, table_panel
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


def build(ctx: ViewContext) -> View:
    if join_codes.shown(ctx):  # the host's codes take the screen until hidden
        return join_codes.view(ctx)
    app = ctx.app
    keeping = app.matches
    controls: list[ft.Control] = []
    if app.store_notice:
        controls.append(
            banner(
                ctx.t("home.storage_notice", text=app.store_notice),
                error=True,
                identifier="storage-notice",
            )
        )
    controls.extend(phone_panel.warning(ctx))  # the browser refused storage (phone build)
    controls.extend(joined.controls(ctx))  # "You keep the score" / "You follow the match"
    if app.club_table is not None:  # a club table's phone: its table, and nothing else
        controls.append(body_text(ctx.t("club.phone_at_table", n=app.club_table), size=19))
    if app.club is not None:  # the club night's director
        controls.append(
            big_button(
                ctx.t("club.open"),
                lambda _e: app.go("club"),
                primary=True,
                icon=ft.Icons.TABLE_RESTAURANT,
                identifier="open-club",
            )
        )
    unfinished = keeping.unfinished()
    last = keeping.last_result()
    if app.notice is not None:
        controls.append(banner(ctx.t(app.notice.key, **app.notice.args), error=app.notice.error))
    if keeping.new_warning:
        controls.append(_new_warning(ctx, keeping.new_warning))
    if unfinished:
        controls.append(_resume_card(ctx, unfinished[0], first=True))
    else:
        controls.append(
            body_text(ctx.t("home.none_unfinished"), color=ft.Colors.ON_SURFACE_VARIANT)
        )
    if last is not None:
        controls.append(_last_result(ctx, last.summary, last.reason))
    # a viewer starts nothing, nor a club table's phone (refused in AppState as well)
    if app.role != "viewer" and app.club_table is None:
        controls.append(
            big_button(
                ctx.t("home.new"),
                lambda _e: keeping.request_new(),
                primary=not unfinished,
                icon=ft.Icons.ADD,
                identifier="new-match",
            )
        )
    controls.extend(join_codes.controls(ctx))  # the host's entry, in table mode only
    controls.append(
        ft.Row(
            [
                big_button(
                    ctx.t("home.history"),
                    lambda _e: app.go("history"),
                    icon=ft.Icons.HISTORY,
                    identifier="history",
                ),
                *(
                    []
                    if app.club_table is not None  # the club's players: not a table's
                    else [
                        big_button(
                            ctx.t("home.stats"),
                            lambda _e: app.go("stats"),
                            icon=ft.Icons.PEOPLE,
                            identifier="stats",
                        )
                    ]
                ),
                big_button(
                    ctx.t("home.rules"),
                    lambda _e: app.go("rules"),
                    icon=ft.Icons.MENU_BOOK,
                    identifier="rules",
                ),
            ],
            wrap=True,
            spacing=10,
            run_spacing=10,
        )
    )
    if len(unfinished) > 1:  # the others, below the screen's main actions
        controls.append(heading(ctx.t("sheet.unfinished_title"), 19))
        controls += [_resume_card(ctx, s, first=False) for s in unfinished[1:]]
    # A server process has table mode (the device's name for the others); the phone build
    # has none, and says where its matches are kept instead.
    panel = table_panel if runtime.TABLE_MODE_AVAILABLE else phone_panel
    controls.extend(panel.controls(ctx))
    keyed(controls)
    return View(scroll_body(controls, max_width=640), app_bar(ctx, ctx.t("app.title"), back=False))


def keyed(controls: list[ft.Control]) -> None:
    """Stable keys (the semantics identifier when there is one), so a notice or warning that
    appears above the cards does not make Flet patch each card into the next one."""
    for i, control in enumerate(controls):
        if control.key is None:
            ident = getattr(control, "identifier", None)
            control.key = str(ident) if ident else f"item-{i}"


def detail(ctx: ViewContext, s: backend.MatchSummary) -> str:
    if s.games is not None:  # Rubicon …: "game 2 of 3" rather than "to 0"
        return ctx.t(
            "rubicon.home.unfinished_detail",
            variant=ctx.t(f"variant.{s.variant}"),
            game=max(1, s.deals),
            games=s.games,
            scores=" : ".join(points_text(t) for t in s.totals),
            date=s.created,
        )
    return ctx.t(
        "sheet.unfinished_detail",
        variant=ctx.t(f"variant.{s.variant}"),
        deal=max(1, s.deals),
        scores=" : ".join(points_text(t) for t in s.totals),
        target=s.target,
        date=s.created,
    )


def abandon_controls(ctx: ViewContext, s: backend.MatchSummary) -> list[ft.Control]:
    """Abandon, or the question that confirms it (the match is kept either way)."""
    keeping = ctx.app.matches
    if ctx.app.club_table is not None:
        return []  # a club table is abandoned by the director (refused in storage too)
    if keeping.confirm_abandon != s.id:
        return [
            big_button(
                ctx.t("sheet.abandon"),
                with_args(keeping.ask_abandon, s.id),
                icon=ft.Icons.PAUSE_CIRCLE_OUTLINE,
                identifier=f"abandon-{s.id}",
            )
        ]
    return [
        tagged(
            f"abandon-ask-{s.id}",
            body_text(ctx.t("sheet.abandon_ask", players=" — ".join(s.sides)), 16),
        ),
        ft.Row(
            [
                big_button(
                    ctx.t("sheet.abandon_yes"),
                    with_args(keeping.abandon, s.id),
                    danger=True,
                    identifier=f"abandon-yes-{s.id}",
                ),
                big_button(
                    ctx.t("sheet.cancel"),
                    lambda _e: keeping.cancel_abandon(),
                    identifier=f"abandon-no-{s.id}",
                ),
            ],
            wrap=True,
            spacing=8,
            run_spacing=8,
        ),
    ]


def _resume_card(ctx: ViewContext, s: backend.MatchSummary, *, first: bool) -> ft.Control:
    keeping = ctx.app.matches
    resume: Any = with_args(keeping.resume, s.id)

    def watch_or(key: str) -> str:
        """A viewer resumes nothing: it watches (QA P20)."""
        return f"watch.{key.replace('.', '_')}" if ctx.app.role == "viewer" else key

    return tagged(
        "resume-card" if first else f"resume-card-{s.id}",
        ft.Container(
            content=ft.Column(
                [
                    *([heading(ctx.t(watch_or("home.resume")), 22)] if first else []),
                    ft.Text(
                        ctx.t("home.resume_players", players=" — ".join(s.sides)),
                        size=20 if first else 18,
                        weight=None if first else ft.FontWeight.W_600,
                    ),
                    body_text(detail(ctx, s), 16),
                    *_card_buttons(
                        big_button(
                            ctx.t(watch_or("home.resume" if first else "sheet.resume")),
                            resume,
                            primary=True,
                            icon=ft.Icons.PLAY_ARROW,
                            identifier="resume" if first else f"resume-{s.id}",
                        ),
                        abandon_controls(ctx, s) if ctx.app.role != "viewer" else [],
                    ),
                ],
                spacing=8,
                tight=True,
            ),
            padding=16,
            border_radius=16,
            bgcolor=ft.Colors.PRIMARY_CONTAINER if first else ft.Colors.SURFACE_CONTAINER,
        ),
    )


def _card_buttons(resume: ft.Control, abandon: list[ft.Control]) -> list[ft.Control]:
    """Resume and Abandon side by side (wrapping on a narrow phone); while the abandon
    question is open it goes under them."""
    if len(abandon) == 1:
        return [ft.Row([resume, abandon[0]], wrap=True, spacing=8, run_spacing=8)]
    return [ft.Row([resume], wrap=True), *abandon]


def _new_warning(ctx: ViewContext, open_ones: list[backend.MatchSummary]) -> ft.Control:
    keeping = ctx.app.matches
    names = "; ".join(" — ".join(s.sides) for s in open_ones)
    return tagged(
        "new-warning",
        ft.Container(
            content=ft.Column(
                [
                    body_text(ctx.t("sheet.new_warning", players=names), 17),
                    ft.Row(
                        [
                            big_button(
                                ctx.t("sheet.new_anyway"),
                                lambda _e: keeping.confirm_new(),
                                primary=True,
                                icon=ft.Icons.ADD,
                                identifier="new-anyway",
                            ),
                            big_button(
                                ctx.t("sheet.cancel"),
                                lambda _e: keeping.cancel_new(),
                                identifier="new-cancel",
                            ),
                        ],
                        wrap=True,
                        spacing=8,
                        run_spacing=8,
                    ),
                ],
                spacing=10,
                tight=True,
            ),
            padding=14,
            border_radius=14,
            bgcolor=ft.Colors.TERTIARY_CONTAINER,
        ),
    )


def _last_result(ctx: ViewContext, s: backend.MatchSummary, reason: str) -> ft.Control:
    app = ctx.app
    return tagged(
        "last-result",
        ft.Container(
            content=ft.Column(
                [
                    heading(ctx.t("sheet.last_result"), 19),
                    ft.Text(
                        ctx.t(
                            "score.winner_match" if s.games else "score.winner",
                            name=s.winner or "",
                        ),
                        size=20,
                        weight=ft.FontWeight.BOLD,
                    ),
                    body_text(
                        ctx.t(
                            "sheet.last_result_line",
                            players=" — ".join(s.sides),
                            scores=" : ".join(points_text(t) for t in s.totals),
                        ),
                        16,
                    ),
                    body_text(reason, 15, color=ft.Colors.ON_SURFACE_VARIANT),
                    ft.Row(
                        [
                            big_button(
                                ctx.t("history.open"),
                                with_args(app.view_match, s.id),
                                icon=ft.Icons.TABLE_CHART,
                                identifier="last-result-open",
                            ),
                        ],
                        wrap=True,
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
