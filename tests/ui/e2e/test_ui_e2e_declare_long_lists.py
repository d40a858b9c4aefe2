"""Declaring by name with a long list of combinations on a phone (390×844 in English,
360×780 in Russian), in the real app (QA P15): the proposal (confirm, the proposed cards and
their hand/table captions) is on screen and not under the names, which scroll in a share of
their own; the last name is reached by scrolling that list, and tapping it moves it not.

Positions are the browser's boxes of the semantics nodes; "covered" is what
``document.elementFromPoint`` hits at a control's centre (helpers of the layout tests)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_ui_e2e_layout_slots import (
    SIZES,
    THREE,
    assert_free,
    below,
    look,
    phone,
    where,
)
from ui_e2e_harness import AppServer, by_id, free_port, tap

from referee.storage import Store
from ui import backend
from ui.state.declare_by_name import names as nameable

WAIT = 20_000


@pytest.fixture
def browser(phones_browser: Any) -> Any:
    return phones_browser  # conftest.py: windows behind keep painting


def serve(
    tmp_path: Path, lang: str, variant: str, players: list[str], turn_up: str | None
) -> tuple[AppServer, Store, int]:
    url = f"sqlite:///{tmp_path / 'long-lists.sqlite3'}"
    store = Store.open(url)
    mid = store.create_match(variant, players)
    store.start_deal(mid, players[0], turn_up)
    srv = AppServer(url, free_port(), lang=lang)
    srv.start()
    return srv, store, mid


def says(page: Any, identifier: str, words: str) -> None:
    """Wait until a node's text holds ``words`` in any case ("Four trump jacks: not allowed",
    "Declare four trump jacks · 200")."""
    page.wait_for_function(
        """([id, words]) => {
            const e = document.querySelector(`[flt-semantics-identifier="${id}"]`);
            if (!e) return false;
            const text = (e.getAttribute('aria-label') || '') + ' ' + e.innerText;
            return text.toLowerCase().includes(words.toLowerCase());
        }""",
        arg=[identifier, words],
        timeout=WAIT,
    )


def in_sight_over_the_names(page: Any) -> None:
    """The proposal's confirm, cards and captions on screen, hit-free, above the names."""
    assert_free(page, "declare-confirm", "proposed-0", "proposed-1")
    assert where(page, "proposal")["inView"]  # the cards' row with its captions
    below(page, "proposal", "declare-pinned")


@pytest.mark.parametrize("variant", ["six-pack", "eight-pack"])
@pytest.mark.parametrize(("size", "lang"), SIZES)
def test_the_proposal_stays_in_sight_and_every_name_is_reachable(
    tmp_path: Path, browser: Any, size: dict[str, int], lang: str, variant: str
) -> None:
    players = ["Alexandra", "Maximilian"]
    srv, store, mid = serve(tmp_path, lang, variant, players, None)
    names = nameable(store.load_match(mid).current)
    last = names[-1]
    tag = f"{variant}-{size['width']}-{lang}"
    try:
        page = phone(browser, srv, f"/match/{mid}", size)
        by_id(page, "declare-1").wait_for(timeout=60_000)
        tap(page, "declare-1")
        tap(page, "name-bezique")
        by_id(page, "proposed-1").wait_for(timeout=WAIT)
        look(page, f"long-list-01-bezique-{tag}")
        in_sight_over_the_names(page)
        # the last name: reached by scrolling the names' list (a scrollbar shows there)
        pinned = where(page, "declare-pinned")["box"]
        page.mouse.move(pinned[0] + pinned[2] / 2, pinned[1] + pinned[3] / 2)
        page.mouse.wheel(0, 3000)
        page.wait_for_function(
            """(id) => {
              const t = document.querySelector(`[flt-semantics-identifier="${id}"]`);
              if (!t) return false;
              const r = t.getBoundingClientRect();
              return r.top >= 0 && r.bottom <= innerHeight;
            }""",
            arg=f"name-{last}",
            timeout=WAIT,
        )
        page.wait_for_timeout(400)  # the scroll's last frames
        assert_free(page, f"name-{last}")
        before = where(page, f"name-{last}")["box"]
        tap(page, f"name-{last}")
        says(page, "declare-confirm", backend.meld_name(last, lang))  # or "… not allowed"
        by_id(page, "proposed-0").wait_for(timeout=WAIT)
        look(page, f"long-list-02-last-name-{tag}")
        after = where(page, f"name-{last}")["box"]
        assert abs(after[1] - before[1]) < 1, (before, after)  # the list kept its place
        assert_free(page, f"name-{last}", "declare-confirm", "proposed-0")
        assert where(page, "proposal")["inView"]
        below(page, "proposal", "declare-pinned")
        page.context.close()
    finally:
        srv.stop()
        store.close()


@pytest.mark.parametrize(("size", "lang"), SIZES)
def test_three_hands_hint_under_declare_is_in_sight(
    tmp_path: Path, browser: Any, size: dict[str, int], lang: str
) -> None:
    """Three-hand (long Russian names): before a name is tapped the hint under the confirm
    button is on screen and not under the names (it was covered at 360 px)."""
    srv, store, mid = serve(tmp_path, lang, "three-hand", THREE, "9C")
    try:
        page = phone(browser, srv, f"/match/{mid}", size)
        by_id(page, "choose-2").wait_for(timeout=60_000)
        tap(page, "declare-1")
        by_id(page, "declare-hint").wait_for(timeout=WAIT)
        look(page, f"long-list-03-three-hand-hint-{size['width']}-{lang}")
        assert_free(page, "declare-hint", "declare-confirm")
        below(page, "declare-hint", "declare-pinned")
        tap(page, "name-bezique")
        by_id(page, "proposed-1").wait_for(timeout=WAIT)
        look(page, f"long-list-04-three-hand-bezique-{size['width']}-{lang}")
        in_sight_over_the_names(page)
        page.context.close()
    finally:
        srv.stop()
        store.close()


@pytest.mark.parametrize(("size", "lang"), SIZES)
def test_a_long_why_leaves_the_proposed_cards_in_sight(
    tmp_path: Path, browser: Any, size: dict[str, int], lang: str
) -> None:
    """Two-hand: Olga's both J♦ are in her double bezique and she names the trump sequence in
    diamonds: the cards (and their captions) come right under the confirm button, the engine's
    why under them (a 4-line why pushed the cards under the names at 360 px)."""
    srv, store, mid = serve(tmp_path, lang, "two-hand", ["Olga", "Pavel"], "9D")
    store.record(
        mid,
        {
            "type": "declare",
            "player": "Olga",
            "meld": "double_bezique",
            "new": ["QS", "JD", "QS", "JD"],
        },
    )
    try:
        page = phone(browser, srv, f"/match/{mid}", size)
        by_id(page, "declare-0").wait_for(timeout=60_000)
        tap(page, "declare-0")
        tap(page, "name-trump_sequence")
        by_id(page, "proposed-4").wait_for(timeout=WAIT)
        look(page, f"long-list-05-two-hand-why-{size['width']}-{lang}")
        in_sight_over_the_names(page)
        assert_free(page, "proposed-4")
        if by_id(page, "proposal-ruling").count():
            below(page, "proposal", "proposal-ruling")
        page.context.close()
    finally:
        srv.stop()
        store.close()
