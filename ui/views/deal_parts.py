"""Small pieces the deal screen's modules share: panels, the view cache (ui/views/view_cache.py),
sentence case."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from ui.views import plain_buttons
from ui.views.common import ViewContext, tagged
from ui.views.view_cache import cached

__all__ = ["Act", "cached", "cap", "compact_button", "panel", "seat_setter"]

Act = Callable[[Callable[[], Any]], Callable[[Any], None]]


def cap(text: str) -> str:
    """Sentence case for names used at the start of a label (``marriage`` → ``Marriage``)."""
    return text[:1].upper() + text[1:]


def seat_setter(ctx: ViewContext, fn: Callable[[int], None]) -> Callable[[str], None]:
    """A choice-row handler: the picked value is a seat number."""

    def pick(value: str) -> None:
        fn(int(value))
        ctx.app.changed()

    return pick


def panel(
    content: ft.Control,
    *,
    identifier: str | None = None,
    tint: str | None = None,
    padding: float = 14,
) -> ft.Control:
    box = ft.Container(
        content=content,
        padding=padding,
        border_radius=16,
        bgcolor=tint or ft.Colors.SURFACE_CONTAINER,
    )
    return tagged(identifier, box) if identifier else box


def compact_button(
    text: str,
    on_click: Any,
    *,
    identifier: str,
    primary: bool = False,
    danger: bool = False,
    icon: ft.IconData | None = None,
    expand: bool | int | None = None,
    label: str | None = None,
    center: bool = False,
    height: float | None = None,
    keep_focus: bool = False,
    size: float = 16,
    padding_v: float = 4,
) -> ft.Control:
    """A 56-px-high button (``height`` for a denser list, ``size`` for its text) whose text
    takes two lines rather than being cut (the bars at the bottom of a phone hold several);
    no ink (plain_buttons)."""
    return plain_buttons.labelled(
        text,
        on_click,
        look="danger" if danger else "filled" if primary else "outlined",
        icon=icon,
        size=size,
        icon_size=22,
        max_lines=2,
        center=center,
        fill_text=expand is not None and expand is not False,
        height=height or 56,
        padding=ft.Padding.symmetric(horizontal=10, vertical=padding_v),
        expand=expand,
        identifier=identifier,
        label=label,
        keep_focus=keep_focus,
    )


def tagged_expand(identifier: str, control: ft.Control) -> ft.Control:
    """``tagged`` for a control that takes the rest of a row (the wrapper must expand too, or
    the control gets no width)."""
    return ft.Semantics(identifier=identifier, content=control, container=True, expand=True)
