"""The deal's buttons, pinned at the bottom of the screen where the thumb is, in the same
place after every tap: a row per player (Declare, the seven, a penalty), the deal's own row
(stock exhausted, who took the last trick, end of deal) and, with tricks recorded, one button
per player for each trick won."""

from __future__ import annotations

from functools import partial

import flet as ft

from ui.state.deal import DealScreen
from ui.views import plain_buttons, quick_offers
from ui.views.common import ViewContext, body_text, tagged
from ui.views.deal_parts import Act, cached, compact_button

ROW = 56
QUIET = 0.4  # a button kept in its place for what the engine would not accept now


def action_bar(ctx: ViewContext, ds: DealScreen, act: Act) -> ft.Control:
    """The bar, reused as the very same controls while nothing it shows changed (a
    declaration changes none of it): Flet's diff then skips it whole."""
    sits_out = tuple(ds.sits_out(s) for s in range(len(ds.players)))
    tricks = ds.tracking == "tricks"
    end_form = ds.needs_end_form()
    key = (
        "action-bar",
        ctx.app.lang,
        ds.players,
        ds.tracking,
        ds.phase(),
        ds.trumps(),
        ds.has_sevens(),
        ds.deal is not None and ds.deal.seven_open(),
        ds.deal is not None and ds.deal.declarations_open(),
        sits_out,
        ds.tricks_played(),
        end_form,
        end_form and ds.needs_last_trick(),
        end_form and ds.tracking != "melds" and ds.can_close_play(),
        end_form and ds.tracking != "melds" and ds.play_over(),
        tricks and ds.can_win_trick(),
        ds.offers_in_zones(),
        _chosen_key(ds),
    )
    return cached(ds, key, lambda: _bar(ctx, ds, act))


def _chosen_key(ds: DealScreen) -> tuple[object, ...] | None:
    """Three or four players: what the bar shows of the chosen player (their offers, the
    suit being chosen, a pending combination to score)."""
    seat = ds.chosen_declarer()
    if seat is None:
        return None
    choosing = ds.suit_choice_of(seat) if ds.offers_shown() else None
    return (
        seat,
        tuple((o.meld, o.points, o.suits) for o in ds.offers(seat)) if ds.offers_shown() else (),
        None if choosing is None else (choosing.meld, choosing.suits),
        tuple((p.meld, p.points, p.ready) for p in ds.pending(seat)),
        quick_offers.columns_now(),
    )


def _bar(ctx: ViewContext, ds: DealScreen, act: Act) -> ft.Control:
    rows: list[ft.Control] = []
    deal_row = _deal_row(ctx, ds, act)
    if deal_row is not None:
        rows.append(deal_row)
    if ds.offers_in_zones():
        # the combinations are offered in the players' zones (ui/views/quick_offers.py):
        # both players' other buttons share one row, which leaves the zones that room; the
        # same row in phase 2, so "Stock exhausted" and the last trick stay where they were
        rows.append(
            ft.Row(
                [
                    ft.Container(
                        content=_player_row(ctx, ds, seat, name, act, compact=True), expand=True
                    )
                    for seat, name in enumerate(ds.players)
                ],
                spacing=8,
            )
        )
    elif (seat := ds.chosen_declarer()) is not None:
        # three or four players: the chosen player's buttons and offers (a tap on a zone
        # chooses); one row and a block of fixed height, so the bar never changes height
        name = ds.players[seat]
        rows.append(_player_row(ctx, ds, seat, name, act))
        rows.append(quick_offers.bar_offers(ctx, ds, act, seat, name))
    else:
        for seat, name in enumerate(ds.players):
            rows.append(_player_row(ctx, ds, seat, name, act))
    if ds.tracking == "tricks" and any(not ds.sits_out(s) for s in range(len(ds.players))):
        rows.append(_trick_row(ctx, ds, act))
    return tagged(
        "action-bar",
        ft.Container(
            content=ft.Column(rows, spacing=6, tight=True),
            padding=ft.Padding.only(left=12, right=12, top=8, bottom=10),
            bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
            border_radius=ft.BorderRadius.only(top_left=18, top_right=18),
        ),
    )


def _player_row(
    ctx: ViewContext, ds: DealScreen, seat: int, name: str, act: Act, *, compact: bool = False
) -> ft.Control:
    """Declare (the layer: any combination, or the cards), the seven, a penalty; ``compact``:
    half a row, the declare button named by the player alone (its label says the rest)."""
    if ds.sits_out(seat):  # the engine's J-FOUR: no buttons for this deal
        return ft.Container(
            content=tagged(
                f"sits-out-{seat}",
                body_text(
                    f"{name}: {ctx.t('deal.sits_out')}", 16, color=ft.Colors.ON_SURFACE_VARIANT
                ),
            ),
            height=ROW,
            alignment=ft.Alignment.CENTER_LEFT,
        )
    declare_for = ctx.t("deal_screen.declare_for", player=name)
    buttons: list[ft.Control] = [
        plain_buttons.labelled(  # the name on one line (the label says "Anna: declare")
            name,
            act(partial(ds.open_picker, seat)),
            size=15,
            max_lines=1,
            height=ROW,
            padding=ft.Padding.symmetric(horizontal=6, vertical=4),
            expand=True,
            identifier=f"declare-{seat}",
            label=declare_for,
        )
        if compact
        else compact_button(
            declare_for,
            act(partial(ds.open_picker, seat)),
            # green only while the engine would accept a declaration: quiet in phase 2
            primary=ds.tracking == "melds" and ds.deal is not None and ds.deal.declarations_open(),
            icon=ft.Icons.STYLE,
            identifier=f"declare-{seat}",
            expand=True,
        )
    ]
    trumps = ds.trumps()
    if trumps is not None and ds.has_sevens() and ds.phase() == 1:
        seven = compact_button(
            f"7{trumps.symbol}",
            act(partial(ds.seven, seat)),
            identifier=f"seven-{seat}",
            label=f"{ctx.t('deal.seven')} · {name}",
        )
        # offered while the engine would accept a seven (a copy left); once every copy is
        # accounted for it stays in its place, reachable (a false seven is still recorded
        # and refused) but quiet
        if ds.deal is None or not ds.deal.seven_open():
            seven = ft.Container(content=seven, opacity=QUIET)
        buttons.append(seven)
    buttons.append(
        tagged(
            f"penalty-{seat}",
            plain_buttons.icon_button(
                ft.Icons.REPORT_OUTLINED,
                act(partial(ds.open_penalty, seat)),
                icon_size=30,
                color=ft.Colors.ERROR,
                tooltip=ctx.t("deal_screen.penalty_for", player=name),
                size=40 if compact else ROW,
            ),
            label=ctx.t("deal_screen.penalty_for", player=name),
        )
    )
    return ft.Row(buttons, spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER)


