"""The viewer screen: the live match made for reading across the table — the deal in play
(trumps, phase, stock, who dealt and who leads), each side's total in large figures, points to
go, who won and why, the last ruling, then the score sheet with its Total row, all on a
360×780 phone. It offers nothing to record: a viewer's session is read-only in the backend
as well."""

from __future__ import annotations

from typing import Any

import flet as ft

from referee.games import ahead
from ui.state.common import points_text
from ui.state.score import ScoreSheet, score_sheet
from ui.state.verdict import Verdict
from ui.state.viewer import Reading, reading
from ui.views.cards import suit_badge
from ui.views.common import (
    VIEWPORT_WIDTH,
    View,
    ViewContext,
    app_bar,
    body_text,
    heading,
    narrow,
    scroll_body,
    tagged,
)
from ui.views.fit_text import fitting_size


def build(ctx: ViewContext) -> View:
    app = ctx.app
    session = app.session
    bar = app_bar(ctx, ctx.t("table.viewer.title"), back=True)
    if session is None:
        return View(scroll_body([body_text(ctx.t("score.no_deals"))]), bar)
    r = reading(session.match, app.lang)
    # made to fit a 360×780 phone whole, the sheet's Total row included (issue 22)
    controls: list[ft.Control] = [_play(ctx, r), _totals(ctx, r)]
    if r.verdict is not None:
        controls.append(_verdict(ctx, r.verdict))
    if r.winner is None:  # once won, the verdict says what counts: no last entry
        controls.append(_last(ctx, r))
    keep = max(1, SHEET_ROWS - (r.verdict is not None) - 2 * (box_rows(r) > 1))
    if not narrow():  # a tablet or the host's laptop has the room: every deal on its own
        keep = EVERY_ROW
    controls.append(_sheet(ctx, score_sheet(session.match, app.lang), keep))
    return View(scroll_body(controls, max_width=720), bar)


SHEET_ROWS = 3  # deal rows shown; earlier deals are brought forward in one row, as on paper
EVERY_ROW = 1_000_000


def box_rows(r: Reading) -> int:
    """Rows of side boxes: four sides take two on a phone (three share one row)."""
    return 2 if len(r.sides) > 3 and narrow() else 1


