"""Sharing a match where ReportLab cannot be imported (the phone's browser, Pyodide: no Pillow
build): no PDF button that would only fail, the record and the CSV as everywhere, and the sheet
as a picture (SVG) drawn in pure Python instead, from the rows the PDF draws."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest
from sheet_samples import PLAYERS, sample_match
from ui_helpers import order

from ui import i18n, sheet_files
from ui.state.app import AppState
from ui.state.score import score_sheet
from ui.views.common import ViewContext
from ui.views.files import export_buttons

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def fresh_check() -> Iterator[None]:
    """pdf_available remembers its answer: ask again for this test, and after it."""
    sheet_files.pdf_available.cache_clear()
    yield
    sheet_files.pdf_available.cache_clear()


@pytest.fixture
def no_reportlab(monkeypatch: pytest.MonkeyPatch, fresh_check: None) -> None:
    """``import reportlab`` fails here, as where it is not installed."""
    for name in [m for m in sys.modules if m == "reportlab" or m.startswith("reportlab.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "reportlab", None)


def _button_ids(app: AppState, match_id: int) -> list[str]:
    ctx = ViewContext(app=app, page=None)  # type: ignore[arg-type]
    return [i for c in export_buttons(ctx, match_id) for i in order(c)]


def test_pdf_is_available_where_reportlab_imports(fresh_check: None) -> None:
    assert sheet_files.pdf_available()
    assert sheet_files.kinds() == ("json", "csv", "pdf")


def test_pdf_is_unavailable_without_reportlab(no_reportlab: None) -> None:
    assert not sheet_files.pdf_available()
    assert sheet_files.kinds() == ("json", "csv", "svg")


def test_pdf_is_unavailable_where_reportlab_lacks_pillow(
    monkeypatch: pytest.MonkeyPatch, fresh_check: None
) -> None:
    """Pyodide could install ReportLab's pure-Python wheel, but it imports Pillow at once."""
    for name in [m for m in sys.modules if m.split(".")[0] in ("reportlab", "PIL")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "PIL", None)
    assert not sheet_files.pdf_available()


def test_the_export_buttons_offer_the_pdf_where_it_can_be_made(
    app: AppState, store: Any, fresh_check: None
) -> None:
    mid = sample_match(store, 2, deals=1)
    assert _button_ids(app, mid) == [f"export-{k}-{mid}" for k in ("json", "csv", "pdf")]


def test_without_reportlab_no_pdf_button_but_the_sheet_as_a_picture(
    app: AppState, store: Any, no_reportlab: None
) -> None:
    mid = sample_match(store, 2, deals=1)
    assert _button_ids(app, mid) == [f"export-{k}-{mid}" for k in ("json", "csv", "svg")]
    ctx = ViewContext(app=app, page=None)  # type: ignore[arg-type]
    assert export_buttons(ctx, mid)[0].value == app.t("sheet.export_title_svg")  # no "PDF"
    assert "PDF" not in app.t("sheet.export_title_svg")


def test_without_reportlab_the_record_csv_and_picture_export(
    app: AppState, store: Any, no_reportlab: None
) -> None:
    mid = sample_match(store, 3, deals=2)
    kinds = (("json", "application/json"), ("csv", "text/csv"), ("svg", "image/svg+xml"))
    for kind, mime in kinds:
        file = app.matches.export_file(mid, kind)
        assert file is not None, (kind, app.notice)
        assert file.mime == mime and file.name.endswith(f".{kind}") and file.data
    assert app.matches.export_file(mid, "pdf") is None  # asked anyway: a notice, no crash
    assert app.notice is not None and app.notice.error


def _texts(svg: bytes) -> list[str]:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return [el.text or "" for el in root.iter(f"{SVG}text")]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_sheet_picture_is_svg_with_the_names_totals_and_dejavu(
    store: Any, lang: str
) -> None:
    mid = sample_match(store, 3, deals=2)  # and a third deal in play
    sheet = score_sheet(store.load_match(mid), lang)
    t = i18n.Translator(lang)
    svg = sheet_files.sheet_svg(sheet, t, "Anna — Boris — Clara", "Three-hand", ["Nobody yet."])
    assert svg.startswith(b"<?xml") and "DejaVu Sans" in ET.fromstring(svg).get("font-family", "")
    texts = _texts(svg)
    cells = _table_rows(texts, sheet)
    assert cells[0] == [t("score.deal"), *PLAYERS[3]]
    assert cells[-1] == [t("score.total"), *(str(v) for v in sheet.totals)]
    assert [r[1:] for r in cells[1:-1]] == [[str(v) for v in r.scores] for r in sheet.rows]
    in_play = next(r.deal for r in sheet.rows if r.in_play)
    assert t("sheet.in_play_note", n=in_play) in texts
    assert {"Anna — Boris — Clara", "Three-hand", "Nobody yet."} <= set(texts)


def _table_rows(texts: list[str], sheet: Any) -> list[list[str]]:
    """The table's cells, row by row, as drawn after the title, subtitle and target."""
    start = next(i for i, x in enumerate(texts) if x == sheet.sides[0]) - 1
    width = len(sheet.sides) + 1
    body = texts[start : start + width * (len(sheet.rows) + 2)]
    return [body[i : i + width] for i in range(0, len(body), width)]


def test_the_picture_tints_the_deal_in_play_as_the_pdf_does(store: Any) -> None:
    mid = sample_match(store, 2, deals=1)
    sheet = score_sheet(store.load_match(mid), "en")
    root = ET.fromstring(sheet_files.sheet_svg(sheet, i18n.Translator("en"), "A", "B", []))
    fills = [r.get("fill") for r in root.iter(f"{SVG}rect")]
    assert "#E8F5E9" in fills and "#FFF8E1" in fills  # the heading, the deal in play
    done = sample_match(store, 2, deals=1, in_play=False)
    sheet = score_sheet(store.load_match(done), "en")
    root = ET.fromstring(sheet_files.sheet_svg(sheet, i18n.Translator("en"), "A", "B", []))
    assert "#FFF8E1" not in [r.get("fill") for r in root.iter(f"{SVG}rect")]
