"""The verdict panel (winner, why in words, the one rule that decided, the next partie) and
the note that the deal in play ends the partie; shared by the score sheet and the deal
screen's summary."""

from __future__ import annotations

from typing import Any

import flet as ft

from ui.state.verdict import Verdict, verdict_of
from ui.views.common import ViewContext, banner, big_button, body_text, tagged, with_args


def in_play_notes(ctx: ViewContext, match: Any, *, prefix: str = "verdict") -> list[ft.Control]:
    """A side past the target while the deal is in play, or a tie that plays on."""
    v = verdict_of(match, ctx.app.lang)
    out: list[ft.Control] = []
    if v.ends_with_deal:
        out.append(banner(v.ends_with_deal, identifier=f"{prefix}-ends-with-deal"))
    if v.goes_on:
        out.append(banner(v.goes_on, identifier=f"{prefix}-goes-on"))
    return out


def verdict_panel(
    ctx: ViewContext,
    match: Any,
    match_id: int | None,
    *,
    identifier: str = "winner",
    rematch: bool = True,
) -> list[ft.Control]:
    """Nothing until someone has won; then the panel, and the next-partie buttons."""
    v = verdict_of(match, ctx.app.lang)
    if v.winner is None:
        return []
    out: list[ft.Control] = [tagged(identifier, _panel(ctx, v))]
    # a viewer starts nothing, nor a club table's phone (the director starts its next match)
    if rematch and match_id is not None and ctx.app.may_write and ctx.app.club_table is None:
        out.append(_rematch(ctx, match_id))
    return out


def _panel(ctx: ViewContext, v: Verdict) -> ft.Control:
    lines: list[ft.Control] = [
        ft.Text(v.headline, size=26, weight=ft.FontWeight.BOLD),
        body_text(v.reason, 18),
    ]
    if v.rule:
        lines.append(
            body_text(
                ctx.t("sheet.rule_line", rule=v.rule, title=v.rule_title),
                15,
                color=ft.Colors.ON_SURFACE_VARIANT,
            )
        )
    return ft.Container(
        content=ft.Column(lines, spacing=6, tight=True),
        padding=14,
        border_radius=16,
        bgcolor=ft.Colors.PRIMARY_CONTAINER,
    )


def _rematch(ctx: ViewContext, match_id: int) -> ft.Control:
    keeping = ctx.app.matches
    return tagged(
        "rematch",
        ft.Column(
            [
                ft.Text(ctx.t("sheet.rematch_title"), size=19, weight=ft.FontWeight.BOLD),
                big_button(
                    ctx.t("sheet.rematch_rotate"),
                    with_args(_go, keeping.rematch, match_id, True),
                    primary=True,
                    icon=ft.Icons.AUTORENEW,
                    identifier="rematch-rotate",
                ),
                big_button(
                    ctx.t("sheet.rematch_keep"),
                    with_args(_go, keeping.rematch, match_id, False),
                    icon=ft.Icons.REPLAY,
                    identifier="rematch-keep",
                ),
                body_text(ctx.t("sheet.rematch_help"), 14, color=ft.Colors.ON_SURFACE_VARIANT),
            ],
            spacing=8,
            tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        ),
    )


def _go(fn: Any, match_id: int, rotate: bool) -> None:
    fn(match_id, rotate=rotate)
