"""Six-pack on a phone (390×844 in English, 360×780 in Russian), the match's last game, in the
real app (QA P17): the carte blanche and cut bonus buttons are on screen, not under the
action bar, each keeps its place when the other player's goes; the compact "ends with this
deal" note sits under the header and leaves the first player's table in sight; on the end
form the header stays where it was on the deal screen, the note under it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_ui_e2e_layout_slots import (
    SIZES,
    assert_free,
    below,
    look,
    phone,
    where,
)
from ui_e2e_harness import AppServer, by_id, free_port, tap

from referee.storage import Store

WAIT = 20_000


@pytest.fixture
def browser(phones_browser: Any) -> Any:
    return phones_browser  # conftest.py: windows behind keep painting


PLAYERS = ["Alexandra", "Maximilian"]
ENTRIES = ("carte-blanche-0", "carte-blanche-1", "cut-bonus-0", "cut-bonus-1")


@pytest.mark.parametrize(("size", "lang"), SIZES)
def test_six_pack_entries_keep_their_place_and_leave_the_tables_in_sight(
    tmp_path: Path, browser: Any, size: dict[str, int], lang: str
) -> None:
    url = f"sqlite:///{tmp_path / 'entries.sqlite3'}"
    store = Store.open(url)
    mid = store.create_match("six-pack", PLAYERS, games=1)  # its only game: the last
    store.start_deal(mid, PLAYERS[0], None)
    srv = AppServer(url, free_port(), lang=lang)
    srv.start()
    tag = f"{size['width']}-{lang}"
    try:
        page = phone(browser, srv, f"/match/{mid}", size)
        by_id(page, "cut-bonus-1").wait_for(timeout=60_000)
        by_id(page, "verdict-ends-with-deal").wait_for(timeout=WAIT)
        look(page, f"entries-01-six-pack-{tag}")
        assert_free(page, *ENTRIES, "verdict-ends-with-deal", "deal-header", "action-bar")
        below(page, "deal-header", "verdict-ends-with-deal")
        for e in ENTRIES:  # over the action bar, not under it
            below(page, e, "action-bar")
        bar_top = where(page, "action-bar")["box"][1]
        # the first player's table: its name line at least above the action bar
        assert where(page, "player-0")["box"][1] + 30 <= bar_top
        header = where(page, "deal-header")["box"]
        kept = {e: where(page, e)["box"] for e in ("carte-blanche-0", "cut-bonus-0")}
        tap(page, "carte-blanche-1")
        by_id(page, "carte-blanche-1").wait_for(state="detached", timeout=WAIT)
        page.wait_for_timeout(300)
        look(page, f"entries-02-after-carte-blanche-{tag}")
        for e, box in kept.items():  # neither wider nor moved
            now = where(page, e)["box"]
            assert all(abs(a - b) < 1 for a, b in zip(now, box, strict=True)), (e, box, now)
        tap(page, "stock-exhausted")
        tap(page, "last-trick-0")
        by_id(page, "finish-deal").wait_for(timeout=WAIT)
        look(page, f"entries-03-end-form-{tag}")
        end_header = where(page, "deal-header")["box"]
        assert abs(end_header[1] - header[1]) < 12, (header, end_header)  # not 114 px down
        below(page, "deal-header", "verdict-ends-with-deal")
        assert_free(page, "finish-deal", "end-cancel")
        page.context.close()
    finally:
        srv.stop()
        store.close()
