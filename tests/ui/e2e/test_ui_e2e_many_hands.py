"""Three- and four-hand on a 360×780 phone (issue 21), in the real app: every player's zone
(their declared cards), the chosen player's one-tap offers in the bar, a pending
combination's score and the end form's fields and counts line are on screen and under
nothing, through a deal; the bar keeps its height when the stock runs out.

Screenshots: test-artifacts/screenshots/many-01-… to many-04-… (looked at)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from test_ui_e2e_layout_slots import assert_free, look, phone, serve, where
from ui_e2e_harness import by_id, tap, type_until

WAIT = 20_000
SIZE = {"width": 360, "height": 780}
CASES = [
    pytest.param("three-hand", ["Anna", "Boris", "Clara"], "en", id="three-en"),
    pytest.param("four-hand", ["Anna", "Boris", "Clara", "Dmitri"], "ru", id="four-ru"),
]
# (seat, combination) after Boris's pending marriage is scored; a marriage asks its suit
PLAN = [
    (2, "marriage"),
    (0, "trump_marriage"),
    (1, "four_kings"),
    (2, "four_aces"),
    (0, "trump_sequence"),
]


@pytest.fixture
def browser(phones_browser: Any) -> Any:
    return phones_browser  # conftest.py: windows behind keep painting


def side(variant: str, seat: int) -> int:
    return seat % 2 if variant == "four-hand" else seat


def every_zone_free(page: Page, n: int) -> None:
    """Each player's zone and declared cards on screen, nothing over them."""
    for seat in range(n):
        assert_free(page, f"choose-{seat}", f"table-{seat}")


def tables_do_not_scroll(page: Page) -> None:
    """The tables need no swipe: a wheel over them moves nothing (a zone the tables' scroll
    clips reports only its visible part, so boxes alone cannot tell)."""
    before = where(page, "player-0")["box"]
    page.mouse.move(before[0] + before[2] / 2, before[1] + before[3] / 2)
    page.mouse.wheel(0, 400)
    page.wait_for_timeout(400)
    after = where(page, "player-0")["box"]
    if after != before:
        page.mouse.wheel(0, -400)
    assert after == before, ("the tables scrolled", before, after)


def offers_free(page: Page, seat: int) -> None:
    ids: list[str] = page.evaluate(
        """(prefix) => [...document.querySelectorAll(`[flt-semantics-identifier^="${prefix}"]`)]
            .map((e) => e.getAttribute('flt-semantics-identifier'))""",
        f"offer-{seat}-",
    )
    assert ids, f"no offers for seat {seat}"
    assert_free(page, *ids)


@pytest.mark.parametrize(("variant", "names", "lang"), CASES)
def test_every_players_cards_and_offers_are_over_the_bar_at_360(
    tmp_path: Path, browser: Any, variant: str, names: list[str], lang: str
) -> None:
    srv, store, _ = serve(tmp_path, lang, match=False)
    mid = store.create_match(variant, names)
    store.start_deal(mid, "Anna", "9H")
    # K♠ Q♠ J♦ declared as a bezique: the marriage in them is pending (R-PENDING)
    store.record(
        mid, {"type": "declare", "player": "Boris", "meld": "bezique", "new": ["KS", "QS", "JD"]}
    )
    n = len(names)
    tag = f"{variant}-{lang}"
    try:
        page = phone(browser, srv, f"/match/{mid}", SIZE)
        # Boris leads (Anna deals): his buttons, his pending marriage and offers in the bar
        by_id(page, "score-pending-1-0").wait_for(timeout=60_000)
        every_zone_free(page, n)
        assert_free(page, "declare-1", "seven-1", "penalty-1", "stock-exhausted", "end-deal")
        assert_free(page, "score-pending-1-0")
        offers_free(page, 1)
        tables_do_not_scroll(page)
        look(page, f"many-01-pending-{tag}")
        tap(page, "score-pending-1-0")
        expect(by_id(page, f"deal-score-{side(variant, 1)}")).to_have_text("60", timeout=WAIT)
        bar = where(page, "action-bar")["box"]

        scores = {s: 0 for s in range(n)}
        scores[side(variant, 1)] = 60
        points = {
            "marriage": 20,
            "trump_marriage": 40,
            "four_kings": 80,
            "four_aces": 100,
            "trump_sequence": 250,
        }
        for seat, meld in PLAN:
            tap(page, f"choose-{seat}")
            by_id(page, f"declare-{seat}").wait_for(timeout=WAIT)
            offers_free(page, seat)
            tap(page, f"offer-{seat}-{meld}")
            if meld == "marriage":  # its suit in the same block
                by_id(page, f"offer-suit-{seat}-S").wait_for(timeout=WAIT)
                assert_free(page, f"offer-suit-{seat}-S", f"offer-suit-cancel-{seat}")
                look(page, f"many-02-marriage-suit-{tag}")
                tap(page, f"offer-suit-{seat}-S")
            scores[side(variant, seat)] += points[meld]
            expect(by_id(page, f"deal-score-{side(variant, seat)}")).to_have_text(
                str(scores[side(variant, seat)]), timeout=WAIT
            )
            by_id(page, f"change-cards-{seat}").wait_for(timeout=WAIT)
            every_zone_free(page, n)
            assert_free(page, f"change-cards-{seat}")
            assert where(page, "action-bar")["box"] == bar  # the bar never moved
        tables_do_not_scroll(page)
        look(page, f"many-03-declared-{tag}")

        tap(page, "stock-exhausted")
        by_id(page, "offers-none-0").wait_for(timeout=WAIT)
        assert where(page, "action-bar")["box"] == bar  # as high in phase 2
        every_zone_free(page, n)
        tap(page, f"last-trick-{n - 1}")
        by_id(page, "finish-deal").wait_for(timeout=WAIT)
        fields = [f"brisque-count-{s}" for s in range(n)]
        assert_free(page, *fields, "brisque-total", "finish-deal", "end-cancel")
        counts = ["8", "8"] if n == 3 else ["6", "6", "6"]
        total = " + ".join([*counts, counts[0]]) + " = 24"  # the last field: the rest
        for s, count in enumerate(counts):  # the line adds up once all but one are typed
            type_until(page, names[s], count, "brisque-total", total if s == n - 2 else "")
        expect(by_id(page, "brisque-total")).to_contain_text(total, timeout=WAIT)
        assert_free(page, *fields, "brisque-total", "finish-deal", "end-cancel")
        look(page, f"many-04-end-form-{tag}")
        tap(page, "finish-deal")
        by_id(page, "summary-0").wait_for(timeout=WAIT)
        page.context.close()
    finally:
        srv.stop()
        store.close()


