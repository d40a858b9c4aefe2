"""Issue #21 in a real browser at 360×780: *Import a match* of a ``bezique-match/2`` file
(docs/match-record-2.md) played two days before lists the match in History with the date it
was played, not the day it was imported, and the notice says that date, in English and in
Russian. Screenshots: test-artifacts/screenshots/import-played-01-history-{en,ru}.png (looked
at)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from ui_e2e_harness import AppServer, blank_page, by_id, free_port, load_app, shot, tap, tap_to
from ui_e2e_harness import wait_words as words

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from sheet_samples import sample_match

from ui import backend

SIZE = {"width": 360, "height": 780}
WORDS = {
    "en": ("imported Anna — Boris", "played 2026-11-28 19:15"),
    "ru": ("загружена партия Anna — Boris", "сыграна 2026-11-28 19:15"),
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_an_imported_version_2_match_shows_the_date_it_was_played_in_history(
    tmp_path: Path, browser: Any, lang: str
) -> None:
    source = backend.open_store(f"sqlite:///{tmp_path / 'phone-a.sqlite3'}")
    try:  # the match as another device exported it, started on 28 November at 20:15 (+01:00)
        mid = sample_match(source, 2, deals=2, in_play=False)
        record = source.export_match(mid) | {"played": "2026-11-28T20:15:00+01:00"}
    finally:
        source.close()
    assert record["format"] == "bezique-match/2"
    picked = tmp_path / "anna-boris.json"
    picked.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")

    url = f"sqlite:///{tmp_path / 'phone-b.sqlite3'}"
    backend.open_store(url).close()
    server = AppServer(url, free_port(), lang=lang)
    server.start()
    try:
        page = blank_page(browser, viewport=SIZE)
        page.context.set_default_timeout(20_000)
        load_app(page, server.url)
        tap_to(page, "history", "import")
        with page.expect_file_chooser() as fc:
            tap(page, "import")
        fc.value.set_files(str(picked))
        imported, played = WORDS[lang]
        words(page, "notice", imported)
        words(page, "notice", played)  # UTC, as History shows every date
        card = by_id(page, "match-1")
        card.wait_for()
        words(page, "match-1", "2026-11-28 19:15")
        shot(page, f"import-played-01-history-{lang}")
        page.context.close()
    finally:
        server.stop()
