"""The club's ratings on the director's screen (issue #24): the leaderboard with the records
and how the rating works, and a player's page (rating curve, history, rename, merge). Thin:
everything shown and done is ui/state/club_ratings.py's. Big type for a projector at
1280×800, one column on a 360 px phone."""

from __future__ import annotations

from typing import Any

import flet as ft

from ui.state.club_ratings import (
    BoardRow,
    Curve,
    DealRow,
    DoublesRow,
    HistoryRow,
    PlayerPage,
    RatingsScreen,
)
from ui.views.common import (
    VIEWPORT_WIDTH,
    View,
    ViewContext,
    app_bar,
    banner,
    big_button,
    body_text,
    heading,
    narrow,
    scroll_body,
    tagged,
    with_args,
)

CURVE_COLOUR = "#2E7D32"
STRETCH = ft.CrossAxisAlignment.STRETCH
WIDE = 1000  # px: the records beside the leaderboard, not below it


def _ratings(ctx: ViewContext) -> RatingsScreen | None:
    club = ctx.app.club
    return None if club is None else club.ratings


def number(value: float) -> str:
    """A rating to one decimal, with a real minus sign."""
    text = f"{abs(value):.1f}"
    return f"\u2212{text}" if round(value, 1) < 0 else text


def signed(value: float) -> str:
    if round(value, 1) == 0:
        return "±0.0"
    return f"+{value:.1f}" if value > 0 else f"\u2212{abs(value):.1f}"


def _date(at: Any) -> str:
    return f"{at:%Y-%m-%d}"


def _notice(
    ctx: ViewContext, out: list[ft.Control], at: str | None = None, *, anywhere: bool = False
) -> None:
    """The app's notice, where it belongs: above the page, or beside the action ``at``
    (rename, merge) that was refused."""
    n = ctx.app.notice
    rs = _ratings(ctx)
    said_at = rs.said_at if rs is not None and ctx.app.screen == "club_player" else None
    if n is not None and (said_at == at or anywhere):
        out.append(banner(ctx.t(n.key, **n.args), error=n.error, identifier="ratings-notice"))


def _keyed(out: list[ft.Control], prefix: str) -> list[ft.Control]:
    for i, c in enumerate(out):
        if c.key is None:
            c.key = f"{prefix}-{i}"
    return out


# --- the leaderboard --------------------------------------------------------------------------
def build_board(ctx: ViewContext) -> View:
    rs = _ratings(ctx)
    bar = app_bar(ctx, ctx.t("club_ratings.title"))
    if rs is None or not rs.allowed():  # never drawn for a session without the director's
        return View(scroll_body([]), bar)
    out: list[ft.Control] = []
    _notice(ctx, out)
    board = rs.board()
    skipped = rs.skipped()
    if skipped:
        out.append(_skipped(ctx, skipped))
    deals, doubles = rs.records()
    left = [_board(ctx, board)]
    unrated = rs.unrated()
    if unrated:
        left.append(_unrated(ctx, unrated))
    right = [_records(ctx, deals, doubles), _model(ctx)]
    width = VIEWPORT_WIDTH.get() or 1280.0
    if width >= WIDE:
        out.append(
            ft.Row(  # two columns side by side, each as tall as it needs
                [
                    ft.Column(left, expand=7, spacing=14, tight=True, horizontal_alignment=STRETCH),
                    ft.Column(
                        right, expand=5, spacing=14, tight=True, horizontal_alignment=STRETCH
                    ),
                ],
                spacing=24,
                vertical_alignment=ft.CrossAxisAlignment.START,
            )
        )
    else:
        out += [*left, *right]
    return View(scroll_body(_keyed(out, "ratings"), max_width=1400), bar)


