"""Free choice of the cards of a declaration: the player's table cards (tap to reuse), the
cards chosen from the hand, and what they could be declared as (``Match.options``); the
32-card grid is built once and pinned (see declare_by_name.layer)."""

from __future__ import annotations

from functools import partial
from typing import Any

import flet as ft

from referee.cards import Card
from ui import backend
from ui.i18n import Translator
from ui.state.deal import DealScreen
from ui.views.cards import card_face, inline_cards
from ui.views.common import VIEWPORT_WIDTH, ViewContext, big_button, body_text, section, tagged
from ui.views.deal_parts import Act, cached, cap, compact_button, panel


def choice(ctx: ViewContext, ds: DealScreen, act: Act) -> list[ft.Control]:
    """Everything above the grid: table cards, chosen cards, options."""
    p = ds.picker
    assert p is not None
    lang = ctx.app.lang
    table = ds.table(p.player)
    chosen: list[ft.Control] = [
        card_face(
            c,
            width=44,
            selected=True,
            on_click=act(lambda i=i: ds.remove_new(i)),
            identifier=f"chosen-{i}",
            label=ctx.t("picker.remove", card=str(c)),
        )
        for i, c in enumerate(p.new)
    ]
    reused = [table[i] for i in sorted(p.table_idx) if i < len(table)]
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
                        body_text(backend.ruling_words(o.ruling, lang), 15),
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
                        body_text(backend.ruling_words(o.ruling, lang), 15, color=ft.Colors.ERROR),
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
        panel(
            ft.Column(
                [
                    ft.Text(ctx.t("picker.options"), size=17, weight=ft.FontWeight.BOLD),
                    *opt_controls,
                ]
                if opt_controls
                else [
                    ft.Text(ctx.t("picker.options"), size=17, weight=ft.FontWeight.BOLD),
                    body_text(ctx.t("picker.chosen_none"), 15),
                ],
                spacing=8,
                tight=True,
            ),
            identifier="options",
            padding=10,
        ),
        section(
            ctx.t("picker.chosen"),
            *(
                [ft.Row(chosen, wrap=True, spacing=6, run_spacing=6)]
                if chosen
                else [] if reused else [body_text(ctx.t("picker.chosen_none"), 15)]
            ),
            *summary,
        ),
    ]


def table_cards(ctx: ViewContext, ds: DealScreen, act: Act) -> ft.Control:
    """The player's table cards to reuse (the likeliest taps), pinned over the grid: their
    place never changes while cards and options come and go above (the table does not
    change while the picker is open)."""
    p = ds.picker
    assert p is not None
    faces: list[ft.Control] = []
    seen: dict[str, int] = {}
    for i, c in enumerate(ds.table(p.player)):
        k = seen.get(c.code, 0)
        seen[c.code] = k + 1
        faces.append(
            card_face(
                c,
                width=40,
                selected=i in p.table_idx,
                on_click=act(lambda i=i: ds.toggle_table(i)),
                identifier=f"table-card-{c.code}-{k}",
                label=str(c),
            )
        )
    # Clear in this pinned line, at one place: at the end of the scrolling choice the
    # options pushed it below the fold (half of it showed at 360×780)
    clear = compact_button(
        ctx.t("picker.clear"), act(ds.clear_picker), identifier="picker-clear", height=44
    )
    return ft.Column(
        [
            ft.Row(
                [
                    ft.Text(
                        ctx.t("picker.table_cards", player=ds.players[p.player]),
                        size=16,
                        weight=ft.FontWeight.BOLD,
                        max_lines=2,
                        overflow=ft.TextOverflow.ELLIPSIS,
                        expand=True,
                    ),
                    clear,
                ],
                spacing=8,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
            ft.Row(faces, wrap=True, spacing=5, run_spacing=5)
            if faces
            else body_text(ctx.t("picker.table_none"), 15),
        ],
        spacing=4,
        tight=True,
    )


def hand_grid(ds: DealScreen, act: Act, width: float | None) -> ft.Control:
    """The faces to add new cards from the hand, a suit per row, eight to a row even on a
    phone (built once per width and reused: it never changes)."""
    return cached(ds, ("grid", width, ds.lang), partial(_grid, ds, act, width))


def _grid(ds: DealScreen, act: Act, width: float | None) -> ft.Control:
    return ft.Column(
        [
            ft.Row(
                [_pick_face(c, act(partial(ds.add_new, c)), ds, width) for c in row],
                wrap=True,
                spacing=5,
                run_spacing=5,
            )
            for row in ds.pick_rows()
        ],
        spacing=5,
        tight=True,
    )


def grid_width() -> float | None:
    """The width the pinned grid gets: the phone's, or the side column of a wide screen."""
    width = VIEWPORT_WIDTH.get()
    if width is None:
        return None
    return width if width < 600 else min(480.0, width / 2)


def _pick_face(card: Card, on_click: Any, ds: DealScreen, width: float | None) -> ft.Control:
    per_row = max(8, max((len(r) for r in ds.pick_rows()), default=8))
    size = (
        46.0
        if width is None
        else max(30.0, min(50.0, (width - 24 - (per_row - 1) * 5) / per_row - 1))
    )
    label = str(card)
    if card.is_joker:  # "★" alone says little to a screen reader
        label = f"{Translator(ds.lang)('picker.joker')} {card}"
    return card_face(
        card, width=size, on_click=on_click, identifier=f"pick-{card.code}", label=label
    )
