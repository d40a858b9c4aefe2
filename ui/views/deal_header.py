"""The deal's header: trumps, phase, who dealt and who leads, and each side's deal and match
points large enough to read across the table (nothing cut at 360 px: names shrink with an
ellipsis, numbers never). The side boxes have a fixed layout (name, deal points, match total
on their own lines) so a 3-digit or negative score, or the turned-up seven (a badge beside the
dealer's name), never adds a line and moves what is below."""

from __future__ import annotations

from functools import partial

import flet as ft

from ui.state.common import points_text
from ui.state.deal import DealScreen
from ui.state.rubicon_entries import no_trumps_key
from ui.views.cards import card_face, suit_badge
from ui.views.common import ViewContext, body_text, narrow, tagged
from ui.views.deal_parts import cached, panel

TRUMPS_LINE = 38  # two lines of 14 px: "no trumps yet: …", later "Trumps ♥"


def header(ctx: ViewContext, ds: DealScreen, *, compact: bool = False) -> ft.Control:
    """The header, its parts the very same controls while what each shows holds: an entry
    changes one side's score at most, and only that side's box is diffed again."""
    tag = "picker-" if compact else ""  # the picker's copy must not answer to the same ids
    deal = ds.deal
    shared = (tag, ctx.app.lang, narrow(), ds.players, ds.side_names)
    top_key = (
        "header-top",
        *shared,
        ds.trumps(),
        None if deal is None else deal.turn_up,
        ds.phase(),
        no_trumps_key(ds.match),
        ds.stock_left(),
        ds.tricks_played(),
        ds.dealer(),
        ds.leader(),
        ds.tracking,
    )
    top = cached(ds, top_key, lambda: _top(ctx, ds, tag, compact))
    scores, totals, seven = ds.deal_scores(), ds.totals(), ds.dealer_seven()
    cells = [
        cached(
            ds,
            ("header-side", *shared, side, scores[side], totals[side], seven, ds.trumps()),
            partial(_side_cell, ctx, ds, side, name, tag, compact),
        )
        for side, name in enumerate(ds.side_names)
    ]
    return panel(
        ft.Column(
            [top, ft.Row(cells, spacing=6, vertical_alignment=ft.CrossAxisAlignment.START)],
            spacing=6,
            tight=True,
        ),
        identifier=f"{tag}deal-header",
        padding=10,
    )


