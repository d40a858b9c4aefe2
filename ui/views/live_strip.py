"""The news from another device at the table ("Boris's phone recorded: …"), drawn to fill a
place of fixed height that ui/views/live_slot.py keeps for it: it never floats over anything.
Large, dark on light (or light on dark) text, up to three lines; a tap on it hides it, and it
hides itself after a few seconds (ui/shell.py)."""

from __future__ import annotations

import flet as ft

from ui.views.common import ViewContext

TEXT_SIZE = 16  # three lines of it fill a 64 px slot; read across a table like the strip


def build(ctx: ViewContext, height: float) -> ft.Control | None:
    """The strip for the current news, ``height`` high, or None when there is none."""
    app = ctx.app
    notice = app.live_notice
    if notice is None:
        return None
    text = notice.text(app.t, app.lang)

    def hide(_e: object) -> None:
        app.live_notice = None
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
                    max_lines=3,
                    overflow=ft.TextOverflow.ELLIPSIS,
                ),
            ],
            spacing=10,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        height=height,
        bgcolor=ft.Colors.INVERSE_SURFACE,
        padding=ft.Padding.symmetric(horizontal=12, vertical=2),
        border_radius=12,
        on_click=hide,
        ink=False,  # see ui/views/plain_buttons.py
        tooltip=ctx.t("table.strip_close"),
    )
    return ft.Semantics(identifier="live-strip", content=box, container=True, button=True)
