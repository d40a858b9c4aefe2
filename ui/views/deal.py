"""The deal screen: setup, play (per-player actions), the card picker, penalties, the end of
the deal and its summary. Thin: reads ui.state.deal.DealScreen and forwards taps to it."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import flet as ft

from referee.cards import Card, Suit
from ui import backend
from ui.i18n import Translator
from ui.state.deal import RANKS, SUITS, DealScreen, RulingView
from ui.views.cards import card_face, inline_cards, suit_badge, suit_text
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
from ui.views.save_status import save_status


def cap(text: str) -> str:
    """Sentence case for names used at the start of a label (``marriage`` → ``Marriage``)."""
    return text[:1].upper() + text[1:]


def _seat_setter(ctx: ViewContext, fn: Callable[[int], None]) -> Callable[[str], None]:
    """A choice-row handler: the picked value is a seat number."""

    def pick(value: str) -> None:
        fn(int(value))
        ctx.app.changed()

    return pick


def _panel(
    content: ft.Control, *, identifier: str | None = None, tint: str | None = None
) -> ft.Control:
    box = ft.Container(
        content=content,
        padding=14,
        border_radius=16,
        bgcolor=tint or ft.Colors.SURFACE_CONTAINER,
    )
    return tagged(identifier, box) if identifier else box


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
    actions: list[ft.Control] = [
        tagged(
            "undo",
            ft.IconButton(
                ft.Icons.UNDO,
                on_click=act(ds.undo),
                disabled=not ds.can_undo(),
                tooltip=ctx.t("nav.undo"),
                icon_size=30,
            ),
        ),
        tagged(
            "redo",
            ft.IconButton(
                ft.Icons.REDO,
                on_click=act(ds.redo),
                disabled=not ds.can_redo(),
                tooltip=ctx.t("nav.redo"),
                icon_size=30,
            ),
        ),
        tagged(
            "to-score",
            ft.IconButton(
                ft.Icons.TABLE_CHART,
                on_click=lambda _e: app.show_score(),
                tooltip=ctx.t("nav.score"),
                icon_size=28,
            ),
        ),
        tagged(
            "to-rules",
            ft.IconButton(
                ft.Icons.MENU_BOOK,
                on_click=lambda _e: app.go("rules"),
                tooltip=ctx.t("nav.rules"),
                icon_size=28,
            ),
        ),
    ]
    title = ctx.t("deal.title", n=ds.deal_number)
    if mode == "setup":
        title = ctx.t("deal.setup_title", n=ds.deal_number)
    bar = app_bar(ctx, title, actions=actions, settings=not narrow())
    bar.leading = tagged(
        "nav-home",
        ft.IconButton(
            ft.Icons.HOME, on_click=lambda _e: app.home(), tooltip=ctx.t("nav.home"), icon_size=28
        ),
    )

    controls: list[ft.Control] = save_status(ctx, ds.session)  # unsaved entries (storage away)
    if ds.notice is not None:
        controls.append(banner(ctx.t(ds.notice.key, **ds.notice.args), error=ds.notice.error))
    if mode == "setup":
        controls += _setup(ctx, ds, act)
    elif mode in ("summary", "finished"):
        controls += _summary(ctx, ds, act, finished=mode == "finished")
    elif mode == "end":
        controls += _header(ctx, ds)
        controls += _end(ctx, ds, act)
    else:
        return View(_play(ctx, ds, act, controls), bar)
    return View(scroll_body(controls), bar)


def _play(ctx: ViewContext, ds: DealScreen, act: Any, top: list[ft.Control]) -> ft.Control:
    """The play screen as layers: the table stays mounted underneath while the card picker
    covers it and while a ruling or the penalty choice sits at the bottom, so a tap changes
    a few controls instead of rebuilding the screen (and the ruling's buttons are in thumb
    reach)."""
    base = [*top, *_header(ctx, ds), *_players(ctx, ds, act), *_deal_actions(ctx, ds, act)]
    sheet: ft.Control | None = None
    if ds.penalty_for is not None:
        sheet = _penalty_panel(ctx, ds, act)
    elif ds.ruling is not None:
        sheet = _ruling(ctx, ds, ds.ruling, act)
    if sheet is not None:
        base.append(ft.Container(height=320))  # room to scroll everything above the sheet
    layers: list[ft.Control] = [ft.Container(content=scroll_body(base), expand=True, key="table")]
    if sheet is not None:
        wide = not narrow()
        layers.append(
            ft.Container(
                content=ft.Row(
                    [
                        ft.Container(
                            content=sheet,
                            width=860 if wide else None,
                            expand=not wide,
                            border_radius=16,
                            shadow=ft.BoxShadow(
                                blur_radius=16, spread_radius=-4, color="#55000000"
                            ),
                        )
                    ],
                    alignment=ft.MainAxisAlignment.CENTER,
                ),
                left=12,
                right=12,
                bottom=12,
                key="sheet",
            )
        )
    if ds.trick_open:
        layers.append(
            ft.Container(
                content=scroll_body([*_header(ctx, ds, compact=True), *_trick_form(ctx, ds, act)]),
                bgcolor=ft.Colors.SURFACE,
                left=0,
                top=0,
                right=0,
                bottom=0,
                key="trick",
            )
        )
    if ds.picker is not None:
        layers.append(
            ft.Container(
                content=scroll_body([*_header(ctx, ds, compact=True), *_picker(ctx, ds, act)]),
                bgcolor=ft.Colors.SURFACE,
                left=0,
                top=0,
                right=0,
                bottom=0,
                key="picker",
            )
        )
    return ft.Stack(layers, expand=True)


# ------------------------------------------------------------------------------ setup
def _setup(ctx: ViewContext, ds: DealScreen, act: Any) -> list[ft.Control]:
    out: list[ft.Control] = []
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
            *(
                [banner(ctx.t(ds.setup_errors["dealer"]), error=True, identifier="error-dealer")]
                if "dealer" in ds.setup_errors
                else []
            ),
        )
    )
    if ds.turn_up_variant:
        rank_row = ft.Row(
            [
                big_button(
                    r.label,
                    act(lambda r=r: ds.set_turn_up_rank(r)),
                    primary=ds.setup_rank is r,
                    identifier=f"rank-{r.label}",
                )
                for r in ds.turn_up_ranks()
            ],
            wrap=True,
            spacing=8,
            run_spacing=8,
        )
        suit_row = ft.Row(
            [
                _suit_button(s, ds.setup_suit is s, act(lambda s=s: ds.set_turn_up_suit(s)))
                for s in ds.turn_up_suits()
            ],
            wrap=True,
            spacing=8,
        )
        card = ds.turn_up_card()
        preview: list[ft.Control] = [card_face(card, width=72)] if card else []
        out.append(
            section(
                ctx.t("deal.turn_up"),
                body_text(ctx.t("deal.rank"), 15),
                rank_row,
                body_text(ctx.t("deal.suit"), 15),
                suit_row,
                *preview,
                *(
                    [
                        banner(
                            ctx.t(ds.setup_errors["turn_up"]),
                            error=True,
                            identifier="error-turn-up",
                        )
                    ]
                    if "turn_up" in ds.setup_errors
                    else []
                ),
            )
        )
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
        ink=True,
    )
    return ft.Semantics(
        identifier=identifier or f"suit-{suit.value}",
        label=suit.value,
        button=True,
        selected=selected,
        content=face,
    )


# ------------------------------------------------------------------------------ header
def _header(ctx: ViewContext, ds: DealScreen, *, compact: bool = False) -> list[ft.Control]:
    tag = "picker-" if compact else ""  # the picker's copy must not answer to the same ids
    deal = ds.deal
    trumps = ds.trumps()
    left: list[ft.Control] = []
    if trumps is not None:
        left.append(
            ft.Column(
                [body_text(ctx.t("deal.trumps"), 15), suit_badge(trumps, 26 if compact else 44)],
                spacing=0,
                horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                tight=True,
            )
        )
        if deal.turn_up is not None and not compact:
            left.append(card_face(deal.turn_up, width=54))
    else:
        left.append(body_text(ctx.t("deal.no_trumps_yet"), 16))
    phase = ctx.t("deal.phase2") if ds.phase() == 2 else ctx.t("deal.phase1")
    info: list[ft.Control] = [
        tagged(f"{tag}phase", ft.Text(phase, size=18, weight=ft.FontWeight.BOLD))
    ]
    stock = ds.stock_left()
    if stock is not None:
        info.append(tagged(f"{tag}stock", body_text(ctx.t("deal.stock_left", n=stock), 16)))
        info.append(body_text(ctx.t("deal.tricks_played", n=ds.tricks_played()), 15))
    seven = ds.dealer_seven()
    if seven is not None and not compact:
        info.append(
            body_text(ctx.t("deal.seven_turned", player=ds.players[seven[0]], points=seven[1]), 15)
        )
    scores = ds.deal_scores()
    totals = ds.totals()
    score_cells: list[ft.Control] = []
    for side, name in enumerate(ds.side_names):
        score_cells.append(
            ft.Container(
                content=ft.Column(
                    [
                        ft.Text(
                            name,
                            size=16,
                            weight=ft.FontWeight.W_600,
                            no_wrap=True,
                            overflow=ft.TextOverflow.ELLIPSIS,
                        ),
                        tagged(
                            f"{tag}deal-score-{side}",
                            ft.Text(
                                str(scores[side]),
                                size=34 if not compact else 24,
                                weight=ft.FontWeight.BOLD,
                            ),
                        ),
                        tagged(
                            f"{tag}total-{side}",
                            body_text(f"{ctx.t('deal.match_points')}: {totals[side]}", 14),
                        ),
                    ],
                    spacing=0,
                    tight=True,
                    horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                ),
                padding=ft.Padding.symmetric(horizontal=10, vertical=4),
                border_radius=12,
                bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
            )
        )
    return [
        _panel(
            ft.Row(
                [
                    ft.Row(left, spacing=12, tight=True),
                    ft.Column(info, spacing=2, tight=True),
                    ft.Row(score_cells, spacing=8, wrap=True, tight=True),
                ],
                wrap=True,
                spacing=18,
                run_spacing=10,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
            identifier=f"{tag}deal-header",
        )
    ]


# ------------------------------------------------------------------------------ ruling
def _ruling(ctx: ViewContext, ds: DealScreen, r: RulingView, act: Any) -> ft.Control:
    head = ctx.t("ruling.accepted") if r.accepted else ctx.t("ruling.rejected")
    rows: list[ft.Control] = [
        ft.Row(
            [
                ft.Icon(
                    ft.Icons.CHECK_CIRCLE if r.accepted else ft.Icons.GAVEL,
                    size=28,
                    color=ft.Colors.PRIMARY if r.accepted else ft.Colors.ERROR,
                ),
                tagged("ruling-verdict", ft.Text(head, size=20, weight=ft.FontWeight.BOLD)),
                ft.Text(f"{ctx.t('ruling.rule', rule=r.rule)} · {r.rule_title}", size=16),
            ],
            wrap=True,
            spacing=8,
        ),
        tagged("ruling-text", ft.Text(r.text, size=18)),
    ]
    if r.why and not r.accepted:
        rows.append(
            tagged("ruling-why", ft.Text(ctx.t("ruling.why", text=r.why), size=16, italic=True))
        )
    buttons: list[ft.Control] = []
    if not r.accepted and r.proposes and r.player is not None:
        buttons.append(
            big_button(
                ctx.t(
                    "ruling.apply_penalty",
                    penalty=backend.rule_title(r.proposes, ctx.app.lang),
                    player=ds.players[r.player],
                ),
                act(ds.accept_proposed),
                danger=True,
                icon=ft.Icons.REPORT,
                identifier="apply-proposed",
            )
        )
    buttons.append(
        big_button(ctx.t("ruling.dismiss"), act(ds.dismiss_ruling), identifier="dismiss-ruling")
    )
    rows.append(ft.Row(buttons, wrap=True, spacing=8, run_spacing=8))
    return _panel(
        ft.Column(rows, spacing=8, tight=True),
        identifier="ruling",
        tint=ft.Colors.SECONDARY_CONTAINER if r.accepted else ft.Colors.ERROR_CONTAINER,
    )


# ------------------------------------------------------------------------------ players
def _cached(ds: DealScreen, key: tuple[Any, ...], build: Callable[[], ft.Control]) -> ft.Control:
    """Reuse the very control object built for the same content: Flet's diff skips an
    identical object, so an unchanged player panel or card grid costs nothing per tap."""
    cache = ds.view_cache
    control: ft.Control | None = cache.get(key)
    if control is None:
        if len(cache) > 256:
            cache.clear()
        control = cache[key] = build()
    return control


def _players(ctx: ViewContext, ds: DealScreen, act: Any) -> list[ft.Control]:
    tracks_tricks = ds.tracking == "tricks"
    phase2 = ds.phase() == 2
    has_trumps = ds.trumps() is not None
    out: list[ft.Control] = []
    for seat, name in enumerate(ds.players):
        table = ds.table(seat)
        pending = ds.pending(seat)
        key = (
            "player",
            seat,
            name,
            ctx.app.lang,
            tracks_tricks,
            phase2,
            has_trumps,
            tuple(c.code for c in table),
            tuple((p.meld, p.points, p.ready, tuple(c.code for c in p.cards)) for p in pending),
            ds.sits_out(seat),
        )
        out.append(
            _cached(
                ds,
                key,
                partial(
                    _player_panel,
                    ctx,
                    ds,
                    act,
                    seat,
                    name,
                    table,
                    pending,
                    tracks_tricks,
                    phase2,
                    has_trumps,
                ),
            )
        )
    return out


def _player_panel(
    ctx: ViewContext,
    ds: DealScreen,
    act: Any,
    seat: int,
    name: str,
    table: list[Card],
    pending: list[Any],
    tracks_tricks: bool,
    phase2: bool,
    has_trumps: bool,
) -> ft.Control:
    """One player's panel: name, cards on the table, pending combinations, actions."""
    faces: list[ft.Control] = [card_face(c, width=44) for c in table]
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
    buttons: list[ft.Control] = []
    sitting_out = ds.sits_out(seat)  # the engine's J-FOUR: no buttons for this deal
    if tracks_tricks and not sitting_out:
        buttons.append(
            big_button(
                ctx.t("deal.won_trick"),
                act(lambda s=seat: ds.trick(s)),
                primary=True,
                icon=ft.Icons.BACK_HAND,
                identifier=f"trick-{seat}",
            )
        )
    if not phase2 and not sitting_out:
        buttons.append(
            big_button(
                ctx.t("deal.declare"),
                act(lambda s=seat: ds.open_picker(s)),
                primary=not tracks_tricks,
                icon=ft.Icons.STYLE,
                identifier=f"declare-{seat}",
            )
        )
        if has_trumps and ds.has_sevens():
            buttons.append(
                big_button(
                    ctx.t("deal.seven"),
                    act(lambda s=seat: ds.seven(s)),
                    identifier=f"seven-{seat}",
                )
            )
    if not sitting_out:
        buttons.append(
            big_button(
                ctx.t("deal.penalty"),
                act(lambda s=seat: ds.open_penalty(s)),
                icon=ft.Icons.REPORT,
                identifier=f"penalty-{seat}",
            )
        )
    else:
        buttons.append(
            tagged(
                f"sits-out-{seat}",
                body_text(ctx.t("deal.sits_out"), 16, color=ft.Colors.ON_SURFACE_VARIANT),
            )
        )
    return _panel(
        ft.Column(
            [
                ft.Row(
                    [
                        heading(name, 21),
                        body_text(ctx.t("deal.table"), 15, color=ft.Colors.ON_SURFACE_VARIANT),
                    ],
                    spacing=12,
                    wrap=True,
                ),
                tagged(
                    f"table-{seat}",
                    ft.Row(faces, wrap=True, spacing=6, run_spacing=6)
                    if faces
                    else body_text(
                        ctx.t("deal.table_empty"), 15, color=ft.Colors.ON_SURFACE_VARIANT
                    ),
                ),
                *pend,
                ft.Row(buttons, wrap=True, spacing=8, run_spacing=8),
            ],
            spacing=10,
            tight=True,
        ),
        identifier=f"player-{seat}",
    )


