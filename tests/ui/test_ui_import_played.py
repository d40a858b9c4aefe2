"""The app's *Import a match* keeps and tells the date a match was played (issue #21,
docs/match-record-2.md): the app exports ``bezique-match/2`` with ``played``; a version 2 file
is listed in History with its own date and the notice says it; a version 1 file says it carries
no date; a malformed date is refused with its place; the notice is in the screen's language."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sheet_samples import sample_match

from ui import backend
from ui.state.app import AppState

PLAYED = "2026-11-28T20:15:00+01:00"  # listed as 2026-11-28 19:15 (UTC, as History shows)


def _record(store: Any, mid: int, **top: Any) -> bytes:
    return json.dumps(store.export_match(mid) | top).encode()


def test_the_apps_json_export_is_version_2_with_the_start(app: AppState, store: Any) -> None:
    mid = sample_match(store, 2, deals=1, in_play=False)
    f = app.matches.export_file(mid, "json")
    assert f is not None
    obj = json.loads(f.data)
    assert obj["format"] == "bezique-match/2"
    assert obj["played"][:16].replace("T", " ") == backend.summarize(store, mid).created


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_version_2_import_is_listed_with_its_date_and_the_notice_says_it(
    store: Any, tmp_path: Path, lang: str
) -> None:
    mid = sample_match(store, 2, deals=2, in_play=False)
    data = _record(store, mid, played=PLAYED)
    other_store = backend.open_store(f"sqlite:///{tmp_path / 'other.sqlite3'}")
    try:
        other = AppState(other_store, lang=lang)
        new_id = other.matches.import_file("anna.json", data)
        assert new_id is not None
        assert other.notice is not None and other.notice.key == "sheet.imported"
        assert other.notice.args["date"] == "2026-11-28 19:15"
        shown = other.t(other.notice.key, **other.notice.args)
        assert ("played 2026-11-28 19:15" if lang == "en" else "сыграна 2026-11-28 19:15") in (
            shown
        )
        (listed,) = backend.list_matches(other_store)
        assert listed.id == new_id and listed.created == "2026-11-28 19:15"
        assert other.t("history.created", date=listed.created, variant="x").startswith(
            "2026-11-28 19:15"
        )
        # The same file again: recognised, and the notice names the same date.
        assert other.matches.import_file("anna.json", data) == new_id
        assert other.notice is not None and other.notice.key == "sheet.import_already"
        assert other.notice.args["date"] == "2026-11-28 19:15"
    finally:
        other_store.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_version_1_import_says_the_record_carries_no_date(
    store: Any, tmp_path: Path, lang: str
) -> None:
    mid = sample_match(store, 2, deals=1, in_play=False)
    data = json.dumps(store.export_match(mid, format="bezique-match/1")).encode()
    other_store = backend.open_store(f"sqlite:///{tmp_path / 'other.sqlite3'}")
    try:
        other = AppState(other_store, lang=lang)
        new_id = other.matches.import_file("old.json", data)
        assert new_id is not None
        assert other.notice is not None and other.notice.key == "sheet.imported_undated"
        assert other.notice.args["date"] == backend.summarize(other_store, new_id).created
        shown = other.t(other.notice.key, **other.notice.args)
        assert "bezique-match/1" in shown and other.notice.args["date"] in shown
        # Its version 2, with the date it was played: the same match, not stored again.
        assert other.matches.import_file("new.json", _record(store, mid)) == new_id
        assert other.notice is not None and other.notice.key == "sheet.import_already"
        assert len(other_store.list_matches()) == 1
    finally:
        other_store.close()


@pytest.mark.parametrize(
    ("top", "why"),
    [
        ({"played": "yesterday"}, 'not a date-time with an offset: "yesterday"'),
        ({"format": "bezique-match/1", "played": PLAYED}, 'unknown field "played"'),
    ],
)
def test_a_refused_date_names_its_place_and_stores_nothing(
    app: AppState, store: Any, top: dict[str, Any], why: str
) -> None:
    mid = sample_match(store, 2, deals=1, in_play=False)
    before = len(store.list_matches())
    assert app.matches.import_file("x.json", _record(store, mid, **top)) is None
    assert app.notice is not None and app.notice.key == "sheet.import_refused"
    assert app.notice.error and app.notice.args["where"] == "played"
    assert why in str(app.notice.args["why"])
    assert len(store.list_matches()) == before
