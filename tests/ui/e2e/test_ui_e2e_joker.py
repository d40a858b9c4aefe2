"""The multi-pack Bezique with jokers in a real browser: a four-player match (the dealer sits
out), its turn-up choice, the card picker with the joker and the ruling that names its card,
and the rules screen's showings table in English and Russian. Screenshots go to
test-artifacts/screenshots/ (30-…)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect
from ui_e2e_harness import (
    AppServer,
    Typist,
    by_id,
    open_app,
    scroll_down,
    shot,
    tap,
    tap_to,
    wait_words,
)


def test_joker_variant_in_the_browser(server: AppServer, browser: Any) -> None:
    sent: list[bytes] = []
    page = open_app(browser, server.url, sent)
    typist = Typist(page, sent)
    tap(page, "new-match")
    by_id(page, "start-match").wait_for()
    tap(page, "variant-joker-multipack")
    wait_words(page, "variant-joker-multipack", "Multi-pack with jokers")
    tap(page, "customise")  # single house rules are folded behind "customise"
    by_id(page, "house-H-JOKER-TEN-PACKS").wait_for()
    expect(by_id(page, "tracking-cards")).to_have_count(0)
    tap(page, "count-4")
    by_id(page, "name-3").wait_for()
    for seat, name in enumerate(("Anna", "Boris", "Carl", "Dora")):
        typist.type(f"Player {seat + 1}", name)
    shot(page, "30-joker-new-match")
    tap(page, "start-match")

    # The turn-up: the pack's ranks only (no 7, no 8)
    by_id(page, "start-deal").wait_for()
    by_id(page, "turn-up-9H").wait_for()
    expect(by_id(page, "turn-up-7H")).to_have_count(0)
    tap(page, "turn-up-9H")
    shot(page, "31-joker-setup")
    tap(page, "start-deal")

    # Anna deals and sits out: no buttons for her, none for sevens
    by_id(page, "declare-1").wait_for()
    by_id(page, "sits-out-0").wait_for()
    expect(by_id(page, "declare-0")).to_have_count(0)
    expect(by_id(page, "seven-1")).to_have_count(0)
    shot(page, "32-joker-deal")

    # Boris shows a trump marriage with K♥ and a joker: the ruling names the joker's card
    tap(page, "declare-1")
    tap(page, "pick-KH")
    by_id(page, "chosen-0").wait_for()
    tap(page, "pick-JOKER")
    by_id(page, "option-trump_marriage").wait_for()
    expect(by_id(page, "option-trump_marriage")).to_contain_text("4")
    wait_words(page, "option-ruling-trump_marriage", "★ = Q♥")
    shot(page, "33-joker-picker")
    tap(page, "option-trump_marriage")
    expect(by_id(page, "deal-score-1")).to_have_text("4")
    wait_words(page, "ruling", "★ = Q♥")
    shot(page, "34-joker-ruling")

    # The rules screen: the variant's showings table
    tap_to(page, "to-rules", "showings-table")
    wait_words(page, "showing-trump_marriage", "showing 4: 32")
    shot(page, "35-joker-rules")
    scroll_down(page, 700)
    shot(page, "35b-joker-rules-sets")
    tap(page, "lang-toggle")
    wait_words(page, "showing-trump_marriage", "Козырный марьяж")
    scroll_down(page, -20_000)
    shot(page, "36-joker-rules-ru")
    tap(page, "nav-back")
    by_id(page, "declare-1").wait_for()
    tap(page, "declare-2")
    tap(page, "pick-JOKER")
    tap(page, "pick-QH")
    by_id(page, "option-bezique").wait_for()
    wait_words(page, "option-ruling-bezique", "★ = В♦")  # Russian ranks in the Russian UI
    shot(page, "37-joker-picker-ru")
    page.context.close()
