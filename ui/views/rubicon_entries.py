"""The carte blanche and cut bonus buttons (Rubicon, six-pack), at the top of the tables zone
so the pinned action bar never changes height when they come and go; each button says what
it scores, from the engine (ui/state/rubicon_entries.py)."""

from __future__ import annotations

from functools import partial
from typing import Any

import flet as ft

from ui.state import rubicon_entries as rs
from ui.views.common import ViewContext
from ui.views.deal_parts import compact_button


def entry_rows(ctx: ViewContext, ds: Any, act: Any) -> list[ft.Control]:
    """One row per entry kind offered now; nothing where the variant has none."""
    found = rs.entries(ds.match)
    rows: list[ft.Control] = []
    for kind in rs.KINDS:
        buttons = [
            compact_button(
                _label(ctx, ds, e),
                act(partial(rs.record, ds, e)),
                identifier=e.identifier,
                icon=ft.Icons.PAN_TOOL_ALT if kind == "carte_blanche" else ft.Icons.CONTENT_CUT,
                expand=True,
            )
            for e in found
            if e.kind == kind
        ]
        if buttons:
            rows.append(ft.Row(buttons, spacing=6))
    return rows


def _label(ctx: ViewContext, ds: Any, e: rs.Entry) -> str:
    name = ds.players[e.seat]
    if e.kind == "carte_blanche":
        key = "rubicon.deal.carte_blanche_again" if e.again else "rubicon.deal.carte_blanche"
    else:
        key = "rubicon.deal.cut_dealer" if e.dealer else "rubicon.deal.cut_guess"
    return ctx.t(key, player=name, points=e.points)