def _deal_actions(ctx: ViewContext, ds: DealScreen, act: Any) -> list[ft.Control]:
    buttons: list[ft.Control] = []
    if ds.tracking == "melds" and ds.phase() == 1:
        buttons.append(
            big_button(
                ctx.t("deal.stock_exhausted"),
                act(ds.stock_exhausted),
                icon=ft.Icons.LAYERS_CLEAR,
                identifier="stock-exhausted",
            )
        )
    if ds.tracking == "cards":
        buttons.insert(
            0,
            big_button(
                ctx.t("deal.record_trick", n=ds.tricks_played() + 1),
                act(ds.open_trick),
                primary=True,
                icon=ft.Icons.BACK_HAND,
                identifier="record-trick",
            ),
        )
    elif ds.needs_end_form():  # else the deal ends by itself (its last trick or lead)
        buttons.append(
            big_button(
                ctx.t("deal.end"),
                act(ds.open_end),
                primary=True,
                icon=ft.Icons.FLAG,
                identifier="end-deal",
            )
        )
    last = ds.last_entry()
    out: list[ft.Control] = [ft.Row(buttons, wrap=True, spacing=8, run_spacing=8)]
    if last is not None and ds.ruling is None:
        _, ruling = last
        out.append(
            tagged(
                "last-entry",
                body_text(
                    f"{ctx.t('deal.last_event')}: {backend.ruling_text(ruling, ctx.app.lang)}",
                    15,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                ),
            )
        )
    return out


