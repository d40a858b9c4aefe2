"""The penalty choice: each offence with the amount the engine would apply now, on lines
that wrap instead of cutting the amount off; a heavy penalty asks to be confirmed."""

from __future__ import annotations

import flet as ft

from ui import backend
from ui.state.deal import DealScreen
from ui.state.penalty_choice import PenaltyOption
from ui.views import plain_buttons
from ui.views.common import ViewContext, body_text, heading, tagged
from ui.views.deal_parts import Act, compact_button, panel


def amount_text(ctx: ViewContext, option: PenaltyOption) -> str:
    """ "−320" (a real minus sign), "+60 to the others" under H-PENALTY-TO-OPPONENT, or, when
    the engine's preview takes nothing (the side has no points in this deal yet), that in words:
    a bare "0" reads like a mistake."""
    if option.to_opponents:
        return ctx.t("deal_screen.to_opponents", points=abs(option.points))
    if not option.points:
        return ctx.t("deal_messages.nothing_to_lose")
    return f"\u2212{abs(option.points)}"


def _offence_row(
    ctx: ViewContext, ds: DealScreen, seat: int, o: PenaltyOption, act: Act
) -> ft.Control:
    title = backend.rule_title(o.offence, ctx.app.lang)
    tile = ft.Container(
        content=ft.Row(
            [
                ft.Text(title, size=17, expand=True),  # wraps: never cut
                ft.Text(
                    amount_text(ctx, o),
                    size=20 if o.points else 15,
                    weight=ft.FontWeight.BOLD,
                    color=ft.Colors.ERROR,
                    no_wrap=bool(o.points),  # words (nothing to lose) wrap beside the title
                    expand=not o.points,
                    text_align=ft.TextAlign.END,
                ),
            ],
            spacing=10,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        padding=ft.Padding.symmetric(horizontal=14, vertical=10),
        border_radius=14,
        border=ft.Border.all(1, ft.Colors.ERROR),
        bgcolor=ft.Colors.SURFACE,
        on_click=act(lambda: ds.penalty(seat, o.offence)),
        ink=False,  # see ui/views/plain_buttons.py
    )
    return ft.Semantics(
        identifier=f"offence-{o.offence}", button=True, container=True, content=tile
    )


def penalty_panel(ctx: ViewContext, ds: DealScreen, act: Act) -> ft.Control:
    seat = ds.penalty_for
    assert seat is not None
    name = ds.players[seat]
    confirm = ds.penalty_confirm
    if confirm is not None:
        title = backend.rule_title(confirm.offence, ctx.app.lang)
        return panel(
            ft.Column(
                [
                    heading(ctx.t("deal_screen.confirm_title", player=name), 20),
                    tagged(
                        "penalty-confirm-text",
                        ft.Text(
                            ctx.t(
                                "deal_screen.confirm_text",
                                penalty=title,
                                player=name,
                                amount=amount_text(ctx, confirm),
                            ),
                            size=18,
                        ),
                    ),
                    ft.Row(
                        [
                            compact_button(
                                ctx.t(
                                    "deal_screen.confirm_apply", amount=amount_text(ctx, confirm)
                                ),
                                act(ds.confirm_penalty),
                                danger=True,
                                identifier="penalty-confirm",
                                expand=True,
                                center=True,
                            )
                        ]
                    ),
                    ft.Row(
                        [
                            compact_button(
                                ctx.t("penalty.cancel"),
                                act(ds.close_penalty),
                                identifier="penalty-cancel",
                                expand=True,
                                center=True,
                            )
                        ]
                    ),
                ],
                spacing=10,
                tight=True,
            ),
            identifier="penalty-panel",
            tint=ft.Colors.ERROR_CONTAINER,
        )
    rows = [_offence_row(ctx, ds, seat, o, act) for o in ds.penalty_options(seat)]
    return panel(
        ft.Column(
            [
                ft.Row(  # the title wraps beside a close button at the top right (never
                    [  # under it, as "Отмена" did at 360 px), like the declare layer's
                        ft.Text(
                            ctx.t("penalty.title", player=name),
                            size=20,
                            weight=ft.FontWeight.BOLD,
                            expand=True,
                        ),
                        plain_buttons.close_button(
                            "penalty-cancel", act(ds.close_penalty), ctx.t("penalty.cancel")
                        ),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                ),
                body_text(ctx.t("deal_screen.penalty_help"), 15),
                *rows,
            ],
            spacing=8,
            tight=True,
            scroll=ft.ScrollMode.AUTO,
        ),
        identifier="penalty-panel",
        tint=ft.Colors.ERROR_CONTAINER,
    )
