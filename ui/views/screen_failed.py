"""A screen that could not be drawn: said in the player's language, with the way Home.

A screen's build that raises is a bug, never the player's input. Left alone, the page would
keep the previous drawing with its buttons live: a form stays open after its Record, and a
second tap may record the entry twice (seen once: the kept offers keyed a trick's cards,
which cannot be hashed, and the e2e trick form stayed open). Instead the failure goes to
the log with its traceback and this screen is drawn in its place: what went wrong, that the
match's entries are not touched by a drawing, and Home.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

import flet as ft

from ui.views.common import View, ViewContext, app_bar, big_button, tagged

log = logging.getLogger(__name__)


def draw(ctx: ViewContext, screens: Mapping[str, Callable[[ViewContext], View]]) -> View:
    """The app's current screen, or this one if building it raised."""
    screen = ctx.app.screen
    try:
        return screens[screen](ctx)
    except Exception as exc:  # a bug in a screen: said, logged, never a frozen page
        log.exception("the %s screen could not be drawn", screen)
        return build(ctx, exc)


def build(ctx: ViewContext, exc: Exception) -> View:
    why = f"{type(exc).__name__}: {exc}"[:300]
    body = ft.Column(
        [
            tagged(
                "screen-failed",
                ft.Text(ctx.t("error.screen_failed"), size=20, weight=ft.FontWeight.W_600),
            ),
            ft.Text(ctx.t("error.unexpected", why=why), size=16, selectable=True),
            big_button(
                ctx.t("nav.home"),
                lambda _e: ctx.app.home(),
                icon=ft.Icons.HOME,
                primary=True,
                identifier="screen-failed-home",
            ),
        ],
        spacing=16,
        scroll=ft.ScrollMode.AUTO,
    )
    return View(
        body=ft.Container(body, padding=ft.Padding.all(20)),
        appbar=app_bar(ctx, ctx.t("app.title"), back=False),
    )
