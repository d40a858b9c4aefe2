"""The one-tap declarations in a player's zone (issue 21; state ui/state/quick_declare.py,
engine referee/offers.py): the combinations the engine would accept from that player now,
four to a row in cells of one size, in the engine's order; a plain marriage's suit as one
more row of suits in the same place; "change cards" beside the name after a one-tap entry.

Three or four players: the same cells for the chosen player in the action bar
(``bar_offers``, a block of fixed height), a pending combination's score among them."""

from __future__ import annotations

from functools import partial

import flet as ft

from referee.cards import Suit
from referee.offers import Offer
from ui import backend
from ui.state.deal import DealScreen
from ui.views import plain_buttons
from ui.views.cards import suit_badge
from ui.views.common import VIEWPORT_WIDTH, ViewContext, tagged
from ui.views.deal_parts import Act, cached, cap

COLUMNS = 4  # on a phone; WIDE_COLUMNS where the zone is wide (a tablet, a laptop)
WIDE_COLUMNS = 8
WIDE = 700  # px of viewport from which a zone holds eight cells a row
CELL = 38  # a cell's height: the name and the points on two lines
SPACING = 4
ROWS = 2  # two rows: two players' zones fit a 360×780 phone (1024×768) over the bar


def columns_now() -> int:
    """Cells a row: four on a phone, eight where the viewport is wide."""
    width = VIEWPORT_WIDTH.get()
    return WIDE_COLUMNS if width is not None and width >= WIDE else COLUMNS


LONG_SHORT = 9  # characters: a longer short name ("2× bezique") is drawn a size smaller


def name_size(short: str) -> float:
    """A cell's name size: whole in a 360 px phone's cell ("2× beziq…" was cut at 14)."""
    return 12.5 if len(short) > LONG_SHORT else 14


def short_name(ctx: ViewContext, meld: str) -> str:
    key = f"quick.short.{meld}"
    text = ctx.t(key)
    return text if text != key else cap(backend.meld_name(meld, ctx.app.lang))


def _trump_badge(ds: DealScreen, meld: str) -> Suit | None:
    """The trump suit shown before a trump kind's short name (once trumps are known)."""
    spec = ds.match.variant.combination(meld)
    trumps = ds.trumps()
    return trumps if spec is not None and spec.suit == "trump" else None


def offers_zone(
    ctx: ViewContext, ds: DealScreen, act: Act, seat: int, name: str
) -> ft.Control | None:
    """The offers (or the suit being chosen) for one player; None when nothing is offered
    (or when the bar offers them: three or four players)."""
    if not ds.offers_shown() or not ds.offers_in_zones():
        return None
    choosing = ds.suit_choice_of(seat)
    if choosing is not None:
        return _suit_row(ctx, ds, act, seat, name, choosing)
    offered = ds.offers(seat)
    if not offered:
        return None
    columns = columns_now()
    most = ROWS * columns
    cells = [_cell(ctx, ds, act, seat, name, o, (i, columns)) for i, o in enumerate(offered)]
    if len(cells) > most:  # six- and eight-pack: the rest one tap away, in the layer
        cells = [*cells[: most - 1], _more(ctx, ds, act, seat, len(cells) - most + 1)]
    return tagged(
        f"offers-{seat}",
        ft.Column(_grid(cells, columns), spacing=SPACING, tight=True),
        label=ctx.t("quick.offers", player=name),
    )


def _grid(cells: list[ft.Control], columns: int) -> list[ft.Control]:
    rows: list[ft.Control] = []
    for i in range(0, len(cells), columns):
        row = cells[i : i + columns]
        row += [ft.Container(expand=1) for _ in range(columns - len(row))]
        rows.append(ft.Row(row, spacing=SPACING))
    return rows


BLOCK = ROWS * CELL + (ROWS - 1) * SPACING  # the bar's offers block: two rows, always


