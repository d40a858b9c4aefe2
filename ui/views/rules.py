"""Rules: combination table in force, house rules in force, every rule and penalty by id
(searchable), and worked examples whose rulings come from the engine."""

from __future__ import annotations

import flet as ft

from ui import backend
from ui.state.rules import RuleLine
from ui.views.common import View, ViewContext, app_bar, body_text, heading, scroll_body, tagged
from ui.views.joker import showings_table, variant_choice, variant_label


def build(ctx: ViewContext) -> View:
    app = ctx.app
    rs = app.rules
    lang = app.lang
    out: list[ft.Control] = []

    def on_search(e: ft.Event[ft.TextField]) -> None:
        rs.set_query(str(e.control.value or ""))
        app.changed()

    out.append(
        tagged(
            "rules-search",
            ft.TextField(
                label=ctx.t("rules.search"),
                value=rs.query,
                prefix_icon=ft.Icons.SEARCH,
                on_change=on_search,
                text_size=18,
            ),
        )
    )
    # The table of points stays on screen while searching: it is half of most answers.
    combinations = rs.combinations()
    lit = rs.highlighted()
    if not rs.query:
        out.append(variant_choice(ctx, rs))
        out.extend(showings_table(ctx, rs.variant_id(), rs.showings()) if rs.showings() else [])
    if combinations:
        out.append(
            heading(ctx.t("rules.combinations", variant=variant_label(ctx, rs.variant_id())), 19)
        )
        rows: list[ft.Control] = [
            ft.Row(
                [
                    ft.Text(
                        ctx.t("rules.combination"), size=16, weight=ft.FontWeight.BOLD, expand=True
                    ),
                    ft.Text(ctx.t("rules.points"), size=16, weight=ft.FontWeight.BOLD),
                ]
            )
        ]
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
        out.append(
            tagged(
                "combination-table",
                ft.Container(
                    content=ft.Column(rows, spacing=2, tight=True),
                    padding=ft.Padding.symmetric(horizontal=10, vertical=8),
                    border_radius=14,
                    bgcolor=ft.Colors.SURFACE_CONTAINER,
                ),
            )
        )
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
    return View(scroll_body(out), app_bar(ctx, ctx.t("rules.title")))


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