def _board(ctx: ViewContext, board: list[BoardRow]) -> ft.Control:
    t = ctx.t
    small = narrow()
    if not board:
        body: list[ft.Control] = [body_text(t("club_ratings.nobody"))]
    elif small:  # a phone: place, name and rating; matches and the last change under the name
        head = ft.Row(
            [
                _cell(t("club_ratings.player"), None, bold=True, size=14),
                _cell(t("club_ratings.rating"), 80, bold=True, size=14, end=True),
            ],
            spacing=6,
        )
        body = [head, *(_board_row(ctx, row, small) for row in board)]
    else:
        head = ft.Row(
            [
                _cell(t("club_ratings.place"), 56, bold=True, size=14),
                _cell(t("club_ratings.player"), None, bold=True, size=14),
                _cell(t("club_ratings.rating"), 96, bold=True, size=14, end=True),
                _cell(t("club_ratings.matches"), 96, bold=True, size=14, end=True),
                _cell(t("club_ratings.last"), 104, bold=True, size=14, end=True),
            ],
            spacing=6,
        )
        body = [head, *(_board_row(ctx, row, small) for row in board)]
    return tagged(
        "ratings-board",
        _panel([heading(t("club_ratings.board"), 22 if small else 26), *body]),
    )


def _trend_colour(change: float) -> str:
    if round(change, 1) > 0:
        return ft.Colors.PRIMARY
    return ft.Colors.ERROR if round(change, 1) < 0 else ft.Colors.ON_SURFACE_VARIANT


