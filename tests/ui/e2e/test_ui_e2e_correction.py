"""Correcting an entry in a real browser on a phone (390×844): deal 1's bezique was Anna's,
not Boris's. From the match's entries, "Correct", pick Anna, see what it changes (the totals,
and Anna's later sequence that now reuses her Q♠), confirm, and see the list of changes and
the new totals. Screenshots go to test-artifacts/screenshots/ (60-…)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from ui_e2e_harness import AppServer, by_id, free_port, open_app, shot, tap, tap_to, wait_words

from referee.storage import Store

PHONE_390 = {"width": 390, "height": 844}


@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[tuple[AppServer, int]]:
    """A match whose deal 1 (spades trumps) has Boris's bezique, Anna's marriage of clubs
    and Anna's trump sequence reusing a Q♠ she does not have on her table (rejected)."""
    path = tmp_path / "e2e.sqlite3"
    with Store.open(path) as store:
        mid = store.create_match("two-hand", ["Anna", "Boris"])
        store.start_deal(mid, "Anna", "9S")
        store.record(mid, {"type": "declare", "player": "Boris", "new": ["QS", "JD"]})
        store.record(mid, {"type": "declare", "player": "Anna", "new": ["KC", "QC"]})
        store.record(
            mid,
            {"type": "declare", "player": "Anna", "new": ["AS", "10S", "KS", "JS"],
             "table": ["QS"]},
        )
    srv = AppServer(f"sqlite:///{path}", free_port(), lang="en")
    srv.start()
    yield srv, mid
    srv.stop()


def test_correcting_a_beziques_player_on_a_phone(
    seeded: tuple[AppServer, int], browser: Any
) -> None:
    server, mid = seeded
    page = open_app(browser, server.url, viewport=PHONE_390)
    tap_to(page, "history", f"match-{mid}")
    tap_to(page, f"open-{mid}", "open-entries")
    tap_to(page, "open-entries", "entry-0-0")
    wait_words(page, "entry-0-0", "Boris declares bezique")
    wait_words(page, "entry-0-2", "not among Anna")
    shot(page, "60-correction-entries-phone")

    tap_to(page, "correct-0-0", "corr-original")
    wait_words(page, "corr-original", "Boris declares bezique")
    shot(page, "61-correction-start-phone")
    tap(page, "corr-player-0")
    by_id(page, "corr-preview").wait_for()
    wait_words(page, "ch-total-0", "Anna: 20 → 310 in all")
    wait_words(page, "ch-total-1", "Boris: 40 → 0 in all")
    wait_words(page, "ch-flip-0-2", "entry 3 is now accepted")
    shot(page, "62-correction-preview-phone")
    # nothing is stored before confirming
    with Store.open(Path(server.db_url.removeprefix("sqlite:///"))) as store:
        assert store.load_match(mid).totals() == [20, 40]

    tap(page, "corr-confirm")
    by_id(page, "corr-done").wait_for()
    wait_words(page, "corr-done", "Corrected")
    wait_words(page, "ch-flip-0-2", "now accepted")
    expect(by_id(page, "corr-total-0")).to_contain_text("310")
    expect(by_id(page, "corr-total-1")).to_contain_text("0")
    shot(page, "63-correction-done-phone")

    # the entries show the correction, and what was first recorded
    tap_to(page, "corr-back", "entry-0-0")
    wait_words(page, "entry-0-0", "Anna declares bezique")
    wait_words(page, "entry-0-0", "First recorded: Boris: Q♠ J♦")
    shot(page, "64-correction-entries-after-phone")
    with Store.open(Path(server.db_url.removeprefix("sqlite:///"))) as store:
        assert store.load_match(mid).totals() == [310, 0]
        assert store.export_match(mid)["deals"][0]["events"][0]["player"] == "Anna"

    # the cards of Anna's marriage, through the deal screen's picker (tables as they were)
    tap_to(page, "correct-0-1", "corr-cards")
    tap_to(page, "corr-cards", "options")
    by_id(page, "chosen-1").wait_for()
    expect(by_id(page, "table-card-QS-0")).to_have_count(1)  # her bezique came before
    tap(page, "chosen-1")
    tap(page, "chosen-0")
    tap(page, "pick-KH")
    tap(page, "pick-QH")
    by_id(page, "option-marriage").wait_for()
    shot(page, "65-correction-picker-phone")
    tap(page, "option-marriage")
    by_id(page, "corr-preview").wait_for()
    shot(page, "66-correction-cards-preview-phone")

    # in Russian
    tap(page, "lang-toggle")
    wait_words(page, "corr-preview", "Что изменит исправление")
    shot(page, "67-correction-preview-ru-phone")
