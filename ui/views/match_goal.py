"""The new-match form's goal where each deal is a game (Rubicon, six-pack, eight-pack): the
table agrees a number of games, or a points target instead (docs/rubicon.md, R-GAME)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from ui.views.common import ViewContext, body_text, choice_row, section, tagged


def goal_section(
    ctx: ViewContext,
    form: Any,
    rerender: Callable[[Any], Any],
    edit: Callable[[str, Callable[[str], None]], Callable[[Any], None]],
    err: Callable[[str], str | None],
) -> ft.Control:
    """Games or target (a choice), then the one number field that choice needs."""
    by_games = form.match_by == "games"
    if by_games:
        field = tagged(
            "games",
            ft.TextField(
                label=ctx.t("rubicon.form.games"),
                value=form.games_text,
                error=err("games"),
                helper=ctx.t("rubicon.form.games_help", n=form.info.games),
                keyboard_type=ft.KeyboardType.NUMBER,
                on_change=edit("games", form.set_games),
                text_size=20,
                width=260,
            ),
        )
    else:
        field = tagged(
            "target",
            ft.TextField(
                label=ctx.t("new.target"),
                value=form.target_text,
                error=err("target"),
                helper=ctx.t("rubicon.form.target_help"),
                keyboard_type=ft.KeyboardType.NUMBER,
                on_change=edit("target", form.set_target),
                text_size=20,
                width=260,
            ),
        )
    return section(
        ctx.t("rubicon.form.goal"),
        choice_row(
            [(how, ctx.t(f"rubicon.form.by_{how}")) for how in ("games", "target")],
            form.match_by,
            rerender(form.set_match_by),
            prefix="goal",
        ),
        field,
        body_text(
            ctx.t("rubicon.form.each_deal_a_game"), 15, color=ft.Colors.ON_SURFACE_VARIANT
        ),
    )
