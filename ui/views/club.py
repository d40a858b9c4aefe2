"""The club night's director's screen (issue #24): every table as a card (its players,
variant, deal, totals, who leads, finished or abandoned), a new table, a table's links with
their QR codes, abandon, next match. Thin: everything it shows and does is
ui/state/club.py's. Made to be read on a laptop or a projector: big totals, one to three
cards across by the screen's width."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import flet as ft

from ui.state.club import ClubScreen, TableRow
from ui.views import club_tournament
from ui.views.common import (
    VIEWPORT_WIDTH,
    View,
    ViewContext,
    app_bar,
    banner,
    big_button,
    body_text,
    scroll_body,
    tagged,
    with_args,
)
from ui.views.view_cache import cached

CODE_SIZE = 220  # px: a phone's camera reads it from a metre away
MAX_WIDTH = 1800  # px: the cards of a projector's wide screen
CARD_GAP = 14  # px between cards
STATUS_COLOURS = {
    "playing": ft.Colors.PRIMARY_CONTAINER,
    "finished": ft.Colors.TERTIARY_CONTAINER,
    "abandoned": ft.Colors.SURFACE_CONTAINER_HIGHEST,
}


def build(ctx: ViewContext) -> View:
    app = ctx.app
    club = app.club
    bar = app_bar(ctx, ctx.t("club.title"), back=False, actions=[_home_button(ctx)])
    if club is None:  # never drawn for a session without the director's screen
        return View(scroll_body([]), bar)
    rows = club.rows()
    controls: list[ft.Control] = []
    if app.notice is not None:
        controls.append(banner(ctx.t(app.notice.key, **app.notice.args), error=app.notice.error))
    controls.append(
        ft.Row(
            [
                big_button(
                    ctx.t("club.new_table"),
                    lambda _e: club.new_table(),
                    primary=not rows,
                    icon=ft.Icons.ADD,
                    identifier="club-new-table",
                ),
                big_button(  # the evening's tournament: ui/views/club_tournament.py
                    ctx.t("tournament.open"),
                    lambda _e: club.tournament.open(),
                    icon=ft.Icons.EMOJI_EVENTS,
                    identifier="club-tournament",
                ),
                big_button(  # the club's ratings, players and records: ui/views/club_ratings.py
                    ctx.t("club_ratings.open"),
                    lambda _e: club.ratings.open(),
                    icon=ft.Icons.LEADERBOARD,
                    identifier="club-ratings",
                ),
            ],
            wrap=True,
            spacing=10,
            run_spacing=10,
        )
    )
    controls += club_tournament.summary(ctx, club.tournament)  # standings, who plays whom
    if not rows:
        controls.append(body_text(ctx.t("club.none"), color=ft.Colors.ON_SURFACE_VARIANT))
    width = VIEWPORT_WIDTH.get() or 1280.0
    across = 3 if width >= 1500 else 2 if width >= 900 else 1
    # Cards of a fixed width in a wrapping row, not a ResponsiveRow: Flet's ResponsiveRow
    # sometimes left a new table's card unlaid (the links above it shown, the card missing
    # until the page scrolled, seen in Chromium), and the width is known here anyway.
    inner = min(width, MAX_WIDTH) - 32  # scroll_body's padding
    card_width = max(280.0, (inner - CARD_GAP * (across - 1)) / across)
    # A card is rebuilt only when its table, the language, its width or its own question or
    # links change: the list is drawn again after every move at any table, and twenty
    # cards built and diffed each time were a seventh of a loaded worker's time (py-spy).
    cards: list[ft.Control] = [
        cached(
            club,
            (
                "table-card",
                row,
                ctx.app.lang,
                card_width,
                club.links_of == row.number,
                club.confirm_abandon == row.number,
            ),
            partial(_table_card, ctx, club, row, card_width),
        )
        for row in rows
    ]
    if club.links_of is not None and any(r.number == club.links_of for r in rows):
        controls.append(_links(ctx, club, club.links_of))  # above the cards: in sight
    controls.append(ft.Row(cards, wrap=True, spacing=CARD_GAP, run_spacing=CARD_GAP))
    for i, control in enumerate(controls):
        if control.key is None:
            control.key = f"club-{i}"
    return View(scroll_body(controls, max_width=MAX_WIDTH), bar)


def _table_card(ctx: ViewContext, club: ClubScreen, row: TableRow, width: float) -> ft.Control:
    return ft.Container(_card(ctx, club, row), width=width, key=f"table-{row.number}")


def _home_button(ctx: ViewContext) -> ft.Control:
    return tagged(
        "club-home",
        ft.IconButton(
            ft.Icons.HOME,
            on_click=lambda _e: ctx.app.home(),
            tooltip=ctx.t("nav.home"),
            icon_size=26,
        ),
        label=ctx.t("nav.home"),
    )


def _card(ctx: ViewContext, club: ClubScreen, row: TableRow) -> ft.Control:
    """One table: who, what, where it is, the totals large, and the director's actions."""
    t = ctx.t
    deal = t("club.deal", n=row.deal) if row.deal else t("club.no_deal")
    if row.status == "finished" and row.leading:
        lead = t("club.won", name=row.leading)
    elif row.status == "abandoned":
        lead = ""
    else:
        lead = t("club.leading", name=row.leading) if row.leading else t("club.level")
    totals = ft.Row(
        [
            ft.Column(
                [
                    ft.Text(side, size=18, no_wrap=True, overflow=ft.TextOverflow.ELLIPSIS),
                    ft.Text(str(total), size=40, weight=ft.FontWeight.BOLD),
                ],
                spacing=0,
                tight=True,
                expand=True,
            )
            for side, total in zip(row.sides, row.totals, strict=False)
        ],
        spacing=12,
    )
    actions: list[ft.Control] = [
        _small(
            t("club.hide_links" if club.links_of == row.number else "club.links"),
            with_args(club.show_links, row.number),
            f"club-links-{row.number}",
            ft.Icons.QR_CODE_2,
        )
    ]
    if row.status == "playing":
        actions.append(
            _small(
                t("club.abandon"),
                with_args(club.ask_abandon, row.number),
                f"club-abandon-{row.number}",
                ft.Icons.STOP_CIRCLE,
            )
        )
    else:
        actions.append(
            _small(
                t("club.next"),
                with_args(club.next_match, row.number),
                f"club-next-{row.number}",
                ft.Icons.REPLAY,
            )
        )
    parts: list[ft.Control] = [
        ft.Row(
            [
                ft.Text(t("club.table", n=row.number), size=26, weight=ft.FontWeight.BOLD),
                ft.Container(
                    ft.Text(t(f"club.{row.status}"), size=16),
                    bgcolor=STATUS_COLOURS[row.status],
                    padding=ft.Padding.symmetric(horizontal=10, vertical=4),
                    border_radius=12,
                ),
            ],
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
        ),
        body_text(f"{row.variant} · {deal}", 17, color=ft.Colors.ON_SURFACE_VARIANT),
        totals,
        body_text(lead, 19, weight=ft.FontWeight.W_600),
    ]
    if row.played > 1:
        parts.append(
            body_text(t("club.played", n=row.played), 15, color=ft.Colors.ON_SURFACE_VARIANT)
        )
    if club.confirm_abandon == row.number:
        parts += [
            body_text(t("club.abandon_confirm", n=row.number), 16),
            ft.Row(
                [
                    _small(
                        t("club.abandon_yes"),
                        with_args(club.abandon, row.number),
                        f"club-abandon-yes-{row.number}",
                        ft.Icons.STOP_CIRCLE,
                    ),
                    _small(
                        t("club.keep"),
                        lambda _e: club.cancel_abandon(),
                        f"club-abandon-no-{row.number}",
                        ft.Icons.PLAY_ARROW,
                    ),
                ],
                wrap=True,
            ),
        ]
    else:
        parts.append(ft.Row(actions, wrap=True, spacing=8, run_spacing=8))
    return tagged(
        f"club-table-{row.number}",
        ft.Container(
            ft.Column(parts, spacing=8, tight=True),
            padding=16,
            border_radius=16,
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
            bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        ),
    )


