"""Home: resume the unfinished match, start a new one, history, players, rules."""

from __future__ import annotations

import flet as ft

from ui.views import table_panel
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
)


def build(ctx: ViewContext) -> View:
    app = ctx.app
    controls: list[ft.Control] = []
    if app.store_notice:
        controls.append(
            banner(
                ctx.t("home.storage_notice", text=app.store_notice),
                error=True,
                identifier="storage-notice",
            )
        )
    summary = app.unfinished_match()
    if app.notice is not None:
        controls.append(banner(ctx.t(app.notice.key, **app.notice.args), error=app.notice.error))
    if summary is not None:
        scores = " : ".join(str(t) for t in summary.totals)
        controls.append(
            tagged(
                "resume-card",
                ft.Container(
                    content=ft.Column(
                        [
                            heading(ctx.t("home.resume"), 22),
                            ft.Text(
                                ctx.t("home.resume_players", players=" — ".join(summary.sides)),
                                size=20,
                            ),
                            body_text(
                                ctx.t(
                                    "home.resume_detail",
                                    deal=max(1, summary.deals),
                                    scores=scores,
                                    target=summary.target,
                                )
                            ),
                            big_button(
                                ctx.t("home.resume"),
                                lambda _e: app.open_match(summary.id),
                                primary=True,
                                icon=ft.Icons.PLAY_ARROW,
                                identifier="resume",
                            ),
                        ],
                        spacing=8,
                        tight=True,
                    ),
                    padding=16,
                    border_radius=16,
                    bgcolor=ft.Colors.PRIMARY_CONTAINER,
                ),
            )
        )
    else:
        controls.append(
            body_text(ctx.t("home.none_unfinished"), color=ft.Colors.ON_SURFACE_VARIANT)
        )
    if app.role != "viewer":  # a viewer starts nothing (refused in AppState as well)
        controls.append(
            big_button(
                ctx.t("home.new"),
                lambda _e: app.start_new_match(),
                primary=summary is None,
                icon=ft.Icons.ADD,
                identifier="new-match",
            )
        )
    controls.append(
        ft.Row(
            [
                big_button(
                    ctx.t("home.history"),
                    lambda _e: app.go("history"),
                    icon=ft.Icons.HISTORY,
                    identifier="history",
                ),
                big_button(
                    ctx.t("home.stats"),
                    lambda _e: app.go("stats"),
                    icon=ft.Icons.PEOPLE,
                    identifier="stats",
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
    controls.extend(table_panel.controls(ctx))
    return View(scroll_body(controls, max_width=640), app_bar(ctx, ctx.t("app.title"), back=False))
