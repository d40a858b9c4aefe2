"""Rulings on the deal screen without covering a control.

- the strip: a place of its own under the header. A fresh accepted ruling shows there in
  green and goes away by itself (the strip then shows the last entry quietly); tapping the
  strip reopens the last rulings;
- a rejected ruling stays until read, over the players' tables (never over the buttons at
  the bottom), with the proposed penalty and its amount and, for a likely mis-tap, "correct
  the cards";
- the list of the last rulings, reopened in one tap.
"""

from __future__ import annotations

import asyncio
from typing import Any

import flet as ft

from ui import backend, page_tasks
from ui.state.deal import DealScreen, RulingView
from ui.views.common import ViewContext, body_text, tagged
from ui.views.deal_parts import Act, cached, compact_button, panel
from ui.views.penalty_sheet import amount_text
from ui.views.pinned_panel import pinned_panel

STRIP_HEIGHT = 64


def strip(ctx: ViewContext, ds: DealScreen, act: Act) -> ft.Control:
    """Always the same height, so nothing below it moves when a ruling comes or goes. The
    same controls are reused while it shows the same thing (Flet's diff skips them)."""
    shown = ds.shown_ruling()
    _schedule_hide(ctx, ds)
    if shown is not None and shown.accepted:
        what: tuple[object, ...] = (True, shown.penalty, shown.points, shown.text)
    else:
        what = (False, _last_text(ctx, ds, shown))
    key = ("strip", ctx.app.lang, bool(ds.toast.recent), what)
    return cached(ds, key, lambda: _strip(ctx, ds, act, shown))


