"""On a phone (390×844 in English, 360×780 in Russian), in the real app: what comes and goes has
a place of its own. The news from another device ("Anna's phone recorded …") covers neither
the deal header nor any control and moves nothing when it comes or goes; the penalty choice
leaves the header (whose penalty, the scores) in sight and in place.

Positions are the browser's boxes of the semantics nodes; "covered" is what
``document.elementFromPoint`` hits at a control's centre."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from ui_e2e_harness import (
    AppServer,
    blank_page,
    by_id,
    free_port,
    load_app,
    scroll_down,
    shot,
    tap,
)

from referee.storage import Store
from ui.state.common import points_text

SIZES = [
    pytest.param({"width": 390, "height": 844}, "en", id="390-en"),
    pytest.param({"width": 360, "height": 780}, "ru", id="360-ru"),
]
WAIT = 20_000

BOX_JS = """(id) => {
  const t = document.querySelector(`[flt-semantics-identifier="${id}"]`);
  if (!t) return null;
  const r = t.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {box: [r.left, r.top, r.width, r.height],
          inView: r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth,
          hit: !!hit && (t.contains(hit) || hit.contains(t))};
}"""


@pytest.fixture
def browser(phones_browser: Any) -> Any:
    return phones_browser  # conftest.py: windows behind keep painting


def serve(tmp_path: Path, lang: str, *, match: bool = True) -> tuple[AppServer, Store, int]:
    """The app on a database of its own; with a two-hand match in its first deal."""
    url = f"sqlite:///{tmp_path / 'layout.sqlite3'}"
    store = Store.open(url)
    mid = 0
    if match:
        mid = store.create_match("two-hand", ["Anna", "Boris"])
        store.start_deal(mid, "Anna", "9H")
    srv = AppServer(url, free_port(), lang=lang)
    srv.start()
    return srv, store, mid


def phone(browser: Any, srv: AppServer, route: str, size: dict[str, int]) -> Page:
    page = blank_page(browser, viewport=size)
    load_app(page, srv.url.rstrip("/") + route)
    return page


def where(page: Page, identifier: str) -> dict[str, Any]:
    found: dict[str, Any] | None = page.evaluate(BOX_JS, identifier)
    assert found is not None, f"{identifier} is not on the screen"
    return found


def boxes(page: Page, *identifiers: str) -> dict[str, list[float]]:
    """Where each control's top and bottom edges are (a score's width and, centred, its left
    edge follow its digits: what a slot must keep is the vertical place)."""
    out: dict[str, list[float]] = {}
    for i in identifiers:
        _left, top, _width, height = where(page, i)["box"]
        out[i] = [round(top, 1), round(top + height, 1)]
    return out


def look(page: Page, name: str) -> None:
    """A screenshot of this phone, brought to the front first (a window behind may not have
    painted its last frame yet)."""
    page.bring_to_front()
    for _ in range(20):  # a blank frame compresses to almost nothing: wait for the paint
        path = shot(page, name)
        if path.stat().st_size > 12_000:
            return
        page.wait_for_timeout(300)


def assert_free(page: Page, *identifiers: str) -> None:
    """On screen and not under anything (a finger or an eye reaches it)."""
    for identifier in identifiers:
        w = where(page, identifier)
        assert w["inView"] and w["hit"], (identifier, w)


def below(page: Page, upper: str, lower: str) -> None:
    """``lower`` starts under ``upper``'s bottom edge: no overlap."""
    u, lo = where(page, upper)["box"], where(page, lower)["box"]
    assert lo[1] >= u[1] + u[3] - 0.5, (upper, u, lower, lo)


DEAL_PLACES = ("deal-header", "deal-score-0", "deal-score-1", "player-0", "declare-0", "declare-1")


@pytest.mark.parametrize(("size", "lang"), SIZES)
def test_news_from_another_phone_covers_nothing_and_moves_nothing(
    tmp_path: Path, browser: Any, size: dict[str, int], lang: str
) -> None:
    srv, store, mid = serve(tmp_path, lang)
    try:
        anna = phone(browser, srv, f"/match/{mid}", size)
        boris = phone(browser, srv, f"/match/{mid}", size)
        vera = phone(browser, srv, f"/view/{mid}", size)
        for p in (anna, boris):
            by_id(p, "declare-1").wait_for(timeout=60_000)
        by_id(vera, "viewer-total-0").wait_for(timeout=60_000)
        look(boris, f"layout-01-deal-before-news-{size['width']}-{lang}")
        before = boxes(boris, *DEAL_PLACES)
        viewer_before = boxes(vera, "viewer-total-0", "viewer-total-1")

        # Anna's phone declares a bezique for Boris (the free picker)
        tap(anna, "declare-1")
        tap(anna, "tab-cards")
        tap(anna, "pick-QS")
        by_id(anna, "chosen-0").wait_for()
        tap(anna, "pick-JD")
        by_id(anna, "option-bezique").wait_for()
        tap(anna, "option-bezique")

        by_id(boris, "live-strip").wait_for(timeout=WAIT)
        stored = points_text(store.load_match(mid).current.scores()[1])
        expect(by_id(boris, "deal-score-1")).to_have_text(stored, timeout=WAIT)
        assert boxes(boris, *DEAL_PLACES) == before  # nothing moved
        below(boris, "deal-header", "live-strip")  # the header is not covered
        assert_free(boris, *DEAL_PLACES, "live-strip", "undo")
        look(boris, f"layout-02-deal-news-{size['width']}-{lang}")
        by_id(vera, "live-strip").wait_for(timeout=WAIT)
        assert boxes(vera, "viewer-total-0", "viewer-total-1") == viewer_before
        assert_free(vera, "viewer-total-0", "viewer-total-1", "live-strip", "nav-back")
        below(vera, "live-strip", "viewer-total-0")
        look(vera, f"layout-03-viewer-news-{size['width']}-{lang}")

        # it goes by itself, and again nothing moves
        by_id(boris, "live-strip").wait_for(state="detached", timeout=WAIT)
        assert boxes(boris, *DEAL_PLACES) == before
        assert_free(boris, *DEAL_PLACES, "ruling-strip")
        look(boris, f"layout-04-deal-news-gone-{size['width']}-{lang}")
        for p in (anna, boris, vera):
            p.context.close()
    finally:
        srv.stop()
        store.close()


@pytest.mark.parametrize(("size", "lang"), SIZES)
def test_the_penalty_choice_leaves_whose_penalty_and_the_scores_in_sight(
    tmp_path: Path, browser: Any, size: dict[str, int], lang: str
) -> None:
    srv, store, mid = serve(tmp_path, lang)
    store.record(mid, {"type": "declare", "player": "Anna", "new": ["QS", "JD"], "meld": "bezique"})
    try:
        page = phone(browser, srv, f"/match/{mid}", size)
        by_id(page, "declare-1").wait_for(timeout=60_000)
        header = boxes(page, "deal-header", "deal-score-0", "deal-score-1")
        tap(page, "penalty-0")
        by_id(page, "penalty-panel").wait_for()
        by_id(page, "offence-P-EARLY-DECLARE").wait_for()
        look(page, f"layout-05-penalty-choice-{size['width']}-{lang}")
        assert boxes(page, "deal-header", "deal-score-0", "deal-score-1") == header
        assert_free(page, "deal-header", "deal-score-0", "deal-score-1", "penalty-cancel")
        assert_free(page, "offence-P-EARLY-DECLARE")
        below(page, "deal-header", "penalty-panel")
        tap(page, "penalty-cancel")
        by_id(page, "penalty-panel").wait_for(state="detached")
        assert boxes(page, "deal-header", "deal-score-0", "deal-score-1") == header
        page.context.close()
    finally:
        srv.stop()
        store.close()


@pytest.mark.parametrize(("size", "lang"), SIZES)
def test_the_new_match_errors_move_neither_start_nor_the_fields(
    tmp_path: Path, browser: Any, size: dict[str, int], lang: str
) -> None:
    srv, store, _mid = serve(tmp_path, lang, match=False)
    try:
        page = phone(browser, srv, "/", size)
        tap(page, "new-match")
        by_id(page, "name-1").wait_for(timeout=60_000)
        places = ("name-0", "name-1", "target")
        before = boxes(page, *places)
        places = (*places, "start-match")
        scroll_down(page)  # Start at the bottom of a phone's screen, under the thumb
        by_id(page, "start-match").wait_for()
        page.wait_for_timeout(500)  # the scroll has settled
        at_bottom = boxes(page, *places)
        tap(page, "start-match")  # empty names: the form names the fields
        by_id(page, "form-errors").wait_for()
        look(page, f"layout-06-new-match-errors-{size['width']}-{lang}")
        assert boxes(page, *places) == at_bottom
        assert_free(page, "start-match", "form-errors")
        below(page, "form-errors", "start-match")
        scroll_down(page, -4000)
        by_id(page, "name-1").wait_for()
        page.wait_for_timeout(500)
        assert boxes(page, *places[:-1]) == before
        look(page, f"layout-07-new-match-errors-top-{size['width']}-{lang}")
        page.context.close()
    finally:
        srv.stop()
        store.close()


THREE = ["Александра", "Борис", "Вячеслав"]


@pytest.mark.parametrize(("size", "lang"), SIZES)
def test_three_hands_show_every_digit_of_the_totals_and_the_dealers_name(
    tmp_path: Path, browser: Any, size: dict[str, int], lang: str
) -> None:
    """Three-hand, long names, the dealer's turned-up seven and three-digit totals: every total
    shown whole in its box, on the deal screen and on the end form, and the end form's Record
    and Cancel on the phone's screen without a swipe."""
    srv, store, _ = serve(tmp_path, lang, match=False)
    mid = store.create_match("three-hand", THREE)
    store.start_deal(mid, THREE[0], "7C")
    store.record(
        mid,
        {
            "type": "declare",
            "player": THREE[1],
            "meld": "double_bezique",
            "new": ["QS", "JD", "QS", "JD"],
        },
    )
    store.record(
        mid,
        {
            "type": "declare",
            "player": THREE[0],
            "meld": "four_aces",
            "new": ["AS", "AH", "AD", "AC"],
        },
    )
    try:
        page = phone(browser, srv, f"/match/{mid}", size)
        by_id(page, "choose-2").wait_for(timeout=60_000)
        look(page, f"layout-08-three-hand-header-{size['width']}-{lang}")
        totals_whole(page, store, mid)
        tap(page, "stock-exhausted")
        tap(page, "last-trick-2")
        by_id(page, "finish-deal").wait_for()
        look(page, f"layout-09-three-hand-end-{size['width']}-{lang}")
        totals_whole(page, store, mid)
        assert_free(page, "finish-deal", "end-cancel")
        page.context.close()
    finally:
        srv.stop()
        store.close()


def totals_whole(page: Page, store: Store, mid: int) -> None:
    """Each side's match total as storage has it, its number inside its own box: left of the
    next box's deal points (the last one inside the header)."""
    totals = [points_text(v) for v in store.load_match(mid).totals()]
    header = where(page, "deal-header")["box"]
    for side, total in enumerate(totals):
        expect(by_id(page, f"total-number-{side}")).to_have_text(total, timeout=WAIT)
        number = where(page, f"total-number-{side}")["box"]
        right = number[0] + number[2]
        edge = (
            where(page, f"deal-score-{side + 1}")["box"][0]
            if side + 1 < len(totals)
            else header[0] + header[2]
        )
        assert right <= edge - 4, (side, total, number, edge)


@pytest.mark.parametrize(("size", "lang"), SIZES)
def test_a_rejected_rulings_buttons_are_on_screen_without_a_swipe(
    tmp_path: Path, browser: Any, size: dict[str, int], lang: str
) -> None:
    """A third 7♥ in two packs (R-PACK) after a long deal: the rejected ruling's panel keeps
    its penalty and OK buttons on screen and not under anything; its text scrolls instead."""
    srv, store, _ = serve(tmp_path, lang, match=False)
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    store.start_deal(mid, "Anna", "7H")  # the dealer's turned-up seven
    store.record(
        mid,
        {
            "type": "declare",
            "player": "Anna",
            "meld": "four_kings",
            "new": ["KS", "KH", "KD", "KC"],
        },
    )
    store.record(mid, {"type": "seven", "player": "Boris"})  # the other 7♥
    try:
        page = phone(browser, srv, f"/match/{mid}", size)
        by_id(page, "declare-1").wait_for(timeout=60_000)
        tap(page, "seven-0")  # a third 7♥: refused
        by_id(page, "dismiss-ruling").wait_for(timeout=WAIT)
        by_id(page, "apply-proposed").wait_for()
        look(page, f"layout-10-rejected-seven-{size['width']}-{lang}")
        assert_free(page, "dismiss-ruling", "apply-proposed", "ruling-verdict", "ruling-text")
        assert_free(page, "deal-header", "declare-0", "declare-1", "end-deal")
        below(page, "deal-header", "ruling")
        tap(page, "dismiss-ruling")
        by_id(page, "dismiss-ruling").wait_for(state="detached")
        page.context.close()
    finally:
        srv.stop()
        store.close()


@pytest.mark.parametrize(("size", "lang"), SIZES)
def test_the_table_cards_to_reuse_stay_in_place_over_the_grid(
    tmp_path: Path, browser: Any, size: dict[str, int], lang: str
) -> None:
    """Ten cards on Boris's table: in the free picker each of them can be tapped (not under
    the pinned grid) before and after cards and options come, and none moves."""
    srv, store, _ = serve(tmp_path, lang, match=False)
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    store.start_deal(mid, "Anna", "9H")
    for meld, cards in (
        ("bezique", ["QS", "JD"]),
        ("four_kings", ["KS", "KH", "KD", "KC"]),
        ("four_aces", ["AS", "AH", "AD", "AC"]),
    ):
        store.record(mid, {"type": "declare", "player": "Boris", "meld": meld, "new": cards})
    table = [f"table-card-{c}-0" for c in ("QS", "JD", "KS", "KH", "KD", "KC", "AS", "AC")]
    try:
        page = phone(browser, srv, f"/match/{mid}", size)
        by_id(page, "declare-1").wait_for(timeout=60_000)
        tap(page, "declare-1")
        tap(page, "tab-cards")
        by_id(page, "table-card-AC-0").wait_for()
        look(page, f"layout-11-picker-table-{size['width']}-{lang}")
        assert_free(page, *table, "pick-7C", "picker-clear")
        before = boxes(page, *table)
        tap(page, "table-card-QS-0")
        tap(page, "table-card-KS-0")
        by_id(page, "option-marriage").wait_for()
        tap(page, "pick-QC")
        by_id(page, "chosen-0").wait_for()
        look(page, f"layout-12-picker-table-chosen-{size['width']}-{lang}")
        assert boxes(page, *table) == before
        assert_free(page, *table, "pick-7C")
        page.context.close()
    finally:
        srv.stop()
        store.close()


@pytest.mark.parametrize(("size", "lang"), SIZES)
def test_the_viewers_four_digit_total_stays_on_one_line(
    tmp_path: Path, browser: Any, size: dict[str, int], lang: str
) -> None:
    """Anna past 1000 in her second deal: her big total on the viewer is one line, as high as
    Boris's, and reads what storage holds."""
    srv, store, _ = serve(tmp_path, lang, match=False)
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    bezique = {
        "type": "declare",
        "player": "Anna",
        "meld": "double_bezique",
        "new": ["QS", "JD", "QS", "JD"],
    }
    store.start_deal(mid, "Anna", "9H")
    for event in (
        bezique,
        {
            "type": "declare",
            "player": "Anna",
            "meld": "trump_sequence",
            "new": ["AH", "10H", "KH", "QH", "JH"],
        },
        {"type": "stock_exhausted"},
        {"type": "last_trick", "winner": "Anna"},
        {"type": "brisques", "counts": {"Anna": 16, "Boris": 0}},
    ):
        store.record(mid, event)
    store.start_deal(mid, "Boris", "9S")
    store.record(mid, bezique)
    try:
        page = phone(browser, srv, f"/view/{mid}", size)
        by_id(page, "viewer-total-0").wait_for(timeout=60_000)
        totals = [points_text(v) for v in store.load_match(mid).totals()]
        assert len(totals[0]) >= 4
        for side, total in enumerate(totals):
            expect(by_id(page, f"viewer-total-{side}")).to_have_text(total, timeout=WAIT)
        look(page, f"layout-13-viewer-four-digits-{size['width']}-{lang}")
        anna, boris = (where(page, f"viewer-total-{i}")["box"] for i in (0, 1))
        assert abs(anna[3] - boris[3]) <= 1, (anna, boris)  # one line each
        assert_free(page, "viewer-total-0", "viewer-total-1")
        page.context.close()
    finally:
        srv.stop()
        store.close()


@pytest.mark.parametrize(("size", "lang"), SIZES)
def test_with_tricks_a_rejected_rulings_buttons_are_on_screen_too(
    tmp_path: Path, browser: Any, size: dict[str, int], lang: str
) -> None:
    """Tricks tracking (the action bar has its trick row): Boris declares after Anna won the
    trick (R-DECLARE-AFTER-TRICK); the panel's penalty and OK are on screen, not under the
    action bar."""
    srv, store, _ = serve(tmp_path, lang, match=False)
    mid = store.create_match("two-hand", ["Anna", "Boris"], tracking="tricks")
    store.start_deal(mid, "Anna", "9H")
    for event in (
        {"type": "trick", "winner": "Boris"},
        {"type": "declare", "player": "Boris", "meld": "bezique", "new": ["QS", "JD"]},
        {"type": "trick", "winner": "Anna"},
        {"type": "trick", "winner": "Anna"},
    ):
        store.record(mid, event)
    try:
        page = phone(browser, srv, f"/match/{mid}", size)
        by_id(page, "declare-1").wait_for(timeout=60_000)
        tap(page, "declare-1")
        tap(page, "tab-cards")
        for card in ("KS", "KH", "KD", "KC"):
            tap(page, f"pick-{card}")
        tap(page, "option-four_kings")
        by_id(page, "dismiss-ruling").wait_for(timeout=WAIT)
        look(page, f"layout-14-tricks-rejected-{size['width']}-{lang}")
        assert_free(page, "dismiss-ruling", "ruling-verdict", "deal-header", "declare-0")
        if by_id(page, "apply-proposed").count():
            assert_free(page, "apply-proposed")
        page.context.close()
    finally:
        srv.stop()
        store.close()


@pytest.mark.parametrize(("size", "lang"), SIZES)
def test_four_last_trick_buttons_are_wide_enough_to_name_the_player(
    tmp_path: Path, browser: Any, size: dict[str, int], lang: str
) -> None:
    """Four-hand after the stock: each "last trick to …" button is at least 60 px wide (a
    name, not its initial) and on screen."""
    srv, store, _ = serve(tmp_path, lang, match=False)
    names = ["Anna", "Boris", "Clara", "Dmitri"]
    mid = store.create_match("four-hand", names)
    store.start_deal(mid, "Anna", "9H")
    store.record(mid, {"type": "stock_exhausted"})
    try:
        page = phone(browser, srv, f"/match/{mid}", size)
        by_id(page, "last-trick-3").wait_for(timeout=60_000)
        look(page, f"layout-15-four-last-trick-{size['width']}-{lang}")
        for seat in range(4):
            box = where(page, f"last-trick-{seat}")["box"]
            assert box[2] >= 60, (seat, box)
        assert_free(page, *(f"last-trick-{seat}" for seat in range(4)))
        page.context.close()
    finally:
        srv.stop()
        store.close()


def test_a_long_russian_variant_chip_shows_both_its_lines_at_360(
    tmp_path: Path, browser: Any
) -> None:
    srv, store, _ = serve(tmp_path, "ru", match=False)
    try:
        page = phone(browser, srv, "/", {"width": 360, "height": 780})
        tap(page, "rules")
        chip = "rules-variant-joker-multipack"
        by_id(page, chip).wait_for(timeout=60_000)
        look(page, "layout-16-rules-variant-chip-360-ru")
        assert where(page, chip)["box"][3] > 56  # two lines of text, the button grown to them
        assert_free(page, chip)
        page.context.close()
    finally:
        srv.stop()
        store.close()