def _trick_row(ctx: ViewContext, ds: DealScreen, act: Act) -> ft.Control:
    """One tap per trick, for whoever won it; gone once the deal's tricks are played."""
    if not ds.can_win_trick():
        return ft.Container(
            content=body_text(
                ctx.t("deal_screen.tricks_done"), 16, color=ft.Colors.ON_SURFACE_VARIANT
            ),
            height=ROW,
            alignment=ft.Alignment.CENTER_LEFT,
        )
    return ft.Row(
        [
            compact_button(
                ctx.t("deal_screen.won_trick", player=name),
                act(partial(ds.trick, seat)),
                primary=True,
                icon=ft.Icons.BACK_HAND,
                identifier=f"trick-{seat}",
                expand=True,
            )
            for seat, name in enumerate(ds.players)
            if not ds.sits_out(seat)
        ],
        spacing=6,
    )


def _deal_row(ctx: ViewContext, ds: DealScreen, act: Act) -> ft.Control | None:
    buttons: list[ft.Control] = []
    if ds.tracking == "cards":
        buttons.append(
            compact_button(
                ctx.t("deal.record_trick", n=ds.tricks_played() + 1),
                act(ds.open_trick),
                primary=True,
                icon=ft.Icons.BACK_HAND,
                identifier="record-trick",
                expand=True,
            )
        )
    elif ds.tracking == "melds" and ds.phase() == 1:
        buttons.append(
            compact_button(
                ctx.t("deal.stock_exhausted"),
                act(ds.stock_exhausted),
                icon=ft.Icons.LAYERS_CLEAR,
                identifier="stock-exhausted",
                expand=True,
            )
        )
        if ds.needs_end_form():
            buttons.append(_end_button(ctx, ds, act, primary=False))
    elif ds.needs_end_form():  # else the deal ends by itself (its last trick or lead)
        closing = ds.tracking == "melds" or ds.can_close_play()
        if ds.tracking == "melds" and ds.needs_last_trick():
            buttons += _last_trick_after_stock(ctx, ds, act)
        elif closing and ds.needs_last_trick():
            buttons.append(body_text(ctx.t("deal_screen.last_trick"), 16))
            for seat, name in enumerate(ds.players):
                buttons.append(
                    compact_button(
                        name,
                        act(partial(ds.open_end, seat)),
                        primary=True,
                        icon=ft.Icons.FLAG,
                        identifier=f"last-trick-{seat}",
                        expand=True,
                        label=ctx.t("deal_screen.last_trick_to", player=name),
                    )
                )
        elif ds.tracking == "melds" or ds.play_over():
            buttons.append(_end_button(ctx, ds, act, primary=True))
        else:
            buttons.append(
                body_text(
                    ctx.t("deal_screen.trick_next", n=ds.tricks_played() + 1),
                    16,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                )
            )
    if not buttons:
        return None
    return ft.Container(
        content=ft.Row(buttons, spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        height=ROW,
    )


def _last_trick_after_stock(ctx: ViewContext, ds: DealScreen, act: Act) -> list[ft.Control]:
    """After "Stock exhausted": a done (disabled) button where it was, so a second tap on the
    same spot does nothing, and the last-trick winners where "End of deal" was."""
    names = [
        compact_button(
            name,
            act(partial(ds.open_end, seat)),
            primary=True,
            identifier=f"last-trick-{seat}",
            center=True,
            expand=True,
            label=ctx.t("deal_screen.last_trick_to", player=name),
        )
        for seat, name in enumerate(ds.players)
    ]
    if len(names) > 2:
        # three or four names need the row's whole width to be read ("Cl" was Clara): a
        # second tap on the stock's place then opens the end form, which records nothing
        return names
    return [
        compact_button(
            ctx.t("deal_layout.stock_done_last"),
            None,  # disabled: a second tap here does nothing (no icon: two lines fit at 360 px)
            identifier="stock-done",
            expand=True,
        ),
        ft.Container(content=ft.Row(names, spacing=6), expand=True),
    ]


def _end_button(ctx: ViewContext, ds: DealScreen, act: Act, *, primary: bool) -> ft.Control:
    return compact_button(
        ctx.t("deal.end"),
        act(ds.open_end),
        primary=primary,
        icon=ft.Icons.FLAG,
        identifier="end-deal",
        expand=True,
    )