def _strip(ctx: ViewContext, ds: DealScreen, act: Act, shown: RulingView | None) -> ft.Control:
    if shown is not None and shown.accepted:
        if shown.penalty:  # a penalty is no success: its own verdict, its amount, in red
            verdict, points = ctx.t("deal.penalty"), " " + penalty_amount(ctx, shown.points)
            icon = ft.Icon(ft.Icons.REPORT, size=24, color=ft.Colors.ERROR)
            tint = ft.Colors.ERROR_CONTAINER
        else:
            verdict = ctx.t("ruling.accepted")
            points = f" +{shown.points}" if shown.points > 0 else ""
            icon = ft.Icon(ft.Icons.CHECK_CIRCLE, size=24, color=ft.Colors.PRIMARY)
            tint = ft.Colors.SECONDARY_CONTAINER
        content: ft.Control = ft.Row(
            [
                icon,
                ft.Container(
                    content=ft.Column(
                        [
                            ft.Row(
                                [
                                    tagged(
                                        "ruling-verdict",
                                        ft.Text(
                                            verdict,
                                            size=16,
                                            weight=ft.FontWeight.BOLD,
                                        ),
                                    ),
                                    ft.Text(points, size=16, weight=ft.FontWeight.BOLD),
                                ],
                                spacing=0,
                            ),
                            tagged(
                                "ruling-text",
                                ft.Text(
                                    shown.text,
                                    size=14,
                                    max_lines=2,
                                    overflow=ft.TextOverflow.ELLIPSIS,
                                ),
                            ),
                        ],
                        spacing=0,
                        tight=True,
                    ),
                    expand=True,
                ),
            ],
            spacing=8,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
        ident = "ruling"
    else:
        text = _last_text(ctx, ds, shown)
        content = ft.Row(
            [
                ft.Icon(ft.Icons.HISTORY, size=22, color=ft.Colors.ON_SURFACE_VARIANT),
                ft.Container(
                    content=ft.Column(
                        [
                            tagged(
                                "last-entry",
                                ft.Text(
                                    text,
                                    size=14,
                                    max_lines=3,
                                    overflow=ft.TextOverflow.ELLIPSIS,
                                    color=ft.Colors.ON_SURFACE_VARIANT,
                                ),
                            )
                        ],
                        tight=True,
                    ),
                    expand=True,
                ),
            ],
            spacing=8,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
        tint = ft.Colors.SURFACE_CONTAINER_LOW
        ident = "ruling-strip"
    box = ft.Container(
        content=content,
        height=STRIP_HEIGHT,
        padding=ft.Padding.symmetric(horizontal=10, vertical=2),
        border_radius=12,
        bgcolor=tint,
        on_click=act(ds.reopen_rulings) if ds.toast.recent else None,
        ink=False,  # see ui/views/plain_buttons.py
    )
    return ft.Semantics(identifier=ident, content=box, button=bool(ds.toast.recent), container=True)


def penalty_amount(ctx: ViewContext, points: int) -> str:
    """An applied penalty's amount as the penalty sheet says it: "−10" (U+2212), "+60 to the
    others" (H-PENALTY-TO-OPPONENT), or in words when there was nothing to take."""
    if points > 0:
        return ctx.t("deal_screen.to_opponents", points=points)
    return f"\u2212{-points}" if points else ctx.t("deal_messages.nothing_to_lose")


def _last_text(ctx: ViewContext, ds: DealScreen, shown: RulingView | None) -> str:
    """The log's last entry in words (a rejected one too: the log keeps it); before any
    entry, the turned-up seven when it scored for the dealer."""
    log = ds.deal.log if ds.deal is not None else []
    if log:
        return ctx.t("deal_screen.last", text=backend.ruling_words(log[-1][1], ctx.app.lang))
    seven = ds.dealer_seven() if ds.deal is not None else None
    if seven is not None:
        return ctx.t("deal_messages.seven_last", player=ds.players[seven[0]], points=seven[1])
    return ctx.t("deal_screen.no_entries")


def _schedule_hide(ctx: ViewContext, ds: DealScreen) -> None:
    """Re-render when the accepted ruling's time is up (once per ruling)."""
    page: Any = ctx.page
    hide_at = ds.toast.hide_at()
    serial = ds.toast.serial
    if page is None or hide_at is None or ds.view_cache.get(("hide-timer",)) == serial:
        return
    ds.view_cache[("hide-timer",)] = serial
    app = ctx.app

    async def later() -> None:
        await asyncio.sleep(max(0.0, hide_at - ds.clock()) + 0.05)
        if ds.toast.serial == serial:
            app.changed()

    # A page without a connection (a test build; a tab closed since) gets no timer: the next
    # tap, or the page coming back, re-renders instead
    page_tasks.run_task(page, later)


def rejected_panel(ctx: ViewContext, ds: DealScreen, r: RulingView, act: Act) -> ft.Control:
    """A rejected ruling, kept until read: verdict, text, why, and what the table can do."""
    head: list[ft.Control] = [  # OK joins it at the right (pinned_panel): both in sight
        ft.Icon(ft.Icons.GAVEL, size=26, color=ft.Colors.ERROR),
        tagged(
            "ruling-verdict",
            ft.Text(ctx.t("ruling.rejected"), size=20, weight=ft.FontWeight.BOLD),
        ),
    ]
    rows: list[ft.Control] = [
        tagged("ruling-rule", ft.Text(f"{r.rule} · {r.rule_title}", size=15)),
        tagged("ruling-text", ft.Text(r.text, size=17)),
    ]
    if r.why:
        rows.append(
            tagged("ruling-why", ft.Text(ctx.t("ruling.why", text=r.why), size=15, italic=True))
        )
    buttons: list[ft.Control] = []
    if ds.can_correct_last():
        buttons.append(
            compact_button(
                ctx.t("deal_screen.correct_cards"),
                act(ds.correct_last),
                primary=True,
                icon=ft.Icons.EDIT,
                identifier="correct-cards",
                expand=True,
                center=True,
            )
        )
    proposed = ds.proposed_penalty()
    if proposed is not None and r.player is not None:
        title = backend.rule_title(proposed.offence, ctx.app.lang)
        buttons.append(
            compact_button(
                ctx.t(
                    "deal_screen.apply_penalty",
                    penalty=title,
                    player=ds.players[r.player],
                    amount=amount_text(ctx, proposed),
                ),
                act(ds.accept_proposed),
                danger=True,
                icon=ft.Icons.REPORT,
                identifier="apply-proposed",
                expand=True,
                center=True,
            )
        )
    ok = compact_button(
        ctx.t("ruling.dismiss"),
        act(ds.dismiss_ruling),
        identifier="dismiss-ruling",
        center=True,
    )
    # OK and the proposed penalty stay at the panel's bottom, on screen; a long "why" scrolls
    # above them, with its scrollbar shown (ui/views/pinned_panel.py)
    return pinned_panel(
        head, rows, buttons, ok, identifier="ruling", tint=ft.Colors.ERROR_CONTAINER
    )


def rulings_list(ctx: ViewContext, ds: DealScreen, act: Act) -> ft.Control:
    """The last rulings, newest first (reopened from the strip)."""
    rows: list[ft.Control] = []
    for i, r in enumerate(ds.toast.recent):
        verdict = ctx.t("ruling.accepted") if r.accepted else ctx.t("ruling.rejected")
        rows.append(
            tagged(
                f"recent-ruling-{i}",
                ft.Container(
                    content=ft.Column(
                        [
                            ft.Text(
                                verdict,
                                size=16,
                                weight=ft.FontWeight.BOLD,
                                color=ft.Colors.PRIMARY if r.accepted else ft.Colors.ERROR,
                            ),
                            body_text(r.text, 15),
                        ],
                        spacing=2,
                        tight=True,
                    ),
                    padding=8,
                    border_radius=10,
                    bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
                ),
            )
        )
    return panel(
        ft.Column(
            [
                ft.Row(
                    [
                        ft.Text(
                            ctx.t("deal_screen.recent"),
                            size=19,
                            weight=ft.FontWeight.BOLD,
                            expand=True,
                        ),
                        compact_button(
                            ctx.t("deal_screen.close"),
                            act(ds.close_rulings),
                            identifier="close-rulings",
                        ),
                    ]
                ),
                *rows,
            ],
            spacing=8,
            tight=True,
            scroll=ft.ScrollMode.AUTO,
        ),
        identifier="recent-rulings",
    )
