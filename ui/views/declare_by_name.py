"""The declare layer: name the combination and confirm the cards the engine proposes, or
pick the cards freely. What the finger taps never moves: the confirm button sits at the top
of the choice, the names (or the 32-card grid) are pinned at the bottom on a phone and beside
the choice on a tablet or laptop; a long list of names scrolls in a share of the screen of its
own under the proposal (ui/views/declare_split.py)."""

from __future__ import annotations

import flet as ft

from ui import backend
from ui.state.deal import DealScreen
from ui.views import card_picker, declare_split, plain_buttons
from ui.views.cards import card_face
from ui.views.common import ViewContext, body_text, narrow, tagged
from ui.views.deal_parts import Act, cached, cap, compact_button, panel


def layer(ctx: ViewContext, ds: DealScreen, act: Act) -> ft.Control:
    p = ds.picker
    assert p is not None
    name = ds.players[p.player]
    names = ds.names_offered()
    by_name = p.tab == "name" and bool(names)
    lang = ctx.app.lang
    # The pieces that stay as they were are the very same controls (Flet's diff skips them).
    title = cached(ds, ("declare-title", lang, name), lambda: _title(ctx, ds, act, name))
    top: list[ft.Control] = [title]
    if names:
        top.append(
            cached(ds, ("declare-tabs", lang, by_name), lambda: _tabs(ctx, ds, act, by_name))
        )
    if by_name:
        choice_controls = _proposal(ctx, ds, act)
        chosen = p.named.meld if p.named is not None else None
        pinned = (
            _names(ctx, ds, names, act)  # a keyed scrolling list, its rows cached within
            if declare_split.many(len(names))
            else cached(
                ds, ("declare-names", lang, names, chosen), lambda: _names(ctx, ds, names, act)
            )
        )
    else:
        choice_controls = card_picker.choice(ctx, ds, act)
        pinned = ft.Column(  # the table's cards pinned with the grid: never pushed away
            [
                card_picker.table_cards(ctx, ds, act),
                card_picker.hand_grid(ds, act, card_picker.grid_width()),
            ],
            spacing=8,
            tight=True,
        )
    return _body(top, choice_controls, pinned, many=by_name and declare_split.many(len(names)))


