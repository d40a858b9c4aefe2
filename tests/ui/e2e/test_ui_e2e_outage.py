"""In a real browser on a phone (390×844), against a real PostgreSQL that dies and comes back:
a tap made while it is away shows its ruling, and the screen says it is not saved yet; when
the server is back the entry is saved and the banner goes. A private server is used."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from ui_e2e_harness import AppServer, by_id, free_port, open_app, shot, tap

from referee.storage import Store

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "storage"))
from pg_private import PrivatePostgres, private_postgres

PHONE_390 = {"width": 390, "height": 844}


@pytest.fixture
def pg() -> Iterator[PrivatePostgres]:
    yield from private_postgres()


def test_a_tap_while_postgres_is_away_is_marked_unsaved_then_saved(
    pg: PrivatePostgres, browser: Any
) -> None:
    with Store.open(pg.url) as s:
        mid = s.create_match("two-hand", ["Anna", "Boris"])
        s.start_deal(mid, "Anna", "9H")
    srv = AppServer(pg.url, free_port(), lang="en")
    srv.start()
    try:
        page = open_app(browser, srv.url, viewport=PHONE_390)
        tap(page, "resume")
        by_id(page, "seven-0").wait_for()
        pg.stop()
        tap(page, "seven-0")
        expect(by_id(page, "ruling-verdict")).to_have_text("Accepted")
        by_id(page, "unsaved").wait_for(timeout=30_000)
        expect(by_id(page, "unsaved")).to_contain_text("Entries not saved yet: 1.")
        shot(page, "storage-unsaved-390")
        pg.start()
        by_id(page, "unsaved").wait_for(state="detached", timeout=60_000)
        shot(page, "storage-saved-again-390")
    finally:
        srv.stop()
    with Store.open(pg.url) as s:
        assert [r.kind for r in s.history(mid)] == ["deal", "event"]