def bar_offers(ctx: ViewContext, ds: DealScreen, act: Act, seat: int, name: str) -> ft.Control:
    """Three or four players: the chosen player's offers in the action bar, in a block of
    two rows' fixed height (empty, it keeps its place: the bar never changes height in the
    deal, so nothing above it moves). A pending combination the engine would score now comes
    first, filled; past two rows the last cell is "+N more" (the declare layer)."""
    content: ft.Control
    choosing = ds.suit_choice_of(seat) if ds.offers_shown() else None
    if choosing is not None:
        content = ft.Column([_suit_row(ctx, ds, act, seat, name, choosing)], spacing=SPACING)
    else:
        cells = [
            _pending_cell(ctx, ds, act, seat, i, p.meld, p.points)
            for i, p in enumerate(ds.pending(seat))
            if p.ready
        ]
        offered = ds.offers(seat) if ds.offers_shown() else ()
        columns = columns_now()
        cells += [
            _cell(ctx, ds, act, seat, name, o, (len(cells) + i, columns))
            for i, o in enumerate(offered)
        ]
        most = ROWS * columns
        if len(cells) > most:
            cells = [*cells[: most - 1], _more(ctx, ds, act, seat, len(cells) - most + 1)]
        if cells:
            content = tagged(
                f"offers-{seat}",
                ft.Column(_grid(cells, columns), spacing=SPACING, tight=True),
                label=ctx.t("quick.offers", player=name),
            )
        else:  # quiet: why nothing is offered
            key = "quick.after_stock" if ds.phase() == 2 else "quick.none"
            content = ft.Container(
                content=tagged(
                    f"offers-none-{seat}",
                    ft.Text(
                        ctx.t(key, player=name),
                        size=15,
                        color=ft.Colors.ON_SURFACE_VARIANT,
                        max_lines=2,
                        overflow=ft.TextOverflow.ELLIPSIS,
                    ),
                ),
                alignment=ft.Alignment.CENTER_LEFT,
                padding=ft.Padding.only(left=4),
            )
    return ft.Container(content=content, height=BLOCK, key=f"bar-offers-{seat}")


def _pending_cell(
    ctx: ViewContext, ds: DealScreen, act: Act, seat: int, index: int, meld: str, points: int
) -> ft.Control:
    """A pending combination the engine scores now: one tap, as an offer, filled."""
    fg = plain_buttons.foreground("filled", True)
    content = ft.Column(
        [
            ft.Text(
                short_name(ctx, meld),
                size=name_size(short_name(ctx, meld)),
                weight=ft.FontWeight.W_600,
                color=fg,
                no_wrap=True,
                overflow=ft.TextOverflow.ELLIPSIS,
            ),
            ft.Text(f"+{points}", size=13, color=fg),
        ],
        spacing=0,
        tight=True,
        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        alignment=ft.MainAxisAlignment.CENTER,
    )
    full = backend.meld_name(meld, ctx.app.lang)
    return ft.Semantics(
        identifier=f"score-pending-{seat}-{index}",
        label=ctx.t("deal.pending_score", meld=full, points=points),
        button=True,
        expand=1,
        content=plain_buttons.face(
            content,
            act(partial(ds.score_pending, seat, index)),
            look="filled",
            height=CELL,
            padding=ft.Padding.symmetric(horizontal=2, vertical=2),
            radius=12,
            expand=1,
            alignment=ft.Alignment.CENTER,
        ),
    )


def _cell(
    ctx: ViewContext,
    ds: DealScreen,
    act: Act,
    seat: int,
    name: str,
    offer: Offer,
    place: tuple[int, int],
) -> ft.Control:
    """One offer, the very same control while it is offered unchanged in the same place
    (``place``: its index and the grid's columns): an entry changes one or two of a player's
    offers, and Flet's diff skips the others. Never reused in another place: Flet's diff
    matches the controls of a list by position, so a kept control moved to another cell
    would take over that cell's identity, and a tap there would reach the wrong offer."""
    badge = _trump_badge(ds, offer.meld)
    key = (
        "offer",
        seat,
        name,
        ctx.app.lang,
        place,
        offer.meld,
        offer.points,
        offer.needs_suit,
        badge,
    )
    return cached(ds, key, partial(_offer_cell, ctx, ds, act, seat, name, offer))


def _offer_cell(
    ctx: ViewContext, ds: DealScreen, act: Act, seat: int, name: str, offer: Offer
) -> ft.Control:
    short = short_name(ctx, offer.meld)
    text = ft.Text(
        short,
        size=name_size(short),
        weight=ft.FontWeight.W_600,
        color=ft.Colors.PRIMARY,
        no_wrap=True,
        overflow=ft.TextOverflow.ELLIPSIS,
    )
    badge = _trump_badge(ds, offer.meld)
    points: ft.Control = ft.Text(str(offer.points), size=13, color=ft.Colors.ON_SURFACE_VARIANT)
    if badge is not None and not offer.needs_suit:  # the trump suit beside the points
        points = ft.Row(
            [suit_badge(badge, 9), points],
            spacing=3,
            tight=True,
            alignment=ft.MainAxisAlignment.CENTER,
        )
    content = ft.Column(
        [text, points],
        spacing=0,
        tight=True,
        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        alignment=ft.MainAxisAlignment.CENTER,
    )
    meld = backend.meld_name(offer.meld, ctx.app.lang)
    return ft.Semantics(
        identifier=f"offer-{seat}-{offer.meld}",
        label=ctx.t("quick.declare", player=name, meld=meld, points=offer.points),
        button=True,
        expand=1,
        content=plain_buttons.face(
            content,
            act(partial(ds.quick_declare, seat, offer.meld)),
            height=CELL,
            padding=ft.Padding.symmetric(horizontal=2, vertical=2),
            radius=12,
            expand=1,
            alignment=ft.Alignment.CENTER,
        ),
    )


