"""New match: variant, players, target, house rules (with explanation and source), tracking."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import flet as ft

from ui import backend
from ui.views.common import (
    View,
    ViewContext,
    app_bar,
    banner,
    big_button,
    body_text,
    choice_row,
    scroll_body,
    section,
    tagged,
    with_args,
)


def build(ctx: ViewContext) -> View:
    app = ctx.app
    form = app.new_form
    if form is None:
        app.start_new_match()
        form = app.new_form
    assert form is not None
    lang = app.lang

    def rerender(fn: Any) -> Any:
        def handler(*args: Any) -> None:
            fn(*args)
            app.changed()

        return handler

    def edit(field: str, setter: Callable[[str], None]) -> Callable[[Any], None]:
        """Typing stores the text; the screen redraws only to clear that field's error
        (redrawing on every key would be wasted work)."""

        def handler(e: Any) -> None:
            had_error = field in form.errors
            setter(str(e.control.value or ""))
            if had_error:
                form.errors.pop("form", None)
                app.changed()

        return handler

    def err(field: str) -> str | None:
        e = form.errors.get(field)
        return ctx.t(e.key, **e.args) if e else None

    controls: list[ft.Control] = []
    if form.errors:
        controls.append(banner(ctx.t("new.error_summary"), error=True, identifier="form-errors"))
        if "form" in form.errors:
            controls.append(banner(err("form") or "", error=True, identifier="form-refused"))
    controls.append(
        section(
            ctx.t("new.variant"),
            choice_row(
                [
                    (v, ctx.app.t.get(f"variant.{v}", backend.variant_name(v, lang)))
                    for v in form.variants
                ],
                form.variant,
                rerender(form.set_variant),
                prefix="variant",
            ),
        )
    )
    if len(form.player_counts) > 1:
        controls.append(
            section(
                ctx.t("new.player_count"),
                choice_row(
                    [(str(n), str(n)) for n in form.player_counts],
                    str(form.player_count),
                    rerender(lambda v: form.set_player_count(int(v))),
                    prefix="count",
                ),
            )
        )
    fields: list[ft.Control] = []
    for seat in range(form.player_count):
        label = ctx.t("new.player_n", n=seat + 1)
        fields.append(
            tagged(
                f"name-{seat}",
                ft.TextField(
                    label=label,
                    value=form.names[seat],
                    error=err(f"name{seat}"),
                    on_change=edit(f"name{seat}", partial(form.set_name, seat)),
                    text_size=20,
                    width=360,
                    capitalization=ft.TextCapitalization.WORDS,
                ),
            )
        )
    if form.partnerships and form.player_count == 4:
        n = [x or ctx.t("new.player_n", n=i + 1) for i, x in enumerate(form.names)]
        fields.append(body_text(ctx.t("new.partners", a=n[0], b=n[1], c=n[2], d=n[3]), 15))
    controls.append(section(ctx.t("new.players"), *fields))
    controls.append(
        section(
            ctx.t("new.target"),
            tagged(
                "target",
                ft.TextField(
                    label=ctx.t("new.target"),
                    value=form.target_text,
                    error=err("target"),
                    helper=ctx.t("new.target_default", n=form.default_target),
                    keyboard_type=ft.KeyboardType.NUMBER,
                    on_change=edit("target", form.set_target),
                    text_size=20,
                    width=260,
                ),
            ),
        )
    )
    rules: list[ft.Control] = [
        body_text(ctx.t("new.house_rules_help"), 15, color=ft.Colors.ON_SURFACE_VARIANT)
    ]
    for rid in form.info.house_rules:
        text = backend.house_rule_summary(rid, lang)
        source = backend.rule_source(rid, lang)
        title = backend.rule_title(rid, lang)
        lines: list[ft.Control] = [
            ft.Text(
                rid if title == rid else f"{rid} · {title}", size=17, weight=ft.FontWeight.W_600
            )
        ]
        if text:
            lines.append(body_text(text, 15))
        if source:
            lines.append(
                body_text(
                    ctx.t("new.source", source=source),
                    13,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                    italic=True,
                )
            )
        rules.append(
            tagged(
                f"house-{rid}",
                ft.Row(
                    [
                        ft.Switch(
                            value=rid in form.house_rules,
                            on_change=with_args(rerender(form.toggle_house_rule), rid),
                        ),
                        ft.Column(lines, spacing=2, tight=True, expand=True),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.START,
                ),
            )
        )
    controls.append(section(ctx.t("new.house_rules"), *rules))
    levels = list(form.tracking_levels)
    controls.append(
        section(
            ctx.t("new.tracking"),
            choice_row(
                [(lv, ctx.t(f"tracking.{lv}")) for lv in levels],
                form.tracking,
                rerender(form.set_tracking),
                prefix="tracking",
            ),
            body_text(
                ctx.t(f"tracking.{form.tracking}_help"), 15, color=ft.Colors.ON_SURFACE_VARIANT
            ),
        )
    )
    controls.append(
        big_button(
            ctx.t("new.start"),
            lambda _e: app.submit_new_match(),
            primary=True,
            icon=ft.Icons.PLAY_ARROW,
            identifier="start-match",
        )
    )
    return View(scroll_body(controls, max_width=720), app_bar(ctx, ctx.t("new.title")))
