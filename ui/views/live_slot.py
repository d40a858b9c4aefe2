"""Where the news from the other devices at the table shows: a place of its own that is always
there, so the news covers no header and no control, and nothing moves when it comes or goes.

- the deal screen in play: the ruling strip's place under the header (its own 64 px); the
  news takes it for a few seconds, then the strip is back (``deal_strip``);
- the other screens about a match (the deal's setup and summary, the score sheet, the
  viewer, the corrections): a slot of the same fixed height above the screen's body, quiet
  while there is no news (``frame``);
- the screens that show no match (Home, history, rules, a new match) and the end-of-deal
  form (it needs the whole height of a phone) show no news: they redraw with the stored
  numbers all the same;
- a device alone (no other connected: ``app.others_at_table == 0``) keeps no slot at all.
"""

from __future__ import annotations

import flet as ft

from ui.state.deal import DealScreen
from ui.views import live_strip, ruling_toast
from ui.views.common import ViewContext
from ui.views.deal_parts import Act

SLOT_HEIGHT = ruling_toast.STRIP_HEIGHT
SLOT_SCREENS = frozenset({"deal", "score", "viewer", "entries", "correction"})


def deal_strip(ctx: ViewContext, ds: DealScreen, act: Act) -> ft.Control:
    """The deal screen's strip under the header: the news while there is some, else the
    ruling strip (same height: the tables and the buttons below never move)."""
    return live_strip.build(ctx, SLOT_HEIGHT) or ruling_toast.strip(ctx, ds, act)


def _without_slot(ctx: ViewContext) -> bool:
    """The deal in play (the news is in the ruling strip's place), the end of a deal (its
    form needs the phone's whole height for *Record* to stay on screen: no news there), and
    a device alone: one phone is not a table, no other device's news can come."""
    app = ctx.app
    if app.others_at_table == 0:
        return True
    return app.screen == "deal" and app.deal is not None and app.deal.mode in ("play", "end")


def frame(ctx: ViewContext, body: ft.Control) -> ft.Control:
    """The screen's body under the news slot where the screen has one."""
    if ctx.app.screen not in SLOT_SCREENS or _without_slot(ctx):
        return ft.Column([body], spacing=0, expand=True)
    slot = live_strip.build(ctx, SLOT_HEIGHT) or _quiet(ctx)
    return ft.Column(
        [ft.Container(content=slot, padding=ft.Padding.only(left=8, right=8, top=4)), body],
        spacing=0,
        expand=True,
    )


def _quiet(ctx: ViewContext) -> ft.Control:
    """The slot while no news: one muted line saying what shows there (an empty band would
    look like a fault)."""
    return ft.Semantics(
        identifier="live-slot",
        container=True,
        content=ft.Container(
            content=ft.Row(
                [
                    ft.Icon(ft.Icons.SYNC, size=20, color=ft.Colors.ON_SURFACE_VARIANT),
                    ft.Text(
                        ctx.t("live_slot.quiet"),
                        size=14,
                        color=ft.Colors.ON_SURFACE_VARIANT,
                        expand=True,
                        max_lines=2,
                        overflow=ft.TextOverflow.ELLIPSIS,
                    ),
                ],
                spacing=10,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
            height=SLOT_HEIGHT,
            padding=ft.Padding.symmetric(horizontal=12, vertical=2),
            border_radius=12,
            bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        ),
    )
