"""End to end, in a real browser: the app served by Flet's web server on 127.0.0.1, driven by
Playwright in Debian's headless Chromium with semantics on.

The issue's scenario: start a two-hand match, record a deal with a bezique, a rejected reuse
(the ruling's text shown), an undo, brisques and the last trick; check the score sheet's
numbers; restart the server and find the match resumed. Every screen is saved as a PNG in
test-artifacts/screenshots/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from ui_e2e_harness import (
    PHONE,
    AppServer,
    Typist,
    blank_page,
    by_id,
    free_port,
    load_app,
    open_app,
    scroll_down,
    shot,
    tap,
    tap_to,
    type_until,
    wait_words,
)


def text_of(page: Page, identifier: str) -> str:
    return str(by_id(page, identifier).first.inner_text()).strip()


def test_two_hand_deal_end_to_end(server: AppServer, browser: Any) -> None:
    sent: list[bytes] = []
    page = open_app(browser, server.url, sent)
    typist = Typist(page, sent)

    # Home
    by_id(page, "new-match").wait_for()
    shot(page, "01-home")

    # New match
    tap(page, "new-match")
    by_id(page, "start-match").wait_for()
    tap(page, "start-match")  # empty names: the form names the fields
    by_id(page, "form-errors").wait_for()
    expect(page.get_by_text("Enter a name.").first).to_be_visible()
    shot(page, "02-new-match-errors")
    typist.type("Player 1", "Anna")
    typist.type("Player 2", "Boris")
    shot(page, "03-new-match")
    tap(page, "start-match")

    # Deal setup: dealer Anna, turn-up 9 of hearts
    by_id(page, "start-deal").wait_for()
    tap(page, "turn-up-9H")
    shot(page, "04-deal-setup")
    tap(page, "start-deal")
    by_id(page, "declare-1").wait_for()
    expect(by_id(page, "phase")).to_contain_text("Phase 1")
    shot(page, "05-deal")

    # Boris declares a bezique with the picker: the options come from the engine
    tap(page, "declare-1")
    tap(page, "tab-cards")  # the free choice (declaring by name: test_ui_e2e_deal.py)
    tap(page, "pick-QS")
    by_id(page, "chosen-0").wait_for()
    tap(page, "pick-JD")
    by_id(page, "option-bezique").wait_for()
    expect(by_id(page, "option-bezique")).to_contain_text("40")
    shot(page, "06-picker")
    tap(page, "option-bezique")
    expect(by_id(page, "deal-score-1")).to_have_text("40")
    expect(by_id(page, "ruling-verdict")).to_have_text("Accepted")
    shot(page, "07-bezique-declared")

    # A rejected reuse: Q♠ from the table with a new K♠ is no marriage after the bezique
    # (the accepted ruling needs no OK: it goes away by itself)
    tap(page, "declare-1")
    tap(page, "tab-cards")
    tap(page, "table-card-QS-0")
    tap(page, "pick-KS")
    by_id(page, "option-marriage").wait_for()
    expect(by_id(page, "option-marriage")).to_contain_text("not allowed")
    shot(page, "08-picker-reuse")
    tap(page, "option-marriage")
    by_id(page, "ruling-text").wait_for()
    expect(by_id(page, "ruling-verdict")).to_have_text("Rejected")
    expect(by_id(page, "ruling-text")).to_contain_text("cannot reuse")
    expect(by_id(page, "ruling-rule")).to_contain_text("R-REUSE")  # the id once, beside it
    expect(by_id(page, "ruling-why")).to_contain_text("Why")
    expect(by_id(page, "deal-score-1")).to_have_text("40")
    shot(page, "09-rejected-reuse")

    # Undo takes the rejected entry back out of the log
    tap(page, "undo")
    by_id(page, "ruling").wait_for(state="detached")
    # the undo is said in the ruling strip's place, for a few seconds; alone at the table,
    # without naming this device ("Undone: …", not "Device 1 undid …")
    wait_words(page, "live-strip", "Undone: ")
    by_id(page, "live-strip").wait_for(state="detached")
    expect(by_id(page, "last-entry")).to_contain_text("bezique")
    expect(by_id(page, "deal-score-1")).to_have_text("40")
    shot(page, "10-after-undo")

    # End of deal: last trick to Anna, brisques 9 and 7 (16 with two packs)
    tap(page, "end-deal")
    by_id(page, "finish-deal").wait_for()
    tap(page, "last-0")
    # typed counts; Boris's 7 follows from the 16 in the packs
    type_until(page, "Anna", "9", "brisque-total", "9 + 7 = 16")
    type_until(page, "Boris", "6", "brisque-total", "9 + 6 = 15")
    tap(page, "finish-deal")  # 15 of 16: refused, the total is named
    by_id(page, "error-brisques").wait_for()
    expect(by_id(page, "error-brisques")).to_contain_text("16")
    type_until(page, "Boris", "7", "brisque-total", "9 + 7 = 16")
    shot(page, "11-end-of-deal")
    tap(page, "finish-deal")
    by_id(page, "summary-0").wait_for()
    wait_words(page, "summary-0", "Anna: 100")
    wait_words(page, "summary-1", "Boris: 110")
    shot(page, "12-deal-summary")

    # Score sheet: 10 + 90 = 100 for Anna, 40 + 70 = 110 for Boris
    tap(page, "summary-score")
    by_id(page, "sheet-total-0").wait_for()
    expect(by_id(page, "sheet-d1-s0")).to_have_text("100")
    expect(by_id(page, "sheet-d1-s1")).to_have_text("110")
    expect(by_id(page, "sheet-total-0")).to_have_text("100")
    expect(by_id(page, "sheet-total-1")).to_have_text("110")
    expect(by_id(page, "sheet-target")).to_contain_text("1000")
    shot(page, "13-score-sheet")

    # Rules, history, players
    tap(page, "nav-back")
    by_id(page, "to-rules").wait_for()
    tap(page, "to-rules")
    by_id(page, "combination-table").wait_for()
    shot(page, "14-rules")
    scroll_down(page, 20_000)
    by_id(page, "example-phase2").wait_for()
    shot(page, "14b-rules-examples")
    typist.type("Search rules", "reuse")
    by_id(page, "rule-R-REUSE").wait_for()
    shot(page, "15-rules-search")
    tap(page, "nav-back")
    by_id(page, "undo").wait_for()
    tap(page, "nav-home")
    by_id(page, "resume").wait_for()
    wait_words(page, "resume-card", "100 : 110")
    tap(page, "history")
    by_id(page, "open-1").wait_for()
    with page.expect_download() as dl:  # the record comes to this device, not the server
        tap(page, "export-json-1")
    assert dl.value.suggested_filename == "bezique-1-Anna-Boris.json"
    assert '"bezique-match/2"' in Path(dl.value.path()).read_text(encoding="utf-8")
    wait_words(page, "notice", "bezique-1-Anna-Boris.json")
    shot(page, "16-history")
    tap(page, "open-1")
    by_id(page, "hist-total-1").wait_for()
    expect(by_id(page, "hist-total-1")).to_have_text("110")
    shot(page, "17-history-match")
    tap(page, "nav-back")
    tap(page, "nav-back")
    tap(page, "stats")
    by_id(page, "stat-Anna").wait_for()
    shot(page, "18-players")
    tap(page, "nav-back")

    # Russian and the dark theme
    tap(page, "lang-toggle")
    expect(by_id(page, "resume")).to_contain_text("Продолжить")
    shot(page, "19-home-ru")
    tap(page, "resume")
    by_id(page, "next-deal").wait_for()
    tap(page, "next-deal")
    by_id(page, "start-deal").wait_for()
    tap(page, "turn-up-7S")
    tap(page, "start-deal")
    by_id(page, "declare-0").wait_for()
    expect(by_id(page, "deal-score-1")).to_have_text("10")  # Boris dealt a turned-up seven
    shot(page, "20-deal-ru")
    tap(page, "declare-0")
    tap(page, "tab-cards")
    tap(page, "pick-KH")
    by_id(page, "chosen-0").wait_for()
    tap(page, "pick-QH")
    by_id(page, "option-marriage").wait_for()
    shot(page, "20b-picker-ru")
    tap(page, "option-marriage")
    expect(by_id(page, "ruling-verdict")).to_have_text("Принято")
    expect(by_id(page, "deal-score-0")).to_have_text("20")
    shot(page, "20c-ruling-ru")
    tap(page, "undo")
    by_id(page, "ruling").wait_for(state="detached")
    expect(by_id(page, "deal-score-0")).to_have_text("0")
    tap_to(page, "to-rules", "combination-table")
    shot(page, "20d-rules-ru")
    tap(page, "nav-back")
    by_id(page, "declare-0").wait_for()
    tap(page, "theme-toggle")
    wait_words(page, "theme-toggle", "светлая")
    tap(page, "theme-toggle")
    wait_words(page, "theme-toggle", "тёмная")
    shot(page, "21-deal-ru-dark")
    page.context.close()

    # Restart the server: the match is found and resumed where it was
    server.stop()
    server.start()
    page2 = open_app(browser, server.url, viewport=PHONE)
    by_id(page2, "resume").wait_for()
    wait_words(page2, "resume-card", "Anna")
    shot(page2, "22-home-after-restart")
    tap(page2, "resume")
    by_id(page2, "declare-0").wait_for()
    expect(by_id(page2, "deal-score-1")).to_have_text("10")
    wait_words(page2, "total-0", "100")
    wait_words(page2, "total-1", "120")
    shot(page2, "23-resumed-phone")
    tap(page2, "declare-0")
    tap(page2, "tab-cards")
    tap(page2, "pick-KH")
    by_id(page2, "chosen-0").wait_for()
    tap(page2, "pick-QH")
    by_id(page2, "option-marriage").wait_for()
    shot(page2, "24-picker-phone")
    tap(page2, "picker-cancel")
    by_id(page2, "declare-0").wait_for()
    page2.context.close()


@pytest.mark.parametrize(("locale", "words"), [("ru-RU", "Новая партия"), ("en-GB", "New match")])
def test_the_system_language_is_the_default(
    tmp_path: Path, browser: Any, locale: str, words: str
) -> None:
    srv = AppServer(f"sqlite:///{tmp_path / 'lang.sqlite3'}", free_port(), lang=None)
    srv.start()
    try:
        page = blank_page(browser, locale=locale)
        load_app(page, srv.url)
        by_id(page, "new-match").wait_for()
        expect(by_id(page, "new-match")).to_contain_text(words)
        shot(page, f"00-home-system-{locale}")
        page.context.close()
    finally:
        srv.stop()


def test_cards_tracking_trick_form(server: AppServer, browser: Any) -> None:
    sent: list[bytes] = []
    page = open_app(browser, server.url, sent)
    typist = Typist(page, sent)
    tap(page, "new-match")
    by_id(page, "start-match").wait_for()
    typist.type("Player 1", "Anna")
    typist.type("Player 2", "Boris")
    tap(page, "tracking-cards")
    wait_words(page, "tracking-cards", "Cards")
    tap(page, "start-match")
    by_id(page, "start-deal").wait_for()
    tap(page, "turn-up-9H")
    tap(page, "start-deal")
    by_id(page, "record-trick").wait_for()
    expect(by_id(page, "stock")).to_contain_text("24")
    tap(page, "record-trick")
    by_id(page, "trick-record").wait_for()
    for seat, rank, suit in ((1, "A", "S"), (0, "7", "S")):
        tap(page, f"trick-rank-{seat}-{rank}")
        tap(page, f"trick-suit-{seat}-{suit}")
    tap(page, "trick-winner-1")
    shot(page, "25-trick-form")
    tap(page, "trick-record")
    by_id(page, "trick-record").wait_for(state="detached")
    expect(by_id(page, "stock")).to_contain_text("23")
    shot(page, "26-after-trick")
    page.context.close()


def test_language_and_theme_are_remembered_on_the_device(tmp_path: Path, browser: Any) -> None:
    srv = AppServer(f"sqlite:///{tmp_path / 'prefs.sqlite3'}", free_port(), lang=None)
    srv.start()
    try:
        page = blank_page(browser, locale="en-GB")
        load_app(page, srv.url)
        by_id(page, "new-match").wait_for()
        tap(page, "lang-toggle")
        expect(by_id(page, "new-match")).to_contain_text("Новая партия")
        tap(page, "theme-toggle")
        wait_words(page, "theme-toggle", "светлая")
        page.wait_for_function(  # the client has stored the choice (browser storage)
            """() => Object.keys(localStorage).some(
                (k) => k.endsWith('bezique.theme') && localStorage.getItem(k).includes('light'))"""
        )
        page.reload()
        load_app(page, srv.url)
        by_id(page, "new-match").wait_for()
        expect(by_id(page, "new-match")).to_contain_text("Новая партия")
        wait_words(page, "theme-toggle", "светлая")
        page.context.close()
    finally:
        srv.stop()