TEN_EACH = [  # four-hand, trumps hearts: ten cards on each table (R-PACK: three packs)
    ("Anna", "four_kings", ["KS", "KH", "KD", "KC"]),
    ("Anna", "four_aces", ["AS", "AH", "AD", "AC"]),
    ("Anna", "marriage", ["KS", "QS"]),
    ("Boris", "four_queens", ["QS", "QH", "QD", "QC"]),
    ("Boris", "four_jacks", ["JS", "JH", "JD", "JC"]),
    ("Boris", "marriage", ["KD", "QD"]),
    ("Clara", "four_kings", ["KS", "KH", "KD", "KC"]),
    ("Clara", "four_aces", ["AS", "AH", "AD", "AC"]),
    ("Clara", "marriage", ["KC", "QC"]),
    ("Dmitri", "four_queens", ["QS", "QH", "QD", "QC"]),
    ("Dmitri", "four_jacks", ["JS", "JH", "JD", "JC"]),
    ("Dmitri", "trump_marriage", ["KH", "QH"]),
]


def test_ten_cards_on_each_of_four_tables_stay_over_the_bar(tmp_path: Path, browser: Any) -> None:
    """Late in a four-hand deal: past a line of faces a table's cards are coloured text, so
    the four zones (and every card) stay over the bar at 360×780 without a swipe."""
    names = ["Anna", "Boris", "Clara", "Dmitri"]
    srv, store, _ = serve(tmp_path, "ru", match=False)
    mid = store.create_match("four-hand", names)
    store.start_deal(mid, "Anna", "9H")
    for player, meld, cards in TEN_EACH:
        ruling = store.record(
            mid, {"type": "declare", "player": player, "meld": meld, "new": cards}
        )
        assert ruling.accepted, (player, meld, ruling.rule)
    try:
        page = phone(browser, srv, f"/match/{mid}", SIZE)
        by_id(page, "choose-3").wait_for(timeout=60_000)
        look(page, "many-05-ten-cards-four-hand-ru")
        every_zone_free(page, 4)
        # every zone whole over the bar: one line each, as high as the first (a zone the
        # tables' scroll clipped reports only its visible part: it was 2 lines, cut)
        zones = [where(page, f"player-{seat}")["box"] for seat in range(4)]
        for seat, zone in enumerate(zones):
            assert zone[1] + zone[3] <= where(page, "action-bar")["box"][1], (seat, zone)
            assert abs(zone[3] - zones[0][3]) < 1 and zone[3] < 56, (seat, zone)
        tables_do_not_scroll(page)
        look(page, "many-05-ten-cards-four-hand-ru")
        page.context.close()
    finally:
        srv.stop()
        store.close()