def _top(ctx: ViewContext, ds: DealScreen, tag: str, compact: bool) -> ft.Control:
    """Trumps, phase, stock, dealer and leader."""
    deal = ds.deal
    trumps = ds.trumps()
    left: list[ft.Control] = []
    if trumps is not None:
        left.append(
            tagged(
                f"{tag}trumps",
                suit_badge(trumps, 22 if compact else 28),
                label=f"{ctx.t('deal.trumps')} {trumps.symbol}",
            )
        )
        if deal is not None and deal.turn_up is not None and not compact and not narrow():
            left.append(card_face(deal.turn_up, width=40))
    elif not ds.turn_up_variant:  # the badge's place, kept until a marriage fixes trumps
        badge = 22 if compact else 28
        left.append(ft.Container(width=badge * 1.5, height=badge * 1.5))
    phase = ctx.t("deal.phase2") if ds.phase() == 2 else ctx.t("deal.phase1")
    lines: list[ft.Control] = [
        tagged(
            f"{tag}phase",
            ft.Text(
                phase,
                size=17,
                weight=ft.FontWeight.BOLD,
                no_wrap=True,
                overflow=ft.TextOverflow.ELLIPSIS,  # never a letter sliced off
            ),
        )
    ]
    if not ds.turn_up_variant:
        # trumps fixed by the first marriage (Rubicon …): "no trumps yet" and then the trumps
        # share one box of two lines' height, so the zones below never jump when they change
        words = (
            ctx.t(no_trumps_key(ds.match))
            if trumps is None
            else f"{ctx.t('deal.trumps')} {trumps.symbol}"
        )
        lines.append(
            ft.Container(
                content=ft.Text(words, size=14, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS),
                height=TRUMPS_LINE,
                alignment=ft.Alignment.CENTER_LEFT,
            )
        )
    elif trumps is None:
        lines.append(body_text(ctx.t(no_trumps_key(ds.match)), 14))
    stock = ds.stock_left()
    if stock is not None:
        lines.append(
            tagged(
                f"{tag}stock",
                body_text(
                    ctx.t("deal_screen.stock_tricks", n=stock, played=ds.tricks_played()), 15
                ),
            )
        )
    if not compact:
        lines.append(tagged("dealer-leader", _who(ctx, ds)))
    return ft.Row(
        [*left, ft.Column(lines, spacing=0, tight=True, expand=True)],
        spacing=10,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def _who(ctx: ViewContext, ds: DealScreen) -> ft.Control:
    dealer, leader = ds.dealer(), ds.leader()
    parts: list[str] = []
    if dealer is not None:
        parts.append(ctx.t("deal_screen.dealer", player=ds.players[dealer]))
    if leader is not None:
        key = "deal_screen.leads" if ds.tracking != "melds" else "deal_screen.first_lead"
        parts.append(ctx.t(key, player=ds.players[leader]))
    return ft.Text(" · ".join(parts), size=16, weight=ft.FontWeight.W_600)


STACKED_SIDES = 3  # from three sides on, a box is too narrow for "В партии 1000" on one line


def _side_cell(
    ctx: ViewContext, ds: DealScreen, side: int, name: str, tag: str, compact: bool
) -> ft.Control:
    """Name, deal points, match total. The numbers get their full width first and the words
    give way (ellipsis); from three sides on, the label stands over the total and the turned-up
    seven's badge under the name, so neither a digit nor the dealer's name is cut."""
    scores, totals = ds.deal_scores(), ds.totals()
    stacked = len(ds.side_names) >= STACKED_SIDES
    name_text = ft.Text(
        name,
        size=15,
        weight=ft.FontWeight.W_600,
        no_wrap=True,
        overflow=ft.TextOverflow.ELLIPSIS,
        expand=True,
    )
    badge = _seven_badge(ctx, ds, side, compact)
    lines: list[ft.Control] = []
    if badge is not None and not stacked:
        # the badge on the name's line, so the box keeps its height
        lines.append(
            ft.Row([name_text, badge], spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER)
        )
    else:
        lines.append(ft.Row([name_text]))
        if stacked and _seven_badge(ctx, ds, None, compact) is not None:
            # the badge's own line, in every box (the others' empty): boxes of one height,
            # known from the deal's start, so the header never grows during the deal
            lines.append(badge or ft.Text("", size=14, no_wrap=True))
    lines.append(
        tagged(
            f"{tag}deal-score-{side}",
            ft.Text(
                points_text(scores[side]),
                size=22 if compact else 30,
                weight=ft.FontWeight.BOLD,
                no_wrap=True,
            ),
        )
    )
    lines.append(_total(ctx, tag, side, totals[side], compact=compact, stacked=stacked))
    return ft.Container(
        content=ft.Column(lines, spacing=0, tight=True),
        padding=ft.Padding.symmetric(horizontal=8, vertical=2),
        border_radius=12,
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
        expand=True,
    )


def _seven_badge(
    ctx: ViewContext, ds: DealScreen, side: int | None, compact: bool
) -> ft.Control | None:
    """The dealer's turned-up seven, "7♥ +10" (the sentence in its accessible label), in
    ``side``'s box (None: in the dealer's, whoever it is)."""
    seven = ds.dealer_seven()
    trumps = ds.trumps()
    if seven is None or compact or seven[0] != (seven[0] if side is None else side):
        return None
    if trumps is None:
        return None
    return tagged(
        "seven-turned",
        ft.Text(
            f"7{trumps.symbol} +{seven[1]}",
            size=14,
            weight=ft.FontWeight.W_600,
            color=ft.Colors.PRIMARY,
            no_wrap=True,
        ),
        label=ctx.t("deal.seven_turned", player=ds.players[seven[0]], points=seven[1]),
    )


def _total(
    ctx: ViewContext, tag: str, side: int, total: int, *, compact: bool, stacked: bool
) -> ft.Control:
    """ "Match 1000": the number never cut (it is laid out first, the label takes what is
    left and ends with an ellipsis); stacked, the label is a caption over the number."""
    label = ctx.t("deal.match_points")
    number = tagged(
        f"{tag}total-number-{side}",
        ft.Text(
            points_text(total),
            size=14 if compact else (18 if stacked else 16),
            weight=ft.FontWeight.BOLD if stacked else ft.FontWeight.W_600,
            no_wrap=True,
        ),
    )
    if stacked:
        caption = ft.Text(
            label,
            size=12 if compact else 13,
            no_wrap=True,
            overflow=ft.TextOverflow.ELLIPSIS,
            color=ft.Colors.ON_SURFACE_VARIANT,
        )
        content: ft.Control = ft.Column([caption, number], spacing=0, tight=True)
    else:
        words = ft.Text(
            label,
            size=14 if compact else 16,
            weight=ft.FontWeight.W_600,
            no_wrap=True,
            overflow=ft.TextOverflow.ELLIPSIS,
            expand=True,
            expand_loose=True,
        )
        content = ft.Row([words, number], spacing=4, tight=True)
    return tagged(f"{tag}total-{side}", content)
