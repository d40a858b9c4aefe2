"""QA P20 in a real browser against a real table server: the host's own screen (the laptop's
browser on 127.0.0.1) offers "Phones at the table: show the join codes" on Home and shows both
codes large at phone size, in the host's language; a viewer's and a scorer's Home show no
entry and no link. /table-links follows the host's language too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import TableServer

from ui.i18n import load_catalog

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    from ui_e2e_harness import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


def test_the_host_screen_shows_the_join_codes_and_the_phones_do_not(
    tmp_path: Path, browser: Any
) -> None:
    from ui_e2e_harness import by_id, free_port, load_app, scroll_down, shot, tap, wait_words

    srv = TableServer(
        f"sqlite:///{tmp_path / 'host.sqlite3'}",
        free_port(),
        tmp_path / "server.log",
        tmp_path / "state",
        lang=None,
    )
    srv.start()
    en, ru = load_catalog("en"), load_catalog("ru")
    try:
        host = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
        load_app(host, srv.host_url)
        by_id(host, "join-codes").first.wait_for(timeout=60_000)
        host.get_by_text(en["hostlinks.show"]).first.wait_for(timeout=20_000)
        shot(host, "hostlinks-01-host-home")
        tap(host, "join-codes")
        scorer = by_id(host, "join-code-scorer").first
        scorer.wait_for(timeout=20_000)
        wait_words(host, "join-code-scorer", srv.link("scorer"))
        box = scorer.bounding_box()
        assert box is not None and box["width"] >= 300 and box["x"] + box["width"] <= 390
        shot(host, "hostlinks-02-host-codes")
        scroll_down(host, 400)
        by_id(host, "join-code-viewer").first.wait_for(timeout=20_000)
        wait_words(host, "join-code-viewer", srv.link("viewer"))
        shot(host, "hostlinks-03-host-viewer-code")
        scroll_down(host, -2000)
        tap(host, "lang-toggle")  # the host reads Russian: the entry follows
        host.get_by_text(ru["hostlinks.hide"]).first.wait_for(timeout=20_000)
        shot(host, "hostlinks-04-host-codes-ru")

        narrow = browser.new_context(viewport={"width": 360, "height": 780}).new_page()
        load_app(narrow, srv.host_url)  # the narrowest phone: the code fits, nothing cut
        tap(narrow, "join-codes")
        code = by_id(narrow, "join-code-scorer").first
        code.wait_for(timeout=20_000)
        wait_words(narrow, "join-code-scorer", srv.link("scorer"))
        box = code.bounding_box()
        assert box is not None and box["width"] >= 280 and box["x"] + box["width"] <= 360
        shot(narrow, "hostlinks-07-host-codes-360")
        narrow.context.close()

        for role in ("viewer", "scorer"):
            phone = browser.new_context(viewport=PHONE).new_page()
            load_app(phone, srv.link(role))
            by_id(phone, "history").first.wait_for(timeout=60_000)
            assert by_id(phone, "join-codes").count() == 0
            assert phone.get_by_text(en["hostlinks.show"]).count() == 0
            assert "?k=" not in phone.content()
            if role == "viewer":
                shot(phone, "hostlinks-05-viewer-home")
            phone.context.close()

        links = host.context.new_page()
        links.goto(f"{srv.host_url}table-links?lang=ru")
        assert ru["server.links_title"] in links.content()
        links.close()
        host.context.close()
    finally:
        srv.stop()
