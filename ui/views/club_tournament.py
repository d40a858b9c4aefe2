"""The evening's tournament on the club director's screen (issue #24): setting it up, the
standings with their scoring and tie-break in words, the round being played, and the next
round as the server proposes it and the director edits it. Thin: everything it shows and does
is ui/state/club_tournament.py's. Large type, for a laptop or a projector; the club screen
(ui/views/club.py) shows the same standings and who plays whom next beside its tables."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from ui import backend
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
    scroll_body,
    section,
    tagged,
    with_args,
)

if TYPE_CHECKING:  # the club's engine is the server's: the phone's image leaves it out
    from referee.club.rounds import Round
    from referee.club.standings import Standing
    from ui.state.club_tournament import (
        Snapshot,
        TableNow,
        Tournament,
        TournamentScreen,
        Words,
    )

NAME = 22  # px: a name or a score in the standings, read from the back of the room
PANEL = ft.Colors.SURFACE_CONTAINER_LOW


def build(ctx: ViewContext) -> View:
    app = ctx.app
    bar = app_bar(ctx, ctx.t("tournament.title"))
    club = app.club
    if club is None:  # never drawn for a session without the director's screen
        return View(scroll_body([]), bar)
    tour = club.tournament
    controls: list[ft.Control] = []
    snap = tour.snapshot()  # the night and storage read once for this drawing
    if app.notice is not None:
        controls.append(banner(ctx.t(app.notice.key, **app.notice.args), error=app.notice.error))
    if tour.setup is not None:
        controls += _setup(ctx, tour)
    elif snap is None:
        controls.append(body_text(ctx.t("tournament.none"), 19))
        controls.append(
            big_button(
                ctx.t("tournament.new"),
                lambda _e: tour.begin_setup(),
                primary=True,
                icon=ft.Icons.ADD,
                identifier="tournament-new",
            )
        )
    else:
        width = VIEWPORT_WIDTH.get() or 1280.0
        left = [_standings(ctx, snap)]
        right = _rounds(ctx, tour, snap)
        if width >= 1100:
            controls.append(
                ft.Row(
                    [
                        ft.Column(left, expand=1, spacing=14),
                        ft.Column(right, expand=1, spacing=14),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.START,
                    spacing=20,
                )
            )
        else:
            controls += [*left, *right]
        controls.append(_end(ctx, tour))
    for i, control in enumerate(controls):
        if control.key is None:
            control.key = f"tournament-{i}"
    return View(scroll_body(controls, max_width=1800), bar)


def summary(ctx: ViewContext, tour: TournamentScreen) -> list[ft.Control]:
    """What the club screen shows of the tournament: the standings and who plays whom next
    (nothing while there is no tournament)."""
    snap = tour.snapshot()
    if snap is None:
        return []
    width = VIEWPORT_WIDTH.get() or 1280.0
    standings = _standings(ctx, snap, compact=True)
    who = _who_next(ctx, snap)
    if width >= 1100:
        return [
            ft.Row(
                [ft.Column([standings], expand=1), ft.Column([who], expand=1)],
                vertical_alignment=ft.CrossAxisAlignment.START,
                spacing=20,
            )
        ]
    return [standings, who]


def _words(ctx: ViewContext, w: Words) -> str:
    return ctx.t(w.key, **w.args)


def _panel(identifier: str, controls: list[ft.Control]) -> ft.Control:
    return tagged(
        identifier,
        ft.Container(
            ft.Column(controls, spacing=10, tight=True),
            padding=18,
            border_radius=16,
            border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
            bgcolor=PANEL,
        ),
    )


# --- the standings ----------------------------------------------------------------------------
COLUMNS = (
    ("col_place", 36),
    ("col_player", 0),  # what is left
    ("col_points", 76),
    ("col_played", 80),
    ("col_won", 64),
    ("col_byes", 84),
    ("col_diff", 100),
)


def _standings(ctx: ViewContext, snap: Snapshot, *, compact: bool = False) -> ft.Control:
    t = snap.tournament
    table = snap.standings
    done = sum(1 for n in snap.tables if n.status in ("finished", "entered"))
    after = (
        ctx.t("tournament.after_round", n=len(t.played))
        if done and t.played
        else ctx.t("tournament.before_play")
    )
    # the columns that say something: wins are the points under "wins", byes only when
    # someone has one; the name keeps the width that is left
    has_byes = any(r.byes for r in t.played)
    cols = tuple(
        c
        for c in COLUMNS
        if not compact or c[0] in ("col_place", "col_player", "col_points", "col_played")
        if not (c[0] == "col_won" and t.scoring == "wins")
        if not (c[0] == "col_byes" and not has_byes)
    )
    parts: list[ft.Control] = [
        ft.Row(
            [
                heading(ctx.t("tournament.standings"), 26),
                body_text(after, 18, color=ft.Colors.ON_SURFACE_VARIANT),
            ],
            spacing=14,
            wrap=True,
            vertical_alignment=ft.CrossAxisAlignment.END,
        ),
        _row([ctx.t(f"tournament.{k}") for k, _w in cols], cols, header=True),
    ]
    for s in table:
        cells = _cells(s)
        parts.append(tagged(f"standing-{s.place}", _row([cells[k] for k, _w in cols], cols)))
    parts.append(body_text(ctx.t(f"tournament.scoring_said_{t.scoring}"), 16))
    parts.append(body_text(ctx.t("tournament.tiebreak"), 15, color=ft.Colors.ON_SURFACE_VARIANT))
    return _panel("tournament-standings", parts)


def _cells(s: Standing) -> dict[str, str]:
    from ui.state.club_tournament import difference_text, points_text

    return {
        "col_place": str(s.place),
        "col_player": s.player,
        "col_points": points_text(s.points),
        "col_played": str(s.played),
        "col_won": str(s.wins),
        "col_byes": str(s.byes),
        "col_diff": difference_text(s.difference),
    }


def _row(cells: list[str], cols: tuple[tuple[str, int], ...], *, header: bool = False) -> ft.Row:
    out: list[ft.Control] = []
    for text, (_key, width) in zip(cells, cols, strict=True):
        label = ft.Text(
            text,
            size=15 if header else NAME,
            weight=ft.FontWeight.BOLD if not header and _key == "col_points" else None,
            color=ft.Colors.ON_SURFACE_VARIANT if header else None,
            no_wrap=True,
            overflow=ft.TextOverflow.ELLIPSIS,
            text_align=ft.TextAlign.LEFT if _key == "col_player" else ft.TextAlign.RIGHT,
        )
        out.append(
            ft.Container(label, expand=True) if width == 0 else ft.Container(label, width=width)
        )
    return ft.Row(out, spacing=10)


# --- the rounds -------------------------------------------------------------------------------
def _said(ctx: ViewContext, t: Tournament) -> str:
    fmt = ctx.t(f"tournament.format_said_{t.format}", rounds=t.rounds)
    return fmt


def _rounds(ctx: ViewContext, tour: TournamentScreen, snap: Snapshot) -> list[ft.Control]:
    t = snap.tournament
    out: list[ft.Control] = [body_text(_said(ctx, t), 18)]
    if t.played:
        out.append(_current(ctx, tour, snap))
    rnd = snap.next_round
    if rnd is not None:
        out.append(_next(ctx, tour, t, rnd))
    elif t.over and snap.complete:
        out.append(banner(ctx.t("tournament.over"), identifier="tournament-over"))
    return out


def _status(ctx: ViewContext, n: TableNow, manual_kind: str | None) -> str:
    if n.status == "finished" and n.winner:
        return ctx.t("tournament.status_won", name=n.winner)
    if n.status == "entered":
        if manual_kind == "draw":
            return ctx.t("tournament.status_entered_draw")
        return ctx.t("tournament.status_entered_win", name=n.winner or "")
    return ctx.t(f"tournament.status_{n.status}")


def _current(ctx: ViewContext, tour: TournamentScreen, snap: Snapshot) -> ft.Control:
    t = snap.tournament
    last = t.played[-1]
    manual = {pt.table: pt.manual for pt in last.tables}
    key = "tournament.round_done" if snap.complete else "tournament.now_playing"
    parts: list[ft.Control] = [heading(ctx.t(key, n=last.number), 24)]
    for n in snap.of_round(last.number):
        m = manual.get(n.table)
        line = ft.Row(
            [
                ft.Text(
                    ctx.t("club.table", n=n.table), size=20, weight=ft.FontWeight.BOLD, width=110
                ),
                ft.Text(" – ".join(n.players), size=NAME, expand=True),
                ft.Text(
                    _status(ctx, n, m.kind if m else None),
                    size=18,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                ),
            ],
            spacing=12,
        )
        parts.append(tagged(f"tournament-table-{n.table}", line))
        if n.status in ("abandoned", "entered", "not_played"):
            parts.append(_manual(ctx, tour, n))
    if last.byes:
        parts.append(body_text(f"{ctx.t('tournament.bye')}: {', '.join(last.byes)}", 19))
    return _panel("tournament-current", parts)


def _manual(ctx: ViewContext, tour: TournamentScreen, n: TableNow) -> ft.Control:
    """An abandoned table's result, as the director enters it."""
    if tour.manual_for != n.table:
        return _small(
            ctx.t("tournament.enter"),
            with_args(tour.ask_manual, n.table),
            f"tournament-enter-{n.table}",
            ft.Icons.EDIT,
        )
    buttons = [
        _small(
            ctx.t("tournament.status_won", name=p),
            with_args(tour.enter_result, n.table, "win", p),
            f"tournament-win-{n.table}-{i}",
            ft.Icons.EMOJI_EVENTS,
        )
        for i, p in enumerate(n.players)
    ]
    buttons += [
        _small(
            ctx.t("tournament.draw"),
            with_args(tour.enter_result, n.table, "draw"),
            f"tournament-draw-{n.table}",
            ft.Icons.DRAG_HANDLE,
        ),
        _small(
            ctx.t("tournament.not_played"),
            with_args(tour.enter_result, n.table, "not_played"),
            f"tournament-void-{n.table}",
            ft.Icons.BLOCK,
        ),
        _small(
            ctx.t("tournament.clear"),
            with_args(tour.enter_result, n.table, "clear"),
            f"tournament-clear-{n.table}",
            ft.Icons.UNDO,
        ),
    ]
    return ft.Column(
        [
            body_text(ctx.t("tournament.manual_note"), 15),
            ft.Row(buttons, wrap=True, spacing=8, run_spacing=8),
        ],
        spacing=6,
        tight=True,
    )


