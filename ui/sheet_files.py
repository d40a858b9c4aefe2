"""The files a match is shared as: its record (JSON, ``bezique-match/2``: the spec's version 1
plus when it was played, docs/match-record-2.md), its score sheet as CSV (for a spreadsheet)
and as a one-page PDF (to send to the table's phones), or, where no PDF can be made, as a
picture of that page (SVG).

Everything is bytes in memory: the app hands them to the device that asked (a browser
download, a phone's share/save dialog), never to a folder on the server. The PDF is drawn
with ReportLab and a cut-down DejaVu Sans shipped in ui/assets/fonts (Latin, Cyrillic, the
suits), since PDF's built-in fonts have no Cyrillic. ReportLab needs Pillow, which has no
build for the phone's browser (Pyodide): there ``pdf_available`` is false, the PDF is not
offered, and the same page comes as an SVG drawn here in pure Python (text and lines, in
DejaVu Sans by name).
"""

from __future__ import annotations

import csv
import io
import json
import textwrap
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ui.i18n import Translator
from ui.state.score import ScoreSheet

FONTS = Path(__file__).resolve().parent / "assets" / "fonts"
KINDS = ("json", "csv", "pdf", "svg")  # every kind of file; kinds(): those offered here
MIME = {
    "json": "application/json",
    "csv": "text/csv",
    "pdf": "application/pdf",
    "svg": "image/svg+xml",
}


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
    if sheet.entries:  # what paper keeps: each deal's declarations, penalties, brisques
        w.writerow([])
        w.writerow([t(f"paper.csv_{k}") for k in ("deal", "side", "entry", "points")])
        w.writerows([e.deal, sheet.sides[e.side], e.what, e.points] for e in sheet.entries)
    return ("\ufeff" + out.getvalue()).encode("utf-8")


@cache
def pdf_available() -> bool:
    """Whether this Python can draw the PDF: ReportLab and the Pillow it imports are there
    (not in the phone's browser, Pyodide). The one place that decides it."""
    try:
        from reportlab.lib import colors  # noqa: F401
        from reportlab.pdfbase import pdfmetrics  # noqa: F401
        from reportlab.platypus import SimpleDocTemplate  # noqa: F401
    except ImportError:
        return False
    return True


def kinds() -> tuple[str, ...]:
    """The files this device is offered: the record, the CSV, and the sheet as a PDF, or as a
    picture (SVG) where no PDF can be made."""
    return ("json", "csv", "pdf" if pdf_available() else "svg")


def _table(sheet: ScoreSheet, t: Translator) -> list[list[str]]:
    """The sheet's cells as the PDF and the picture draw them: heading, deals, totals."""
    data: list[list[str]] = [[t("score.deal"), *sheet.sides]]
    data += [[str(r.deal), *(str(v) for v in r.scores)] for r in sheet.rows]
    data.append([t("score.total"), *(str(v) for v in sheet.totals)])
    return data


def _goal(sheet: ScoreSheet, t: Translator) -> str:
    """The target, or the games agreed (a match over games has no target)."""
    if sheet.games is not None:
        return sheet.games.heading(t, sheet.target)
    return t("score.target", target=sheet.target)


def _column_width(sheet: ScoreSheet) -> float:
    return max(60.0, min(120.0, 420.0 / max(1, len(sheet.sides))))


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
    data = _table(sheet, t)
    width = _column_width(sheet)
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
    goal = _goal(sheet, t)
    story: list[Any] = [
        Paragraph(_escape(title), h1),
        Paragraph(_escape(subtitle), body),
        Paragraph(_escape(goal), body),
        Spacer(1, 8),
        table,
        Spacer(1, 10),
        *(Paragraph(_escape(line), body) for line in [*notes, *verdict]),
    ]
    details = sheet.detail_lines(t)  # each deal's entries, as paper keeps them
    if details:
        h2 = ParagraphStyle("h2", fontName=bold, fontSize=13, leading=17, spaceBefore=8)
        small = ParagraphStyle("small", fontName=regular, fontSize=10, leading=13)
        story += [Paragraph(_escape(t("paper.details")), h2)]
        story += [Paragraph(_escape(line), small) for line in details]
    doc.build(story)
    return buf.getvalue()


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# The picture's page, in the PDF's measures (points as pixels): margins, sizes, colours.
_SVG_FONT = "DejaVu Sans, Verdana, sans-serif"
_MARGIN = 36.0
_TEXT_WIDTH = 451.0  # an A4 page's text width between ReportLab's default margins
_GRID = "#808080"
_HEADING_FILL = "#E8F5E9"
_IN_PLAY_FILL = "#FFF8E1"


