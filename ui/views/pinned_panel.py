"""A panel whose buttons stay at its bottom, always on screen, while its text scrolls above
them when the zone it sits in is too short (a rejected ruling with a long "why" over the
tables of a 360 px phone): the table never has to swipe to find OK or the proposed penalty.
A short text leaves the panel as high as its content (the zone's rest stays visible)."""

from __future__ import annotations

import flet as ft

from ui.views.deal_parts import panel


def pinned_panel(
    rows: list[ft.Control],
    actions: list[ft.Control],
    ok: ft.Control,
    *,
    identifier: str,
    tint: str,
) -> ft.Control:
    """``rows`` (scrolling when they must), then the buttons: the first action shares its
    row with ``ok`` (fewer rows, more room for the text), each other action has its own."""
    lines: list[ft.Control] = []
    if actions:
        lines.append(ft.Row([actions[0], ok], spacing=8))
        lines += [ft.Row([a]) for a in actions[1:]]
    else:
        lines.append(ft.Row([ok], alignment=ft.MainAxisAlignment.END))
    text = ft.Column(
        rows,
        spacing=8,
        tight=True,
        scroll=ft.ScrollMode.ALWAYS,
        expand=1,
        expand_loose=True,  # only the height it needs, at most what the buttons leave
    )
    box = panel(
        ft.Column([text, ft.Column(lines, spacing=8, tight=True)], spacing=10, tight=True),
        tint=tint,
    )
    holder = ft.Semantics(
        identifier=identifier, container=True, content=box, expand=1, expand_loose=True
    )
    return ft.Column(
        [holder], expand=True, spacing=0, horizontal_alignment=ft.CrossAxisAlignment.STRETCH
    )
