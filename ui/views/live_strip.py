"""The news from another device at the table ("Boris's phone recorded: …"), drawn to fill a
place of fixed height that ui/views/live_slot.py keeps for it: it never floats over anything.
Large, dark on light (or light on dark) text, up to three whole lines (the line height is set,
so no font's taller glyphs cut the third one at 360 px); it hides itself after a few seconds
(ui/shell.py).

A long piece of news (a correction's lines) does not fit three lines: a tap opens the strip
in full, where it stays until a second tap hides it (issue 22: the rest was unreadable)."""

from __future__ import annotations

import flet as ft

from ui.views.common import ViewContext

TEXT_SIZE = 16  # three lines of it fill a 64 px slot; read across a table like the strip
LINE_HEIGHT = 1.2  # times the size: 3 x 19.2 px stay inside the slot's 60 px of text room
LINES = 3


def build(ctx: ViewContext, height: float) -> ft.Control | None:
    """The strip for the current news, ``height`` high (taller while opened in full), or
    None when there is none."""
    app = ctx.app
    notice = app.live_notice
    if notice is None:
        return None
    text = notice.text(app.t, app.lang)
    full = app.live_open == notice.serial

    def tapped(_e: object) -> None:
        if full:  # read: out of the way
            app.live_notice = None
            app.live_open = 0
        else:
            app.live_open = notice.serial
        app.changed()

    box = ft.Container(
        content=ft.Row(
            [
                ft.Icon(ft.Icons.SYNC, size=24, color=ft.Colors.ON_INVERSE_SURFACE),
                ft.Text(
                    text,
                    size=TEXT_SIZE,
                    weight=ft.FontWeight.W_500,
                    color=ft.Colors.ON_INVERSE_SURFACE,
                    expand=True,
                    max_lines=None if full else LINES,
                    overflow=ft.TextOverflow.VISIBLE if full else ft.TextOverflow.ELLIPSIS,
                    style=ft.TextStyle(height=LINE_HEIGHT),
                ),
                ft.Icon(
                    ft.Icons.CLOSE if full else ft.Icons.UNFOLD_MORE,
                    size=20,
                    color=ft.Colors.ON_INVERSE_SURFACE,
                ),
            ],
            spacing=10,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        height=None if full else height,
        bgcolor=ft.Colors.INVERSE_SURFACE,
        padding=ft.Padding.symmetric(horizontal=12, vertical=8 if full else 2),
        border_radius=12,
        on_click=tapped,
        ink=False,  # see ui/views/plain_buttons.py
        tooltip=ctx.t("table.strip_close" if full else "table.strip_open"),
    )
    return ft.Semantics(
        identifier="live-strip-full" if full else "live-strip",
        content=box,
        container=True,
        button=True,
    )
