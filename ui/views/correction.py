"""The entries of a match with "correct" on each, and the correction of one entry: who it
was, its cards (the deal screen's own picker, against the tables as they were then), or its
deletion, with what it changes shown before confirming. Thin: reads ui.state.correction."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from ui.state import correction as corr
from ui.views import card_picker, pinned_bottom
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
    with_args,
)


def _box(content: ft.Control, *, identifier: str | None = None, tint: str | None = None) -> Any:
    box = ft.Container(
        content=content,
        padding=14,
        border_radius=14,
        bgcolor=tint or ft.Colors.SURFACE_CONTAINER,
    )
    return tagged(identifier, box) if identifier else box


def open_button(ctx: ViewContext, session: Any, identifier: str = "open-entries") -> ft.Control:
    """The hook other screens show: "Correct an entry" of this match."""
    return big_button(
        ctx.t("correction.open_entries"),
        lambda _e: corr.open_entries(ctx.app, session),
        icon=ft.Icons.EDIT_NOTE,
        identifier=identifier,
    )


# ------------------------------------------------------------------------------ the entries
def build_entries(ctx: ViewContext) -> View:
    app = ctx.app
    session = app.entries_session
    bar = app_bar(ctx, ctx.t("correction.entries_title"))
    if session is None:
        return View(scroll_body([body_text(ctx.t("correction.none"))]), bar)
    out: list[ft.Control] = []
    if app.notice is not None:
        out.append(banner(ctx.t(app.notice.key, **app.notice.args), error=app.notice.error))
    out.append(heading(" — ".join(session.match.side_names), 22))
    out.append(body_text(ctx.t("correction.entries_help"), 15, color=ft.Colors.ON_SURFACE_VARIANT))
    deals = corr.entry_lines(session, app.lang)
    if not any(deals):
        out.append(body_text(ctx.t("correction.none")))
    for d, lines in enumerate(deals):
        rows: list[ft.Control] = []
        for n, line in enumerate(lines):
            rows.append(_entry_row(ctx, line, n + 1))
        out.append(section(ctx.t("correction.deal", n=d + 1), *rows))
    return View(scroll_body(out), bar)


def _entry_row(ctx: ViewContext, line: corr.EntryLine, number: int) -> ft.Control:
    deleted = line.status == "deleted"
    text = ft.Text(
        f"{ctx.t('correction.entry', n=number)} {line.text}",
        size=17,
        color=ft.Colors.ON_SURFACE_VARIANT if deleted else None,
        style=ft.TextStyle(decoration=ft.TextDecoration.LINE_THROUGH) if deleted else None,
    )
    parts: list[ft.Control] = [text]
    if line.status == "corrected" and line.first:
        parts.append(
            body_text(
                ctx.t("correction.corrected", first=line.first),
                15,
                color=ft.Colors.ON_SURFACE_VARIANT,
            )
        )
    if deleted and line.first:
        parts.append(
            body_text(ctx.t("correction.deleted", first=line.first), 15, color=ft.Colors.ERROR)
        )
    if line.correctable and line.index is not None and ctx.app.may_write:
        parts.append(
            big_button(
                ctx.t("correction.correct"),
                with_args(corr.open_correction, ctx.app, line),
                icon=ft.Icons.EDIT,
                identifier=f"correct-{line.deal}-{line.index}",
            )
        )
    ident = f"entry-{line.deal}-{line.index}" if line.index is not None else f"gone-{line.seq}"
    return _box(
        ft.Column(parts, spacing=8, tight=True),
        identifier=ident,
        tint=None if line.accepted or deleted else ft.Colors.ERROR_CONTAINER,
    )


# ------------------------------------------------------------------------------ one entry
def build(ctx: ViewContext) -> View:
    app = ctx.app
    cs = app.correction
    if not isinstance(cs, corr.CorrectionScreen):
        return View(scroll_body([body_text(ctx.t("correction.none"))]), app_bar(ctx, ""))
    if cs.lang != app.lang:
        cs.set_language(app.lang)
    title = ctx.t("correction.title", deal=cs.deal_index + 1, entry=cs.index + 1)
    bar = app_bar(ctx, ctx.t("correction.entries_title"))

    def act(fn: Callable[[], Any]) -> Callable[[Any], None]:
        def handler(_e: Any) -> None:
            fn()
            app.changed()

        return handler

    out: list[ft.Control] = [heading(title, 22)]
    if cs.picking.picker is not None and cs.done is None:
        return View(_picker(ctx, cs, act, out), bar)
    if cs.done is not None:
        out += _done(ctx, cs)
        return View(scroll_body(out), bar)
    out.append(
        _box(
            ft.Column(
                [heading(ctx.t("correction.as_recorded"), 18), body_text(cs.original_text())],
                spacing=6,
                tight=True,
            ),
            identifier="corr-original",
        )
    )
    if cs.can_change_player():
        seat = cs.player()

        def pick(value: str) -> None:
            cs.set_player(int(value))
            app.changed()

        out.append(
            section(
                ctx.t("correction.player"),
                choice_row(
                    [(str(i), name) for i, name in enumerate(cs.players)],
                    None if seat is None else str(seat),
                    pick,
                    prefix="corr-player",
                ),
            )
        )
    # the same buttons always, enabled or not: the layout never shifts under the finger
    buttons: list[ft.Control] = [
        big_button(
            ctx.t("correction.cards"),
            act(cs.open_picker) if cs.can_change_cards() else None,
            icon=ft.Icons.STYLE,
            identifier="corr-cards",
        ),
        big_button(
            ctx.t("correction.delete"),
            None if cs.deleting else act(cs.delete),
            icon=ft.Icons.DELETE_OUTLINE,
            identifier="corr-delete",
        ),
        big_button(
            ctx.t("correction.reset"),
            act(cs.reset) if cs.changed else None,
            icon=ft.Icons.REPLAY,
            identifier="corr-reset",
        ),
    ]
    out.append(ft.Row(buttons, wrap=True, spacing=8, run_spacing=8))
    # below the controls, so that nothing moves under the finger that just tapped
    if cs.notice is not None:
        out.append(banner(ctx.t(cs.notice.key, **cs.notice.args), error=cs.notice.error))
    pinned: list[ft.Control] = []
    if cs.changed:
        if cs.deleting:
            out.append(body_text(ctx.t("correction.deleted_draft"), 17, color=ft.Colors.ERROR))
        if cs.changes:
            out.append(_changes(ctx, cs, ctx.t("correction.preview"), "corr-preview"))
            out.append(body_text(ctx.t("correction.kept"), 15, color=ft.Colors.ON_SURFACE_VARIANT))
            # pinned at the bottom: a long preview put it half below a 360×780 screen
            pinned.append(
                big_button(
                    ctx.t("correction.confirm"),
                    act(lambda: corr.confirm(app)),
                    primary=True,
                    icon=ft.Icons.CHECK,
                    identifier="corr-confirm",
                )
            )
    if not cs.changed:
        out.append(body_text(ctx.t("correction.start_hint"), 16))
    if pinned:
        return View(pinned_bottom.body(out, pinned), bar)
    return View(scroll_body(out), bar)


def _picker(
    ctx: ViewContext, cs: corr.CorrectionScreen, act: Any, out: list[ft.Control]
) -> ft.Control:
    """The deal screen's free picker against the tables as they were: the chosen cards and
    options scroll at the top, the table cards and the 32-card grid are pinned at the bottom
    with Cancel, so removing a card moves no card of the grid (it jumped 31–102 px)."""
    ds = cs.picking
    ds.lang = ctx.app.lang
    if ds.notice is not None:
        out.append(banner(ctx.t(ds.notice.key, **ds.notice.args), error=ds.notice.error))
    out.append(body_text(ctx.t("correction.picker_done"), 15))
    out += card_picker.choice(ctx, ds, act)
    choice = ft.Column(
        out,
        spacing=10,
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )
    grid = tagged(
        "corr-pinned",
        ft.Column(
            [
                card_picker.table_cards(ctx, ds, act),
                card_picker.hand_grid(ds, act, card_picker.grid_width()),
                big_button(
                    ctx.t("picker.cancel"),
                    act(ds.close_picker),
                    icon=ft.Icons.CLOSE,
                    identifier="picker-cancel",
                ),
            ],
            spacing=8,
            tight=True,
        ),
    )
    width = VIEWPORT_WIDTH.get()
    side = card_picker.grid_width()
    if narrow() or side is None or width is None:  # a phone: the grid pinned under the choice
        body: ft.Control = ft.Column([choice, grid], spacing=8, expand=True)
    else:  # a tablet or laptop: the grid beside the choice, as in the deal's picker
        body = ft.Row(
            [choice, ft.Container(content=grid, width=side)],
            spacing=16,
            expand=True,
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
    return ft.Container(
        content=body, padding=ft.Padding.symmetric(horizontal=12, vertical=8), expand=True
    )





def _changes(ctx: ViewContext, cs: corr.CorrectionScreen, title: str, ident: str) -> ft.Control:
    rows: list[ft.Control] = [heading(title, 19)]
    for line in cs.changes:
        strong = line.kind in ("total", "winner", "flip")
        rows.append(
            tagged(
                line.identifier,
                ft.Text(
                    ctx.t(line.key, **line.args),
                    size=17,
                    weight=ft.FontWeight.W_600 if strong else None,
                    color=ft.Colors.ERROR if line.key.endswith("now_rejected") else None,
                ),
            )
        )
    return _box(ft.Column(rows, spacing=8, tight=True), identifier=ident)


def _done(ctx: ViewContext, cs: corr.CorrectionScreen) -> list[ft.Control]:
    totals = [
        tagged(
            f"corr-total-{i}",
            ft.Row(
                [
                    ft.Text(side, size=19, expand=True),
                    ft.Text(str(points), size=24, weight=ft.FontWeight.BOLD),
                ],
            ),
        )
        for i, (side, points) in enumerate(cs.totals())
    ]
    return [
        _changes(ctx, cs, ctx.t("correction.done"), "corr-done"),
        _box(
            ft.Column([heading(ctx.t("correction.totals"), 19), *totals], spacing=6, tight=True),
            identifier="corr-totals",
            tint=ft.Colors.PRIMARY_CONTAINER,
        ),
        body_text(ctx.t("correction.kept"), 15, color=ft.Colors.ON_SURFACE_VARIANT),
        big_button(
            ctx.t("correction.back"),
            lambda _e: ctx.app.back(),
            icon=ft.Icons.ARROW_BACK,
            identifier="corr-back",
        ),
    ]
