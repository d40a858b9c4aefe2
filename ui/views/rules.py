"""Rules: combination table in force, house rules in force, every rule and penalty by id
(searchable), and worked examples whose rulings come from the engine."""

from __future__ import annotations

import flet as ft

from ui import backend
from ui.state.rules import RuleLine
from ui.views.common import (
    VIEWPORT_WIDTH,
    View,
    ViewContext,
    app_bar,
    body_text,
    heading,
    scroll_body,
    tagged,
)
from ui.views.joker import showings_table, variant_choice, variant_label


def build(ctx: ViewContext) -> View:
    app = ctx.app
    rs = app.rules
    lang = app.lang
    out: list[ft.Control] = []

    def on_search(e: ft.Event[ft.TextField]) -> None:
        rs.set_query(str(e.control.value or ""))
        app.changed()

    search = tagged(
        "rules-search",
        ft.TextField(
            label=ctx.t("rules.search"),
            value=rs.query,
            prefix_icon=ft.Icons.SEARCH,
            on_change=on_search,
            text_size=18,
        ),
    )
    # The table of points stays on screen while searching: it is half of most answers. The
    # search field and (while searching) a compact table are pinned; the results scroll below.
    combinations = rs.combinations()
    lit = rs.highlighted()
    pinned: list[ft.Control] = [search]
    if rs.query:
        if combinations:
            pinned.append(_compact_table(combinations, lit))
    else:
        out.append(variant_choice(ctx, rs))
        out.extend(showings_table(ctx, rs.variant_id(), rs.showings()) if rs.showings() else [])
        if combinations:
            out.append(
                heading(
                    ctx.t("rules.combinations", variant=variant_label(ctx, rs.variant_id())), 19
                )
            )
            out.append(_full_table(combinations, lit))
    if not rs.query:
        out.append(heading(ctx.t("rules.house_in_force"), 20))
        house = rs.house_rules()
        if not house:
            out.append(body_text(ctx.t("rules.house_none"), 16))
        for rid in house:
            out.append(
                tagged(
                    f"in-force-{rid}",
                    ft.Column(
                        [
                            ft.Text(
                                f"{rid} · {backend.rule_title(rid, lang)}",
                                size=17,
                                weight=ft.FontWeight.W_600,
                            ),
                            body_text(backend.house_rule_summary(rid, lang), 15),
                        ],
                        spacing=2,
                        tight=True,
                    ),
                )
            )
    lines = rs.rules()
    if not rs.query:
        out.append(heading(ctx.t("rules.all"), 20))
    elif lines:
        out.append(
            tagged("rules-found", heading(ctx.t("reference.results", n=len(lines), q=rs.query), 20))
        )
    if not lines:
        out.append(tagged("rules-empty", body_text(ctx.t("rules.no_match", q=rs.query))))
    for ln in lines:
        out.append(tagged(f"rule-{ln.id}", _entry(ctx, ln)))
    if not rs.query:
        out.append(heading(ctx.t("rules.examples"), 20))
        for ex in rs.examples():
            steps: list[ft.Control] = [
                ft.Text(ctx.t(ex.title_key), size=18, weight=ft.FontWeight.BOLD)
            ]
            for i, st in enumerate(ex.steps, start=1):
                steps.append(body_text(ctx.t("rules.example_step", n=i, event=st.event), 16))
                steps.append(
                    ft.Container(
                        content=body_text(
                            st.ruling,
                            15,
                            color=ft.Colors.PRIMARY if st.accepted else ft.Colors.ERROR,
                        ),
                        padding=ft.Padding.only(left=24),
                    )
                )
            out.append(
                tagged(
                    f"example-{ex.title_key.rsplit('_', 1)[-1]}",
                    ft.Container(
                        content=ft.Column(steps, spacing=4, tight=True),
                        padding=14,
                        border_radius=14,
                        bgcolor=ft.Colors.SURFACE_CONTAINER,
                    ),
                )
            )
    body = ft.Column([pinned_header(pinned), scroll_body(out)], spacing=0, expand=True, tight=True)
    return View(body, app_bar(ctx, ctx.t("rules.title")))


def pinned_header(controls: list[ft.Control], *, max_width: float = 860) -> ft.Control:
    """What stays above the scrolling list, laid out like ``scroll_body`` (same padding, the
    same centred width on a wide screen)."""
    width = VIEWPORT_WIDTH.get()
    wide = width is not None and width > max_width + 32
    inner = ft.Container(
        content=ft.Column(
            controls, spacing=8, tight=True, horizontal_alignment=ft.CrossAxisAlignment.STRETCH
        ),
        padding=ft.Padding.only(left=16, right=16, top=12, bottom=6),
        width=max_width if wide else None,
    )
    return ft.Row([inner], alignment=ft.MainAxisAlignment.CENTER) if wide else inner