def _title(ctx: ViewContext, ds: DealScreen, act: Act, name: str) -> ft.Control:
    return ft.Row(
        [
            ft.Text(
                ctx.t("picker.title", player=name),
                size=21,
                weight=ft.FontWeight.BOLD,
                no_wrap=True,
                overflow=ft.TextOverflow.ELLIPSIS,
                expand=True,
            ),
            plain_buttons.close_button(
                "picker-cancel", act(ds.close_picker), ctx.t("picker.cancel")
            ),
        ],
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def _tabs(ctx: ViewContext, ds: DealScreen, act: Act, by_name: bool) -> ft.Control:
    return ft.Row(
        [
            compact_button(
                ctx.t("declare.by_name"),
                act(lambda: ds.set_picker_tab("name")),
                primary=by_name,
                identifier="tab-name",
                expand=True,
                icon=ft.Icons.LIST,
            ),
            compact_button(
                ctx.t("declare.by_cards"),
                act(lambda: ds.set_picker_tab("cards")),
                primary=not by_name,
                identifier="tab-cards",
                expand=True,
                icon=ft.Icons.GRID_VIEW,
            ),
        ],
        spacing=8,
    )


def _body(
    top: list[ft.Control], choice_controls: list[ft.Control], pinned: ft.Control, *, many: bool
) -> ft.Control:
    choice = ft.Column(
        choice_controls,
        spacing=10,
        scroll=ft.ScrollMode.AUTO,
        expand=declare_split.CHOICE_SHARE if many else True,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )
    pinned_box = tagged(
        "declare-pinned", ft.Container(content=pinned, padding=ft.Padding.only(top=6))
    )
    if narrow() or card_picker.grid_width() is None:
        if many:  # a share of the screen of its own: tapping a name moves no name
            pinned_box = declare_split.names_share(pinned_box)
        body: ft.Control = ft.Column([*top, choice, pinned_box], spacing=8, expand=True)
    else:
        body = ft.Row(
            [
                ft.Column([*top, choice], spacing=8, expand=True),
                ft.Container(content=pinned_box, width=card_picker.grid_width()),
            ],
            spacing=16,
            expand=True,
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
    return ft.Container(
        content=body, padding=ft.Padding.symmetric(horizontal=12, vertical=8), expand=True
    )


def _names(ctx: ViewContext, ds: DealScreen, names: tuple[str, ...], act: Act) -> ft.Control:
    """The combinations to name, two to a row, always in the variant's order; a long list
    (six- and eight-pack, three-hand) in denser rows that scroll in their own share of the
    screen (ui/views/declare_split.py), the proposal staying in sight above them."""
    p = ds.picker
    chosen = p.named.meld if p is not None and p.named is not None else None
    lang = ctx.app.lang
    if declare_split.many(len(names)):
        wide = not (narrow() or card_picker.grid_width() is None)
        rows = cached(
            ds,
            ("declare-name-rows", lang, names, chosen),
            lambda: _name_rows(ctx, ds, names, act, chosen, dense=True),
        )
        return declare_split.names_list(rows, wide=wide)
    return _name_rows(ctx, ds, names, act, chosen, dense=False)


def _name_rows(
    ctx: ViewContext,
    ds: DealScreen,
    names: tuple[str, ...],
    act: Act,
    chosen: str | None,
    *,
    dense: bool,
) -> ft.Control:
    lang = ctx.app.lang
    buttons = [
        compact_button(
            cap(backend.meld_name(m, lang)),
            act(lambda m=m: ds.choose_meld(m)),
            primary=m == chosen,
            identifier=f"name-{m}",
            expand=True,
            height=declare_split.NAME_HEIGHT if dense else None,
            # two lines of 16 px need 44 of a dense 48-px button's 38: "Double trump
            # marriage" lost its descenders at 360 px; a dense list's names are 15 px with
            # 1 px above and below (two lines of 15 px take 41)
            size=declare_split.NAME_SIZE if dense else 16,
            padding_v=1 if dense else 4,
        )
        for m in names
    ]
    rows: list[ft.Control] = [
        ft.Row(buttons[i : i + 2], spacing=declare_split.ROW_SPACING)
        for i in range(0, len(buttons), 2)
    ]
    return ft.Column(rows, spacing=declare_split.ROW_SPACING, tight=True)


def _proposal(ctx: ViewContext, ds: DealScreen, act: Act) -> list[ft.Control]:
    """The confirm button first (a fixed place), then the proposed cards, each one tap to
    change, and the engine's ruling on them."""
    p = ds.picker
    assert p is not None and p.named is not None
    prop = p.named.proposal
    lang = ctx.app.lang
    if prop is None:
        return [
            compact_button(
                ctx.t("declare.confirm_none"), None, identifier="declare-confirm", expand=True
            ),
            panel(body_text(ctx.t("declare.hint"), 16), identifier="declare-hint"),
        ]
    meld = backend.meld_name(prop.meld, lang)
    points = int(prop.ruling.points or 0)
    if prop.accepted:
        confirm = compact_button(
            ctx.t("declare.confirm", meld=meld, points=points),
            act(ds.declare_named),
            primary=True,
            icon=ft.Icons.CHECK,
            identifier="declare-confirm",
            expand=True,
        )
    else:
        confirm = compact_button(
            ctx.t("declare.confirm_blocked", meld=cap(meld)),
            act(ds.declare_named),
            icon=ft.Icons.BLOCK,
            identifier="declare-confirm",
            expand=True,
        )
    faces: list[ft.Control] = []
    for i, slot in enumerate(prop.slots):
        where = ctx.t("declare.from_table") if slot.reused else ctx.t("declare.from_hand")
        faces.append(
            ft.Column(
                [
                    card_face(
                        slot.card,
                        width=50,
                        selected=slot.reused,
                        on_click=act(lambda i=i: ds.change_proposed(i)),
                        identifier=f"proposed-{i}",
                        label=f"{slot.card} · {where}",
                    ),
                    ft.Text(where, size=12, color=ft.Colors.ON_SURFACE_VARIANT),
                ],
                spacing=2,
                tight=True,
                horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
    verdict = backend.ruling_words(prop.ruling, lang)
    return [
        ft.Row([confirm]),
        # the cards right under the button, always in sight; a refusal's why under them (an
        # accepted one says it on the button): a long why scrolls, never the cards away
        tagged("proposal", ft.Row(faces, wrap=True, spacing=8, run_spacing=6)),
        *(
            []
            if prop.accepted
            else [tagged("proposal-ruling", body_text(verdict, 15, color=ft.Colors.ERROR))]
        ),
        body_text(ctx.t("declare.tap_to_change"), 14, color=ft.Colors.ON_SURFACE_VARIANT),
    ]
