"""The summary's line per side: "Anna: 290 this deal · 2320 in all", where the points came
from, and where each deal is a game the fractions of 100 it drops and the brisques that do not
count, with the rule (QA P13). State: ui/state/deal_summary.py."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from ui.state.common import points_text, rule_id_text, signed_text
from ui.state.deal_summary import SummarySide
from ui.views.common import ViewContext, body_text, tagged


def side_rows(
    ctx: ViewContext,
    side: int,
    name: str,
    total: int,
    s: SummarySide,
    reason: Callable[[str], str],
) -> list[ft.Control]:
    points = points_text(s.points)
    out: list[ft.Control] = [
        tagged(
            f"summary-{side}",
            ft.Text(ctx.t("summary.row", name=name, points=points, total=total), size=20),
        )
    ]
    parts = [f"{reason(r)} {signed_text(p)}" for r, p in s.parts]
    if parts:
        out.append(
            tagged(
                f"summary-parts-{side}",
                body_text(" · ".join(parts), 15, color=ft.Colors.ON_SURFACE_VARIANT),
            )
        )
    notes: list[str] = []
    if s.dropped is not None:
        notes.append(
            ctx.t(
                "deal_summary.dropped",
                before=s.dropped[0],
                after=s.dropped[1],
                rule=rule_id_text(s.rule),
            )
        )
    if s.uncounted_brisques:
        notes.append(
            ctx.t(
                "deal_summary.brisques_not_counted",
                points=s.uncounted_brisques,
                rule=rule_id_text(s.rule),
            )
        )
    if notes:
        out.append(
            tagged(
                f"summary-game-note-{side}",
                body_text(" · ".join(notes), 15, color=ft.Colors.ON_SURFACE_VARIANT),
            )
        )
    return out
