"""The deal screen: setup, play, the end of the deal and its summary. Thin: reads
ui.state.deal.DealScreen and forwards taps to it.

The play screen is fixed zones, so nothing moves under the finger: the header (trumps, phase,
dealer and leader, the scores), the ruling strip, the players' tables (a rejected ruling, the
penalty choice or the last rulings are shown over them, never over a button) and the action
bar pinned at the bottom. Declaring is a layer of its own (ui/views/declare_by_name.py)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import flet as ft

from referee.cards import Card, Suit
from referee.glossary import rank_label
from ui import backend
from ui.state.deal import RANKS, SUITS, DealScreen, PendingView
from ui.state.deal_summary import summary_sides
from ui.views import (
    declare_by_name,
    last_deal_note,
    live_slot,
    notice_strip,
    pinned_bottom,
    plain_buttons,
    quick_offers,
    ruling_toast,
    setup_slot,
    under_header,
)
from ui.views.action_bar import action_bar
from ui.views.brisques_entry import brisques_fields, brisques_refusal
from ui.views.cards import card_face, inline_cards, suit_runs, suit_text
from ui.views.common import (
    VIEWPORT_WIDTH,
    View,
    ViewContext,
    app_bar,
    banner,
    big_button,
    body_text,
    choice_row,
    heading,
    narrow,
    scroll_body,
    section,
    tagged,
)
from ui.views.deal_header import header
from ui.views.deal_parts import cached, cap, compact_button, panel, seat_setter
from ui.views.deal_summary import side_rows
from ui.views.game_lines import game_summary
from ui.views.penalty_sheet import penalty_panel
from ui.views.rubicon_entries import entry_rows
from ui.views.save_status import save_status
from ui.views.verdict import verdict_panel

_panel = panel
_seat_setter = seat_setter
PLAY_MAX_WIDTH = 900


def build(ctx: ViewContext) -> View:
    app = ctx.app
    ds = app.deal
    if ds is None:
        return View(
            scroll_body([body_text(ctx.t("deal.no_deal"))]), app_bar(ctx, ctx.t("app.title"))
        )
    ds.lang = app.lang

    def act(fn: Callable[[], Any]) -> Callable[[Any], None]:
        def handler(_e: Any) -> None:
            fn()
            app.changed()

        return handler

    mode = ds.mode
    fields = mode == "end"  # the brisque fields: icon buttons that take the focus

    # a phone's bar: five icons and Home leave the title ~60 px, and "Сдача 1" was cut
    # ("Сдач…"): 44-px targets on a narrow screen (Apple's minimum) give it the room
    target = 44 if narrow() else 48

    def nav(identifier: str, icon: ft.IconData, on_click: Any, tip: str, size: int) -> ft.Control:
        button = plain_buttons.icon_button(
            icon, on_click, tooltip=ctx.t(tip), icon_size=size, keep_focus=fields, size=target
        )
        return tagged(identifier, button)

    undo_on = act(ds.undo) if ds.can_undo() else None
    redo_on = act(ds.redo) if ds.can_redo() else None
    actions: list[ft.Control] = [
        # the same controls while their state holds (Flet's diff skips them)
        cached(
            ds,
            ("undo", app.lang, ds.can_undo(), fields),
            lambda: nav("undo", ft.Icons.UNDO, undo_on, "nav.undo", 28),
        ),
        cached(
            ds,
            ("redo", app.lang, ds.can_redo(), fields),
            lambda: nav("redo", ft.Icons.REDO, redo_on, "nav.redo", 28),
        ),
        cached(
            ds,
            ("to-score", app.lang, fields, target),
            lambda: nav("to-score", ft.Icons.TABLE_CHART, lambda _e: app.show_score(),
                        "nav.score", 26),
        ),
        cached(
            ds,
            ("to-rules", app.lang, fields, target),
            lambda: nav("to-rules", ft.Icons.MENU_BOOK, lambda _e: app.go("rules"),
                        "nav.rules", 26),
        ),
    ]
    bar = app_bar(
        ctx, ctx.t("deal.title", n=ds.deal_number), actions=actions, settings=not narrow()
    )
    bar.leading = cached(
        ds,
        ("nav-home", app.lang, fields, target),
        lambda: nav("nav-home", ft.Icons.HOME, lambda _e: app.home(), "nav.home", 26),
    )
    bar.leading_width = target
    bar.title_spacing = 4

    controls: list[ft.Control] = save_status(ctx, ds.session)  # unsaved entries (storage away)
    if ds.notice is not None:
        controls.append(banner(ctx.t(ds.notice.key, **ds.notice.args), error=ds.notice.error))
    notes = last_deal_note.notes(ctx, ds.match)  # a side past the target: the last deal
    if mode == "setup":
        controls += [*notes, *_setup(ctx, ds, act)]
    elif mode in ("summary", "finished"):  # Next deal and Score sheet pinned at the bottom
        summary, buttons = _summary(ctx, ds, act, finished=mode == "finished")
        return View(pinned_bottom.body([*controls, *notes, *summary], buttons), bar)
    elif mode == "end":  # Record and Cancel pinned at the bottom (three players' fields)
        form, buttons = _end(ctx, ds, act)  # the note under the header, which stays in place
        return View(pinned_bottom.body([*controls, header(ctx, ds), *notes, *form], buttons), bar)
    else:
        return View(_play(ctx, ds, act), bar)
    return View(scroll_body(controls), bar)


def _play(ctx: ViewContext, ds: DealScreen, act: Any) -> ft.Control:
    """Header, ruling strip, tables (with what covers them), action bar; the declare and
    trick layers cover the whole screen while they are open."""
    tables: list[ft.Control] = save_status(ctx, ds.session)  # unsaved entries (storage away)
    tables += last_deal_note.notes(ctx, ds.match)  # a side past the target: the last deal
    tables += entry_rows(ctx, ds, act)  # carte blanche, cut bonus (ui/views/rubicon_entries)
    tables += _players(ctx, ds, act, at=len(tables))
    # the ruling strip (or the news from other devices, ui/views/live_slot) and the tables;
    # a rejected ruling or the last rulings cover both (the strip would only repeat the
    # rejected entry), never the header or the action bar
    middle: list[ft.Control] = [
        ft.Column(
            [
                # a notice (a refused write) first, in the strip's place: never over the
                # tables nor above them (ui/views/notice_strip.py)
                notice_strip.build(ctx, ds, act) or live_slot.deal_strip(ctx, ds, act),
                ft.Container(
                    content=ft.Column(
                        tables,
                        spacing=8,
                        scroll=ft.ScrollMode.AUTO,
                        expand=True,
                        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
                    ),
                    expand=True,
                    key="tables",
                ),
            ],
            spacing=6,
            expand=True,
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        )
    ]
    over: ft.Control | None = None
    shown = ds.shown_ruling()
    if ds.toast.listing and ds.penalty_for is None:
        over = ruling_toast.rulings_list(ctx, ds, act)
    elif shown is not None and not shown.accepted:
        over = ruling_toast.rejected_panel(ctx, ds, shown, act)
    if over is not None:
        middle.append(ft.Container(content=over, left=0, right=0, top=0, bottom=0, key="over"))
    # the penalty choice covers the zones under the header, never the header (whose penalty,
    # the scores)
    cover = penalty_panel(ctx, ds, act) if ds.penalty_for is not None else None
    column = under_header.column(
        header(ctx, ds),
        [ft.Stack(middle, expand=True), action_bar(ctx, ds, act)],
        cover,
        spacing=6,
    )
    width = VIEWPORT_WIDTH.get()
    wide = width is not None and width > PLAY_MAX_WIDTH + 32
    base = ft.Container(
        content=column,
        padding=ft.Padding.only(left=8, right=8, top=6),
        width=PLAY_MAX_WIDTH if wide else None,
        expand=not wide,
    )
    layers: list[ft.Control] = [
        ft.Row(
            [base],
            alignment=ft.MainAxisAlignment.CENTER,
            expand=True,
            vertical_alignment=ft.CrossAxisAlignment.STRETCH,
        )
        if wide
        else base
    ]
    if ds.trick_open:
        layers.append(
            ft.Container(
                content=scroll_body([header(ctx, ds, compact=True), *_trick_form(ctx, ds, act)]),
                bgcolor=ft.Colors.SURFACE,
                left=0,
                top=0,
                right=0,
                bottom=0,
                key="trick",
            )
        )
    # The declare layer's place is always in the stack, so opening or closing it never
    # changes the stack's children (Flutter would rebuild the whole deal screen under it).
    # Closed, it keeps what it showed last, invisible: Flutter drops those widgets (the
    # confirm's frame rebuilds nothing of them) while Flet keeps the controls, so closing
    # sends one property and walks no removed subtree, and opening again diffs against them.
    content = declare_by_name.layer(ctx, ds, act) if ds.picker is not None else None
    if content is not None:
        ds.view_cache[LAYER] = content
    shown = content if content is not None else ds.view_cache.get(LAYER)
    layers.append(
        ft.Container(
            content=None if shown is None else ft.Container(shown, visible=content is not None),
            bgcolor=ft.Colors.SURFACE if content is not None else None,
            left=0,
            top=0,
            right=0,
            bottom=0,
            key="picker",
            ignore_interactions=content is None,
        )
    )
    return ft.Stack(layers, expand=True)


LAYER = ("declare-layer",)  # the view cache's entry for the last declare layer built


# ------------------------------------------------------------------------------ players
def _players(ctx: ViewContext, ds: DealScreen, act: Any, *, at: int) -> list[ft.Control]:
    """The players' zones, each kept while it shows the same, and only at the same place in
    the list (``at``: the notes above them; Flet diffs a list by position, and a kept zone
    drawn one place lower would take over the identity of what was there)."""
    phase2 = ds.phase() == 2
    back = ds.declared_back_in_hand()
    if ds.offers_for_one():  # three or four players: a row each, the bar offers
        return _player_rows(ctx, ds, act, phase2, back, at)
    out: list[ft.Control] = []
    for seat, name in enumerate(ds.players):
        table = ds.table(seat)
        pending = ds.pending(seat)
        choosing = ds.suit_choice_of(seat)
        last = ds.quick_last
        key = (
            *_zone_key("table", ctx, seat, name, phase2, back, table, pending),
            at,
            ds.trumps(),
            tuple((o.meld, o.points, o.suits) for o in ds.offers(seat)),
            None if choosing is None else (choosing.meld, choosing.suits),
            last is not None and last.player == seat,
            quick_offers.columns_now(),
        )
        out.append(
            cached(
                ds,
                key,
                partial(_table_panel, ctx, ds, act, seat, name, table, pending, phase2, back),
            )
        )
    return out


def _zone_key(
    kind: str,
    ctx: ViewContext,
    seat: int,
    name: str,
    phase2: bool,
    back: bool,
    table: list[Card],
    pending: list[PendingView],
) -> tuple[object, ...]:
    """What a player's zone shows in either layout: its cached control is kept while this
    (and the layout's own additions) stays the same."""
    return (
        kind,
        seat,
        name,
        ctx.app.lang,
        phase2,
        back,
        tuple(c.code for c in table),
        tuple((p.meld, p.points, p.ready, tuple(c.code for c in p.cards)) for p in pending),
    )


def _table_panel(
    ctx: ViewContext,
    ds: DealScreen,
    act: Any,
    seat: int,
    name: str,
    table: list[Card],
    pending: list[PendingView],
    phase2: bool,
    back: bool,
) -> ft.Control:
    """One player's table: the declared cards and pending combinations, and while the engine
    offers them the one-tap declarations (ui/views/quick_offers.py), then the zone is denser
    (smaller faces, tighter spacing) so two players' zones fit a 360×780 phone over the bar;
    the other buttons are in the action bar."""
    offers = quick_offers.offers_zone(ctx, ds, act, seat, name)
    dense = offers is not None
    faces: list[ft.Control] = [card_face(c, width=28 if dense else 36) for c in table]
    pend: list[ft.Control] = []
    for i, p in enumerate(pending):
        meld = backend.meld_name(p.meld, ctx.app.lang)
        pend.append(
            ft.Row(
                [
                    ft.Text(ctx.t("deal.pending", meld=meld, points=p.points), size=16),
                    inline_cards(list(p.cards), 16),
                    big_button(
                        ctx.t("deal.pending_score", meld=meld, points=p.points),
                        act(partial(ds.score_pending, seat, i)),
                        primary=True,
                        identifier=f"score-pending-{seat}-{i}",
                    )
                    if p.ready
                    else body_text(
                        ctx.t("deal.pending_hint", player=name),
                        15,
                        color=ft.Colors.ON_SURFACE_VARIANT,
                    ),
                ],
                wrap=True,
                spacing=8,
            )
        )
    if faces:
        shown: ft.Control = ft.Row(faces, wrap=True, spacing=4, run_spacing=4)
    elif offers is not None:  # what the player can declare says it: the room is theirs
        shown = ft.Container(height=0)
    else:
        empty = "deal_screen.back_in_hand" if phase2 and back else "deal.table_empty"
        shown = body_text(ctx.t(empty), 15, color=ft.Colors.ON_SURFACE_VARIANT)
    title: ft.Control = ft.Text(
        name,
        size=17,
        weight=ft.FontWeight.BOLD,
        no_wrap=True,
        overflow=ft.TextOverflow.ELLIPSIS,
        expand=True,
    )
    change = quick_offers.change_button(ctx, ds, act, seat, name)
    title = ft.Container(  # one height with or without "change cards": nothing moves
        content=ft.Row([title, *([change] if change else [])], spacing=4),
        height=24 if dense else 28,
    )
    return panel(
        ft.Column(
            [
                title,
                tagged(f"table-{seat}", shown),
                *pend,
                *([offers] if offers is not None else []),
            ],
            spacing=3 if dense else 4,
            tight=True,
        ),
        identifier=f"player-{seat}",
        padding=6 if dense else 8,
    )


ROW_FACE = 26  # a three- or four-hand zone's card faces: six to a line at 360 px
ROW_FIXED = 176  # px of a zone's row that is not its cards (paddings, mark, name, the pencil)


def _faces_in_a_row() -> int:
    """How many faces fit beside the name in a three- or four-hand zone's one line: past
    that the cards are text (ten cards on four tables put the last zones under the bar)."""
    width = VIEWPORT_WIDTH.get()
    if width is None:
        return 6
    room = min(width, PLAY_MAX_WIDTH) - ROW_FIXED
    return max(1, int(room // (ROW_FACE + 4)))


def _player_rows(
    ctx: ViewContext, ds: DealScreen, act: Any, phase2: bool, back: bool, at: int
) -> list[ft.Control]:
    """Three or four players: each zone one row (name, then the declared cards), a tap on it
    chooses whose declarations the bar offers (ui/views/quick_offers.bar_offers); the
    chosen zone is marked. Four rows fit a 360×780 phone over the bar."""
    chosen = ds.chosen_declarer()
    last = ds.quick_last
    out: list[ft.Control] = []
    for seat, name in enumerate(ds.players):
        table = ds.table(seat)
        pending = ds.pending(seat)
        key = (
            *_zone_key("table-row", ctx, seat, name, phase2, back, table, pending),
            at,
            chosen == seat,
            last is not None and last.player == seat,
            ds.sits_out(seat),
        )
        out.append(
            cached(
                ds,
                key,
                partial(_player_row_zone, ctx, ds, act, seat, name, table, pending, chosen == seat),
            )
        )
    return out


def _player_row_zone(
    ctx: ViewContext,
    ds: DealScreen,
    act: Any,
    seat: int,
    name: str,
    table: list[Card],
    pending: list[PendingView],
    chosen: bool,
) -> ft.Control:
    phase2 = ds.phase() == 2
    shown: ft.Control
    if table and len(table) <= _faces_in_a_row():
        shown = ft.Row(
            [card_face(c, width=ROW_FACE) for c in table], wrap=True, spacing=4, run_spacing=4
        )
    elif table:  # more than a line of faces: by suit, as a hand is written (one line of ten)
        shown = suit_runs(table, 15)
    else:
        empty = (
            "deal_screen.back_in_hand"
            if phase2 and ds.declared_back_in_hand()
            else "deal.table_empty"
        )
        shown = body_text(ctx.t(empty), 14, color=ft.Colors.ON_SURFACE_VARIANT)
    marker = ft.Icon(
        ft.Icons.RADIO_BUTTON_CHECKED if chosen else ft.Icons.RADIO_BUTTON_UNCHECKED,
        size=20,
        color=ft.Colors.PRIMARY if chosen else ft.Colors.OUTLINE,
    )
    title = ft.Text(
        name,
        size=16,
        weight=ft.FontWeight.BOLD,
        no_wrap=True,
        overflow=ft.TextOverflow.ELLIPSIS,
        width=68,
    )
    change = quick_offers.change_button(ctx, ds, act, seat, name, icon_only=True)
    row = ft.Row(
        [
            marker,
            title,
            ft.Container(content=tagged(f"table-{seat}", shown), expand=True),
            *([change] if change is not None else []),
        ],
        spacing=4,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )
    lines: list[ft.Control] = [row]
    for p in pending:  # the score itself is a cell of the bar's offers (when it scores now)
        meld = backend.meld_name(p.meld, ctx.app.lang)
        lines.append(
            ft.Row(
                [
                    ft.Text(ctx.t("deal.pending", meld=meld, points=p.points), size=14),
                    inline_cards(list(p.cards), 14),
                ],
                wrap=True,
                spacing=6,
            )
        )
    choose = None if ds.sits_out(seat) else act(partial(ds.choose_declarer, seat))
    box = ft.Container(
        content=ft.Column(lines, spacing=2, tight=True),
        padding=ft.Padding.symmetric(horizontal=6, vertical=5),
        border_radius=14,
        bgcolor=ft.Colors.SECONDARY_CONTAINER if chosen else ft.Colors.SURFACE_CONTAINER,
        border=ft.Border.all(2, ft.Colors.PRIMARY if chosen else ft.Colors.TRANSPARENT),
        on_click=choose,
        ink=False,  # see ui/views/plain_buttons.py
    )
    return tagged(
        f"player-{seat}",
        ft.Semantics(
            identifier=f"choose-{seat}",
            label=ctx.t("quick.choose", player=name),
            button=True,
            selected=chosen,
            content=box,
        ),
    )


# ------------------------------------------------------------------------------ setup
TURN_UP_PREVIEW = 64  # the chosen turn-up's width (its height is 1.35 times that)


def _setup(ctx: ViewContext, ds: DealScreen, act: Any) -> list[ft.Control]:
    title = "deal_screen.setup_heading" if ds.turn_up_variant else "rubicon.deal.setup_heading"
    out: list[ft.Control] = [heading(ctx.t(title), 22)]
    players = list(enumerate(ds.players))
    out.append(
        section(
            ctx.t("deal.dealer"),
            choice_row(
                [(str(i), n) for i, n in players],
                None if ds.setup_dealer is None else str(ds.setup_dealer),
                _seat_setter(ctx, ds.set_dealer),
                prefix="dealer",
            ),
        )
    )
    # the "pick the dealer" error shows in the slot above Start (setup_slot): nothing moves
    if ds.turn_up_variant:
        grid = _turn_up_grid(ctx, ds, act)
        card = ds.turn_up_card()
        out.append(
            section(
                ctx.t("deal.turn_up"),
                grid,
                setup_slot.slot(ctx, ds, card_face(card, width=TURN_UP_PREVIEW) if card else None),
            )
        )
    else:
        out.append(setup_slot.slot(ctx, ds, None))
    out.append(
        big_button(
            ctx.t("deal.start"),
            act(ds.start_deal),
            primary=True,
            icon=ft.Icons.PLAY_ARROW,
            identifier="start-deal",
        )
    )
    return out


TURN_UP_CARD = 36  # a face of the turn-up grid: eight ranks fit a 360 px phone


def _turn_up_grid(ctx: ViewContext, ds: DealScreen, act: Any) -> ft.Control:
    """The turn-up in one tap: every card the variant's pack can turn up, a row per suit
    (issue 21: not the rank, then the suit)."""
    chosen = ds.turn_up_card()
    rows: list[ft.Control] = []
    for suit in ds.turn_up_suits():
        faces: list[ft.Control] = []
        for rank in ds.turn_up_ranks():
            card = Card(rank, suit)
            faces.append(
                card_face(
                    card,
                    width=TURN_UP_CARD,
                    on_click=act(partial(ds.set_turn_up, card)),
                    selected=card == chosen,
                    identifier=f"turn-up-{card.code}",
                )
            )
        rows.append(ft.Row(faces, spacing=4, wrap=True, run_spacing=4))
    return tagged("turn-up-grid", ft.Column(rows, spacing=4, tight=True))


def _suit_button(
    suit: Suit, selected: bool, on_click: Any, identifier: str | None = None
) -> ft.Control:
    face = ft.Container(
        content=suit_text(suit, 34),
        width=64,
        height=56,
        alignment=ft.Alignment.CENTER,
        border_radius=14,
        bgcolor="#FFFDF7",
        border=ft.Border.all(4 if selected else 1, "#1565C0" if selected else "#9E9E9E"),
        on_click=on_click,
        ink=False,  # see ui/views/plain_buttons.py
    )
    return ft.Semantics(
        identifier=identifier or f"suit-{suit.value}",
        label=suit.value,
        button=True,
        selected=selected,
        content=face,
    )


def _trick_form(ctx: ViewContext, ds: DealScreen, act: Any) -> list[ft.Control]:
    """``cards`` tracking: each player's card (rank and suit), whether it came off their
    table, and who won; the engine checks it all."""
    out: list[ft.Control] = [heading(ctx.t("trick.title", n=ds.tricks_played() + 1), 22)]
    for seat, name in enumerate(ds.players):
        card = ds.trick_card(seat)
        ranks = ft.Row(
            [
                big_button(
                    rank_label(r, ctx.app.lang),
                    act(partial(ds.set_trick_rank, seat, r)),
                    primary=ds.trick_rank.get(seat) is r,
                    identifier=f"trick-rank-{seat}-{r.label}",
                )
                for r in RANKS
            ],
            wrap=True,
            spacing=6,
            run_spacing=6,
        )
        suits = ft.Row(
            [
                _suit_button(
                    su,
                    ds.trick_suit.get(seat) is su,
                    act(partial(ds.set_trick_suit, seat, su)),
                    identifier=f"trick-suit-{seat}-{su.value}",
                )
                for su in SUITS
            ],
            wrap=True,
            spacing=6,
        )
        extra: list[ft.Control] = []
        if ds.phase() == 1:
            extra.append(
                big_button(
                    ctx.t("trick.from_table"),
                    act(partial(ds.toggle_from_table, seat)),
                    primary=seat in ds.trick_from_table,
                    icon=ft.Icons.CHECK if seat in ds.trick_from_table else None,
                    identifier=f"trick-table-{seat}",
                )
            )
        out.append(
            _panel(
                ft.Column(
                    [
                        ft.Row(
                            [
                                heading(ctx.t("trick.card_of", player=name), 19),
                                *([card_face(card, width=44)] if card else []),
                            ],
                            spacing=12,
                        ),
                        ranks,
                        suits,
                        *extra,
                    ],
                    spacing=8,
                    tight=True,
                ),
                identifier=f"trick-player-{seat}",
            )
        )
    if "cards" in ds.trick_errors:
        out.append(banner(ctx.t(ds.trick_errors["cards"]), error=True, identifier="error-cards"))
    out.append(
        section(
            ctx.t("trick.winner"),
            choice_row(
                [(str(i), n) for i, n in enumerate(ds.players)],
                None if ds.trick_winner is None else str(ds.trick_winner),
                _seat_setter(ctx, ds.set_trick_winner),
                prefix="trick-winner",
            ),
        )
    )
    if "winner" in ds.trick_errors:
        out.append(banner(ctx.t(ds.trick_errors["winner"]), error=True, identifier="error-winner"))
    out.append(
        ft.Row(
            [
                big_button(
                    ctx.t("trick.record"),
                    act(ds.record_trick),
                    primary=True,
                    icon=ft.Icons.DONE,
                    identifier="trick-record",
                ),
                big_button(
                    ctx.t("trick.cancel"),
                    act(ds.close_trick),
                    icon=ft.Icons.CLOSE,
                    identifier="trick-cancel",
                ),
            ],
            wrap=True,
            spacing=8,
        )
    )
    return out


# ------------------------------------------------------------------------------ end / summary
def _end(ctx: ViewContext, ds: DealScreen, act: Any) -> tuple[list[ft.Control], list[ft.Control]]:
    """The end form's fields, and its buttons (pinned at the bottom by the caller)."""
    out: list[ft.Control] = [heading(ctx.t("end.title", n=ds.deal_number), 22)]
    if ds.needs_last_trick():
        out.append(
            section(
                ctx.t("end.last_trick"),
                body_text(ctx.t("end.last_trick_help", points=ds.last_trick_points()), 15),
                _last_trick_choice(ctx, ds),
                *(
                    [
                        banner(
                            ctx.t(ds.end_errors["last_trick"]),
                            error=True,
                            identifier="error-last-trick",
                        )
                    ]
                    if "last_trick" in ds.end_errors
                    else []
                ),
            )
        )
    if ds.needs_brisques():
        out.append(brisques_fields(ctx, ds))
    refusal = brisques_refusal(ctx, ds) if ds.needs_brisques() else None
    if refusal is not None:  # at the form's end, just over the buttons: they do not move
        out.append(refusal)
    # one row of 56-px buttons (the text takes two lines rather than the row wrapping)
    buttons = [
        ft.Row(
            [
                # beside the brisque fields: buttons that take the focus (plain_buttons)
                compact_button(
                    ctx.t("end.finish"),
                    act(ds.finish_deal),
                    primary=True,
                    icon=ft.Icons.DONE_ALL,
                    identifier="finish-deal",
                    expand=True,
                    keep_focus=True,
                ),
                compact_button(
                    ctx.t("picker.cancel"),
                    act(ds.cancel_end),
                    identifier="end-cancel",
                    keep_focus=True,
                ),
            ],
            spacing=8,
        )
    ]
    return out, buttons


def _last_trick_choice(ctx: ViewContext, ds: DealScreen) -> ft.Control:
    """Who took the last trick: two players' names as chips; three or four share one row
    (four chips wrapped to a second row and pushed the brisques' line under the buttons at
    360×780), the chosen one filled."""
    options = [(str(i), n) for i, n in enumerate(ds.players)]
    chosen = None if ds.end_last is None else str(ds.end_last)
    pick = _seat_setter(ctx, ds.set_last_trick)
    if len(options) <= 2:
        return choice_row(options, chosen, pick, prefix="last")
    return ft.Row(
        [
            compact_button(
                name,
                lambda _e, v=value: pick(v),
                primary=value == chosen,
                identifier=f"last-{value}",
                center=True,
                expand=True,
                keep_focus=True,  # the brisque fields' neighbour (plain_buttons)
                label=ctx.t("deal_screen.last_trick_to", player=name),
            )
            for value, name in options
        ],
        spacing=6,
    )


def _reason(ctx: ViewContext, reason: str) -> str:
    """A ledger reason in words: a combination's name, or a rule's or penalty's title."""
    lang = ctx.app.lang
    if reason[:2] in ("R-", "P-", "H-"):
        return backend.rule_title(reason, lang)
    return cap(backend.meld_name(reason, lang))


def _summary(
    ctx: ViewContext, ds: DealScreen, act: Any, *, finished: bool
) -> tuple[list[ft.Control], list[ft.Control]]:
    """The deal's summary (and the winner, why), and its buttons: pinned at the bottom by
    the caller (the winner's panel put "Score sheet" half below a 360×780 screen)."""
    app = ctx.app
    result = ds.match.result()
    sides = summary_sides(ds.match, len(ds.match.deals) - 1)
    out: list[ft.Control] = [heading(ctx.t("summary.title", n=ds.deal_number), 24)]
    for side, s in enumerate(result.sides):  # ui/views/deal_summary.py
        out += side_rows(ctx, side, s.name, s.total, sides[side], partial(_reason, ctx))
    out += game_summary(ctx, ds.match, ds.deal_number)  # Rubicon …: the game in words
    # the winner, why in words, and the next partie (ui/views/verdict.py)
    out += verdict_panel(ctx, ds.match, app.session.match_id if app.session else None)
    buttons: list[ft.Control] = []
    if not finished:
        buttons.append(
            big_button(
                ctx.t("summary.next_deal"),
                act(ds.next_deal),
                primary=True,
                icon=ft.Icons.SKIP_NEXT,
                identifier="next-deal",
            )
        )
    buttons.append(
        big_button(
            ctx.t("summary.score_sheet"),
            lambda _e: app.show_score(),
            icon=ft.Icons.TABLE_CHART,
            identifier="summary-score",
        )
    )
    # No ruling of the play here: the deal is over, and this device's last one may be a
    # notice for a phase that has ended ("the stock is exhausted: from now on no
    # declarations", when another phone recorded the end); the lines above say the end.
    return out, [ft.Row(buttons, wrap=True, spacing=8)]
