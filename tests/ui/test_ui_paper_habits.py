"""Paper's habits (issue 21): a running total per side under each deal of the sheet, the
Rubicon game said with the rubicon check itself (350 + 160 brisques = 510 < 1000), and the
CSV and PDF carrying each deal's declarations, penalties and brisques, not only its total."""

from __future__ import annotations

import csv
import io
from typing import Any

import flet as ft
from sheet_samples import sample_match
from ui_helpers import walk

from referee.cards import parse_cards
from referee.events import Brisques, Declare, LastTrick, StockExhausted
from referee.match import Match
from ui.i18n import Translator
from ui.state.app import AppState
from ui.state.game_lines import games_info
from ui.state.score import score_sheet
from ui.views import score
from ui.views.common import ViewContext


def test_the_sheet_keeps_a_running_total_per_side_under_each_deal(
    app: AppState, store: Any
) -> None:
    mid = sample_match(store, 3, deals=3, in_play=False)
    sheet = score_sheet(store.load_match(mid))
    running = sheet.running()
    assert running[-1] == sheet.totals
    assert running[1] == tuple(a + b for a, b in zip(sheet.rows[0].scores, sheet.rows[1].scores,
                                                      strict=True))
    app.open_match(mid)
    app.show_score()
    body = score.build(ViewContext(app=app, page=None)).body  # type: ignore[arg-type]
    shown = {c.identifier: c.content.value for c in walk(body)
             if isinstance(c, ft.Semantics) and str(c.identifier or "").startswith("sheet-run")}
    for deal in (2, 3):
        for side in range(3):
            assert shown[f"sheet-run{deal}-s{side}"] == f"= {running[deal - 1][side]}"
    assert not any(k.startswith("sheet-run1-") for k in shown)  # deal 1: its own score


def rubicon_deal(*events: Any) -> Match:
    m = Match.new("rubicon", ["Anna", "Boris"])
    m.start_deal(0, None)
    for ev in events:
        m.apply(ev)
    return m


def test_the_rubicon_game_shows_the_rubicon_check_itself() -> None:
    # Boris: 350 points and 16 brisques (160): 510, under the line
    m = rubicon_deal(
        Declare(0, tuple(parse_cards(["AH", "10H", "KH", "QH", "JH"])), (), "sequence"),
        Declare(0, tuple(parse_cards(["QS", "QS", "QS", "JD", "JD", "JD"])), ()),
        Declare(1, tuple(parse_cards(["KC", "KD", "KS", "KH"])), ()),
        Declare(1, tuple(parse_cards(["AS", "AH", "AD", "AC"])), ()),
        Declare(1, tuple(parse_cards(["QC", "QD", "QH", "QS"])), ()),
        Declare(1, tuple(parse_cards(["JC", "JD", "JS", "JH"])), ()),
        Declare(1, tuple(parse_cards(["KD", "QD"])), ()),
        StockExhausted(),
        LastTrick(1),  # 100 + 80 + 60 + 40 + 20 + 50 = 350
        Brisques({0: 16, 1: 16}),
    )
    game = m.game(0)
    assert game is not None and game.points[1] == 350 and game.rubicon
    for lang, check in (("en", "Boris: 350 + 160 brisques = 510 < 1000"),
                        ("ru", "Boris: 350 + 160 за бриски = 510 < 1000")):
        info = games_info(m, lang)
        assert info is not None and check in info.outcomes[1]


def test_csv_and_pdf_carry_each_deals_entries(app: AppState, store: Any) -> None:
    mid = sample_match(store, 2, deals=2, in_play=False)
    store.record(mid, {"type": "penalty", "player": "Anna", "offence": "P-REVOKE"})
    sheet = score_sheet(store.load_match(mid))
    data = app.matches.export_file(mid, "csv")
    assert data is not None
    rows = list(csv.reader(io.StringIO(data.data.decode("utf-8-sig"))))
    start = rows.index(["Deal", "Side", "Entry", "Points"])
    entries = rows[start + 1:]
    assert [(int(r[0]), r[1], r[2], int(r[3])) for r in entries] == [
        (e.deal, sheet.sides[e.side], e.what, e.points) for e in sheet.entries
    ]
    whats = {r[2] for r in entries}
    assert {"Bezique", "Brisques"} <= whats and any(int(r[3]) < 0 for r in entries)
    for deal in (1, 2):  # every deal's entries, each summing to the deal's score
        for side in range(2):
            mine = [int(r[3]) for r in entries if int(r[0]) == deal and r[1] == sheet.sides[side]]
            assert sum(mine) == sheet.rows[deal - 1].scores[side]
    lines = sheet.detail_lines(Translator("en"))
    assert lines[0].startswith("Deal 1 — Anna: ") and len(lines) == 2
    pdf = app.matches.export_file(mid, "pdf")
    assert pdf is not None and pdf.data.startswith(b"%PDF")
