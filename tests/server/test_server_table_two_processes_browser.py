"""Issue 24's foundation in real browsers: two table-mode server processes on one PostgreSQL
database (the second started with ``--join-table``, on another port, with the first one's
secrets), Anna's phone on process 1 and Boris's on process 2, each at 360×780. A declaration
recorded on Anna's phone is painted on Boris's, with the news strip naming her phone, and
Boris's entry is painted on Anna's: nothing but PostgreSQL's LISTEN/NOTIFY joins the two
processes (referee/storage/change_feed.py). Then process 1 is killed and started again:
Anna's phone comes back to the match with what Boris recorded meanwhile, and hears him again.

Every number compared is storage's replay. Skips without BEZIQUE_TEST_POSTGRES_URL.
Screenshots: test-artifacts/screenshots/issue24-two-processes-*.png.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import TableServer

from referee.storage import Store

PG_ENV = "BEZIQUE_TEST_POSTGRES_URL"
SMALL = {"width": 360, "height": 780}
WAIT = 30_000  # a loaded 2-core machine: never a timing test


def _wipe(url: str) -> None:
    """An empty schema, as every PostgreSQL storage test starts from."""
    import psycopg

    plain = url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute("DROP SCHEMA IF EXISTS public CASCADE")
        conn.execute("CREATE SCHEMA public")


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    from ui_e2e_harness import launch

    with sync_playwright() as pw:
        b = launch(pw, foreground=True)  # two phones: the window behind keeps painting
        yield b
        b.close()


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[tuple[TableServer, TableServer, Store, int]]:
    """Process 1 (``--table``) and process 2 (``--table --join-table``) on one database, with
    a two-hand match whose first deal has started."""
    from ui_e2e_harness import free_port

    url = os.environ.get(PG_ENV)
    if not url:
        pytest.skip(f"PostgreSQL not configured: set {PG_ENV} (scripts/pg-test-server.sh)")
    _wipe(url)
    store = Store.open(url)
    mid = store.create_match("two-hand", ["Anna", "Boris"], target=10**9)
    store.start_deal(mid, "Anna", "9H")
    state = tmp_path / "table-state.json"  # both processes read the one file of secrets
    one = TableServer(url, free_port(), tmp_path / "one.log", state)
    two = TableServer(url, free_port(), tmp_path / "two.log", state, extra=("--join-table",))
    one.start()
    two.start()  # after the first: it joins the table session the first one keeps
    try:
        yield one, two, store, mid
    finally:
        two.stop()
        one.stop()
        store.close()


def phone(browser: Any, link: str, name: str, sent: list[bytes]) -> Any:
    """A scorer's phone joined by its link, named on Home, on the match's deal screen."""
    from ui_e2e_harness import Typist, blank_page, by_id, load_app, tap

    page = blank_page(browser, sent, viewport=SMALL, locale="en-US")
    load_app(page, link)
    by_id(page, "device-name").wait_for(timeout=60_000)
    Typist(page, sent).type("Name shown to the others", name)
    page.keyboard.press("Enter")
    tap(page, "resume")
    by_id(page, "declare-1").wait_for(timeout=60_000)
    return page


def shows_storage(pages: list[Any], store: Store, mid: int) -> None:
    """Every phone's deal scores are storage's (read again until they agree)."""
    from test_ui_e2e_table import _texts, stored_scores

    deadline = time.monotonic() + WAIT / 1000
    while True:
        deal0, deal1, _, _ = stored_scores(store, mid)
        seen = [_texts(p, "deal-score-0", "deal-score-1") for p in pages]
        if seen == [[deal0, deal1]] * len(pages):
            return
        assert time.monotonic() < deadline, f"phones {seen} never showed storage {deal0, deal1}"
        time.sleep(0.1)


def declare_marriage(page: Any, seat: int) -> None:
    from ui_e2e_harness import by_id, tap

    tap(page, f"declare-{seat}")
    tap(page, "tab-cards")
    tap(page, "pick-KS")
    by_id(page, "chosen-0").wait_for()
    tap(page, "pick-QS")
    by_id(page, "option-marriage").wait_for()
    tap(page, "option-marriage")


def test_a_write_on_either_process_is_painted_on_the_phones_of_the_other(
    two_servers: tuple[TableServer, TableServer, Store, int], browser: Any
) -> None:
    from test_ui_e2e_table import declare_bezique, landed
    from ui_e2e_harness import back_after_restart, by_id, shot, tap, wait_words

    one, two, store, mid = two_servers
    assert one.secret("scorer") == two.secret("scorer")  # one table, two processes
    assert one.port != two.port
    sent_a: list[bytes] = []
    sent_b: list[bytes] = []
    anna = phone(browser, one.link("scorer"), "Anna's phone", sent_a)
    boris = phone(browser, two.link("scorer"), "Boris's phone", sent_b)
    assert f":{one.port}/" in anna.url and f":{two.port}/" in boris.url
    shot(anna, "issue24-two-processes-01-anna-on-process-1")

    # Anna's phone (process 1) declares a bezique: painted on Boris's phone (process 2)
    position = store.log_position(mid)
    declare_bezique(anna, 1)
    landed(store, mid, position + 1)
    wait_words(boris, "live-strip", "Anna's phone recorded", WAIT)
    wait_words(boris, "live-strip", "bezique", WAIT)
    shows_storage([anna, boris], store, mid)
    shot(boris, "issue24-two-processes-02-boris-sees-annas-bezique")

    # Boris's phone (process 2) declares a marriage: painted on Anna's phone (process 1)
    declare_marriage(boris, 0)
    landed(store, mid, position + 2)
    wait_words(anna, "live-strip", "Boris's phone recorded", WAIT)
    wait_words(anna, "live-strip", "marriage", WAIT)
    shows_storage([anna, boris], store, mid)
    shot(anna, "issue24-two-processes-03-anna-sees-boris-marriage")

    # His undo and redo are named on her phone: what the undo took back travels with its
    # notice; what the redo restored, process 1 reads from storage
    tap(boris, "undo")
    landed(store, mid, position + 3)
    wait_words(anna, "live-strip", "Boris's phone undid: Anna declares marriage", WAIT)
    shows_storage([anna, boris], store, mid)
    shot(anna, "issue24-two-processes-03b-anna-sees-boris-undo")
    tap(boris, "redo")
    landed(store, mid, position + 4)
    wait_words(anna, "live-strip", "Boris's phone restored: Anna declares marriage", WAIT)
    shows_storage([anna, boris], store, mid)

    # Process 1 is killed mid-evening; Boris undoes the marriage on process 2 meanwhile
    assert one.proc is not None
    os.kill(one.proc.pid, signal.SIGKILL)
    one.proc.wait(timeout=10)
    one.proc = None
    tap(boris, "undo")
    landed(store, mid, position + 5)
    shows_storage([boris], store, mid)
    # Process 1 again (same port, same secrets): Anna's phone comes back to the match as
    # stored, without the undone marriage, and hears process 2 again
    one.start()
    back_after_restart(anna)
    by_id(anna, "declare-1").wait_for(timeout=90_000)
    shows_storage([anna, boris], store, mid)
    shot(anna, "issue24-two-processes-04-anna-back-after-process-1-restart")
    declare_marriage(boris, 0)
    landed(store, mid, position + 6)
    wait_words(anna, "live-strip", "Boris's phone recorded", WAIT)
    shows_storage([anna, boris], store, mid)
    shot(anna, "issue24-two-processes-05-anna-hears-process-2-again")
    for p in (anna, boris):
        p.context.close()
