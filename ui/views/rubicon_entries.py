"""The carte blanche and cut bonus buttons (Rubicon, six-pack), at the top of the tables zone
so the pinned action bar never changes height when they come and go; each button says what
it scores, from the engine (ui/state/rubicon_entries.py).

Nothing moves under the finger (QA P17): each row has one slot per player, so a button keeps
its width and place when another player's goes (Anna's widened from 184 to 374 px when
Boris's went), and an emptied row keeps its place while a row under it still has buttons.
Each button has two lines, the player's name and then what it records with its amount, the
amount never cut ("Maximilian: carte blanche …" lost its +250 at 360 px)."""

from __future__ import annotations

from functools import partial
from typing import Any

import flet as ft

from ui.state import rubicon_entries as rs
from ui.views import plain_buttons
from ui.views.common import ViewContext

BUTTON_HEIGHT = 48  # two lines of 15 and 14 pt; the least tap target
ROW_SPACING = 6


def entry_rows(ctx: ViewContext, ds: Any, act: Any) -> list[ft.Control]:
    """One row per entry kind offered now (an empty row kept above an offered one); nothing
    where the variant has none or none is offered any more."""
    found = rs.entries(ds.match)
    seats = len(ds.players)
    rows: list[list[ft.Control]] = []
    for kind in rs.KINDS:
        by_seat = {e.seat: e for e in found if e.kind == kind}
        rows.append(
            [
                _button(ctx, ds, by_seat[seat], act)
                if seat in by_seat
                else ft.Container(height=BUTTON_HEIGHT, expand=True)  # the slot stays
                for seat in range(seats)
            ]
            if by_seat
            else []
        )
    while rows and not rows[-1]:  # no buttons under them: the empty rows go
        rows.pop()
    return [
        ft.Row(r, spacing=ROW_SPACING)
        if r
        else ft.Container(height=BUTTON_HEIGHT, key=f"entry-row-{i}")  # its place kept
        for i, r in enumerate(rows)
    ]


def _button(ctx: ViewContext, ds: Any, e: rs.Entry, act: Any) -> ft.Control:
    """The player's name over what the button records and its amount (the amount never
    yields: the words before it end with an ellipsis if they must)."""
    name = ds.players[e.seat]
    icon = ft.Icons.PAN_TOOL_ALT if e.kind == "carte_blanche" else ft.Icons.CONTENT_CUT
    fg = plain_buttons.foreground("outlined", True)
    content = ft.Row(
        [
            ft.Icon(icon, size=20, color=fg),
            ft.Column(
                [
                    ft.Text(
                        name,
                        size=15,
                        weight=ft.FontWeight.W_600,
                        no_wrap=True,
                        overflow=ft.TextOverflow.ELLIPSIS,
                        color=fg,
                    ),
                    ft.Row(
                        [
                            ft.Text(
                                ctx.t(_what_key(e)),
                                size=14,
                                no_wrap=True,
                                overflow=ft.TextOverflow.ELLIPSIS,
                                expand=True,
                                color=fg,
                            ),
                            ft.Text(
                                f"+{e.points}",
                                size=15,
                                weight=ft.FontWeight.BOLD,
                                no_wrap=True,
                                color=fg,
                            ),
                        ],
                        spacing=4,
                    ),
                ],
                spacing=0,
                tight=True,
                expand=True,
                alignment=ft.MainAxisAlignment.CENTER,
            ),
        ],
        spacing=6,
    )
    button = plain_buttons.face(
        content,
        act(partial(rs.record, ds, e)),
        padding=ft.Padding.symmetric(horizontal=8, vertical=4),
        height=BUTTON_HEIGHT,
        expand=True,
    )
    return ft.Semantics(
        identifier=e.identifier, content=button, expand=True, label=_label(ctx, ds, e), button=True
    )


def _what_key(e: rs.Entry) -> str:
    if e.kind == "carte_blanche":
        return "entry_buttons.carte_blanche_again" if e.again else "entry_buttons.carte_blanche"
    return "entry_buttons.cut_dealer" if e.dealer else "entry_buttons.cut_guess"


def _label(ctx: ViewContext, ds: Any, e: rs.Entry) -> str:
    """The whole sentence (read aloud, and what the tests find the button by)."""
    name = ds.players[e.seat]
    if e.kind == "carte_blanche":
        key = "rubicon.deal.carte_blanche_again" if e.again else "rubicon.deal.carte_blanche"
    else:
        key = "rubicon.deal.cut_dealer" if e.dealer else "rubicon.deal.cut_guess"
    return ctx.t(key, player=name, points=e.points)