def _wrap(text: str, size: float, width: float) -> list[str]:
    """A paragraph in lines that fit ``width`` (DejaVu Sans averages about 0.6 em a letter;
    SVG text does not wrap by itself)."""
    return textwrap.wrap(text, max(10, int(width / (0.6 * size)))) or [""]


def sheet_svg(
    sheet: ScoreSheet, t: Translator, title: str, subtitle: str, verdict: list[str]
) -> bytes:
    """The PDF's page as a picture (SVG), where no PDF can be made: the same title, lines,
    table (the deal in play tinted and said so) and verdict, drawn as text and lines."""
    data = _table(sheet, t)
    widths = [60.0, *[_column_width(sheet)] * len(sheet.sides)]
    table_width = sum(widths)
    text_width = max(_TEXT_WIDTH, table_width)
    svg = ET.Element("svg", xmlns="http://www.w3.org/2000/svg")
    svg.set("font-family", _SVG_FONT)
    ET.SubElement(svg, "title").text = title
    white = ET.SubElement(svg, "rect", x="0", y="0", width="100%", height="100%")
    white.set("fill", "#FFFFFF")
    y = _MARGIN

    def text(
        x: float, base: float, value: str, size: float, *, bold: bool = False, end: bool = False
    ) -> None:
        el = ET.SubElement(svg, "text", x=f"{x:g}", y=f"{base:g}")
        el.set("font-size", f"{size:g}")
        if bold:
            el.set("font-weight", "bold")
        if end:
            el.set("text-anchor", "end")
        el.text = value

    def paragraph(value: str, size: float, leading: float, *, bold: bool = False) -> None:
        nonlocal y
        for line in _wrap(value, size, text_width):
            text(_MARGIN, y + size, line, size, bold=bold)
            y += leading

    paragraph(title, 18, 23, bold=True)
    paragraph(subtitle, 12, 16)
    paragraph(_goal(sheet, t), 12, 16)
    y += 8
    notes: list[str] = []
    edges = [y]  # the table's horizontal lines
    last = len(data) - 1
    for i, cells in enumerate(data):
        size = 14.0 if i == last else 12.0
        height = size + 10
        in_play = 0 < i < last and sheet.rows[i - 1].in_play
        fill = _HEADING_FILL if i == 0 else _IN_PLAY_FILL if in_play else None
        if fill:
            band = ET.SubElement(svg, "rect", x=f"{_MARGIN:g}", y=f"{y:g}")
            band.set("width", f"{table_width:g}")
            band.set("height", f"{height:g}")
            band.set("fill", fill)
        if in_play:
            notes.append(t("sheet.in_play_note", n=sheet.rows[i - 1].deal))
        x = _MARGIN
        for j, (cell, w) in enumerate(zip(cells, widths, strict=True)):
            base = y + height - 6
            bold = i in (0, last)
            if j == 0:
                text(x + 6, base, cell, size, bold=bold)
            else:
                text(x + w - 6, base, cell, size, bold=bold, end=True)
            x += w
        y += height
        edges.append(y)
    top = edges[0]
    grid = ET.SubElement(svg, "g", stroke=_GRID)
    grid.set("stroke-width", "0.5")
    grid.set("fill", "none")
    x = _MARGIN
    for w in [0.0, *widths]:
        x += w
        ET.SubElement(grid, "line", x1=f"{x:g}", y1=f"{top:g}", x2=f"{x:g}", y2=f"{y:g}")
    right = _MARGIN + table_width
    for e in edges:
        ET.SubElement(grid, "line", x1=f"{_MARGIN:g}", y1=f"{e:g}", x2=f"{right:g}", y2=f"{e:g}")
    y += 10
    for line in [*notes, *verdict]:
        paragraph(line, 12, 16)
    width, height = text_width + 2 * _MARGIN, y + _MARGIN
    svg.set("width", f"{width:g}")
    svg.set("height", f"{height:g}")
    svg.set("viewBox", f"0 0 {width:g} {height:g}")
    out: bytes = ET.tostring(svg, encoding="utf-8", xml_declaration=True)
    return out
