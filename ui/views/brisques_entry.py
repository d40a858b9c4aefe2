"""Brisque counts typed as numbers (the number pad on phones), one field per player. With
every field but one typed, the last shows the rest of the pack's total; a wrong entry is
explained under its own field."""

from __future__ import annotations

from typing import Any

import flet as ft

from ui.state.deal import DealScreen
from ui.views.common import ViewContext, section, tagged
from ui.views.deal_parts import tagged_expand

TOTAL_LINES = 48  # two lines of the 17-px total


def brisques_fields(ctx: ViewContext, ds: DealScreen) -> ft.Control:
    entry = ds.brisques
    want = ds.brisques_expected()
    fields: list[ft.Control] = []
    narrow = len(ds.players) > 3
    for seat, name in enumerate(ds.players):
        err = entry.field_error(seat)
        # a blank helper reserves the line "the rest of 16" takes, so nothing below moves
        derived = entry.derived(seat)
        # three or four fields in a row: "the rest" (of the total the title says) fits one
        rest = "brisques_rest" if len(ds.players) > 2 else "brisques_derived"
        helper = ctx.t(f"deal_screen.{rest}", expected=want) if derived else " "

        def changed(e: Any, seat: int = seat) -> None:
            ds.set_brisques(seat, str(e.control.value or ""))
            ctx.app.changed()

        field = ft.TextField(
            # one line: a name never breaks in a narrow field (four in a row at 360 px)
            label=ft.Text(name, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS),
            value=entry.texts[seat],
            keyboard_type=ft.KeyboardType.NUMBER,
            input_filter=ft.NumbersOnlyInputFilter(),
            max_length=2,
            counter="",
            autofocus=seat == 0,
            text_size=26,
            text_align=ft.TextAlign.CENTER,
            error=ctx.t(err.key, **err.args) if err is not None else None,
            error_max_lines=3,
            helper=helper,
            on_change=changed,
            # four in a row at 360 px: less side padding, so "Dmitri" is whole
            content_padding=ft.Padding.symmetric(horizontal=6, vertical=16) if narrow else None,
            expand=True,
        )
        fields.append(tagged_expand(f"brisque-count-{seat}", field))
    # every player's field in one row (a count is two digits): three or four players' form
    # then fits a 360×780 phone over its buttons, the line under the fields too (two rows
    # of fields put the last field and that line under the buttons)
    rows: list[ft.Control] = [
        ft.Row(fields, spacing=8, vertical_alignment=ft.CrossAxisAlignment.START)
    ]
    problem = entry.total_error()
    counts = entry.counts()
    if problem is None:
        parts = " + ".join(str(c) for c in counts)
        line = ctx.t("deal_screen.brisques_sum", parts=parts, sum=sum(counts), expected=want)
    else:
        line = ctx.t(problem.key, **problem.args)
    # red only for a real error; "type each count" before anything is typed is a plain hint
    hint = problem is not None and problem.key == "deal_screen.brisques_missing"
    colour = ft.Colors.PRIMARY if problem is None else ft.Colors.ERROR
    total: ft.Control = tagged(
        "brisque-total",
        ft.Text(
            line,
            size=17,
            weight=ft.FontWeight.NORMAL if hint else ft.FontWeight.W_600,
            color=ft.Colors.ON_SURFACE if hint else colour,
        ),
    )
    # two lines reserved (a wrong total takes two at 360 px), so the buttons stay put
    rows.append(ft.Container(content=total, height=TOTAL_LINES, alignment=ft.Alignment.TOP_LEFT))
    return section(ctx.t("deal_screen.brisques_title", expected=want), *rows)


def brisques_refusal(ctx: ViewContext, ds: DealScreen) -> ft.Control | None:
    """ "Nothing recorded" after a refused record: at the end of the form, just over the
    buttons pinned at the bottom (ui/views/pinned_bottom.py), so the tap's target does not
    move."""
    if "brisques" not in ds.end_errors or ds.brisques.total_error() is None:
        return None
    return tagged(
        "error-brisques",
        ft.Text(
            ctx.t("deal_screen.brisques_not_recorded", expected=ds.brisques_expected()),
            size=16,
            weight=ft.FontWeight.BOLD,
            color=ft.Colors.ERROR,
        ),
    )