def _board_row(ctx: ViewContext, row: BoardRow, small: bool) -> ft.Control:
    rs = _ratings(ctx)
    assert rs is not None
    line: ft.Control
    if small:
        detail = ft.Row(
            [
                ft.Text(
                    ctx.t("club_ratings.played", n=row.matches),
                    size=14,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                ),
                ft.Text(signed(row.trend), size=14, color=_trend_colour(row.trend)),
            ],
            spacing=8,
            tight=True,
        )
        line = ft.Row(
            [
                _cell(str(row.place), 30, size=20, bold=True),
                ft.Column(
                    [_cell(row.name, None, size=19), detail], spacing=0, tight=True, expand=True
                ),
                _cell(number(row.rating), 80, size=24, bold=True, end=True),
            ],
            spacing=6,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
    else:
        line = ft.Row(
            [
                _cell(str(row.place), 56, size=24, bold=True),
                _cell(row.name, None, size=24),
                _cell(number(row.rating), 96, size=26, bold=True, end=True),
                _cell(str(row.matches), 96, size=22, end=True),
                ft.Text(
                    signed(row.trend),
                    size=20,
                    color=_trend_colour(row.trend),
                    width=104,
                    text_align=ft.TextAlign.END,
                    no_wrap=True,
                ),
            ],
            spacing=6,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
    label = ctx.t(
        "club_ratings.row_label",
        place=row.place,
        name=row.name,
        rating=number(row.rating),
        n=row.matches,
        change=signed(row.trend),
    )
    return tagged(
        f"rating-{row.player}",
        ft.Container(
            line,
            on_click=with_args(rs.open_player, row.player),
            padding=ft.Padding.symmetric(vertical=8 if small else 10, horizontal=4),
            border=ft.Border.only(top=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
            ink=True,
        ),
        label=label,
    )


def _cell(
    text: str, width: float | None, *, size: float = 17, bold: bool = False, end: bool = False
) -> ft.Control:
    return ft.Text(
        text,
        size=size,
        weight=ft.FontWeight.BOLD if bold else None,
        width=width,
        expand=width is None,
        no_wrap=True,
        overflow=ft.TextOverflow.ELLIPSIS,
        text_align=ft.TextAlign.END if end else ft.TextAlign.START,
    )


def _unrated(ctx: ViewContext, players: list[tuple[str, str]]) -> ft.Control:
    rs = _ratings(ctx)
    assert rs is not None
    chips: list[ft.Control] = [
        tagged(
            f"rating-{pid}",
            ft.OutlinedButton(
                content=ft.Text(name, size=16), on_click=with_args(rs.open_player, pid)
            ),
            label=name,
        )
        for pid, name in players
    ]
    return tagged(
        "ratings-unrated",
        _panel(
            [
                heading(ctx.t("club_ratings.unrated"), 18),
                body_text(
                    ctx.t("club_ratings.unrated_help"), 15, color=ft.Colors.ON_SURFACE_VARIANT
                ),
                ft.Row(chips, wrap=True, spacing=8, run_spacing=8),
            ]
        ),
    )


def _records(ctx: ViewContext, deals: list[DealRow], doubles: list[DoublesRow]) -> ft.Control:
    t = ctx.t
    parts: list[ft.Control] = [heading(t("club_ratings.records"), 24)]
    parts.append(heading(t("club_ratings.highest_deal"), 18))
    if not deals:
        parts.append(body_text(t("club_ratings.none_yet"), 16, color=ft.Colors.ON_SURFACE_VARIANT))
    for i, d in enumerate(deals[:5]):
        where = t(
            "club_ratings.deal_where",
            match=d.match_id,
            deal=d.deal,
            variant=t(f"variant.{d.variant}"),
            date=_date(d.finished_at),
        )
        parts.append(
            tagged(
                f"record-deal-{i}",
                _record_line(str(d.points), " & ".join(d.players), where, first=i == 0),
            )
        )
    parts.append(heading(t("club_ratings.most_doubles"), 18))
    if not doubles:
        parts.append(body_text(t("club_ratings.none_yet"), 16, color=ft.Colors.ON_SURFACE_VARIANT))
    for i, b in enumerate(doubles[:5]):
        where = t(
            "club_ratings.match_where",
            match=b.match_id,
            variant=t(f"variant.{b.variant}"),
            date=_date(b.finished_at),
        )
        parts.append(
            tagged(
                f"record-doubles-{i}",
                _record_line(str(b.count), b.player, where, first=i == 0),
            )
        )
    return tagged("ratings-records", _panel(parts))


def _record_line(mark: str, who: str, where: str, *, first: bool) -> ft.Control:
    return ft.Row(
        [
            ft.Text(
                mark,
                size=24 if first else 18,
                weight=ft.FontWeight.BOLD,
                width=96,
                no_wrap=True,
            ),
            ft.Column(
                [
                    ft.Text(who, size=18 if first else 16, weight=ft.FontWeight.W_600),
                    ft.Text(where, size=14, color=ft.Colors.ON_SURFACE_VARIANT),
                ],
                spacing=0,
                tight=True,
                expand=True,
            ),
        ],
        spacing=8,
        vertical_alignment=ft.CrossAxisAlignment.START,
    )


def _model(ctx: ViewContext) -> ft.Control:
    return tagged(
        "ratings-model",
        _panel(
            [
                heading(ctx.t("club_ratings.model_title"), 18),
                body_text(ctx.t("club_ratings.model"), 15),
            ]
        ),
    )


def _skipped(ctx: ViewContext, skipped: list[Any]) -> ft.Control:
    lines: list[ft.Control] = [
        ft.Text(
            ctx.t("club_ratings.skipped_title", n=len(skipped)),
            size=17,
            weight=ft.FontWeight.BOLD,
            color=ft.Colors.ON_ERROR_CONTAINER,
        )
    ]
    for s in skipped:
        lines.append(
            ft.Text(
                ctx.t("club_ratings.skipped", match=s.match_id, why=s.why),
                size=15,
                color=ft.Colors.ON_ERROR_CONTAINER,
            )
        )
    return tagged(
        "ratings-skipped",
        ft.Container(
            ft.Column(lines, spacing=4, tight=True),
            bgcolor=ft.Colors.ERROR_CONTAINER,
            padding=14,
            border_radius=12,
        ),
    )


def _panel(parts: list[ft.Control]) -> ft.Control:
    return ft.Container(
        ft.Column(parts, spacing=8, tight=True),
        padding=16,
        border_radius=16,
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
    )


# --- a player's page -------------------------------------------------------------------------
def build_player(ctx: ViewContext) -> View:
    rs = _ratings(ctx)
    page = rs.page() if rs is not None and rs.allowed() else None
    title = page.name if page is not None else ctx.t("club_ratings.title")
    bar = app_bar(ctx, title)
    out: list[ft.Control] = []
    _notice(ctx, out, anywhere=page is None)  # no page: no panel to say it in
    if rs is None or page is None:
        if rs is not None and rs.allowed():
            out.append(body_text(ctx.t("club_ratings.no_player")))
        return View(scroll_body(_keyed(out, "player")), bar)
    out.append(_summary(ctx, page))
    if page.curve is not None:
        out.append(_curve(ctx, page.curve))
    out.append(_history(ctx, page))
    out.append(_rename(ctx, rs, page))
    out.append(_merge(ctx, rs, page))
    return View(scroll_body(_keyed(out, "player"), max_width=1100), bar)


def _summary(ctx: ViewContext, page: PlayerPage) -> ft.Control:
    t = ctx.t
    if page.rating is None or page.place is None:
        line = t("club_ratings.not_rated", n=page.matches)
    else:
        line = t(
            "club_ratings.summary",
            rating=number(page.rating),
            place=page.place,
            n=len(page.history),
        )
    parts: list[ft.Control] = [
        ft.Text(page.name, size=28, weight=ft.FontWeight.BOLD),
        body_text(line, 19),
    ]
    if page.played_as:
        parts.append(
            body_text(
                t("club_ratings.played_as", names=", ".join(page.played_as)),
                15,
                color=ft.Colors.ON_SURFACE_VARIANT,
            )
        )
    return tagged("player-summary", ft.Column(parts, spacing=4, tight=True))


def _curve(ctx: ViewContext, curve: Curve) -> ft.Control:
    """The rating after each match, from the start (flet-charts, as the score sheet's race)."""
    import flet_charts as fch  # type: ignore[import-untyped]

    n = max(1, len(curve.points) - 1)
    step = max(1, n // 8)
    small = narrow()
    chart = fch.LineChart(
        data_series=[
            fch.LineChartData(
                points=[fch.LineChartDataPoint(x=x, y=round(y, 2)) for x, y in curve.points],
                color=CURVE_COLOUR,
                stroke_width=4,
                point=True,
            )
        ],
        min_x=0,
        max_x=n,
        min_y=curve.low,
        max_y=curve.high,
        left_axis=fch.ChartAxis(
            labels=[
                fch.ChartAxisLabel(value=v, label=ft.Text(number(v), size=13)) for v in curve.ticks
            ],
            label_size=48,
            title=ft.Text(ctx.t("club_ratings.curve_y"), size=14),
            title_size=22,
        ),
        bottom_axis=fch.ChartAxis(
            labels=[
                fch.ChartAxisLabel(value=x, label=ft.Text(str(x), size=14))
                for x in range(0, n + 1, step)
            ],
            label_size=28,
            title=ft.Text(ctx.t("club_ratings.curve_x"), size=14),
            title_size=22,
        ),
        horizontal_grid_lines=fch.ChartGridLines(
            color=ft.Colors.OUTLINE_VARIANT,
            width=1,
            interval=curve.ticks[1] - curve.ticks[0] if len(curve.ticks) > 1 else None,
        ),
        interactive=False,
        expand=True,
    )
    ys = [y for _, y in curve.points]
    label = ctx.t(
        "club_ratings.curve_label",
        first=number(ys[0]),
        last=number(ys[-1]),
        low=number(min(ys)),
        high=number(max(ys)),
        n=len(ys) - 1,
    )
    return tagged(
        "player-curve",
        ft.Column(
            [
                heading(ctx.t("club_ratings.curve"), 20),
                ft.Container(
                    chart,
                    height=220 if small else 300,
                    padding=ft.Padding.only(right=16, top=8),
                ),
            ],
            spacing=6,
            tight=True,
        ),
        label=label,
    )


def _history(ctx: ViewContext, page: PlayerPage) -> ft.Control:
    t = ctx.t
    parts: list[ft.Control] = [heading(t("club_ratings.history"), 20)]
    if not page.history:
        parts.append(body_text(t("club_ratings.no_history"), 16))
    small = narrow()
    for row in reversed(page.history):  # the latest first
        parts.append(_history_row(ctx, row, small))
    return tagged("player-history", ft.Column(parts, spacing=6, tight=True))


def _result_words(ctx: ViewContext, row: HistoryRow) -> str:
    t = ctx.t
    vs = " / ".join(" & ".join(side) for side in row.opponents)
    result = t(f"club_ratings.result_{row.result}", place=row.place)
    if row.result == "place":  # came second, third: in words where the language has them
        result = ctx.app.t.get(f"club_ratings.result_place_{row.place}", result)
    scores = "–".join(str(v) for v in (row.score, *row.other_scores))
    if row.partners:
        return t(
            "club_ratings.with_vs",
            partners=" & ".join(row.partners),
            vs=vs,
            result=result,
            scores=scores,
        )
    return t("club_ratings.vs", vs=vs, result=result, scores=scores)


def _history_row(ctx: ViewContext, row: HistoryRow, small: bool) -> ft.Control:
    t = ctx.t
    head = t(
        "club_ratings.match_where",
        match=row.match_id,
        variant=t(f"variant.{row.variant}"),
        date=_date(row.finished_at),
    )
    change_colour = _trend_colour(row.change)
    numbers = ft.Row(
        [
            ft.Text(
                f"{number(row.before)} → {number(row.after)}",
                size=17,
                weight=ft.FontWeight.W_600,
                no_wrap=True,
            ),
            ft.Text(f"({signed(row.change)})", size=16, color=change_colour, no_wrap=True),
        ],
        spacing=6,
        tight=True,
    )
    words = ft.Column(
        [
            ft.Text(head, size=14, color=ft.Colors.ON_SURFACE_VARIANT),
            ft.Text(_result_words(ctx, row), size=17),
        ],
        spacing=0,
        tight=True,
        expand=not small,
    )
    content: ft.Control = (
        ft.Column([words, numbers], spacing=4, tight=True)
        if small
        else ft.Row([words, numbers], spacing=12)
    )
    return tagged(
        f"history-{row.match_id}",
        ft.Container(
            content,
            padding=ft.Padding.symmetric(vertical=8, horizontal=4),
            border=ft.Border.only(top=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
        ),
    )


def _rename(ctx: ViewContext, rs: RatingsScreen, page: PlayerPage) -> ft.Control:
    t = ctx.t
    field = tagged(
        "player-rename-field",
        ft.TextField(
            key=f"rename-{rs.player}-{rs.renames}",
            label=t("club_ratings.new_name"),
            value=rs.rename_text,
            on_change=lambda e: rs.set_rename(str(e.control.value or "")),
            on_submit=lambda _e: rs.rename(),
            text_size=18,
            width=None if narrow() else 360,
            capitalization=ft.TextCapitalization.WORDS,
        ),
    )
    said: list[ft.Control] = []
    _notice(ctx, said, "rename")
    return tagged(
        "player-rename",
        _panel(
            [
                heading(t("club_ratings.rename_title"), 18),
                body_text(t("club_ratings.rename_help", name=page.name), 15),
                *said,
                ft.Row(
                    [
                        field,
                        big_button(
                            t("club_ratings.rename"),
                            lambda _e: rs.rename(),
                            icon=ft.Icons.EDIT,
                            identifier="player-rename-go",
                        ),
                    ],
                    wrap=True,
                    spacing=8,
                    run_spacing=8,
                ),
            ]
        ),
    )


def _merge(ctx: ViewContext, rs: RatingsScreen, page: PlayerPage) -> ft.Control:
    t = ctx.t
    choices = rs.merge_choices()
    parts: list[ft.Control] = [
        heading(t("club_ratings.merge_title"), 18),
        body_text(t("club_ratings.merge_help", name=page.name), 15),
    ]
    _notice(ctx, parts, "merge")
    if not choices:
        parts.append(body_text(t("club_ratings.merge_nobody"), 15))
        return tagged("player-merge", _panel(parts))
    question = rs.merge_question() if rs.confirm_merge else None
    if question is not None:
        parts += [
            tagged(
                "player-merge-question",
                body_text(t("club_ratings.merge_confirm", **question), 17),
            ),
            ft.Row(
                [
                    big_button(
                        t("club_ratings.merge_yes", **question),
                        lambda _e: rs.merge(),
                        icon=ft.Icons.MERGE_TYPE,
                        danger=True,
                        identifier="player-merge-yes",
                    ),
                    big_button(
                        t("club_ratings.merge_no"),
                        lambda _e: rs.cancel_merge(),
                        identifier="player-merge-no",
                    ),
                ],
                wrap=True,
                spacing=8,
                run_spacing=8,
            ),
        ]
        return tagged("player-merge", _panel(parts))
    parts.append(
        ft.Row(
            [
                tagged(
                    "player-merge-into",
                    ft.Dropdown(
                        label=t("club_ratings.merge_into"),
                        value=rs.merge_into,
                        options=[ft.DropdownOption(key=pid, text=name) for pid, name in choices],
                        on_select=lambda e: rs.pick_merge(e.control.value),
                        width=None if narrow() else 360,
                        text_size=18,
                    ),
                ),
                big_button(
                    t("club_ratings.merge"),
                    (lambda _e: rs.ask_merge()) if rs.merge_into is not None else None,
                    icon=ft.Icons.MERGE_TYPE,
                    identifier="player-merge-go",
                ),
            ],
            wrap=True,
            spacing=8,
            run_spacing=8,
        )
    )
    return tagged("player-merge", _panel(parts))
