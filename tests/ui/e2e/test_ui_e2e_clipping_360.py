"""Nothing cut, nothing below the fold at 360×780 (issue 21), in the real app: the Russian
deal title is whole, a long combination's name keeps both lines, the correction picker's
grid stays where it is when a card is removed, "Confirm the correction", the picker's
"Clear" and the winner screen's "Score sheet" are on screen and under nothing.

Screenshots: test-artifacts/screenshots/clip-01-… to clip-07-… (looked at)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from test_ui_e2e_layout_slots import assert_free, look, phone, serve, where
from ui_e2e_harness import by_id, tap, tap_to, wait_words

WAIT = 20_000
SIZE = {"width": 360, "height": 780}

TITLE_JS = """(text) => {
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let n;
  while ((n = walk.nextNode())) {
    if (n.textContent.trim() === text) {
      const r = n.parentElement.getBoundingClientRect();
      return [r.left, r.right];
    }
  }
  return null;
}"""


@pytest.fixture
def browser(phones_browser: Any) -> Any:
    return phones_browser  # conftest.py: windows behind keep painting


def test_the_russian_deal_title_is_whole_beside_five_icons(tmp_path: Path, browser: Any) -> None:
    """An ellipsized title fills all the room up to the icons; a whole one leaves a gap
    (before: "Сдач…", flush against the eye icon)."""
    srv, store, _ = serve(tmp_path, "ru", match=False)
    mid = store.create_match("four-hand", ["Anna", "Boris", "Clara", "Dmitri"])
    store.start_deal(mid, "Anna", "9H")
    try:
        page = phone(browser, srv, f"/match/{mid}", SIZE)
        by_id(page, "open-viewer").wait_for(timeout=60_000)
        page.wait_for_function(f"({TITLE_JS})('Сдача 1') !== null", timeout=WAIT)
        title = page.evaluate(TITLE_JS, "Сдача 1")
        eye = where(page, "open-viewer")["box"]
        assert eye[0] - title[1] >= 8, (title, eye)
        assert_free(page, "nav-home", "open-viewer", "undo", "redo", "to-score", "to-rules")
        look(page, "clip-01-deal-title-360-ru")
        page.context.close()
    finally:
        srv.stop()
        store.close()


def test_three_hands_long_names_keep_their_place_and_both_lines(
    tmp_path: Path, browser: Any
) -> None:
    srv, store, _ = serve(tmp_path, "en", match=False)
    mid = store.create_match("three-hand", ["Anna", "Boris", "Clara"])
    store.start_deal(mid, "Anna", "9H")
    try:
        page = phone(browser, srv, f"/match/{mid}", SIZE)
        by_id(page, "declare-1").wait_for(timeout=60_000)
        tap(page, "declare-1")
        by_id(page, "name-double_trump_marriage").wait_for(timeout=WAIT)
        assert_free(page, "name-double_trump_marriage", "name-double_marriage")
        box = where(page, "name-double_trump_marriage")["box"]
        assert box[3] == pytest.approx(48, abs=1)  # the list's rows keep one height
        look(page, "clip-02-three-hand-names-360-en")
        page.context.close()
    finally:
        srv.stop()
        store.close()


def seeded_correction(tmp_path: Path, lang: str) -> tuple[Any, Any, int]:
    """Deal 1 (spades trumps): Boris's bezique, Anna's marriage of clubs, Anna's trump
    sequence reusing a Q♠ she does not have (rejected): a correction has much to show."""
    srv, store, _ = serve(tmp_path, lang, match=False)
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    store.start_deal(mid, "Anna", "9S")
    store.record(mid, {"type": "declare", "player": "Boris", "new": ["QS", "JD"]})
    store.record(mid, {"type": "declare", "player": "Anna", "new": ["KC", "QC"]})
    store.record(
        mid,
        {"type": "declare", "player": "Anna", "new": ["AS", "10S", "KS", "JS"], "table": ["QS"]},
    )
    return srv, store, mid


def grid_places(page: Page) -> dict[str, list[float]]:
    cards = ("pick-AS", "pick-7S", "pick-AC", "pick-7C", "picker-cancel")
    return {c: [round(v, 1) for v in where(page, c)["box"][:2]] for c in cards}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_correction_keeps_its_grid_pinned_and_confirm_on_screen(
    tmp_path: Path, browser: Any, lang: str
) -> None:
    srv, store, mid = seeded_correction(tmp_path, lang)
    try:
        page = phone(browser, srv, f"/match/{mid}", SIZE)
        by_id(page, "to-score").wait_for(timeout=60_000)
        tap_to(page, "to-score", "open-entries")  # the score sheet: its entries
        tap_to(page, "open-entries", "entry-0-0")
        # the player of Boris's bezique: the preview is long (totals, a ruling that flips)
        tap_to(page, "correct-0-0", "corr-original")
        tap(page, "corr-player-0")
        by_id(page, "corr-confirm").wait_for(timeout=WAIT)
        by_id(page, "ch-flip-0-2").wait_for(timeout=WAIT)
        assert_free(page, "corr-confirm")
        look(page, f"clip-03-correction-confirm-360-{lang}")

        # the cards of Anna's marriage: removing a card moves no card of the grid
        tap_to(page, "nav-back", "correct-0-1")
        tap_to(page, "correct-0-1", "corr-cards")
        tap_to(page, "corr-cards", "options")
        by_id(page, "chosen-1").wait_for(timeout=WAIT)
        before = grid_places(page)
        assert_free(page, *before, "picker-clear")
        for chosen in ("chosen-1", "chosen-0"):
            tap(page, chosen)
            by_id(page, chosen).wait_for(state="detached", timeout=WAIT)
            assert grid_places(page) == before
        tap(page, "pick-KH")
        by_id(page, "chosen-0").wait_for(timeout=WAIT)
        tap(page, "pick-QH")
        by_id(page, "option-marriage").wait_for(timeout=WAIT)
        assert grid_places(page) == before
        assert_free(page, "picker-clear", "option-marriage")
        look(page, f"clip-04-correction-picker-360-{lang}")
        tap(page, "option-marriage")
        by_id(page, "corr-preview").wait_for(timeout=WAIT)
        by_id(page, "corr-confirm").wait_for(timeout=WAIT)
        assert_free(page, "corr-confirm")
        look(page, f"clip-05-correction-cards-confirm-360-{lang}")
        page.context.close()
    finally:
        srv.stop()
        store.close()


def test_clear_in_pick_cards_stays_on_screen_with_many_options(
    tmp_path: Path, browser: Any
) -> None:
    """Four kings and four queens chosen: several options above, Clear still in its place."""
    srv, store, mid = serve(tmp_path, "ru")
    try:
        page = phone(browser, srv, f"/match/{mid}", SIZE)
        by_id(page, "declare-0").wait_for(timeout=60_000)
        tap(page, "declare-0")
        tap(page, "tab-cards")
        by_id(page, "picker-clear").wait_for(timeout=WAIT)
        before = where(page, "picker-clear")["box"]
        for card in ("KS", "QS", "KH", "QH", "KD", "QD", "JD"):
            tap(page, f"pick-{card}")
        by_id(page, "chosen-6").wait_for(timeout=WAIT)
        by_id(page, "option-bezique").wait_for(timeout=WAIT)
        assert_free(page, "picker-clear", "pick-7C")
        assert where(page, "picker-clear")["box"] == before
        look(page, "clip-06-pick-cards-clear-360-ru")
        tap(page, "picker-clear")
        by_id(page, "chosen-0").wait_for(state="detached", timeout=WAIT)
        page.context.close()
    finally:
        srv.stop()
        store.close()


# Anna: double bezique, trump sequence, four aces, four kings; all 16 brisques and the last
# trick: 1100, the partie won in one deal
WINNING_DEAL = [
    {"type": "declare", "player": "Anna", "new": ["QS", "QS", "JD", "JD"]},
    {"type": "declare", "player": "Anna", "new": ["AH", "10H", "KH", "QH", "JH"]},
    {"type": "declare", "player": "Anna", "new": ["AS", "AH", "AD", "AC"]},
    {"type": "declare", "player": "Anna", "new": ["KS", "KH", "KD", "KC"]},
    {"type": "stock_exhausted"},
    {"type": "last_trick", "winner": "Anna"},
    {"type": "brisques", "counts": {"Anna": 16, "Boris": 0}},
]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_winner_screens_score_sheet_is_on_screen(
    tmp_path: Path, browser: Any, lang: str
) -> None:
    srv, store, mid = serve(tmp_path, lang)
    for event in WINNING_DEAL:
        assert store.record(mid, event).accepted, event
    assert store.load_match(mid).result().finished
    try:
        page = phone(browser, srv, f"/match/{mid}", SIZE)
        by_id(page, "summary-score").wait_for(timeout=60_000)
        wait_words(page, "summary-0", "1100")
        assert_free(page, "summary-score")
        look(page, f"clip-07-winner-score-sheet-360-{lang}")
        tap_to(page, "summary-score", "sheet-total-0")
        page.context.close()
    finally:
        srv.stop()
        store.close()