def _next(ctx: ViewContext, tour: TournamentScreen, t: Tournament, rnd: Round) -> ft.Control:
    fault, warnings = tour.check(rnd, t)
    how = ctx.t("tournament.edited" if t.draft is not None else "tournament.proposed")
    parts: list[ft.Control] = [
        ft.Row(
            [
                heading(ctx.t("tournament.next", n=rnd.number, total=t.rounds), 24),
                body_text(how, 17, color=ft.Colors.ON_SURFACE_VARIANT),
            ],
            wrap=True,
            spacing=12,
            vertical_alignment=ft.CrossAxisAlignment.END,
        ),
        body_text(ctx.t("tournament.how_to_edit"), 15, color=ft.Colors.ON_SURFACE_VARIANT),
    ]
    picked = tour.selected
    if picked is not None:
        parts.append(
            banner(ctx.t("tournament.picked", name=picked), identifier="tournament-picked")
        )
    for i, table in enumerate(rnd.tables):
        row: list[ft.Control] = [
            ft.Text(f"{i + 1}.", size=20, weight=ft.FontWeight.BOLD, width=36),
            *[_player(tour, p, f"tournament-pick-{i}-{j}") for j, p in enumerate(table)],
        ]
        if picked is not None and picked not in table:
            row.append(
                _small(
                    ctx.t("tournament.seat_here"),
                    with_args(tour.move_selected, i),
                    f"tournament-seat-{i}",
                    ft.Icons.EVENT_SEAT,
                )
            )
        parts.append(ft.Row(row, wrap=True, spacing=8, run_spacing=8))
    if picked is not None:
        parts.append(
            _small(
                ctx.t("tournament.new_table"),
                with_args(tour.move_selected, len(rnd.tables)),
                "tournament-seat-new",
                ft.Icons.ADD,
            )
        )
    byes: list[ft.Control] = [
        ft.Text(f"{ctx.t('tournament.bye')}:", size=20, weight=ft.FontWeight.BOLD),
        *[_player(tour, p, f"tournament-bye-{j}") for j, p in enumerate(rnd.byes)],
    ]
    if not rnd.byes:
        byes.append(body_text(ctx.t("tournament.no_bye"), 18, color=ft.Colors.ON_SURFACE_VARIANT))
    if picked is not None and picked not in rnd.byes:
        byes.append(
            _small(
                ctx.t("tournament.to_byes"),
                with_args(tour.move_selected, None),
                "tournament-to-byes",
                ft.Icons.WEEKEND,
            )
        )
    parts.append(ft.Row(byes, wrap=True, spacing=8, run_spacing=8))
    if fault is not None:
        parts.append(banner(_words(ctx, fault), error=True, identifier="tournament-fault"))
    for k, w in enumerate(warnings):
        parts.append(_warning(_words(ctx, w), f"tournament-warning-{k}"))
    actions: list[ft.Control] = [
        big_button(
            ctx.t("tournament.start", n=rnd.number),
            (lambda _e: tour.start_round()) if fault is None else None,
            primary=True,
            icon=ft.Icons.PLAY_ARROW,
            identifier="tournament-start",
        )
    ]
    if t.draft is not None:
        actions.append(
            big_button(
                ctx.t("tournament.propose_again"),
                lambda _e: tour.propose_again(),
                icon=ft.Icons.REFRESH,
                identifier="tournament-propose-again",
            )
        )
    parts.append(ft.Row(actions, wrap=True, spacing=10, run_spacing=10))
    return _panel("tournament-next", parts)


