"""QA P31 in a real browser: a phone at the table, set to Russian, while the host restarts
the server with ``--new-table`` (new secrets). Its reconnect is refused (403 at the
handshake); instead of "Reconnecting…" for ever, the notice learns from /table-check that
this phone's link no longer opens the table and says so, in Russian: scan the host's new
code. Scanning it (the new link) brings the phone back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import TableServer

from ui.i18n import load_catalog

PHONE = {"width": 390, "height": 844}
NOTICE = "#bezique-reconnecting"


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    from ui_e2e_harness import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


def test_a_phone_shut_out_by_a_new_table_is_told_to_scan_the_new_code(
    tmp_path: Path, browser: Any
) -> None:
    from ui_e2e_harness import by_id, free_port, load_app, shot, tap

    db, port, state = f"sqlite:///{tmp_path / 'new.sqlite3'}", free_port(), tmp_path / "state"
    old = TableServer(db, port, tmp_path / "old.log", state, lang=None)
    new = TableServer(db, port, tmp_path / "new.log", state, ("--new-table",), lang=None)
    ru = load_catalog("ru")
    old.start()
    try:
        page = browser.new_context(viewport=PHONE).new_page()
        load_app(page, old.link("scorer"))
        tap(page, "lang-toggle")  # this phone reads Russian
        page.get_by_text(ru["home.history"]).first.wait_for(timeout=20_000)
        old.stop()
        notice = page.locator(NOTICE)
        notice.wait_for(state="visible", timeout=15_000)
        page.wait_for_function(
            f"document.querySelector('{NOTICE}').dataset.state === 'away'", timeout=15_000
        )
        assert ru["reconnect.title"] in notice.inner_text()  # away: the usual words

        new.start()
        assert new.secret("scorer") != old.secret("scorer")
        page.wait_for_function(
            f"document.querySelector('{NOTICE}').dataset.state === 'refused'", timeout=30_000
        )
        said = notice.inner_text()
        assert ru["hostlinks.refused_title"] in said and ru["hostlinks.refused_body"] in said
        assert ru["reconnect.body"] not in said
        assert notice.is_visible()
        shot(page, "hostlinks-06-phone-after-new-table-ru")

        load_app(page, new.link("scorer"))  # the phone scans the host's new code
        by_id(page, "history").first.wait_for(timeout=60_000)
        assert page.locator(NOTICE).count() == 0 or not page.locator(NOTICE).is_visible()
        page.context.close()
    finally:
        old.stop()
        new.stop()
