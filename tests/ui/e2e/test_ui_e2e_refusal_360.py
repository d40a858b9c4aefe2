"""A refused write at 360×780 keeps both players' tables on screen (issue 22): the refusal
("Not recorded: … another device changed the match first …") was a red banner above the
tables and pushed both out of view; it now takes the ruling strip's place under the header
and its words scroll there. The phone's write is made on a stale view (another app instance
on the same database recorded first), in English and in Russian."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from ui_e2e_harness import AppServer, blank_page, by_id, free_port, load_app, shot, tap

from referee.storage import Store
from ui.i18n import load_catalog

PHONE_360 = {"width": 360, "height": 780}
WAIT = 20_000


@pytest.fixture
def table(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[AppServer, Store, int]]:
    url = f"sqlite:///{tmp_path / 'refusal.sqlite3'}"
    store = Store.open(url)
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    store.start_deal(mid, "Anna", "9H")
    srv = AppServer(url, free_port(), lang=request.param)
    srv.start()
    yield srv, store, mid
    srv.stop()
    store.close()


def inside(page: Page, identifier: str, bottom: float) -> bool:
    box = by_id(page, identifier).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= bottom + 0.5


@pytest.mark.parametrize("table", ["en", "ru"], indirect=True)
def test_a_refusal_leaves_both_tables_in_view_on_a_360_phone(
    table: tuple[AppServer, Store, int], browser: Any
) -> None:
    srv, store, mid = table
    lang = srv.lang or "en"
    page = blank_page(browser, viewport=PHONE_360)
    load_app(page, srv.url.rstrip("/") + f"/match/{mid}")
    by_id(page, "penalty-0").wait_for(timeout=60_000)
    # another app instance records first (no pubsub reaches this server): a stale view
    store.record(mid, {"type": "penalty", "player": "Anna", "offence": "P-REVOKE"})
    before = store.log_position(mid)
    tap(page, "penalty-1")
    offence = by_id(page, "offence-P-EARLY-DECLARE").first
    offence.wait_for(state="visible", timeout=WAIT)
    offence.click()
    refused = load_catalog(lang)["table.stale"].split(":", 1)[0]  # "Not recorded"
    page.wait_for_function(
        """([text]) => [...document.querySelectorAll('[flt-semantics-identifier="notice"]')]
            .some((e) => ((e.getAttribute('aria-label') || '') + e.innerText).includes(text))""",
        arg=[refused],
        timeout=WAIT,
    )
    assert store.log_position(mid) == before  # nothing recorded
    shot(page, f"issue22-refusal-tables-360-{lang}")
    bar = by_id(page, "penalty-0").first.bounding_box()  # the action bar's top row
    assert bar is not None
    assert inside(page, "notice", bar["y"])
    for seat in (0, 1):
        assert inside(page, f"player-{seat}", bar["y"]), f"player {seat}'s table out of view"
    tap(page, "notice-ok")  # read: the strip shows the rulings again
    by_id(page, "notice").wait_for(state="detached", timeout=WAIT)
    page.context.close()