def _play(ctx: ViewContext, r: Reading) -> ft.Control:
    """The deal in play as the deal screen's header says it: trumps, deal and phase, the
    stock, who dealt and who leads; with no deal in play, the deal and the target."""
    deal = ctx.t("table.viewer.deal", n=r.deal_number)
    if not r.deal_number:
        deal = ctx.t("table.viewer.no_deal")
    goal = (
        ctx.t("table.viewer.target", target=r.target)
        if r.games is None
        else ctx.t("rubicon.viewer.games", n=r.games)
    )
    p = r.play
    if p is None:
        return tagged(
            "viewer-play",
            body_text(f"{deal} · {goal}", 19, text_align=ft.TextAlign.CENTER),
        )
    phase = ctx.t("deal.phase2") if p.phase == 2 else ctx.t("deal.phase1")
    lines: list[ft.Control] = [
        tagged(
            "viewer-phase",
            ft.Text(
                f"{deal} · {phase}",
                size=17,
                weight=ft.FontWeight.BOLD,
                no_wrap=True,
                overflow=ft.TextOverflow.ELLIPSIS,
            ),
        )
    ]
    if p.trumps is None:
        lines.append(tagged("viewer-trumps", body_text(ctx.t(p.no_trumps), 15)))
    if p.stock_left is not None:
        lines.append(
            tagged(
                "viewer-stock",
                body_text(
                    ctx.t("deal_screen.stock_tricks", n=p.stock_left, played=p.tricks_played),
                    15,
                ),
            )
        )
    who = [ctx.t("deal_screen.dealer", player=p.dealer)]
    if p.leader is not None:
        key = "deal_screen.first_lead" if p.first_lead_only else "deal_screen.leads"
        who.append(ctx.t(key, player=p.leader))
    lines.append(
        tagged("viewer-who", ft.Text(" · ".join(who), size=16, weight=ft.FontWeight.W_600))
    )
    row: list[ft.Control] = []
    if p.trumps is not None:
        row.append(
            tagged(
                "viewer-trumps",
                suit_badge(p.trumps, 26),
                label=f"{ctx.t('deal.trumps')} {p.trumps.symbol}",
            )
        )
    row.append(ft.Column(lines, spacing=0, tight=True, expand=True))
    return tagged(
        "viewer-play",
        ft.Container(
            content=ft.Row(row, spacing=10, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            padding=ft.Padding.symmetric(horizontal=12, vertical=8),
            border_radius=14,
            bgcolor=ft.Colors.SURFACE_CONTAINER,
        ),
    )


def _verdict(ctx: ViewContext, v: Verdict) -> ft.Control:
    """Who won and why in the engine's words ("Boris took the last trick, so Boris wins the
    partie") with the rule that decided; before that, that this deal ends the partie."""
    lines: list[ft.Control] = []
    if v.winner is not None:
        lines.append(tagged("viewer-winner", heading(v.headline, 24)))
        lines.append(tagged("viewer-reason", body_text(v.reason, 16)))
    else:
        lines.append(tagged("viewer-reason", body_text(v.ends_with_deal or v.goes_on, 16)))
    if v.rule:
        lines.append(
            tagged(
                "viewer-rule",
                body_text(
                    ctx.t("sheet.rule_line", rule=v.rule, title=v.rule_title),
                    14,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                ),
            )
        )
    return tagged(
        "viewer-verdict",
        ft.Container(
            content=ft.Column(lines, spacing=4, tight=True),
            padding=12,
            border_radius=14,
            bgcolor=ft.Colors.PRIMARY_CONTAINER
            if v.winner is not None
            else ft.Colors.TERTIARY_CONTAINER,
        ),
    )


def _sheet(ctx: ViewContext, sheet: ScoreSheet, keep: int) -> ft.Control:
    """Deal by deal in columns that share the width (nothing cut off on a 360 px phone); a
    long match brings its earlier deals forward in one row, so the Total row stays in view."""

    def cell(text: str, *, bold: bool = False, ident: str | None = None, flex: int = 2) -> Any:
        t = ft.Text(
            text,
            size=19 if bold else 18,
            weight=ft.FontWeight.BOLD if bold else None,
            text_align=ft.TextAlign.LEFT if flex == 3 else ft.TextAlign.RIGHT,
            no_wrap=True,
            overflow=ft.TextOverflow.ELLIPSIS,
        )
        return ft.Container(tagged(ident, t) if ident else t, expand=flex)

    def row(first: str, values: list[str], *, bold: bool = False, ident: str = "") -> ft.Row:
        return ft.Row(
            [
                cell(first, bold=bold, flex=3),
                *[
                    cell(v, bold=bold, ident=f"{ident}-{i}" if ident else None)
                    for i, v in enumerate(values)
                ],
            ],
            spacing=8,
        )

    rows: list[ft.Control] = [row(ctx.t("score.deal"), list(sheet.sides), bold=True)]
    rows.append(ft.Divider(height=2))
    if not sheet.rows:
        rows.append(body_text(ctx.t("score.no_deals")))
    carried = brought_forward(sheet, keep)
    if carried is not None:
        last, sums = carried
        label = ctx.t("viewer_sheet.brought_forward", last=last)
        rows.append(row(label, [str(v) for v in sums], ident="viewer-sheet-carried"))
    for r in sheet.rows[len(sheet.rows) - keep if carried is not None else 0 :]:
        label = ctx.t("score.deal_n", n=r.deal) + (" •" if r.in_play else "")
        rows.append(row(label, [str(v) for v in r.scores], ident=f"viewer-sheet-d{r.deal}"))
    rows.append(ft.Divider(height=2))
    rows.append(
        row(
            ctx.t("score.total"),
            [str(v) for v in sheet.totals],
            bold=True,
            ident="viewer-sheet-total",
        )
    )
    return tagged(
        "viewer-sheet",
        ft.Container(
            content=ft.Column(rows, spacing=4, tight=True),
            padding=ft.Padding.symmetric(horizontal=14, vertical=10),
            border_radius=14,
            bgcolor=ft.Colors.SURFACE_CONTAINER,
        ),
    )


def brought_forward(sheet: ScoreSheet, keep: int) -> tuple[int, tuple[int, ...]] | None:
    """(the last deal brought forward, each side's points up to it) when the sheet has more
    deal rows than ``keep`` (None: every row shows). The points are the totals less the
    rows shown, so the column adds up to the Total row as a paper sheet's does."""
    if len(sheet.rows) <= keep:
        return None
    shown = sheet.rows[len(sheet.rows) - keep :]
    sums = tuple(
        total - sum(r.scores[i] for r in shown) for i, total in enumerate(sheet.totals)
    )
    return shown[0].deal - 1, sums


def _totals(ctx: ViewContext, r: Reading) -> ft.Control:
    """One big block per side: name, total (the largest thing on screen), points to go."""
    per_row = 2 if box_rows(r) > 1 else len(r.sides)
    width = VIEWPORT_WIDTH.get()
    box = None if width is None else (min(width, 720) - 32 - 10 * (per_row - 1)) / per_row - 16
    totals = [points_text(side.total) for side in r.sides]
    # one line, never "110" over "0"; three or four sides on a phone are smaller boxes, so
    # the sheet's Total row stays on a 360×780 screen
    compact = len(r.sides) > 2 and narrow()
    two_rows = box_rows(r) > 1
    big = fitting_size(totals, box, (40 if two_rows else 48 if compact else 64) if narrow() else 88)
    lead = leader(r)
    to_go = r.games is None and r.winner is None
    blocks: list[ft.Control] = []
    for i, side in enumerate(r.sides):
        blocks.append(
            ft.Container(
                content=ft.Column(
                    [
                        ft.Text(
                            side.name,
                            size=16 if two_rows else 18 if compact else 22,
                            weight=ft.FontWeight.W_600,
                            no_wrap=True,
                            overflow=ft.TextOverflow.ELLIPSIS,
                            text_align=ft.TextAlign.CENTER,
                        ),
                        tagged(
                            f"viewer-total-{i}",
                            ft.Text(
                                totals[i],
                                size=big,
                                weight=ft.FontWeight.BOLD,
                                text_align=ft.TextAlign.CENTER,
                                no_wrap=True,
                            ),
                        ),
                        *(
                            [
                                body_text(
                                    ctx.t("table.viewer.to_go", points=side.to_go),
                                    13 if two_rows else 14 if compact else 17,
                                    text_align=ft.TextAlign.CENTER,
                                )
                            ]
                            if to_go
                            else []  # no points to go over games, nor once it is won
                        ),
                        tagged(
                            f"viewer-deal-{i}",
                            body_text(
                                f"+{side.deal}" if side.deal >= 0 else str(side.deal),
                                14 if two_rows else 16 if compact else 19,
                                text_align=ft.TextAlign.CENTER,
                                color=ft.Colors.ON_SURFACE_VARIANT,
                            ),
                        ),
                    ],
                    spacing=2,
                    tight=True,
                    horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                ),
                padding=ft.Padding.symmetric(
                    horizontal=4 if compact else 8, vertical=4 if two_rows else 8
                ),
                border_radius=16,
                # green for the side ahead (or the winner) only: across the table green reads
                # "winning"; level sides are both plain
                bgcolor=ft.Colors.PRIMARY_CONTAINER if i == lead else ft.Colors.SURFACE_CONTAINER,
                expand=True,
            )
        )
    rows = (
        [ft.Row(blocks[i : i + 2], spacing=10) for i in range(0, len(blocks), 2)]
        if box_rows(r) > 1
        else [ft.Row(blocks, spacing=10)]
    )
    return tagged(
        "viewer-totals",
        ft.Column(rows, spacing=6 if two_rows else 10, tight=True),
    )


def leader(r: Reading) -> int | None:
    """The side to paint as ahead: the winner once there is one, else the one highest total
    (None when level)."""
    names = [side.name for side in r.sides]
    if r.winner is not None and r.winner in names:
        return names.index(r.winner)
    return ahead([side.total for side in r.sides])


def _last(ctx: ViewContext, r: Reading) -> ft.Control:
    text = r.last_ruling or ctx.t("table.viewer.none")
    return tagged(
        "viewer-last",
        ft.Container(
            content=ft.Column(
                [
                    heading(ctx.t("table.viewer.last"), 15),
                    ft.Text(text, size=18, max_lines=3, overflow=ft.TextOverflow.ELLIPSIS),
                ],
                spacing=2,
                tight=True,
            ),
            padding=ft.Padding.symmetric(horizontal=14, vertical=10),
            border_radius=14,
            bgcolor=ft.Colors.SECONDARY_CONTAINER if r.last_accepted else ft.Colors.ERROR_CONTAINER,
        ),
    )