def _warning(text: str, identifier: str) -> ft.Control:
    """A repeat the director may allow: amber, not the colour of a fault nor of news."""
    return tagged(
        identifier,
        ft.Container(
            ft.Row(
                [
                    ft.Icon(ft.Icons.WARNING_AMBER, color=ft.Colors.AMBER_800, size=26),
                    ft.Text(text, size=17, expand=True),
                ],
                spacing=10,
            ),
            padding=12,
            border_radius=12,
            border=ft.Border.all(2, ft.Colors.AMBER_700),
        ),
    )


def _player(tour: TournamentScreen, name: str, identifier: str) -> ft.Control:
    chosen = tour.selected == name
    button = (ft.FilledButton if chosen else ft.OutlinedButton)(
        content=ft.Text(name, size=20),
        on_click=with_args(tour.select, name),
        style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=16, vertical=12)),
    )
    return tagged(identifier, button, label=name)


def _who_next(ctx: ViewContext, snap: Snapshot) -> ft.Control:
    """Who plays whom: the round being played (its tables' numbers), else the next one."""
    parts: list[ft.Control] = []
    t = snap.tournament
    rnd = snap.next_round
    if rnd is not None:
        parts.append(heading(ctx.t("tournament.next", n=rnd.number, total=t.rounds), 24))
        for table in rnd.tables:
            parts.append(ft.Text(" – ".join(table), size=NAME))
        byes = rnd.byes
    elif t.played:
        last = t.played[-1]
        key = "tournament.round_done" if snap.complete else "tournament.now_playing"
        parts.append(heading(ctx.t(key, n=last.number), 24))
        manual = {pt.table: pt.manual for pt in last.tables}
        for n in snap.of_round(last.number):
            if n.round == last.number:
                m = manual.get(n.table)
                parts.append(
                    ft.Row(
                        [
                            ft.Text(
                                ctx.t("club.table", n=n.table),
                                size=20,
                                weight=ft.FontWeight.BOLD,
                                width=110,
                            ),
                            ft.Text(" – ".join(n.players), size=NAME, expand=True),
                            ft.Text(
                                _status(ctx, n, m.kind if m else None),
                                size=17,
                                color=ft.Colors.ON_SURFACE_VARIANT,
                            ),
                        ],
                        spacing=12,
                    )
                )
        byes = last.byes
        if t.over and snap.complete:
            parts.append(body_text(ctx.t("tournament.over"), 18))
    else:
        byes = ()
    if byes:
        parts.append(body_text(f"{ctx.t('tournament.bye')}: {', '.join(byes)}", 20))
    return _panel("tournament-who", parts)


