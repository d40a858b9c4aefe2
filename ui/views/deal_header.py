"""The deal's header: trumps, phase, who dealt and who leads, and each side's deal and match
points large enough to read across the table (nothing cut at 360 px: names shrink with an
ellipsis, numbers never). The side boxes have a fixed layout (name, deal points, match total
on their own lines) so a 3-digit or negative score, or the turned-up seven (a badge beside the
dealer's name), never adds a line and moves what is below."""

from __future__ import annotations

import flet as ft

from ui.state.deal import DealScreen
from ui.state.rubicon_entries import no_trumps_key
from ui.views.cards import card_face, suit_badge
from ui.views.common import ViewContext, body_text, narrow, points_text, tagged
from ui.views.deal_parts import cached, panel


def header(ctx: ViewContext, ds: DealScreen, *, compact: bool = False) -> ft.Control:
    """The header, reused as the very same controls while what it shows is unchanged (most
    taps change a score at most): Flet's diff then skips it whole."""
    trumps = ds.trumps()
    deal = ds.deal
    key = (
        "header",
        compact,
        ctx.app.lang,
        narrow(),
        trumps,
        None if deal is None else deal.turn_up,
        ds.phase(),
        ctx.t(no_trumps_key(ds.match)) if trumps is None else None,
        ds.stock_left(),
        ds.tricks_played(),
        ds.dealer(),
        ds.leader(),
        ds.tracking,
        ds.players,
        ds.side_names,
        tuple(ds.deal_scores()),
        tuple(ds.totals()),
        ds.dealer_seven(),
    )
    return cached(ds, key, lambda: _header(ctx, ds, compact=compact))


def _header(ctx: ViewContext, ds: DealScreen, *, compact: bool = False) -> ft.Control:
    tag = "picker-" if compact else ""  # the picker's copy must not answer to the same ids
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
    phase = ctx.t("deal.phase2") if ds.phase() == 2 else ctx.t("deal.phase1")
    lines: list[ft.Control] = [
        tagged(f"{tag}phase", ft.Text(phase, size=17, weight=ft.FontWeight.BOLD, no_wrap=True))
    ]
    if trumps is None:
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
    top = ft.Row(
        [*left, ft.Column(lines, spacing=0, tight=True, expand=True)],
        spacing=10,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )
    cells = [
        _side_cell(ctx, ds, side, name, tag, compact) for side, name in enumerate(ds.side_names)
    ]
    return panel(
        ft.Column(
            [top, ft.Row(cells, spacing=6)],
            spacing=6,
            tight=True,
        ),
        identifier=f"{tag}deal-header",
        padding=10,
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


def _side_cell(
    ctx: ViewContext, ds: DealScreen, side: int, name: str, tag: str, compact: bool
) -> ft.Control:
    scores, totals = ds.deal_scores(), ds.totals()
    title: list[ft.Control] = [
        ft.Text(
            name,
            size=15,
            weight=ft.FontWeight.W_600,
            no_wrap=True,
            overflow=ft.TextOverflow.ELLIPSIS,
            expand=True,
        )
    ]
    seven = ds.dealer_seven()
    trumps = ds.trumps()
    if seven is not None and not compact and seven[0] == side and trumps is not None:
        # the dealer's turned-up seven, on the name's line so the box keeps its height
        title.append(
            tagged(
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
        )
    return ft.Container(
        content=ft.Column(
            [
                ft.Row(title, spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                tagged(
                    f"{tag}deal-score-{side}",
                    ft.Text(
                        points_text(scores[side]),
                        size=22 if compact else 30,
                        weight=ft.FontWeight.BOLD,
                        no_wrap=True,
                    ),
                ),
                tagged(
                    f"{tag}total-{side}",
                    ft.Text(
                        f"{ctx.t('deal.match_points')} {points_text(totals[side])}",
                        size=14 if compact else 16,
                        weight=ft.FontWeight.W_600,
                        no_wrap=True,
                    ),
                ),
            ],
            spacing=0,
            tight=True,
        ),
        padding=ft.Padding.symmetric(horizontal=8, vertical=2),
        border_radius=12,
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
        expand=True,
    )
