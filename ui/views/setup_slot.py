"""The deal setup's one place of fixed height right above *Start the deal*: it holds the
chosen turned-up card, or the error that keeps the deal from starting ("Pick the dealer",
"Pick the turned-up card"). It is always there and always as high, so an error coming or
going never pushes *Start the deal* away from the finger that just tapped it."""

from __future__ import annotations

import flet as ft

from ui.state.deal import DealScreen
from ui.views.common import ViewContext, banner

SLOT_HEIGHT = 96  # the card (64 × 1.35 = 86 px), or an error banner on two lines at 360 px
ERROR_HEIGHT = 76  # without a turn-up (Rubicon): an error banner on two lines
ERRORS = (("dealer", "error-dealer"), ("turn_up", "error-turn-up"))  # the first one shows


def slot(ctx: ViewContext, ds: DealScreen, card: ft.Control | None) -> ft.Control:
    """The first setup error, else ``card`` (the chosen turn-up), else nothing: same height."""
    shown: ft.Control | None = card
    for key, identifier in ERRORS:
        if key in ds.setup_errors:
            shown = banner(ctx.t(ds.setup_errors[key]), error=True, identifier=identifier)
            break
    height = SLOT_HEIGHT if ds.turn_up_variant else ERROR_HEIGHT
    return ft.Container(content=shown, height=height, alignment=ft.Alignment.CENTER_LEFT)
