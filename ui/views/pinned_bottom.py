"""A form whose buttons stay pinned at the bottom of the screen while the rest scrolls above
them: however many fields a form has (three players' brisques in Russian at 360 px), its
*Record* and *Cancel* are on the phone's screen without a swipe, and above a phone's number
pad when it opens."""

from __future__ import annotations

import flet as ft

from ui.views.common import scroll_body


def body(scrolling: list[ft.Control], pinned: list[ft.Control]) -> ft.Control:
    """``scrolling`` in the usual scrolling column, ``pinned`` under it at the bottom."""
    return ft.Column(
        [
            scroll_body(scrolling),
            ft.Container(
                content=ft.Column(pinned, spacing=8, tight=True),
                padding=ft.Padding.only(left=16, right=16, top=8, bottom=10),
                border=ft.Border.only(top=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
            ),
        ],
        spacing=0,
        expand=True,
        # the pinned part as wide as the screen (its top rule too) whatever its buttons' width
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )
