"""The strip every screen shows after another device moved the match on ("Boris's phone
recorded: …"): floats over the top of the screen, just under the bar, so nothing under the
finger moves and the deal screen's buttons at the bottom stay free (the top holds the phase
line, which the strip's news replaces for a moment); it hides itself after a few seconds or
on a tap."""

from __future__ import annotations

import flet as ft

from ui.views.common import ViewContext, tagged


def in_deal_strip(ctx: ViewContext) -> bool:
    """The deal screen in play shows the news in its ruling strip, where it covers nothing."""
    app = ctx.app
    deal = getattr(app, "deal", None)
    return app.screen == "deal" and deal is not None and str(deal.mode) == "play"


def build(ctx: ViewContext) -> ft.Control:
    app = ctx.app
    notice = app.live_notice
    if in_deal_strip(ctx):  # the deal screen says it in its own ruling strip (no overlay)
        notice = None
    text = notice.text(app.t, app.lang) if notice is not None else ""

    def hide(_e: object) -> None:
        app.live_notice = None
        app.changed()

    return ft.Container(
        content=tagged(
            "live-strip",
            ft.Container(
                content=ft.Row(
                    [
                        ft.Icon(ft.Icons.SYNC, color=ft.Colors.ON_INVERSE_SURFACE),
                        ft.Text(
                            text,
                            size=16,
                            color=ft.Colors.ON_INVERSE_SURFACE,
                            expand=True,
                            max_lines=3,
                            overflow=ft.TextOverflow.ELLIPSIS,
                        ),
                        ft.IconButton(
                            ft.Icons.CLOSE,
                            icon_color=ft.Colors.ON_INVERSE_SURFACE,
                            tooltip=ctx.t("table.strip_close"),
                            on_click=hide,
                        ),
                    ],
                    spacing=10,
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                ),
                bgcolor=ft.Colors.INVERSE_SURFACE,
                padding=ft.Padding.only(left=14, right=4, top=6, bottom=6),
                border_radius=14,
                shadow=ft.BoxShadow(blur_radius=12, color="#55000000"),
            ),
        ),
        left=8,
        right=8,
        top=4,
        visible=notice is not None,
    )
