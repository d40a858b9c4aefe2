"""A panel whose buttons are always on screen, while its text scrolls between them when the
zone it sits in is too short (a rejected ruling with a long "why" over the tables of a 360 px
phone with tricks tracking): OK at the top right beside the title, the actions (correct the
cards, the proposed penalty) at the bottom; the table never has to swipe to find them. A
short text leaves the panel as high as its content (the zone's rest stays visible)."""

from __future__ import annotations

import flet as ft

from ui.views.deal_parts import panel


def pinned_panel(
    title: list[ft.Control],
    rows: list[ft.Control],
    actions: list[ft.Control],
    ok: ft.Control,
    *,
    identifier: str,
    tint: str,
) -> ft.Control:
    """``title`` with ``ok`` at its right, pinned at the top; ``rows`` under it (scrolling
    when they must); each action on a row of its own at the bottom, full width, so its words
    and its amount are never cut."""
    text = ft.Column(
        rows,
        spacing=8,
        tight=True,
        scroll=ft.ScrollMode.ALWAYS,
        expand=1,
        expand_loose=True,  # only the height it needs, at most what the buttons leave
    )
    box = panel(
        ft.Column(
            [
                ft.Row(
                    [*title, ft.Container(expand=True), ok],
                    spacing=8,
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                ),
                text,
                *(
                    [ft.Column([ft.Row([a]) for a in actions], spacing=8, tight=True)]
                    if actions
                    else []
                ),
            ],
            spacing=8,
            tight=True,
        ),
        tint=tint,
        padding=12,
    )
    holder = ft.Semantics(
        identifier=identifier, container=True, content=box, expand=1, expand_loose=True
    )
    return ft.Column(
        [holder], expand=True, spacing=0, horizontal_alignment=ft.CrossAxisAlignment.STRETCH
    )
