"""The deal screen's notice in play (a refused write, a storage or engine error) in the
ruling strip's own place under the header, at the strip's height: a refusal is long ("Not
undone: this screen had not yet shown …") and as a banner above the tables it pushed both
players' tables out of a 360×780 screen (issue 22). Its words scroll inside the strip; OK
takes it away, and the next entry does too."""

from __future__ import annotations

import flet as ft

from ui.state.deal import DealScreen
from ui.views import plain_buttons
from ui.views.common import ViewContext, tagged
from ui.views.deal_parts import Act
from ui.views.ruling_toast import STRIP_HEIGHT


def build(ctx: ViewContext, ds: DealScreen, act: Act) -> ft.Control | None:
    """The strip for the open notice, or None when there is none."""
    notice = ds.notice
    if notice is None:
        return None
    error = notice.error
    fg = ft.Colors.ON_ERROR_CONTAINER if error else ft.Colors.ON_SECONDARY_CONTAINER
    words = ft.Column(
        [ft.Text(ctx.t(notice.key, **notice.args), size=14, color=fg)],
        scroll=ft.ScrollMode.ALWAYS,  # its bar says the rest of a long refusal is a swipe away
        tight=True,
        spacing=0,
    )
    close = tagged(
        "notice-ok",
        plain_buttons.icon_button(
            ft.Icons.CLOSE,
            act(ds.dismiss_notice),
            tooltip=ctx.t("ruling.dismiss"),
            icon_size=22,
            color=fg,
            size=44,
        ),
        label=ctx.t("ruling.dismiss"),
    )
    box = ft.Container(
        content=ft.Row(
            [ft.Container(content=words, expand=True), close],
            spacing=4,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        height=STRIP_HEIGHT,
        padding=ft.Padding.only(left=12, right=2, top=2, bottom=2),
        border_radius=12,
        bgcolor=ft.Colors.ERROR_CONTAINER if error else ft.Colors.SECONDARY_CONTAINER,
    )
    return ft.Semantics(identifier="notice", content=box, container=True)
