"""The deal screen's column with a layer that covers everything *under* the header, never the
header itself: the player choosing a penalty still sees whose deal it is and the scores, and
the header does not move or change when the layer opens or closes (it is the same control in
the same place; the layer only covers the zones below it)."""

from __future__ import annotations

import flet as ft


def column(
    head: ft.Control, below: list[ft.Control], cover: ft.Control | None, *, spacing: float
) -> ft.Column:
    """``head`` on top, ``below`` under it; ``cover`` (or nothing) over ``below`` only. The
    structure is the same with or without a cover, so opening one moves nothing."""
    layers: list[ft.Control] = [
        ft.Column(
            below,
            spacing=spacing,
            expand=True,
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        )
    ]
    if cover is not None:
        layers.append(
            ft.Container(
                content=cover,
                bgcolor=ft.Colors.SURFACE,
                padding=ft.Padding.only(bottom=8),
                left=0,
                top=0,
                right=0,
                bottom=0,
                key="under-header",
            )
        )
    return ft.Column(
        [head, ft.Stack(layers, expand=True)],
        spacing=spacing,
        expand=True,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )
