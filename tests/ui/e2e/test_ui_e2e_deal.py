"""The deal screen on a 390×844 phone (issue 10, and issue 15's penalties), in the browser.

Each point of the issue with a screenshot (test-artifacts/screenshots/deal-…): declaring by
name with the engine's proposal, a card changed with one tap, the free picker's pinned grid,
rulings that cover no button (an accepted one goes by itself, a rejected one stays, the last
ones reopen), dealer / leader / totals, nothing cut at 360 px, phase 2, brisques typed, a
`tricks` deal closed by its last trick, and penalties with their amount first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from ui_e2e_harness import (
    AppServer,
    Typist,
    by_id,
    free_port,
    open_app,
    shot,
    tap,
    type_into_focus,
    type_until,
    wait_words,
)

PHONE = {"width": 390, "height": 844}
NARROW = {"width": 360, "height": 780}

# Where a finger lands on a control: is that control (not a layer above it) what it hits?
HIT_JS = """(id) => {
  const t = document.querySelector(`[flt-semantics-identifier="${id}"]`);
  if (!t) return {missing: true};
  const r = t.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {inView: r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth,
          hit: !!hit && (t.contains(hit) || hit.contains(t)),
          box: [r.left, r.top, r.width, r.height]};
}"""


def reachable(page: Page, identifier: str) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(HIT_JS, identifier)
    return result


def assert_reachable(page: Page, *identifiers: str) -> None:
    for identifier in identifiers:
        r = reachable(page, identifier)
        assert r.get("inView") and r.get("hit"), (identifier, r)


def new_match(page: Page, sent: list[bytes], tracking: str = "melds",
              names: tuple[str, str] = ("Anna", "Boris")) -> None:
    typist = Typist(page, sent)
    tap(page, "new-match")
    by_id(page, "start-match").wait_for()
    typist.type("Player 1", names[0])
    typist.type("Player 2", names[1])
    if tracking != "melds":
        tap(page, f"tracking-{tracking}")
        page.wait_for_timeout(300)
    tap(page, "start-match")
    by_id(page, "start-deal").wait_for()
    tap(page, "turn-up-9H")
    tap(page, "start-deal")
    by_id(page, "declare-0").wait_for()


def retype(page: Page, label: str, text: str, total: str) -> None:
    """Type a count over a field's number until the form's total line shows ``total``."""
    type_until(page, label, text, "brisque-total", total)


def declare(page: Page, seat: int, meld: str, name: str | None = None) -> None:
    tap(page, f"declare-{seat}")
    tap(page, f"name-{meld}")
    wait_words(page, "declare-confirm", "·" if name is None else name)
    tap(page, "declare-confirm")
    by_id(page, "picker-cancel").wait_for(state="detached")


def test_declare_by_name_rulings_phase_two_and_brisques_on_a_phone(
    server: AppServer, browser: Any
) -> None:
    sent: list[bytes] = []
    page = open_app(browser, server.url, sent, viewport=PHONE)
    new_match(page, sent)

    # The header: dealer, first lead, totals large; every button in reach at once
    wait_words(page, "dealer-leader", "Dealer: Anna")
    wait_words(page, "dealer-leader", "Boris leads first")
    assert_reachable(page, "declare-0", "declare-1", "seven-0", "penalty-1", "stock-exhausted",
                     "end-deal", "total-0", "total-1")
    shot(page, "deal-40-deal-phone")

    # Declaring by name: the engine proposes K♠ Q♠; one tap moves it to K♦ Q♦
    tap(page, "declare-0")
    by_id(page, "name-marriage").wait_for()
    shot(page, "deal-41-declare-names")
    tap(page, "name-marriage")
    wait_words(page, "proposal", "K♠")
    tap(page, "proposed-0")
    wait_words(page, "proposal", "K♦")
    shot(page, "deal-42-proposal-changed")
    tap(page, "proposed-0")
    tap(page, "proposed-0")  # ♦ → ♣ → ♠ again (♥ are trumps: no plain marriage there)
    wait_words(page, "proposal", "K♠")
    tap(page, "declare-confirm")

    # An accepted ruling in its own strip: no button covered, then gone by itself
    by_id(page, "ruling").wait_for()
    expect(by_id(page, "ruling-verdict")).to_have_text("Accepted")
    expect(by_id(page, "deal-score-0")).to_have_text("20")
    assert_reachable(page, "declare-0", "declare-1", "seven-1", "stock-exhausted")
    shot(page, "deal-43-accepted-strip")
    by_id(page, "ruling").wait_for(state="detached", timeout=15_000)
    wait_words(page, "last-entry", "marriage")
    shot(page, "deal-44-strip-quiet")

    declare(page, 1, "bezique")
    declare(page, 0, "trump_marriage")
    # The trump sequence reuses Anna's K♥ Q♥ from her table
    tap(page, "declare-0")
    tap(page, "name-trump_sequence")
    wait_words(page, "declare-confirm", "250")
    wait_words(page, "proposal", "K♥ · table")  # reused from her table
    wait_words(page, "proposal", "A♥ · hand")
    shot(page, "deal-45-proposal-reuse")
    tap(page, "declare-confirm")
    expect(by_id(page, "deal-score-0")).to_have_text("310")

    # The free choice stays: the 32 faces pinned, all on screen, not moved by a choice
    tap(page, "declare-1")
    tap(page, "tab-cards")
    by_id(page, "pick-7C").wait_for()
    faces = [f"pick-{r}{s}" for s in "SHDC" for r in ("A", "10", "K", "Q", "J", "9", "8", "7")]
    assert_reachable(page, *faces)
    before = reachable(page, "pick-7C")["box"]
    tap(page, "pick-KS")
    by_id(page, "chosen-0").wait_for()
    tap(page, "pick-KH")
    by_id(page, "chosen-1").wait_for()
    assert reachable(page, "pick-7C")["box"] == before  # nothing moved under the finger
    shot(page, "deal-46-picker-pinned-grid")
    tap(page, "picker-cancel")
    by_id(page, "picker-cancel").wait_for(state="detached")

    # The last rulings reopen in one tap
    tap(page, "ruling-strip")
    by_id(page, "recent-rulings").wait_for()
    wait_words(page, "recent-ruling-0", "trump sequence")
    shot(page, "deal-47-recent-rulings")
    tap(page, "close-rulings")
    by_id(page, "recent-rulings").wait_for(state="detached")

    # Phase 2: the declared cards went back to the hands; a declaration gets its ruling
    tap(page, "stock-exhausted")
    wait_words(page, "table-0", "went back to the hands")
    tap(page, "declare-1")
    tap(page, "name-four_kings")
    wait_words(page, "declare-confirm", "not allowed")
    wait_words(page, "proposal-ruling", "stock")  # why, before it is recorded
    tap(page, "declare-confirm")
    by_id(page, "ruling-why").wait_for()
    expect(by_id(page, "ruling-text")).to_contain_text("stock")
    assert_reachable(page, "declare-0", "declare-1", "last-trick-0", "last-trick-1",
                     "dismiss-ruling")  # the rejected ruling stays, over the tables only
    expect(by_id(page, "correct-cards")).to_have_count(0)  # not a mis-tap
    shot(page, "deal-48-phase2-rejected")
    page.wait_for_timeout(5_000)
    by_id(page, "ruling-why").wait_for()  # still there: a rejection stays until read
    tap(page, "dismiss-ruling")
    by_id(page, "ruling-why").wait_for(state="detached")

    # Brisques typed on the number pad: the second follows from the total; a wrong total
    # is explained under the field
    tap(page, "last-trick-1")
    by_id(page, "finish-deal").wait_for()
    type_into_focus(page, "9", "brisque-total", "9 + 7 = 16")
    shot(page, "deal-49-brisques-derived")
    retype(page, "Boris", "8", "9 + 8 = 17, but the packs hold 16")
    tap(page, "finish-deal")
    by_id(page, "error-brisques").wait_for()
    shot(page, "deal-50-brisques-wrong-total")
    retype(page, "Anna", "8", "8 + 8 = 16")
    tap(page, "finish-deal")
    wait_words(page, "summary-0", "Anna: 390")
    wait_words(page, "summary-1", "Boris: 130")
    shot(page, "deal-51-summary")
    page.context.close()


def test_nothing_is_cut_at_360_px(server: AppServer, browser: Any) -> None:
    sent: list[bytes] = []
    page = open_app(browser, server.url, sent, viewport=NARROW)
    new_match(page, sent, names=("Alexandra", "Maximilian"))
    assert_reachable(page, "declare-0", "declare-1", "seven-0", "seven-1", "penalty-0",
                     "penalty-1", "stock-exhausted", "end-deal", "total-0", "total-1",
                     "deal-score-0", "deal-score-1", "undo", "redo")
    shot(page, "deal-52-deal-360px")
    tap(page, "declare-0")
    tap(page, "name-double_trump_marriage")
    wait_words(page, "declare-confirm", "80")
    assert_reachable(page, "declare-confirm", "name-trump_sequence", "picker-cancel")
    shot(page, "deal-53-declare-360px")
    page.context.close()


def test_penalties_show_their_amount_and_a_mis_tap_is_corrected_first(
    server: AppServer, browser: Any
) -> None:
    sent: list[bytes] = []
    page = open_app(browser, server.url, sent, viewport=PHONE)
    new_match(page, sent)
    declare(page, 0, "four_queens")
    declare(page, 1, "four_queens")  # both packs' queens are now on the tables

    # The penalty list: each offence with the engine's amount, never cut
    tap(page, "penalty-0")
    by_id(page, "offence-P-FALSE-DECLARATION").wait_for()
    wait_words(page, "offence-P-FALSE-DECLARATION", "−60")
    wait_words(page, "offence-P-EARLY-DECLARE", "−10")
    expect(by_id(page, "offence-P-REVOKE")).to_have_count(0)  # phase 1: no revoke can be
    assert_reachable(page, "offence-P-FALSE-DECLARATION", "offence-P-EARLY-DECLARE")
    shot(page, "deal-54-penalty-amounts")
    tap(page, "offence-P-FALSE-DECLARATION")  # heavy: asks first
    wait_words(page, "penalty-confirm", "−60")
    expect(by_id(page, "deal-score-0")).to_have_text("60")
    shot(page, "deal-55-penalty-confirm")
    tap(page, "penalty-cancel")
    by_id(page, "penalty-panel").wait_for(state="detached")

    # A likely mis-tap: a third Q♣ with two packs (R-PACK). The cost is shown, and correcting
    # the cards comes first
    tap(page, "declare-0")
    tap(page, "tab-cards")
    tap(page, "pick-KC")
    by_id(page, "chosen-0").wait_for()
    tap(page, "pick-QC")
    by_id(page, "option-marriage").wait_for()
    tap(page, "option-marriage")
    by_id(page, "correct-cards").wait_for()
    expect(by_id(page, "ruling-rule")).to_contain_text("R-PACK")
    wait_words(page, "apply-proposed", "−60")
    shot(page, "deal-56-mis-tap-correct-first")
    tap(page, "correct-cards")
    by_id(page, "chosen-1").wait_for()
    expect(by_id(page, "deal-score-0")).to_have_text("60")
    shot(page, "deal-57-corrected-cards")
    page.context.close()


def test_a_tricks_deal_one_tap_per_trick_closed_by_the_last_trick(
    server: AppServer, browser: Any
) -> None:
    sent: list[bytes] = []
    page = open_app(browser, server.url, sent, viewport=PHONE)
    new_match(page, sent, tracking="tricks")
    wait_words(page, "dealer-leader", "Boris leads")  # after Anna, the dealer
    box = reachable(page, "trick-0")["box"]
    for n in range(1, 25):
        tap(page, f"trick-{n % 2}")
        wait_words(page, "stock", f"played: {n}")
        if n == 2:  # Anna won trick 2: she leads trick 3
            wait_words(page, "dealer-leader", "Anna leads")
            shot(page, "deal-58-tricks-deal")
        assert reachable(page, "trick-0")["box"] == box  # the same place for every trick
    # After the stock: the last trick alone closes the play (phase-2 tricks left out)
    by_id(page, "last-trick-1").wait_for()
    assert_reachable(page, "last-trick-0", "last-trick-1", "trick-0", "trick-1")
    shot(page, "deal-59-tricks-after-stock")
    tap(page, "last-trick-1")
    by_id(page, "finish-deal").wait_for()
    type_into_focus(page, "8", "brisque-total", "8 + 8 = 16")
    tap(page, "finish-deal")
    wait_words(page, "summary-1", "Boris: 90")
    shot(page, "deal-60-tricks-summary")
    # The next deal played to its 32nd trick: "won the trick" is no longer offered
    tap(page, "next-deal")
    by_id(page, "start-deal").wait_for()
    tap(page, "turn-up-9H")
    tap(page, "start-deal")
    by_id(page, "trick-0").wait_for()
    for n in range(1, 33):
        tap(page, f"trick-{n % 2}")
        if n <= 24:
            wait_words(page, "stock", f"played: {n}")
        else:
            page.wait_for_timeout(150)
    by_id(page, "end-deal").wait_for()
    expect(by_id(page, "trick-0")).to_have_count(0)
    shot(page, "deal-61-all-tricks-played")
    page.context.close()


# Whether a control's text box shows in full inside the viewport (not sliced by a clip).
SHOWN_JS = """(id) => {
  const t = document.querySelector(`[flt-semantics-identifier="${id}"]`);
  if (!t) return {missing: true};
  const r = t.getBoundingClientRect();
  return {inView: r.top >= 0 && r.bottom <= innerHeight, box: [r.left, r.top, r.width, r.height]};
}"""


def test_a_rejected_declaration_shows_its_reason_in_full_in_russian(
    tmp_path: Path, browser: Any
) -> None:
    srv = AppServer(f"sqlite:///{tmp_path / 'ru.sqlite3'}", free_port(), lang="ru")
    srv.start()
    try:
        sent: list[bytes] = []
        page = open_app(browser, srv.url, sent, viewport=PHONE)
        typist = Typist(page, sent)
        tap(page, "new-match")
        by_id(page, "start-match").wait_for()
        typist.type("Игрок 1", "Анна")
        typist.type("Игрок 2", "Борис")
        tap(page, "start-match")
        by_id(page, "start-deal").wait_for()
        tap(page, "turn-up-9H")
        tap(page, "start-deal")
        by_id(page, "declare-0").wait_for()
        tap(page, "declare-0")
        tap(page, "tab-cards")
        tap(page, "pick-KS")
        by_id(page, "chosen-0").wait_for()
        tap(page, "pick-QD")
        tap(page, "declare-anyway")
        by_id(page, "ruling-why").wait_for()
        page.wait_for_timeout(500)
        for identifier in ("ruling-text", "ruling-rule", "ruling-why"):
            r = page.evaluate(SHOWN_JS, identifier)
            assert r.get("inView"), (identifier, r)
        expect(by_id(page, "ruling-why")).to_contain_text("Почему")
        wait_words(page, "apply-proposed", "терять нечего")  # no bare "0"
        assert_reachable(page, "declare-0", "declare-1", "end-deal")  # the bar stays free
        shot(page, "deal-60-rejected-reason-ru")
        # The penalty list says it in words too; an applied penalty shows with its amount
        tap(page, "penalty-0")
        wait_words(page, "offence-P-FALSE-DECLARATION", "терять нечего")
        wait_words(page, "offence-P-EARLY-DECLARE", "−10")
        shot(page, "deal-61-penalty-nothing-to-lose-ru")
        tap(page, "offence-P-EARLY-DECLARE")
        wait_words(page, "ruling", "−10")
        shot(page, "deal-62-penalty-applied-ru")
        page.context.close()
    finally:
        srv.stop()