# --- setting it up ----------------------------------------------------------------------------
def _setup(ctx: ViewContext, tour: TournamentScreen) -> list[ft.Control]:
    from ui.state.club_tournament import FORMATS

    s = tour.setup
    assert s is not None and s.form is not None
    form = s.form
    lang = ctx.app.lang
    out: list[ft.Control] = []
    entrants = [
        _small(
            name, with_args(tour.remove_entrant, name), f"tournament-entrant-{i}", ft.Icons.CLOSE
        )
        for i, name in enumerate(s.entrants)
    ]
    offered = [
        _small(
            name, with_args(tour.add_entrant, name), f"tournament-offer-{i}", ft.Icons.PERSON_ADD
        )
        for i, name in enumerate(tour.offered_players())
    ]
    field = ft.TextField(
        label=ctx.t("tournament.name_label"),
        value=s.name_text,
        on_change=lambda e: tour.set_name_text(str(e.control.value or "")),
        on_submit=lambda _e: tour.add_typed(),
        text_size=20,
        width=320,
        capitalization=ft.TextCapitalization.WORDS,
    )
    players: list[ft.Control] = [
        ft.Row(
            [
                tagged("tournament-name", field),
                big_button(
                    ctx.t("tournament.add"),
                    lambda _e: tour.add_typed(),
                    icon=ft.Icons.ADD,
                    identifier="tournament-add",
                ),
            ],
            wrap=True,
            spacing=10,
        )
    ]
    if entrants:
        players += [
            ft.Row(entrants, wrap=True, spacing=8, run_spacing=8),
            body_text(ctx.t("tournament.remove_hint"), 15, color=ft.Colors.ON_SURFACE_VARIANT),
        ]
    if offered:
        players += [
            body_text(ctx.t("tournament.offered"), 16),
            ft.Row(offered, wrap=True, spacing=8, run_spacing=8),
        ]
    out.append(section(ctx.t("tournament.players"), *players))
    out.append(
        section(
            ctx.t("tournament.format"),
            choice_row(
                [(f, ctx.t(f"tournament.format_{f}")) for f in FORMATS],
                s.format,
                tour.set_format,
                prefix="tournament-format",
            ),
        )
    )
    if s.format == "swiss":
        out.append(
            section(
                ctx.t("tournament.rounds_label"),
                tagged(
                    "tournament-rounds",
                    ft.TextField(
                        value=s.rounds_text,
                        on_change=lambda e: tour.set_rounds(str(e.control.value or "")),
                        keyboard_type=ft.KeyboardType.NUMBER,
                        text_size=20,
                        width=140,
                    ),
                ),
            )
        )
    out.append(
        section(
            ctx.t("tournament.size"),
            choice_row(
                [("2", ctx.t("tournament.size_2")), ("3", ctx.t("tournament.size_3"))],
                str(s.table_size),
                lambda v: tour.set_table_size(int(v)),
                prefix="tournament-size",
            ),
        )
    )
    out.append(
        section(
            ctx.t("tournament.scoring"),
            choice_row(
                [
                    (k, ctx.t(f"tournament.scoring_{k}"))
                    for k in ("wins", "match_points", "game_points")
                ],
                s.scoring,
                tour.set_scoring,
                prefix="tournament-scoring",
            ),
            body_text(
                ctx.t(f"tournament.scoring_said_{s.scoring}"),
                15,
                color=ft.Colors.ON_SURFACE_VARIANT,
            ),
        )
    )
    match: list[ft.Control] = [
        body_text(ctx.t("tournament.variant"), 16, color=ft.Colors.ON_SURFACE_VARIANT),
        choice_row(
            [
                (v, ctx.app.t.get(f"variant.{v}", backend.variant_name(v, lang)))
                for v in tour.variants()
            ],
            form.variant,
            tour.set_variant,
            prefix="tournament-variant",
        ),
    ]
    presets = form.presets()
    if len(presets) > 1:
        match.append(
            body_text(ctx.t("tournament.house_rules"), 16, color=ft.Colors.ON_SURFACE_VARIANT)
        )
        match.append(
            choice_row(
                [(p, backend.preset_title(p, lang)) for p in presets],
                form.preset,
                _rerender(ctx, form.set_preset),
                prefix="tournament-preset",
            )
        )
    if form.by_games:
        match.append(
            tagged(
                "tournament-games",
                ft.TextField(
                    label=ctx.t("tournament.games"),
                    value=form.games_text,
                    on_change=lambda e: form.set_games(str(e.control.value or "")),
                    keyboard_type=ft.KeyboardType.NUMBER,
                    text_size=20,
                    width=200,
                ),
            )
        )
    else:
        match.append(
            tagged(
                "tournament-target",
                ft.TextField(
                    label=ctx.t("tournament.target"),
                    value=form.target_text,
                    on_change=lambda e: form.set_target(str(e.control.value or "")),
                    keyboard_type=ft.KeyboardType.NUMBER,
                    text_size=20,
                    width=200,
                ),
            )
        )
    out.append(section(ctx.t("tournament.match"), *match))
    problem = s.error or tour.setup_problem()
    if problem is not None:
        out.append(banner(_words(ctx, problem), error=True, identifier="tournament-problem"))
    out.append(
        ft.Row(
            [
                big_button(
                    ctx.t("tournament.create"),
                    lambda _e: tour.create(),
                    primary=True,
                    icon=ft.Icons.CHECK,
                    identifier="tournament-create",
                ),
                big_button(
                    ctx.t("tournament.cancel"),
                    lambda _e: tour.cancel_setup(),
                    identifier="tournament-cancel",
                ),
            ],
            wrap=True,
            spacing=10,
        )
    )
    return out


