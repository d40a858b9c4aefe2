"""A Rubicon deal in the browser on a 390×844 phone, in English and Russian (issue 13): the
new-match form in games, no turn-up, carte blanche shown before play, no seven button, trumps
fixed by the first marriage, the end of the deal, and its game score on the sheet with the
bonus and the rubicon on lines of their own. Screenshots test-artifacts/screenshots/rubicon-…"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from ui_e2e_harness import (
    AppServer,
    Typist,
    by_id,
    free_port,
    open_app,
    scroll_down,
    shot,
    tap,
    tap_to,
    type_into_focus,
    wait_words,
)

PHONE = {"width": 390, "height": 844}
PLAYER = {"en": "Player {n}", "ru": "Игрок {n}"}

HIT_JS = """(id) => {
  const t = document.querySelector(`[flt-semantics-identifier="${id}"]`);
  if (!t) return {missing: true};
  const r = t.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {inView: r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth,
          hit: !!hit && (t.contains(hit) || hit.contains(t))};
}"""


def assert_reachable(page: Page, *identifiers: str) -> None:
    for identifier in identifiers:
        r = page.evaluate(HIT_JS, identifier)
        assert r.get("inView") and r.get("hit"), (identifier, r)


@pytest.fixture(params=["en", "ru"])
def lang_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[AppServer]:
    srv = AppServer(f"sqlite:///{tmp_path / 'e2e.sqlite3'}", free_port(), lang=request.param)
    srv.start()
    yield srv
    srv.stop()


def declare(page: Page, seat: int, meld: str) -> None:
    tap(page, f"declare-{seat}")
    tap(page, f"name-{meld}")
    wait_words(page, "declare-confirm", "·")
    tap(page, "declare-confirm")
    by_id(page, "picker-cancel").wait_for(state="detached")


def test_a_rubicon_deal_through_to_its_game_score(lang_server: AppServer, browser: Any) -> None:
    lang = str(lang_server.lang)
    sent: list[bytes] = []
    page = open_app(browser, lang_server.url, sent, viewport=PHONE)
    typist = Typist(page, sent)

    # The form: Rubicon is a match over a number of games, with its own house rules
    tap(page, "new-match")
    by_id(page, "start-match").wait_for()
    tap(page, "variant-rubicon")
    by_id(page, "goal-games").wait_for()
    by_id(page, "games").wait_for()
    shot(page, f"rubicon-01-form-{lang}")
    typist.type(PLAYER[lang].format(n=1), "Anna")
    typist.type(PLAYER[lang].format(n=2), "Boris")
    tap(page, "start-match")

    # No turn-up: the dealer only, then the deal
    by_id(page, "start-deal").wait_for()
    expect(by_id(page, "turn-up-9H")).to_have_count(0)
    shot(page, f"rubicon-02-setup-{lang}")
    tap(page, "start-deal")
    by_id(page, "declare-0").wait_for()

    # Before the first trick: carte blanche for each player; no seven (the seven scores 0)
    by_id(page, "carte-blanche-1").wait_for()
    assert_reachable(page, "carte-blanche-0", "carte-blanche-1", "declare-0", "declare-1",
                     "stock-exhausted")
    expect(by_id(page, "seven-0")).to_have_count(0)
    expect(by_id(page, "cut-bonus-0")).to_have_count(0)  # six-pack only
    shot(page, f"rubicon-03-deal-carte-blanche-{lang}")
    tap(page, "carte-blanche-1")
    expect(by_id(page, "deal-score-1")).to_have_text("50")
    expect(by_id(page, "carte-blanche-1")).to_have_count(0)  # once, without the house rule

    # The first marriage fixes trumps; the trump sequence builds on it
    declare(page, 0, "trump_marriage")
    expect(by_id(page, "deal-score-0")).to_have_text("40")
    by_id(page, "trumps").first.wait_for()
    expect(by_id(page, "carte-blanche-0")).to_have_count(0)  # Anna showed a king and a queen
    declare(page, 1, "bezique")
    declare(page, 0, "trump_sequence")
    expect(by_id(page, "deal-score-0")).to_have_text("290")
    shot(page, f"rubicon-04-trumps-fixed-{lang}")

    # The end: last trick to Anna, brisques typed (four packs: 32 aces and tens)
    tap(page, "stock-exhausted")
    tap(page, "last-trick-0")
    by_id(page, "finish-deal").wait_for()
    type_into_focus(page, "14", "brisque-total", "18")
    shot(page, f"rubicon-05-brisques-{lang}")
    tap(page, "finish-deal")

    # The deal's summary, then its game score on the sheet: bonus and rubicon on lines
    by_id(page, "summary-score").wait_for()
    by_id(page, "summary-game").wait_for()  # the deal as a game, in words
    shot(page, f"rubicon-06-summary-{lang}")
    tap_to(page, "summary-score", "sheet-table")
    by_id(page, "sheet-d1-points").wait_for()
    by_id(page, "sheet-d1-rubicon-bonus").wait_for()  # Boris under 1000: rubiconed
    wait_words(page, "sheet-d1-rubicon-bonus", "+1000")
    by_id(page, "sheet-d1-rubicon-brisques").wait_for()
    by_id(page, "sheet-d1-game").wait_for()
    by_id(page, "sheet-winner").wait_for()  # one game agreed: the match is over
    wait_words(page, "sheet-target", "1")
    shot(page, f"rubicon-07-sheet-{lang}")
    scroll_down(page, 500)
    shot(page, f"rubicon-08-sheet-lines-{lang}")


def test_six_pack_cut_bonus_and_carte_blanche_on_a_phone(server: AppServer, browser: Any) -> None:
    sent: list[bytes] = []
    page = open_app(browser, server.url, sent, viewport=PHONE)
    typist = Typist(page, sent)
    tap(page, "new-match")
    by_id(page, "start-match").wait_for()
    tap(page, "variant-six-pack")
    by_id(page, "games").wait_for()
    typist.type("Player 1", "Anna")
    typist.type("Player 2", "Boris")
    tap(page, "start-match")
    by_id(page, "start-deal").wait_for()
    tap(page, "start-deal")
    # Anna deals: her cut of exactly 24 scores 250, Boris's guess 150; carte blanche 250
    by_id(page, "cut-bonus-0").wait_for()
    wait_words(page, "cut-bonus-0", "+250")
    wait_words(page, "cut-bonus-1", "+150")
    wait_words(page, "carte-blanche-1", "+250")
    assert_reachable(page, "cut-bonus-0", "cut-bonus-1", "carte-blanche-0", "carte-blanche-1",
                     "declare-0", "declare-1", "stock-exhausted")
    expect(by_id(page, "seven-0")).to_have_count(0)
    shot(page, "rubicon-10-six-pack-entries-en")
    tap(page, "cut-bonus-0")
    expect(by_id(page, "deal-score-0")).to_have_text("250")
    expect(by_id(page, "cut-bonus-0")).to_have_count(0)  # once each
    by_id(page, "cut-bonus-1").wait_for()
    # Four trump aces, once trumps are fixed, are four copies of the trump ace
    declare(page, 1, "trump_marriage")
    tap(page, "declare-0")
    tap(page, "name-four_trump_aces")
    wait_words(page, "proposal", "A♠")
    wait_words(page, "declare-confirm", "1000")
    shot(page, "rubicon-11-six-pack-four-trump-aces-en")
    tap(page, "declare-confirm")
    expect(by_id(page, "deal-score-0")).to_have_text("1250")