def _more(ctx: ViewContext, ds: DealScreen, act: Act, seat: int, more: int) -> ft.Control:
    """The offers past two rows: the declare layer, where every combination is named."""
    text = ctx.t("quick.more", n=more)
    return ft.Semantics(
        identifier=f"offer-more-{seat}",
        label=text,
        button=True,
        expand=1,
        content=plain_buttons.face(
            ft.Text(text, size=14, weight=ft.FontWeight.W_600, color=ft.Colors.PRIMARY),
            act(partial(ds.open_picker, seat)),
            height=CELL,
            radius=12,
            expand=1,
            alignment=ft.Alignment.CENTER,
        ),
    )


def _suit_row(
    ctx: ViewContext, ds: DealScreen, act: Act, seat: int, name: str, offer: Offer
) -> ft.Control:
    meld = backend.meld_name(offer.meld, ctx.app.lang)
    cells: list[ft.Control] = [
        ft.Container(
            content=ft.Text(
                ctx.t("quick.suit_of", meld=short_name(ctx, offer.meld)),
                size=14,
                weight=ft.FontWeight.W_600,
                max_lines=2,
                overflow=ft.TextOverflow.ELLIPSIS,
            ),
            expand=2,  # "Марьяж:" whole beside four suits at 360 px
            alignment=ft.Alignment.CENTER_LEFT,
        )
    ]
    for suit in offer.suits:
        cells.append(
            ft.Semantics(
                identifier=f"offer-suit-{seat}-{suit.value}",
                label=ctx.t("quick.suit_for", player=name, meld=meld, suit=suit.symbol),
                button=True,
                expand=1,
                content=plain_buttons.face(
                    suit_badge(suit, 20),
                    act(partial(ds.quick_suit, suit)),
                    height=CELL,
                    radius=12,
                    expand=1,
                    alignment=ft.Alignment.CENTER,
                ),
            )
        )
    cells.append(
        ft.Semantics(
            identifier=f"offer-suit-cancel-{seat}",
            label=ctx.t("quick.cancel"),
            container=True,
            content=plain_buttons.icon_button(
                ft.Icons.CLOSE,
                act(ds.cancel_suit_choice),
                tooltip=ctx.t("quick.cancel"),
                size=CELL,
            ),
        )
    )
    return tagged(f"offers-{seat}", ft.Row(cells, spacing=SPACING))


def change_button(
    ctx: ViewContext, ds: DealScreen, act: Act, seat: int, name: str, *, icon_only: bool = False
) -> ft.Control | None:
    """After a one-tap declaration: its cards one tap away (the entry is taken back and the
    declare layer opens on the same proposal); ``icon_only`` in a three- or four-hand zone's
    one row."""
    last = ds.quick_last
    if last is None or last.player != seat:
        return None
    meld = backend.meld_name(last.proposal.meld, ctx.app.lang)
    if icon_only:
        return tagged(
            f"change-cards-{seat}",
            plain_buttons.icon_button(
                ft.Icons.EDIT,
                act(ds.change_quick),
                tooltip=ctx.t("quick.change_label", player=name, meld=meld),
                icon_size=22,
                color=ft.Colors.PRIMARY,
                size=40,
            ),
            label=ctx.t("quick.change_label", player=name, meld=meld),
        )
    return plain_buttons.labelled(
        ctx.t("quick.change_cards"),
        act(ds.change_quick),
        look="text",
        icon=ft.Icons.EDIT,
        size=14,
        icon_size=18,
        height=24,
        padding=ft.Padding.symmetric(horizontal=8, vertical=0),
        identifier=f"change-cards-{seat}",
        label=ctx.t("quick.change_label", player=name, meld=meld),
    )