def _small(
    text: str, on_click: Callable[[Any], object], identifier: str, icon: ft.IconData
) -> ft.Control:
    return tagged(
        identifier,
        ft.OutlinedButton(content=ft.Text(text, size=16), icon=icon, on_click=on_click),
        label=text,
    )


def _links(ctx: ViewContext, club: ClubScreen, number: int) -> ft.Control:
    """The table's two links with their codes, dark on white in either theme."""
    cards = []
    for code in club.codes(number):
        label = ctx.t(f"club.{code.role}")
        cards.append(
            tagged(
                f"club-code-{code.role}",
                ft.Container(
                    ft.Column(
                        [
                            ft.Text(
                                label,
                                size=17,
                                weight=ft.FontWeight.BOLD,
                                color=ft.Colors.BLACK,
                                text_align=ft.TextAlign.CENTER,
                            ),
                            ft.Image(
                                src=code.png,
                                width=CODE_SIZE,
                                height=CODE_SIZE,
                                fit=ft.BoxFit.CONTAIN,
                                filter_quality=ft.FilterQuality.NONE,
                                semantics_label=label,
                            ),
                            ft.Text(
                                code.url,
                                size=13,
                                color=ft.Colors.BLACK,
                                selectable=True,
                                text_align=ft.TextAlign.CENTER,
                            ),
                        ],
                        spacing=6,
                        tight=True,
                        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                    ),
                    width=CODE_SIZE + 120,
                    padding=12,
                    border_radius=14,
                    bgcolor=ft.Colors.WHITE,
                ),
                label=f"{label}: {code.url}",
            )
        )
    return tagged(
        "club-links",
        ft.Column(
            [
                ft.Text(ctx.t("club.table", n=number), size=22, weight=ft.FontWeight.BOLD),
                body_text(ctx.t("club.scan", n=number), 16),
                ft.Row(cards, wrap=True, spacing=16, run_spacing=16),
            ],
            spacing=8,
            tight=True,
        ),
    )
