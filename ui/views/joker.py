"""Views of the variants scored by showings (the multi-pack joker variant): the variant choice
of the rules screen and its showings table, every value read from the variant's data."""

from __future__ import annotations

import flet as ft

from ui import backend
from ui.state.joker import ShowingRow
from ui.state.rules import RulesScreen
from ui.views.common import ViewContext, body_text, choice_row, heading, tagged


def variant_label(ctx: ViewContext, variant: str) -> str:
    """The UI's name of a variant, else the rules reference's."""
    return ctx.app.t.get(f"variant.{variant}", backend.variant_name(variant, ctx.app.lang))


def variant_choice(ctx: ViewContext, rs: RulesScreen) -> ft.Control:
    """Which variant's tables the rules screen shows (the open match's by default)."""

    def pick(variant: str) -> None:
        rs.set_variant(variant)
        ctx.app.changed()

    return tagged(
        "rules-variant",
        ft.Column(
            [
                body_text(ctx.t("rules.variant"), 15, color=ft.Colors.ON_SURFACE_VARIANT),
                choice_row(
                    [(v, variant_label(ctx, v)) for v in rs.variants()],
                    rs.variant_id(),
                    pick,
                    prefix="rules-variant",
                ),
            ],
            spacing=6,
            tight=True,
        ),
    )


def showings_table(ctx: ViewContext, variant: str, rows: list[ShowingRow]) -> list[ft.Control]:
    """Each showing with its values: series (showing 1, 2, 3 … then doubling), repeat
    (showing n: n × value), set (four cards, then each further card)."""
    lines: list[ft.Control] = [
        body_text(ctx.t("showings.help"), 15, color=ft.Colors.ON_SURFACE_VARIANT)
    ]
    for row in rows:
        chips: list[ft.Control] = [
            ft.Container(
                content=ft.Text(cell, size=16),
                padding=ft.Padding.symmetric(horizontal=10, vertical=4),
                border_radius=10,
                bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
            )
            for cell in row.cells
        ]
        lines.append(
            tagged(
                f"showing-{row.meld}",
                ft.Column(
                    [
                        ft.Text(row.name, size=17, weight=ft.FontWeight.W_600),
                        ft.Row(chips, wrap=True, spacing=6, run_spacing=6),
                    ],
                    spacing=4,
                    tight=True,
                ),
            )
        )
    return [
        heading(ctx.t("showings.title", variant=variant_label(ctx, variant)), 20),
        tagged(
            "showings-table",
            ft.Container(
                content=ft.Column(lines, spacing=12, tight=True),
                padding=14,
                border_radius=14,
                bgcolor=ft.Colors.SURFACE_CONTAINER,
            ),
        ),
    ]