# ------------------------------------------------------------------------------ penalty
def _penalty_panel(ctx: ViewContext, ds: DealScreen, act: Any) -> ft.Control:
    seat = ds.penalty_for
    assert seat is not None
    lang = ctx.app.lang
    buttons: list[ft.Control] = []
    for pid, amount in ds.penalties():
        pts = ctx.t("penalty.all_points") if amount == "all" else str(amount)
        buttons.append(
            big_button(
                f"{backend.rule_title(pid, lang)} · {pts}",
                act(lambda pid=pid: ds.penalty(seat, pid)),
                danger=True,
                identifier=f"offence-{pid}",
            )
        )
    buttons.append(
        big_button(ctx.t("penalty.cancel"), act(ds.close_penalty), identifier="penalty-cancel")
    )
    return _panel(
        ft.Column(
            [
                heading(ctx.t("penalty.title", player=ds.players[seat]), 20),
                body_text(ctx.t("penalty.choose")),
                ft.Column(buttons, spacing=8, tight=True),
            ],
            spacing=10,
            tight=True,
        ),
        identifier="penalty-panel",
        tint=ft.Colors.ERROR_CONTAINER,
    )


# ------------------------------------------------------------------------------ picker
def _picker(ctx: ViewContext, ds: DealScreen, act: Any) -> list[ft.Control]:
    p = ds.picker
    assert p is not None
    name = ds.players[p.player]
    lang = ctx.app.lang
    table = ds.table(p.player)
    table_faces: list[ft.Control] = []
    seen: dict[str, int] = {}
    for i, c in enumerate(table):
        k = seen.get(c.code, 0)
        seen[c.code] = k + 1
        table_faces.append(
            card_face(
                c,
                width=52,
                selected=i in p.table_idx,
                on_click=act(lambda i=i: ds.toggle_table(i)),
                identifier=f"table-card-{c.code}-{k}",
                label=str(c),
            )
        )
    chosen: list[ft.Control] = [
        card_face(
            c,
            width=52,
            selected=True,
            on_click=act(lambda i=i: ds.remove_new(i)),
            identifier=f"chosen-{i}",
            label=ctx.t("picker.remove", card=str(c)),
        )
        for i, c in enumerate(p.new)
    ]
    reused = [table[i] for i in sorted(p.table_idx) if i < len(table)]
    grid = _cached(ds, ("grid", VIEWPORT_WIDTH.get(), ds.lang), partial(_hand_grid, ds, act))
    options = ds.options()
    opt_controls: list[ft.Control] = []
    for o in options:
        meld = backend.meld_name(o.meld, lang)
        if o.accepted:
            opt_controls.append(
                big_button(
                    ctx.t("picker.declare_as", meld=meld, points=o.points),
                    act(lambda m=o.meld: ds.declare(m)),
                    primary=True,
                    icon=ft.Icons.CHECK,
                    identifier=f"option-{o.meld}",
                )
            )
            if any(c.is_joker for c in [*p.new, *reused]):  # the ruling names the joker's card
                opt_controls.append(
                    tagged(
                        f"option-ruling-{o.meld}",
                        body_text(backend.ruling_text(o.ruling, lang), 15),
                    )
                )
        else:
            opt_controls.append(
                ft.Column(
                    [
                        big_button(
                            ctx.t("picker.option_blocked", meld=cap(meld)),
                            act(lambda m=o.meld: ds.declare(m)),
                            icon=ft.Icons.BLOCK,
                            identifier=f"option-{o.meld}",
                        ),
                        body_text(backend.ruling_text(o.ruling, lang), 15, color=ft.Colors.ERROR),
                    ],
                    spacing=4,
                    tight=True,
                )
            )
    if (p.new or p.table_idx) and not options:
        opt_controls.append(tagged("options-none", body_text(ctx.t("picker.options_none"), 16)))
        opt_controls.append(
            big_button(
                ctx.t("deal.declare"),
                act(lambda: ds.declare(None)),
                icon=ft.Icons.GAVEL,
                identifier="declare-anyway",
            )
        )
    summary: list[ft.Control] = []
    if reused:
        summary.append(
            ft.Row(
                [body_text(ctx.t("picker.reused"), 15), inline_cards(reused, 18)],
                spacing=8,
                wrap=True,
            )
        )
    return [
        heading(ctx.t("picker.title", player=name), 22),
        section(
            ctx.t("picker.table_cards", player=name),
            ft.Row(table_faces, wrap=True, spacing=6, run_spacing=6)
            if table_faces
            else body_text(ctx.t("picker.table_none"), 15),
        ),
        section(
            ctx.t("picker.chosen"),
            ft.Row(chosen, wrap=True, spacing=6, run_spacing=6)
            if chosen
            else body_text(ctx.t("picker.chosen_none"), 15),
            *summary,
        ),
        _panel(
            ft.Column(
                [heading(ctx.t("picker.options"), 19), *opt_controls]
                if opt_controls
                else [
                    heading(ctx.t("picker.options"), 19),
                    body_text(ctx.t("picker.chosen_none"), 15),
                ],
                spacing=8,
                tight=True,
            ),
            identifier="options",
        ),
        section(ctx.t("picker.hand"), grid),
        ft.Row(
            [
                big_button(ctx.t("picker.clear"), act(ds.clear_picker), identifier="picker-clear"),
                big_button(
                    ctx.t("picker.cancel"),
                    act(ds.close_picker),
                    icon=ft.Icons.CLOSE,
                    identifier="picker-cancel",
                ),
            ],
            wrap=True,
            spacing=8,
        ),
    ]


