"""A new match is on every phone at the table the moment it is created (issue 22), before its
first deal: real server in table mode, three phones at 360×780 joined by their links (two
scorers, one viewer). Before, the other phones kept "No match in progress" and a big New
match button until the first deal started."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import TableServer

from ui.i18n import load_catalog

PHONE_360 = {"width": 360, "height": 780}
WAIT = 60_000  # a loaded 2-core machine (the whole suite): never a timing test


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    from ui_e2e_harness import launch

    with sync_playwright() as pw:
        b = launch(pw, foreground=True)  # three phones: the windows behind keep painting
        yield b
        b.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableServer]:
    from ui_e2e_harness import free_port

    srv = TableServer(
        f"sqlite:///{tmp_path / 'new.sqlite3'}", free_port(), tmp_path / "log", tmp_path / "st",
        lang=None,
    )
    srv.start()
    yield srv
    srv.stop()


def phone(browser: Any, link: str, locale: str, sent: list[bytes] | None = None) -> Any:
    from ui_e2e_harness import blank_page, by_id, load_app

    page = blank_page(browser, sent, viewport=PHONE_360, locale=locale)
    load_app(page, link)
    by_id(page, "history").first.wait_for(timeout=60_000)
    return page


def test_every_phone_hears_of_a_new_match_before_its_first_deal(
    table: TableServer, browser: Any
) -> None:
    from ui_e2e_harness import by_id, shot, tap, wait_words

    sent: list[bytes] = []
    anna = phone(browser, table.link("scorer"), "en-US", sent)
    boris = phone(browser, table.link("scorer"), "ru-RU")
    vera = phone(browser, table.link("viewer"), "en-US")
    ru = load_catalog("ru")
    by_id(boris, "new-match").first.wait_for(timeout=WAIT)  # nothing to resume yet
    assert by_id(boris, "resume-card").count() == 0
    tap(anna, "new-match")
    for label, name in (("Player 1", "Anna"), ("Player 2", "Boris")):
        box = anna.get_by_role("textbox", name=label)
        box.click()
        box.fill(name)
        deadline = time.monotonic() + 10
        while not any(name.encode() in f for f in sent) and time.monotonic() < deadline:
            anna.wait_for_timeout(25)
    tap(anna, "start-match")
    by_id(anna, "start-deal").wait_for(timeout=WAIT)  # created: its first deal not started

    # Boris's phone (Russian): the match to resume, and why, on his Home
    by_id(boris, "resume-card").first.wait_for(timeout=WAIT)
    wait_words(boris, "resume-card", "Anna — Boris", timeout=WAIT)
    news = ru["new_match_news.home"].split("{device}", 1)[1].split("{players}", 1)[0].strip()
    wait_words(boris, "notice", news, timeout=WAIT)
    wait_words(boris, "notice", "Anna — Boris", timeout=WAIT)
    shot(boris, "issue22-new-match-scorer-home-360-ru")
    # the viewer follows the table to the new match
    by_id(vera, "viewer-totals").first.wait_for(timeout=WAIT)
    wait_words(vera, "viewer-totals", "Anna", timeout=WAIT)
    wait_words(vera, "viewer-totals", "Boris", timeout=WAIT)
    shot(vera, "issue22-new-match-viewer-360-en")
    for p in (anna, boris, vera):
        p.context.close()
