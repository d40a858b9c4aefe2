"""In a real browser on a phone (390×844): the new-match form folded behind presets with
remembered names, the rules search ranked for the open match with the table of points on
screen, and Russian counted phrases. Screenshots 40-49 in test-artifacts/screenshots/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect
from ui_e2e_harness import (
    AppServer,
    Typist,
    by_id,
    free_port,
    load_app,
    open_app,
    scroll_down,
    shot,
    tap,
    tap_to,
    wait_words,
)

PHONE_390 = {"width": 390, "height": 844}


def test_presets_remembered_names_and_the_ranked_search_on_a_phone(
    server: AppServer, browser: Any
) -> None:
    sent: list[bytes] = []
    page = open_app(browser, server.url, sent, viewport=PHONE_390)
    typist = Typist(page, sent)
    tap(page, "new-match")
    by_id(page, "start-match").wait_for()
    by_id(page, "preset-defaults").wait_for()
    expect(by_id(page, "house-H-MUST-WIN")).to_have_count(0)  # folded behind "customise"
    expect(by_id(page, "house-H-TARGET")).to_have_count(0)
    typist.type("Player 1", "Anna")
    typist.type("Player 2", "Boris")
    tap(page, "preset-old-rulebook")
    wait_words(page, "house-in-force", "four tricks")
    shot(page, "40-new-match-presets-phone")
    scroll_down(page, 600)
    shot(page, "41-new-match-start-phone")
    tap(page, "customise")
    by_id(page, "house-H-MUST-WIN").wait_for()
    wait_words(page, "house-H-FOUR-TRICKS", "old Russian rulebook")
    shot(page, "42-new-match-customise-phone")
    tap(page, "start-match")
    by_id(page, "start-deal").wait_for()
    tap(page, "turn-up-9H")
    tap(page, "start-deal")
    by_id(page, "declare-1").wait_for()

    # The rules search, for this match: the bezique first, the house rule that is off marked
    tap_to(page, "to-rules", "combination-table")
    typist.type("Search rules", "bezik")
    by_id(page, "rule-C-BEZIQUE").wait_for()
    by_id(page, "combination-table").wait_for()  # the table of points stays
    wait_words(page, "standing-H-BEZIQUE-PAIR", "Off in this match")
    scroll_down(page, 500)
    shot(page, "43-rules-search-bezik-phone")
    scroll_down(page, -2000)  # back to the search field
    typist.type("Search rules", "what is a bezique")
    by_id(page, "rule-C-BEZIQUE").wait_for()
    shot(page, "44-rules-search-question-phone")
    typist.type("Search rules", "bezique by the trump suit")
    wait_words(page, "standing-H-BEZIQUE-PAIR", "Off in this match")
    shot(page, "44b-rules-search-house-rule-off-phone")
    typist.type("Search rules", "four tricks")
    wait_words(page, "standing-H-FOUR-TRICKS", "On in this match")  # the preset chosen

    # The app opened again on the same device (its browser storage, a new session): the
    # names of the last match are there and suggested
    page.wait_for_function(  # the client has stored them
        """() => Object.keys(localStorage).some((k) => k.endsWith('bezique.new_match'))"""
    )
    device = page.context.storage_state()
    page.context.close()
    page = browser.new_context(viewport=PHONE_390, storage_state=device).new_page()
    sent.clear()

    def keep(payload: str | bytes) -> None:
        sent.append(payload.encode() if isinstance(payload, str) else payload)

    page.on("websocket", lambda ws: ws.on("framesent", keep))
    typist = Typist(page, sent)
    load_app(page, server.url)
    by_id(page, "resume").wait_for()
    tap(page, "new-match")
    tap(page, "new-anyway")  # a match is unfinished: Home asks first
    by_id(page, "start-match").wait_for()
    tap(page, "variant-four-hand")
    # the names typed last time are in seats 1 and 2 (the partner line names them)
    wait_words(page, "partners", "Anna & Player 3 against Boris & Player 4")
    typist.type("Player 3", "Clara")
    typist.type("Player 4", "David")
    wait_words(page, "partners", "Anna & Clara against Boris & David")
    shot(page, "45-four-hand-partners-phone")
    page.context.close()


def test_russian_counted_phrases_and_search_in_the_browser(tmp_path: Path, browser: Any) -> None:
    srv = AppServer(f"sqlite:///{tmp_path / 'ru.sqlite3'}", free_port(), lang="ru")
    srv.start()
    try:
        sent: list[bytes] = []
        page = open_app(browser, srv.url, sent, viewport=PHONE_390)
        typist = Typist(page, sent)
        tap(page, "new-match")
        by_id(page, "start-match").wait_for()
        typist.type("Игрок 1", "Анна")
        typist.type("Игрок 2", "Б" * 30)
        tap(page, "start-match")  # a name too long: «Не больше 24 символов»
        by_id(page, "form-errors").wait_for()
        expect(page.get_by_text("Не больше 24 символов.").first).to_be_visible()
        typist.type("Игрок 2", "Борис")
        scroll_down(page, 500)  # the error banners pushed the presets down
        tap(page, "preset-old-rulebook")  # H-FOUR-TRICKS: no declaring before four tricks
        wait_words(page, "house-in-force", "с четвёртой взятки")
        shot(page, "46-new-match-ru-phone")
        tap(page, "tracking-tricks")
        wait_words(page, "tracking-tricks", "Взятки")
        tap(page, "start-match")
        by_id(page, "start-deal").wait_for()
        tap(page, "turn-up-9H")
        tap(page, "start-deal")
        by_id(page, "stock").wait_for()
        expect(by_id(page, "stock")).to_contain_text("24")
        for won, words in ((1, "1 взятка"), (2, "2 взятки")):
            tap(page, "trick-0")
            expect(by_id(page, "stock")).to_contain_text(f"сыграно: {won}")
            tap(page, "declare-0")
            tap(page, "tab-cards")  # the free choice of cards
            tap(page, "pick-KH")
            by_id(page, "chosen-0").wait_for()
            tap(page, "pick-QH")
            by_id(page, "option-trump_marriage").wait_for()
            tap(page, "option-trump_marriage")
            by_id(page, "ruling-text").wait_for()
            expect(by_id(page, "ruling-verdict")).to_have_text("Отклонено")
            expect(by_id(page, "ruling-text")).to_contain_text(f"в этой сдаче {words}")
            shot(page, f"47-four-tricks-{won}-ru-phone")
            tap(page, "undo")
            by_id(page, "ruling").wait_for(state="detached")
        tap_to(page, "to-rules", "combination-table")
        typist.type("Поиск по правилам", "двойной безик")
        by_id(page, "rule-C-DOUBLE-BEZIQUE").wait_for()
        shot(page, "49-rules-search-ru-phone")
        typist.type("Поиск по правилам", "безик")
        wait_words(page, "rule-C-BEZIQUE", "Д♠ В♦")  # Russian ranks on Russian screens
        shot(page, "49b-rules-search-bezik-ru-phone")
        scroll_down(page, 1500)  # the results scroll; the field and the table of points stay
        expect(by_id(page, "combination-table")).to_be_in_viewport()
        expect(page.get_by_role("textbox", name="Поиск по правилам")).to_be_in_viewport()
        shot(page, "49c-rules-search-bezik-scrolled-ru-phone")
        page.context.close()
    finally:
        srv.stop()
