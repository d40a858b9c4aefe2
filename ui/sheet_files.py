"""The files a match is shared as: its record (JSON, the spec's ``bezique-match/1``), its score
sheet as CSV (for a spreadsheet) and as a one-page PDF (to send to the table's phones).

Everything is bytes in memory: the app hands them to the device that asked (a browser
download, a phone's share/save dialog), never to a folder on the server. The PDF is drawn
with ReportLab and a cut-down DejaVu Sans shipped in ui/assets/fonts (Latin, Cyrillic, the
suits), since PDF's built-in fonts have no Cyrillic.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ui.i18n import Translator
from ui.state.score import ScoreSheet

FONTS = Path(__file__).resolve().parent / "assets" / "fonts"
KINDS = ("json", "csv", "pdf")
MIME = {"json": "application/json", "csv": "text/csv", "pdf": "application/pdf"}


@dataclass(frozen=True)
class ExportFile:
    name: str
    data: bytes
    mime: str


def file_name(match_id: int, players: tuple[str, ...], kind: str) -> str:
    """``bezique-12-Anna-Boris.pdf``: which match, readable in a downloads folder."""
    who = "-".join("".join(ch for ch in p if ch.isalnum()) for p in players)[:60]
    return f"bezique-{match_id}-{who}.{kind}" if who else f"bezique-{match_id}.{kind}"


def record_json(record: dict[str, Any]) -> bytes:
    return json.dumps(record, ensure_ascii=False, indent=1).encode("utf-8")


def sheet_csv(sheet: ScoreSheet, t: Translator) -> bytes:
    """One row per deal, then the totals; UTF-8 with a BOM so spreadsheets read Cyrillic."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow([t("score.deal"), *sheet.sides])
    for row in sheet.rows:
        w.writerow([row.deal, *row.scores])
    w.writerow([t("score.total"), *sheet.totals])
    if sheet.games is not None and sheet.games.games is not None:  # a match over games
        w.writerow([t("rubicon.sheet.csv_games"), sheet.games.games])
    else:
        w.writerow([t("sheet.csv_target"), sheet.target])
    if sheet.finished and sheet.winner:
        w.writerow([t("sheet.csv_winner"), sheet.winner])
    return ("\ufeff" + out.getvalue()).encode("utf-8")


@cache
def _fonts() -> tuple[str, str]:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    pdfmetrics.registerFont(TTFont("SheetSans", str(FONTS / "DejaVuSans-Sheet.ttf")))
    pdfmetrics.registerFont(TTFont("SheetSans-Bold", str(FONTS / "DejaVuSans-Bold-Sheet.ttf")))
    return "SheetSans", "SheetSans-Bold"


def sheet_pdf(
    sheet: ScoreSheet, t: Translator, title: str, subtitle: str, verdict: list[str]
) -> bytes:
    """The score sheet on one A4 page: title, what and when, target, the table (the deal in
    play tinted and said so), the verdict's lines."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    regular, bold = _fonts()
    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A4, title=title, author=t("app.title"))
    h1 = ParagraphStyle("h1", fontName=bold, fontSize=18, leading=23)
    body = ParagraphStyle("body", fontName=regular, fontSize=12, leading=16)
    data: list[list[str]] = [[t("score.deal"), *sheet.sides]]
    data += [[str(r.deal), *(str(v) for v in r.scores)] for r in sheet.rows]
    data.append([t("score.total"), *(str(v) for v in sheet.totals)])
    width = max(60.0, min(120.0, 420.0 / max(1, len(sheet.sides))))
    table = Table(data, repeatRows=1, hAlign="LEFT", colWidths=[60, *[width] * len(sheet.sides)])
    style = [
        ("FONT", (0, 0), (-1, -1), regular, 12),
        ("FONT", (0, 0), (-1, 0), bold, 12),
        ("FONT", (0, -1), (-1, -1), bold, 14),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#E8F5E9")),
        ("TOPPADDING", (0, 0), (-1, -1), 4),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
    ]
    notes: list[str] = []
    for i, row in enumerate(sheet.rows, start=1):
        if row.in_play:
            style.append(("BACKGROUND", (0, i), (-1, i), colors.HexColor("#FFF8E1")))
            notes.append(t("sheet.in_play_note", n=row.deal))
    table.setStyle(TableStyle(style))
    goal = (
        sheet.games.heading(t, sheet.target)
        if sheet.games is not None
        else t("score.target", target=sheet.target)
    )
    story: list[Any] = [
        Paragraph(_escape(title), h1),
        Paragraph(_escape(subtitle), body),
        Paragraph(_escape(goal), body),
        Spacer(1, 8),
        table,
        Spacer(1, 10),
        *(Paragraph(_escape(line), body) for line in [*notes, *verdict]),
    ]
    doc.build(story)
    return buf.getvalue()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