def _rerender(ctx: ViewContext, fn: Callable[[str], object]) -> Callable[[str], None]:
    def handler(value: str) -> None:
        fn(value)
        ctx.app.changed()

    return handler


def _end(ctx: ViewContext, tour: TournamentScreen) -> ft.Control:
    if not tour.confirm_end:  # in a row: a button of its own width, not the screen's
        return ft.Row([_end_button(ctx, tour)])
    return _end_confirm(ctx, tour)


def _end_button(ctx: ViewContext, tour: TournamentScreen) -> ft.Control:
    return _small(
        ctx.t("tournament.end"),
        lambda _e: tour.ask_end(),
        "tournament-end",
        ft.Icons.STOP_CIRCLE,
    )


def _end_confirm(ctx: ViewContext, tour: TournamentScreen) -> ft.Control:
    return ft.Column(
        [
            body_text(ctx.t("tournament.end_confirm"), 17),
            ft.Row(
                [
                    _small(
                        ctx.t("tournament.end_yes"),
                        lambda _e: tour.end(),
                        "tournament-end-yes",
                        ft.Icons.STOP_CIRCLE,
                    ),
                    _small(
                        ctx.t("tournament.keep"),
                        lambda _e: tour.ask_end(False),
                        "tournament-end-no",
                        ft.Icons.PLAY_ARROW,
                    ),
                ],
                wrap=True,
            ),
        ],
        tight=True,
    )


def _small(
    text: str, on_click: Callable[[Any], object], identifier: str, icon: ft.IconData
) -> ft.Control:
    return tagged(
        identifier,
        ft.OutlinedButton(content=ft.Text(text, size=17), icon=icon, on_click=on_click),
        label=text,
    )
