"""Which role this phone joined the table with, said where it lands (Home): "You keep the
score" or "You follow the match", so a player never has to guess from the buttons missing
(issue 22). The host and a device outside table mode show nothing."""

from __future__ import annotations

import flet as ft

from ui.views.common import ViewContext, tagged

ICONS = {"scorer": ft.Icons.EDIT_NOTE, "viewer": ft.Icons.VISIBILITY}


def controls(ctx: ViewContext) -> list[ft.Control]:
    role = ctx.app.joined_as
    if role not in ICONS:
        return []
    box = ft.Container(
        content=ft.Row(
            [
                ft.Icon(ICONS[role], size=28, color=ft.Colors.ON_SECONDARY_CONTAINER),
                ft.Column(
                    [
                        ft.Text(
                            ctx.t(f"joined.{role}"),
                            size=19,
                            weight=ft.FontWeight.W_600,
                            color=ft.Colors.ON_SECONDARY_CONTAINER,
                        ),
                        ft.Text(
                            ctx.t(f"joined.{role}_hint"),
                            size=15,
                            color=ft.Colors.ON_SECONDARY_CONTAINER,
                        ),
                    ],
                    spacing=2,
                    tight=True,
                    expand=True,
                ),
            ],
            spacing=12,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        padding=ft.Padding.symmetric(horizontal=14, vertical=10),
        border_radius=14,
        bgcolor=ft.Colors.SECONDARY_CONTAINER,
    )
    return [tagged(f"joined-{role}", box)]
