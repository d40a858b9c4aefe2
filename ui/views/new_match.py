"""New match: variant, players, target, house rules (with explanation and source), tracking."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import flet as ft

from ui import backend
from ui.views import error_slot
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
from ui.views.match_goal import goal_section


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

    controls: list[ft.Control] = []  # the errors' summary: in its slot above Start (below)
    if app.notice is not None:  # another device started a match meanwhile (ui/live.py)
        controls.append(
            banner(
                ctx.t(app.notice.key, **app.notice.args),
                error=app.notice.error,
                identifier="new-match-news",
            )
        )
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
    four = form.partnerships and form.player_count == 4
    for seat in range(form.player_count):
        label = ctx.t("new.player_n", n=seat + 1)
        # Four-hand redraws as names are typed: the partner line below names them.
        on_name = partial(form.set_name, seat)
        fields.append(
            tagged(
                f"name-{seat}",
                ft.TextField(
                    label=label,
                    value=form.names[seat],
                    hint_text=ctx.t(f"newmatch.example_name_{seat + 1}"),
                    error=err(f"name{seat}"),
                    helper=error_slot.RESERVED_HELPER,  # its error's line, kept: nothing moves
                    on_change=rerender(lambda e, f=on_name: f(str(e.control.value or "")))
                    if four
                    else edit(f"name{seat}", on_name),
                    text_size=20,
                    width=360,
                    capitalization=ft.TextCapitalization.WORDS,
                ),
            )
        )
    suggestions = form.suggestions()
    if suggestions and any(not n.strip() for n in form.names):
        fields.append(
            tagged(
                "name-suggestions",
                ft.Row(
                    [
                        body_text(ctx.t("newmatch.recent"), 15, color=ft.Colors.ON_SURFACE_VARIANT),
                        *(
                            tagged(
                                f"suggest-{i}",
                                ft.OutlinedButton(
                                    content=ft.Text(name, size=17),
                                    on_click=with_args(rerender(form.use_suggestion), name),
                                    height=48,
                                ),
                            )
                            for i, name in enumerate(suggestions)
                        ),
                    ],
                    wrap=True,
                    spacing=8,
                    run_spacing=6,
                ),
            )
        )
    if four:
        n = [x.strip() or ctx.t("new.player_n", n=i + 1) for i, x in enumerate(form.names)]
        fields.append(
            tagged(
                "partners",
                body_text(ctx.t("new.partners", a=n[0], b=n[1], c=n[2], d=n[3]), 15),
            )
        )
    controls.append(section(ctx.t("new.players"), *fields))
    if form.in_games:  # Rubicon …: a number of games or a target (ui/views/match_goal.py)
        controls.append(goal_section(ctx, form, rerender, edit, err))
    else:
        controls.append(_target_section(ctx, form, edit, err))
    controls.append(section(ctx.t("new.house_rules"), *_house_rules(ctx, form, rerender)))
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
                ctx.t(
                    "newmatch.melds_help_no_sevens"
                    if form.tracking == "melds" and not form.sevens_score
                    else f"tracking.{form.tracking}_help"
                ),
                15,
                color=ft.Colors.ON_SURFACE_VARIANT,
            ),
        )
    )
    summary = ctx.t("new.error_summary") if form.errors else None
    controls.append(error_slot.slot(summary, "form-errors"))  # always there: Start stays put
    controls.append(
        big_button(
            ctx.t("new.start"),
            lambda _e: app.submit_new_match(),
            primary=True,
            icon=ft.Icons.PLAY_ARROW,
            identifier="start-match",
        )
    )
    if "form" in form.errors:  # storage refused the match: under Start, moving nothing above
        controls.append(banner(err("form") or "", error=True, identifier="form-refused"))
    club = ctx.app.club  # the club director's new table is made with this same form
    title = ctx.t("club.new_table") if club is not None and club.forming else ctx.t("new.title")
    return View(scroll_body(controls, max_width=720), app_bar(ctx, title))


def _house_rules(ctx: ViewContext, form: Any, rerender: Callable[[Any], Any]) -> list[ft.Control]:
    """Presets first (one tap for a source's readings), what they switch on in a line, and
    the single switches only behind "customise"."""
    lang = ctx.app.lang
    offered = form.presets()
    out: list[ft.Control] = []
    if len(offered) > 1 or form.preset == "custom":
        options = [(p, backend.preset_title(p, lang)) for p in offered]
        if form.preset == "custom":
            options.append(("custom", ctx.t("newmatch.custom")))
        out.append(choice_row(options, form.preset, rerender(form.set_preset), prefix="preset"))
    about = (
        ctx.t("newmatch.custom_help")
        if form.preset == "custom"
        else backend.preset_text(form.preset, lang, form.variant)
    )
    out.append(tagged("preset-about", body_text(about, 15)))
    chosen = form.rules_in_force()
    listed = (
        ctx.t("newmatch.in_force", rules=" · ".join(backend.rule_title(r, lang) for r in chosen))
        if chosen
        else ctx.t("newmatch.none_on")
    )
    out.append(tagged("house-in-force", body_text(listed, 15, color=ft.Colors.ON_SURFACE_VARIANT)))
    if not form.switches:
        return out
    out.append(
        big_button(
            ctx.t("newmatch.customise_hide" if form.customising else "newmatch.customise"),
            rerender(lambda _e: form.toggle_customise()),
            icon=ft.Icons.EXPAND_LESS if form.customising else ft.Icons.TUNE,
            identifier="customise",
        )
    )
    if not form.customising:
        return out
    for rid in form.switches:
        text = backend.house_rule_summary(rid, lang)
        source = backend.rule_source(rid, lang)
        title = backend.rule_title(rid, lang)
        lines: list[ft.Control] = [ft.Text(title, size=17, weight=ft.FontWeight.W_600)]
        if text and text != title:
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
        out.append(
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
    return out


def _target_section(
    ctx: ViewContext,
    form: Any,
    edit: Callable[[str, Callable[[str], None]], Callable[[Any], None]],
    err: Callable[[str], str | None],
) -> ft.Control:
    return section(
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