def _full_table(combinations: list[tuple[str, int]], lit: set[str]) -> ft.Control:
    """The table of points as a list, one combination a line (the screen without a search)."""
    rows: list[ft.Control] = []
    for name, points in combinations:
        bold = ft.FontWeight.BOLD if name in lit else ft.FontWeight.W_600
        rows.append(
            ft.Container(
                content=ft.Row(
                    [
                        ft.Text(
                            name,
                            size=16,
                            expand=True,
                            weight=ft.FontWeight.BOLD if name in lit else None,
                        ),
                        ft.Text(str(points), size=16, weight=bold),
                    ]
                ),
                bgcolor=ft.Colors.PRIMARY_CONTAINER if name in lit else None,
                border_radius=6,
                padding=ft.Padding.symmetric(horizontal=4, vertical=1),
            )
        )
    return tagged(
        "combination-table",
        ft.Container(
            content=ft.Column(rows, spacing=2, tight=True),
            padding=ft.Padding.symmetric(horizontal=10, vertical=8),
            border_radius=14,
            bgcolor=ft.Colors.SURFACE_CONTAINER,
        ),
    )


def _compact_table(combinations: list[tuple[str, int]], lit: set[str]) -> ft.Control:
    """The table of points in two columns of small cells, pinned above the search results;
    the combinations the search is about are lit."""
    cells: list[ft.Control] = []
    for name, points in combinations:
        on = name in lit
        cells.append(
            ft.Container(
                content=ft.Row(
                    [
                        ft.Text(
                            name,
                            size=13,
                            expand=True,
                            max_lines=2,
                            weight=ft.FontWeight.BOLD if on else None,
                        ),
                        ft.Text(str(points), size=13, weight=ft.FontWeight.BOLD),
                    ],
                    spacing=4,
                ),
                bgcolor=ft.Colors.PRIMARY_CONTAINER if on else None,
                border_radius=5,
                padding=ft.Padding.symmetric(horizontal=4, vertical=1),
                expand=1,
            )
        )
    half = (len(cells) + 1) // 2
    left, right = cells[:half], cells[half:]
    rows: list[ft.Control] = [
        ft.Row(
            [left[i], right[i] if i < len(right) else ft.Container(expand=1)],
            spacing=8,
        )
        for i in range(half)
    ]
    return tagged(
        "combination-table",
        ft.Container(
            content=ft.Column(rows, spacing=0, tight=True),
            padding=ft.Padding.symmetric(horizontal=6, vertical=4),
            border_radius=10,
            bgcolor=ft.Colors.SURFACE_CONTAINER,
        ),
    )


_NOTE_COLOURS = {
    "in_force": (ft.Colors.PRIMARY_CONTAINER, ft.Colors.ON_PRIMARY_CONTAINER),
    "off": (ft.Colors.SURFACE_CONTAINER_HIGHEST, ft.Colors.ON_SURFACE_VARIANT),
    "replaced": (ft.Colors.TERTIARY_CONTAINER, ft.Colors.ON_TERTIARY_CONTAINER),
    "elsewhere": (ft.Colors.SURFACE_CONTAINER_HIGHEST, ft.Colors.ON_SURFACE_VARIANT),
}


def _entry(ctx: ViewContext, ln: RuleLine) -> ft.Control:
    """One entry: its id and title, its standing in the open match (a house rule that is off
    says so before anything else), its text, example and source."""
    muted = ln.standing in ("off", "elsewhere")
    parts: list[ft.Control] = [
        ft.Text(
            f"{ln.id} · {ln.title}",
            size=17,
            weight=ft.FontWeight.W_600,
            color=ft.Colors.ON_SURFACE_VARIANT if muted else None,
        )
    ]
    if ln.note:
        bg, fg = _NOTE_COLOURS.get(ln.standing, _NOTE_COLOURS["off"])
        parts.append(
            tagged(
                f"standing-{ln.id}",
                ft.Container(
                    content=ft.Text(ln.note, size=14, color=fg, weight=ft.FontWeight.W_600),
                    bgcolor=bg,
                    border_radius=8,
                    padding=ft.Padding.symmetric(horizontal=8, vertical=3),
                ),
            )
        )
    if ln.text:
        parts.append(body_text(ln.text, 15))
    if ln.example:
        parts.append(body_text(ctx.t("rules.example", text=ln.example), 15, italic=True))
    if ln.source:
        parts.append(
            body_text(
                ctx.t("rules.source", source=ln.source),
                13,
                color=ft.Colors.ON_SURFACE_VARIANT,
                italic=True,
            )
        )
    return ft.Column(parts, spacing=3, tight=True)
