"""Shared building blocks for the screens: big touch targets, choice rows, banners.

Every tappable thing has a minimum height of 56 logical pixels (one-handed use across a
table) and, where tests need it, a stable semantics identifier.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import flet as ft

from ui.state.app import AppState

TAP = 56
# The page's width and height while a screen is being built (set by the shell before each
# render).
VIEWPORT_WIDTH: ContextVar[float | None] = ContextVar("viewport_width", default=None)
VIEWPORT_HEIGHT: ContextVar[float | None] = ContextVar("viewport_height", default=None)
Handler = Callable[[Any], object]


@dataclass
class ViewContext:
    app: AppState
    page: ft.Page

    def t(self, key: str, **kw: object) -> str:
        return self.app.t(key, **kw)


@dataclass
class View:
    body: ft.Control
    appbar: ft.AppBar | None = None


def with_args(fn: Callable[..., object], *args: Any) -> Handler:
    """An event handler that calls ``fn(*args)`` (loop variables bound now, not later)."""

    def handler(_e: Any) -> None:
        fn(*args)

    return handler


def tagged(identifier: str, control: ft.Control, label: str | None = None) -> ft.Control:
    """Wrap a control so the browser's accessibility tree (and the e2e tests) can find it."""
    return ft.Semantics(identifier=identifier, label=label, content=control, container=True)


LONG_LABEL = 24  # characters: past this a big button's label may wrap at 360 px


def big_button(
    text: str,
    on_click: Handler | None,
    *,
    icon: ft.IconData | None = None,
    primary: bool = False,
    identifier: str | None = None,
    danger: bool = False,
    expand: bool | int | None = None,
) -> ft.Control:
    style = ft.ButtonStyle(
        padding=ft.Padding.symmetric(horizontal=20, vertical=14),
        text_style=ft.TextStyle(size=18, weight=ft.FontWeight.W_600),
        shape=ft.RoundedRectangleBorder(radius=14),
    )
    kwargs: dict[str, Any] = {
        "content": ft.Text(text, size=18, weight=ft.FontWeight.W_600),
        "icon": icon,
        "on_click": on_click,
        "style": style,
        # a long label ("Многоколодный с «инфузорками»" at 360 px) may need two lines: its
        # button grows to hold them instead of slicing the second one off
        "height": TAP if len(text) <= LONG_LABEL else None,
        "disabled": on_click is None,
        "expand": expand,
    }
    btn: ft.Control
    if danger:
        btn = ft.FilledButton(bgcolor=ft.Colors.ERROR, color=ft.Colors.ON_ERROR, **kwargs)
    elif primary:
        btn = ft.FilledButton(**kwargs)
    else:
        btn = ft.OutlinedButton(**kwargs)
    if identifier:
        return ft.Semantics(identifier=identifier, content=btn, expand=expand)
    return btn


def choice_row(
    options: Sequence[tuple[str, str]],
    selected: str | None,
    on_pick: Callable[[str], object],
    *,
    prefix: str,
) -> ft.Control:
    """A wrap of toggle buttons: one tap picks; easier to hit than a dropdown."""
    buttons: list[ft.Control] = []
    for value, label in options:
        is_sel = value == selected
        buttons.append(
            big_button(
                label,
                with_args(on_pick, value),
                primary=is_sel,
                icon=ft.Icons.CHECK if is_sel else None,
                identifier=f"{prefix}-{value}",
            )
        )
    return ft.Row(buttons, wrap=True, spacing=8, run_spacing=8)


def heading(text: str, size: float = 22) -> ft.Text:
    return ft.Text(text, size=size, weight=ft.FontWeight.BOLD)


def body_text(text: str, size: float = 17, **kw: Any) -> ft.Text:
    return ft.Text(text, size=size, **kw)


def banner(text: str, *, error: bool = False, identifier: str = "notice") -> ft.Control:
    return tagged(
        identifier,
        ft.Container(
            content=ft.Text(
                text,
                size=17,
                color=ft.Colors.ON_ERROR_CONTAINER if error else ft.Colors.ON_SECONDARY_CONTAINER,
            ),
            bgcolor=ft.Colors.ERROR_CONTAINER if error else ft.Colors.SECONDARY_CONTAINER,
            padding=14,
            border_radius=12,
        ),
    )


def section(title: str, *controls: ft.Control) -> ft.Control:
    return ft.Container(
        content=ft.Column([heading(title, 19), *controls], spacing=10, tight=True),
        padding=ft.Padding.symmetric(vertical=8),
    )


def scroll_body(controls: list[ft.Control], *, max_width: float = 860) -> ft.Control:
    """A scrolling column: full width on a phone, centred and no wider than ``max_width`` on a
    wide screen (the width comes from the page's size, see AppState.viewport_width)."""
    width = VIEWPORT_WIDTH.get()
    wide = width is not None and width > max_width + 32
    inner = ft.Container(
        content=ft.Column(
            controls,
            spacing=14,
            tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        ),
        padding=ft.Padding.symmetric(horizontal=16, vertical=12),
        width=max_width if wide else None,
    )
    return ft.Column(
        [ft.Row([inner], alignment=ft.MainAxisAlignment.CENTER) if wide else inner],
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )


def narrow() -> bool:
    """A phone in portrait: fewer things per row."""
    width = VIEWPORT_WIDTH.get()
    return width is not None and width < 600


def app_bar(
    ctx: ViewContext,
    title: str,
    *,
    back: bool = True,
    actions: list[ft.Control] | None = None,
    settings: bool = True,
) -> ft.AppBar:
    """Title, back, and the language and theme switches (left out where a phone's bar is
    already full; Home always has them)."""
    app = ctx.app
    leading = (
        tagged(
            "nav-back",
            ft.IconButton(
                ft.Icons.ARROW_BACK,
                on_click=lambda _e: app.back(),
                tooltip=ctx.t("nav.back"),
                icon_size=28,
            ),
        )
        if back
        else None
    )
    switches = [
        tagged(
            "lang-toggle",
            ft.TextButton(
                content=ft.Text(ctx.t("nav.lang_switch"), size=16, weight=ft.FontWeight.BOLD),
                on_click=lambda _e: app.toggle_language(),
                tooltip=ctx.t("nav.language"),
            ),
        ),
        tagged(
            "theme-toggle",
            ft.IconButton(
                {
                    "system": ft.Icons.BRIGHTNESS_AUTO,
                    "light": ft.Icons.LIGHT_MODE,
                    "dark": ft.Icons.DARK_MODE,
                }[app.theme],
                on_click=lambda _e: app.cycle_theme(),
                tooltip=ctx.t(f"nav.theme_{app.theme}"),
                icon_size=26,
            ),
            label=ctx.t(f"nav.theme_{app.theme}"),
        ),
    ]
    return ft.AppBar(
        leading=leading,
        automatically_imply_leading=False,
        title=ft.Text(title, size=20, weight=ft.FontWeight.BOLD),
        actions=[*(actions or []), *(switches if settings else [])],
        toolbar_height=64,
    )
