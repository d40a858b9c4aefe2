"""What onlookers ask first is on the viewer phone at 360×780, whole (issue 22): trumps, the
deal and its phase, the stock, who dealt and who leads, the dealer's turned-up seven as the
engine's ruling, who won and why with the rule that decided (R-TIE), and the sheet's Total
row on screen however long the match. Real server in table mode, the viewer joined by its
link, matches written through storage; in English and in Russian."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import ROOT, TableServer

from referee.storage import Store
from ui.i18n import load_catalog

sys.path.insert(0, str(ROOT / "tests" / "ui"))
from sheet_samples import joker_match, play_deal, sample_match

PHONE_360 = {"width": 360, "height": 780}
WAIT = 20_000
LANGS = ["en", "ru"]


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    from ui_e2e_harness import launch

    with sync_playwright() as pw:
        b = launch(pw)
        yield b
        b.close()


@pytest.fixture
def table(
    tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[tuple[TableServer, Store, str]]:
    """A table server that leaves each phone its own language, and the phone's language."""
    from ui_e2e_harness import free_port

    url = f"sqlite:///{tmp_path / 'viewer.sqlite3'}"
    store = Store.open(url)
    srv = TableServer(url, free_port(), tmp_path / "log", tmp_path / "st", lang=None)
    srv.start()
    yield srv, store, str(request.param)
    srv.stop()
    store.close()


def watch(browser: Any, srv: TableServer, mid: int, lang: str) -> Any:
    """A viewer phone in ``lang`` joined by its link, showing the match ``mid``, while a
    scorer's phone is at the table too (so the news slot has its place over the viewer)."""
    from ui_e2e_harness import blank_page, by_id, load_app

    scorer = blank_page(browser, viewport=PHONE_360)
    load_app(scorer, srv.link("scorer"))
    by_id(scorer, "history").first.wait_for(timeout=60_000)

    locale = {"en": "en-US", "ru": "ru-RU"}[lang]
    page = blank_page(browser, viewport=PHONE_360, locale=locale)
    load_app(page, srv.link("viewer"))
    by_id(page, "history").first.wait_for(timeout=60_000)
    load_app(page, f"{srv.device_url}view/{mid}")
    by_id(page, "viewer-totals").first.wait_for(timeout=60_000)
    by_id(page, "live-slot").first.wait_for(timeout=WAIT)  # another device is at the table
    return page


def on_screen(page: Any, identifier: str) -> bool:
    from ui_e2e_harness import by_id

    box = by_id(page, identifier).first.bounding_box()
    vp = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= vp["height"] + 0.5


@pytest.mark.parametrize("table", LANGS, indirect=True)
def test_the_viewer_says_trumps_phase_stock_dealer_leader_and_the_turned_up_seven(
    table: tuple[TableServer, Store, str], browser: Any
) -> None:
    from ui_e2e_harness import shot, wait_words

    srv, store, lang = table
    t = load_catalog(lang)
    mid = store.create_match("two-hand", ["Anna", "Boris"], tracking="tricks")
    store.start_deal(mid, "Anna", "7H")  # the dealer turns up the seven: +10 for Anna
    page = watch(browser, srv, mid, lang)
    seven = store.load_match(mid).current.dealer_seven()
    assert seven is not None
    wait_words(page, "viewer-last", seven.text(lang), timeout=WAIT)  # the engine's words
    wait_words(page, "viewer-trumps", "♥", timeout=WAIT)
    wait_words(page, "viewer-phase", t["deal.phase1"], timeout=WAIT)
    wait_words(page, "viewer-who", t["deal_screen.dealer"].format(player="Anna"), timeout=WAIT)
    wait_words(page, "viewer-who", t["deal_screen.leads"].format(player="Boris"), timeout=WAIT)
    left = store.load_match(mid).current.stock_left  # the engine's count
    stock = t["deal_screen.stock_tricks"].format(n=left, played=0)
    wait_words(page, "viewer-stock", stock, timeout=WAIT)
    for ident in ("viewer-play", "viewer-totals", "viewer-last", "viewer-sheet-total-1"):
        assert on_screen(page, ident), ident
    shot(page, f"issue22-viewer-seven-360-{lang}")

    for winner in ("Boris", "Boris", "Anna"):  # three tricks, then a viewer joins
        store.record(mid, {"type": "trick", "winner": winner})
    page.context.close()
    page = watch(browser, srv, mid, lang)
    left = store.load_match(mid).current.stock_left
    wait_words(page, "viewer-stock", t["deal_screen.stock_tricks"].format(n=left, played=3),
               timeout=WAIT)
    wait_words(page, "viewer-who", t["deal_screen.leads"].format(player="Anna"), timeout=WAIT)
    page.context.close()


@pytest.mark.parametrize(
    ("table", "sides"), [("en", 2), ("ru", 3), ("en", 4)], indirect=["table"]
)
def test_a_long_matchs_total_row_stays_on_a_360_screen(
    table: tuple[TableServer, Store, str], browser: Any, sides: int
) -> None:
    from ui_e2e_harness import by_id, shot, wait_words

    srv, store, lang = table
    # deal 8 in play; four sides each on their own: the multi-pack variant with jokers
    mid = sample_match(store, sides, deals=7) if sides < 4 else joker_match(store, deals=8)
    page = watch(browser, srv, mid, lang)
    totals = [str(v) for v in store.load_match(mid).totals()]
    for i, total in enumerate(totals):
        wait_words(page, f"viewer-sheet-total-{i}", total, timeout=WAIT)
    shot(page, f"issue22-viewer-long-match-{sides}-sides-360-{lang}")
    for i in range(len(totals)):
        assert on_screen(page, f"viewer-sheet-total-{i}")
    assert on_screen(page, "viewer-sheet-d8-0")  # the deal in play
    brought = 5 if sides < 4 else 7  # four sides' boxes take two rows: fewer deal rows
    carried = load_catalog(lang)["viewer_sheet.brought_forward"].format(last=brought)
    wait_words(page, "viewer-sheet", carried, timeout=WAIT)  # the earlier deals in one row
    assert by_id(page, f"viewer-sheet-d{brought}-0").count() == 0
    assert on_screen(page, "viewer-play") and on_screen(page, "viewer-last")
    page.context.close()


@pytest.mark.parametrize("table", LANGS, indirect=True)
def test_the_viewer_says_who_won_and_why_with_the_rule(
    table: tuple[TableServer, Store, str], browser: Any
) -> None:
    from ui_e2e_harness import by_id, shot, wait_words

    from ui.state.verdict import verdict_of

    srv, store, lang = table
    mid = int(store.create_match(variant="two-hand", players=["Anna", "Boris"], target=100))
    play_deal(store, mid, ("Anna", "Boris"), "two-hand", 0, last=1)  # Boris: the last trick
    v = verdict_of(store.load_match(mid), lang)
    assert v.winner is not None and v.rule == "R-TIE"  # both passed 100 in the same deal
    page = watch(browser, srv, mid, lang)
    wait_words(page, "viewer-winner", v.headline, timeout=WAIT)
    wait_words(page, "viewer-reason", v.reason, timeout=WAIT)
    wait_words(page, "viewer-rule", "R-TIE", timeout=WAIT)
    assert by_id(page, "viewer-last").count() == 0  # the verdict says what counts
    for ident in ("viewer-verdict", "viewer-sheet-total-0", "viewer-sheet-total-1"):
        assert on_screen(page, ident), ident
    shot(page, f"issue22-viewer-verdict-360-{lang}")
    page.context.close()
