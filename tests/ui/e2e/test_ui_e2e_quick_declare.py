"""Declaring in one tap (issue 21) on a phone, in the real app (390×844 in English, 360×780
in Russian): every offer of both players' zones is on screen and not under the action bar
through the typical deal; one tap records the engine's proposal; the plain marriage asks its
suit in the same place; "change cards" opens the proposal; Undo takes the entry back.

Screenshots: test-artifacts/screenshots/quick-01-… to quick-05-… (looked at)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from test_ui_e2e_layout_slots import SIZES, assert_free, look, phone, serve
from ui_e2e_harness import by_id, tap, wait_words

WAIT = 20_000
TYPICAL = [
    (1, "bezique", 40),
    (0, "trump_marriage", 60),
    (1, "four_kings", 120),
    (0, "trump_sequence", 310),
    (1, "four_aces", 220),
]


@pytest.fixture
def browser(phones_browser: Any) -> Any:
    return phones_browser  # conftest.py: windows behind keep painting


def offer_ids(page: Page, seat: int) -> list[str]:
    found: list[str] = page.evaluate(
        """(prefix) => [...document.querySelectorAll(`[flt-semantics-identifier^="${prefix}"]`)]
            .map((e) => e.getAttribute('flt-semantics-identifier'))
            .filter((id) => !id.startsWith('offer-suit'))""",
        f"offer-{seat}-",
    )
    return found


def every_offer_free(page: Page) -> None:
    """Both players' offers on screen and hit at their centres (nothing over them)."""
    for seat in (0, 1):
        ids = offer_ids(page, seat)
        assert ids, f"no offers for seat {seat}"
        assert_free(page, *ids)


def score(page: Page, seat: int, points: int) -> None:
    expect(by_id(page, f"deal-score-{seat}")).to_have_text(str(points), timeout=WAIT)


@pytest.mark.parametrize(("size", "lang"), SIZES)
def test_one_tap_declarations_stay_on_screen_over_the_bar(
    tmp_path: Path, browser: Any, size: dict[str, int], lang: str
) -> None:
    srv, store, mid = serve(tmp_path, lang)
    tag = f"{size['width']}-{lang}"
    try:
        page = phone(browser, srv, f"/match/{mid}", size)
        by_id(page, "offers-1").wait_for(timeout=60_000)
        every_offer_free(page)
        assert_free(page, "declare-0", "declare-1", "seven-0", "penalty-1", "stock-exhausted")
        look(page, f"quick-01-offers-{tag}")

        # The plain marriage: its suit is the player's one more tap, in the same place
        tap(page, "offer-0-marriage")
        by_id(page, "offer-suit-0-D").wait_for(timeout=WAIT)
        assert_free(page, "offer-suit-0-S", "offer-suit-0-D", "offer-suit-0-C")
        assert_free(page, "offer-suit-cancel-0")
        expect(by_id(page, "offer-suit-0-H")).to_have_count(0)  # hearts are trumps
        look(page, f"quick-02-marriage-suit-{tag}")
        tap(page, "offer-suit-0-D")
        score(page, 0, 20)
        wait_words(page, "ruling", "♦")  # the accepted ruling names its cards
        assert_free(page, "change-cards-0")
        look(page, f"quick-03-accepted-{tag}")

        # "Change cards": the entry is taken back, the proposal opens, one tap per card
        tap(page, "change-cards-0")
        by_id(page, "proposed-0").wait_for(timeout=WAIT)
        wait_words(page, "proposal", "♦")
        score(page, 0, 0)
        look(page, f"quick-04-change-cards-{tag}")
        tap(page, "declare-confirm")
        by_id(page, "picker-cancel").wait_for(state="detached", timeout=WAIT)
        score(page, 0, 20)

        # Undo takes a one-tap entry back
        tap(page, "undo")
        score(page, 0, 0)
        tap(page, "offer-0-marriage")
        tap(page, "offer-suit-0-S")
        score(page, 0, 20)

        # The typical deal, one tap each: every offer stays reachable after each entry
        for seat, meld, total in TYPICAL:
            every_offer_free(page)
            tap(page, f"offer-{seat}-{meld}")
            score(page, seat, total)
        every_offer_free(page)
        look(page, f"quick-05-typical-{tag}")
        page.context.close()
    finally:
        srv.stop()
        store.close()