def _hand_grid(ds: DealScreen, act: Any) -> ft.Control:
    """The 32 faces to add new cards from the hand, a suit per row (built once per screen
    width and reused: it never changes)."""
    return ft.Column(
        [
            ft.Row(
                [_pick_face(c, act(partial(ds.add_new, c)), ds) for c in row],
                wrap=True,
                spacing=6,
                run_spacing=6,
            )
            for row in ds.pick_rows()
        ],
        spacing=6,
        tight=True,
    )


def _pick_face(card: Card, on_click: Any, ds: DealScreen | None = None) -> ft.Control:
    """A card of the hand grid: eight to a row even on a phone."""
    width = VIEWPORT_WIDTH.get()
    size = 48 if width is None else max(34.0, min(48.0, (width - 32 - 7 * 6) / 8 - 1))
    label = str(card)
    if card.is_joker and ds is not None:  # "★" alone says little to a screen reader
        label = f"{Translator(ds.lang)('picker.joker')} {card}"
    return card_face(
        card, width=size, on_click=on_click, identifier=f"pick-{card.code}", label=label
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
                    r.label,
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
def _end(ctx: ViewContext, ds: DealScreen, act: Any) -> list[ft.Control]:
    out: list[ft.Control] = [heading(ctx.t("end.title", n=ds.deal_number), 22)]
    if ds.needs_last_trick():
        out.append(
            section(
                ctx.t("end.last_trick"),
                body_text(ctx.t("end.last_trick_help", points=ds.last_trick_points()), 15),
                choice_row(
                    [(str(i), n) for i, n in enumerate(ds.players)],
                    None if ds.end_last is None else str(ds.end_last),
                    _seat_setter(ctx, ds.set_last_trick),
                    prefix="last",
                ),
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
        rows: list[ft.Control] = []
        for seat, name in enumerate(ds.players):
            n = ds.end_counts[seat] if seat < len(ds.end_counts) else 0
            rows.append(
                ft.Row(
                    [
                        ft.Text(
                            name,
                            size=18,
                            width=160,
                            no_wrap=True,
                            overflow=ft.TextOverflow.ELLIPSIS,
                        ),
                        tagged(
                            f"brisque-minus-{seat}",
                            ft.IconButton(
                                ft.Icons.REMOVE_CIRCLE_OUTLINE,
                                icon_size=40,
                                on_click=act(lambda s=seat: ds.step_brisques(s, -1)),
                                tooltip=ctx.t("end.minus", player=name),
                            ),
                        ),
                        tagged(
                            f"brisque-count-{seat}",
                            ft.Text(
                                str(n),
                                size=30,
                                width=56,
                                text_align=ft.TextAlign.CENTER,
                                weight=ft.FontWeight.BOLD,
                            ),
                        ),
                        tagged(
                            f"brisque-plus-{seat}",
                            ft.IconButton(
                                ft.Icons.ADD_CIRCLE_OUTLINE,
                                icon_size=40,
                                on_click=act(lambda s=seat: ds.step_brisques(s, 1)),
                                tooltip=ctx.t("end.plus", player=name),
                            ),
                        ),
                    ],
                    spacing=6,
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                )
            )
        total, want = ds.brisques_sum(), ds.brisques_expected()
        ok = total == want
        rows.append(
            tagged(
                "brisque-total",
                ft.Text(
                    f"{ctx.t('end.brisques_total', sum=total, expected=want)} · "
                    + (
                        ctx.t("end.brisques_ok")
                        if ok
                        else ctx.t("end.brisques_mismatch", expected=want, sum=total)
                    ),
                    size=17,
                    color=ft.Colors.PRIMARY if ok else ft.Colors.ERROR,
                ),
            )
        )
        if "brisques" in ds.end_errors:
            rows.append(
                banner(
                    ctx.t("end.brisques_mismatch", expected=want, sum=total),
                    error=True,
                    identifier="error-brisques",
                )
            )
        out.append(section(ctx.t("end.brisques"), *rows))
    out.append(
        ft.Row(
            [
                big_button(
                    ctx.t("end.finish"),
                    act(ds.finish_deal),
                    primary=True,
                    icon=ft.Icons.DONE_ALL,
                    identifier="finish-deal",
                ),
                big_button(ctx.t("picker.cancel"), act(ds.cancel_end), identifier="end-cancel"),
            ],
            wrap=True,
            spacing=8,
        )
    )
    return out


def _reason(ctx: ViewContext, reason: str) -> str:
    """A ledger reason in words: a combination's name, or a rule's or penalty's title."""
    lang = ctx.app.lang
    if reason[:2] in ("R-", "P-", "H-"):
        return backend.rule_title(reason, lang)
    return cap(backend.meld_name(reason, lang))


def _summary(ctx: ViewContext, ds: DealScreen, act: Any, *, finished: bool) -> list[ft.Control]:
    app = ctx.app
    result = ds.match.result()
    scores = ds.deal_scores()
    out: list[ft.Control] = [heading(ctx.t("summary.title", n=ds.deal_number), 24)]
    for side, s in enumerate(result.sides):
        out.append(
            tagged(
                f"summary-{side}",
                ft.Text(
                    ctx.t("summary.row", name=s.name, points=scores[side], total=s.total), size=20
                ),
            )
        )
        parts = [f"{_reason(ctx, reason)} {points:+d}" for reason, points in ds.breakdown(side)]
        if parts:
            out.append(
                tagged(
                    f"summary-parts-{side}",
                    body_text(" · ".join(parts), 15, color=ft.Colors.ON_SURFACE_VARIANT),
                )
            )
    if result.finished and result.winner:
        out.append(
            _panel(
                ft.Column(
                    [
                        ft.Text(
                            ctx.t("summary.winner", name=result.winner),
                            size=26,
                            weight=ft.FontWeight.BOLD,
                        ),
                        *(
                            [
                                body_text(
                                    ctx.t(
                                        "score.tie_rule",
                                        rule=result.decided_by,
                                        title=backend.rule_title(result.decided_by, app.lang),
                                    )
                                )
                            ]
                            if result.decided_by
                            else []
                        ),
                    ],
                    tight=True,
                ),
                identifier="winner",
                tint=ft.Colors.PRIMARY_CONTAINER,
            )
        )
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
    out.append(ft.Row(buttons, wrap=True, spacing=8))
    if ds.ruling is not None:
        out.append(
            tagged("last-entry", body_text(ds.ruling.text, 15, color=ft.Colors.ON_SURFACE_VARIANT))
        )
    return out
