"""Buttons drawn without Material's ink (issue 14): a tap changes nothing on screen until the
server's answer does.

Material's buttons start an ink splash and state layers on every press and keep Flutter
drawing frames for about 400 ms; in a browser without a GPU each of those frames is a full-screen
raster, and the first of them lands just when the server's update arrives, so the new score
waited behind it (confirm tap → score painted 98 → 62 ms at 1×, 206 → 120 ms at 4×, measured
interleaved by benchmarks/bench_tap_ab.py; docs/app.md). Flet gives no way to switch the
splash off (``ft.Theme`` has no splash factory), so these are plain containers with
``on_click`` (a ``GestureDetector``, ``ink=False``) in Material's colours and shapes, each in a
``Semantics`` node marked as a button for screen readers and the browser tests.

Beside text fields they are Material's buttons again (``keep_focus``): a plain button takes
no focus, and in the browser's accessibility mode (a screen reader, the browser tests) its tap
moves the page's focus off a focused field while Flutter keeps the field focused, so the next
typing into it is lost. The deal screen's end form (brisque counts) is the one place with both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import flet as ft

Look = Literal["filled", "outlined", "danger", "text"]
Handler = Callable[[Any], object] | None

_DISABLED_FG = ft.Colors.with_opacity(0.38, ft.Colors.ON_SURFACE)
_DISABLED_BG = ft.Colors.with_opacity(0.12, ft.Colors.ON_SURFACE)


def foreground(look: Look, enabled: bool) -> str:
    """The colour of a button's text and icon (Material 3's for the same button)."""
    if not enabled:
        return _DISABLED_FG
    if look == "filled":
        return ft.Colors.ON_PRIMARY
    if look == "danger":
        return ft.Colors.ON_ERROR
    return ft.Colors.PRIMARY


def _background(look: Look, enabled: bool) -> str | None:
    if look in ("outlined", "text"):
        return None
    if not enabled:
        return _DISABLED_BG
    return ft.Colors.PRIMARY if look == "filled" else ft.Colors.ERROR


def _border(look: Look, enabled: bool) -> ft.Border | None:
    if look != "outlined":
        return None
    return ft.Border.all(1, ft.Colors.OUTLINE if enabled else _DISABLED_BG)


def face(
    content: ft.Control,
    on_click: Handler,
    *,
    look: Look = "outlined",
    height: float | None = None,
    width: float | None = None,
    padding: ft.Padding | None = None,
    radius: float = 14,
    expand: bool | int | None = None,
    tooltip: str | ft.Tooltip | None = None,
    alignment: ft.Alignment | None = None,
) -> ft.Container:
    """The button itself: ``content`` (coloured with ``foreground``) on Material's shape. No
    ``alignment`` unless asked: a container that aligns grows to all the room it is given (a
    chip in a wrap would take the whole line); a centred ``ft.Row`` as ``content`` centres."""
    enabled = on_click is not None
    border = _border(look, enabled)
    if border is not None and padding is not None:
        # a container's border takes room inside it (a Material button's outline does not):
        # the same room for the words as in Material's outlined button
        padding = ft.Padding(
            left=max(0.0, padding.left - 1),
            top=max(0.0, padding.top - 1),
            right=max(0.0, padding.right - 1),
            bottom=max(0.0, padding.bottom - 1),
        )
    return ft.Container(
        content=content,
        on_click=on_click,
        ink=False,
        disabled=not enabled,
        bgcolor=_background(look, enabled),
        border=border,
        border_radius=radius,
        padding=padding,
        height=height,
        width=width,
        alignment=alignment,
        expand=expand,
        tooltip=tooltip,
    )


def centred(content: ft.Control) -> ft.Row:
    """``content`` in the middle of a button of any size (and as narrow as it when free)."""
    return ft.Row(
        [content],
        tight=True,
        alignment=ft.MainAxisAlignment.CENTER,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def is_filled(control: ft.Control) -> bool:
    """Whether a button shows as chosen / primary (filled in the primary colour)."""
    return isinstance(control, ft.Container) and control.bgcolor == ft.Colors.PRIMARY


def labelled(
    text: str,
    on_click: Handler,
    *,
    look: Look = "outlined",
    icon: ft.IconData | None = None,
    size: float = 16,
    icon_size: float = 22,
    max_lines: int | None = None,
    center: bool = True,
    fill_text: bool = False,
    spacing: float = 6,
    height: float | None = None,
    padding: ft.Padding | None = None,
    expand: bool | int | None = None,
    identifier: str | None = None,
    label: str | None = None,
    keep_focus: bool = False,
) -> ft.Control:
    """A text button (an icon before the text when given), in a button semantics node.
    ``fill_text``: the text takes the row's rest (and wraps there) instead of its own width;
    ``keep_focus``: Material's button (takes the focus as a field's neighbour must)."""
    fg = foreground(look, on_click is not None)
    text_control: ft.Control = ft.Text(
        text,
        size=size,
        weight=ft.FontWeight.W_600,
        color=fg,
        max_lines=max_lines,
        overflow=ft.TextOverflow.ELLIPSIS if max_lines else None,
        text_align=ft.TextAlign.CENTER if center else ft.TextAlign.START,
        # loose: as wide as the words, at most the row's rest (a long label wraps there)
        expand=not fill_text,
        expand_loose=True,
    )
    if fill_text:
        text_control = ft.Container(content=text_control, expand=True)
    row = ft.Row(
        [*([ft.Icon(icon, size=icon_size, color=fg)] if icon else []), text_control],
        spacing=spacing,
        tight=True,
        alignment=ft.MainAxisAlignment.CENTER,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )
    button: ft.Control
    if keep_focus:
        button = _material(row, on_click, look=look, height=height, padding=padding, expand=expand)
    else:
        button = face(row, on_click, look=look, height=height, padding=padding, expand=expand)
    return ft.Semantics(
        identifier=identifier,
        content=button,
        expand=expand,
        label=label,
        button=True,
        disabled=on_click is None,
    )


def _material(
    content: ft.Control,
    on_click: Handler,
    *,
    look: Look,
    height: float | None,
    padding: ft.Padding | None,
    expand: bool | int | None,
) -> ft.Control:
    kw: dict[str, Any] = {
        "content": content,
        "on_click": on_click,
        "style": ft.ButtonStyle(padding=padding, shape=ft.RoundedRectangleBorder(radius=14)),
        "height": height,
        "disabled": on_click is None,
        "expand": expand,
    }
    if look == "danger":
        return ft.FilledButton(bgcolor=ft.Colors.ERROR, color=ft.Colors.ON_ERROR, **kw)
    if look == "filled":
        return ft.FilledButton(**kw)
    return ft.OutlinedButton(**kw)


def close_button(identifier: str, on_click: Handler, tooltip: str) -> ft.Control:
    """The close cross at a sheet's or layer's top right, named for screen readers."""
    return ft.Semantics(
        identifier=identifier,
        label=tooltip,
        container=True,
        content=icon_button(ft.Icons.CLOSE, on_click, icon_size=30, tooltip=tooltip),
    )


def icon_button(
    icon: ft.IconData,
    on_click: Handler,
    *,
    tooltip: str,
    icon_size: float = 24,
    color: str | None = None,
    size: float = 48,
    keep_focus: bool = False,
) -> ft.Control:
    """An icon in a round ``size`` × ``size`` target (Material's IconButton without ink;
    with ``keep_focus``, Material's own)."""
    enabled = on_click is not None
    if keep_focus:
        return ft.IconButton(
            icon,
            on_click=on_click,
            disabled=not enabled,
            tooltip=tooltip,
            icon_size=icon_size,
            icon_color=color,
            width=size,
            height=size,
        )
    return ft.Semantics(
        content=face(
            ft.Icon(
                icon,
                size=icon_size,
                color=(color or ft.Colors.ON_SURFACE_VARIANT) if enabled else _DISABLED_FG,
            ),
            on_click,
            look="text",
            width=size,
            height=size,
            radius=size / 2,
            # the node's label names it once: the tooltip's own semantics text doubled it
            # ("Read across the table" twice), and that hidden text, wrapped in a 44-px box,
            # reached over the deal header (document.elementFromPoint hit it there)
            tooltip=ft.Tooltip(message=tooltip, exclude_from_semantics=True),
            alignment=ft.Alignment.CENTER,
        ),
        button=True,
        label=tooltip,
        disabled=not enabled,
    )
