"""A place of fixed height for a form's error message, there before the message appears and
after it goes: a message that comes when a button is tapped never pushes that button (or
anything else) away from the finger."""

from __future__ import annotations

import flet as ft

from ui.views.common import banner

SLOT_HEIGHT = 76  # an error banner on two lines of 17 px at 360 px wide
RESERVED_HELPER = " "  # a text field's helper line kept for its error (Flutter puts the
# error text in the helper's place, so the field is as high with or without an error)


def slot(message: str | None, identifier: str, height: float = SLOT_HEIGHT) -> ft.Control:
    """The message as a red banner in a box of ``height``, or the empty box."""
    shown = banner(message, error=True, identifier=identifier) if message else None
    return ft.Container(content=shown, height=height, alignment=ft.Alignment.CENTER_LEFT)
