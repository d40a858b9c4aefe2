"""A club night in a real browser (issue #24): the director (the laptop's own listener,
1280×800) creates two tables through the new-match form, a phone (360×780) joins table 1 by
its scorer link and records a declaration with one tap, and the director's screen shows
table 1's new total. Screenshots of both."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import TABLE_ADDRESS
from test_server_club import _start

from referee.storage import Store

LAPTOP = {"width": 1280, "height": 800}
PHONE_360 = {"width": 360, "height": 780}
WAIT = 30_000


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    from ui_e2e_harness import launch

    with sync_playwright() as pw:
        b = launch(pw, foreground=True)  # two windows: the one behind keeps painting
        yield b
        b.close()


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    from ui_e2e_harness import free_port

    port = free_port()
    proc = _start(tmp_path, {"created": time.time(), "director": "D" * 32, "tables": []}, port)
    yield port, tmp_path
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def create_table(page: Any, sent: list[bytes], names: tuple[str, str], number: int) -> None:
    from ui_e2e_harness import by_id, tap, wait_words

    tap(page, "club-new-table")
    for label, name in zip(("Player 1", "Player 2"), names, strict=True):
        # Under load a fill can be lost (the field takes the focus late): fill again until
        # the server has the name, as ui_e2e_harness.type_until does for a shown effect.
        for _ in range(3):
            box = page.get_by_role("textbox", name=label)
            box.click()
            page.wait_for_timeout(200)
            box.fill(name)
            deadline = time.monotonic() + 10
            while not any(name.encode() in f for f in sent) and time.monotonic() < deadline:
                page.wait_for_timeout(25)
            if any(name.encode() in f for f in sent):
                break
    tap(page, "start-match")
    by_id(page, f"club-table-{number}").first.wait_for(timeout=WAIT)
    wait_words(page, f"club-table-{number}", names[0], timeout=WAIT)
    by_id(page, "club-code-scorer").first.wait_for(timeout=WAIT)  # its links, shown at once


def test_a_director_sees_a_tables_declaration(club: tuple[int, Path], browser: Any) -> None:
    from ui_e2e_harness import blank_page, by_id, load_app, shot, tap, wait_words

    port, folder = club
    sent: list[bytes] = []
    director = blank_page(browser, sent, viewport=LAPTOP, locale="en-US")
    load_app(director, f"http://127.0.0.1:{port}/")
    by_id(director, "club-new-table").first.wait_for(timeout=60_000)
    create_table(director, sent, ("Anna", "Boris"), 1)
    create_table(director, sent, ("Clara", "Dmitri"), 2)
    wait_words(director, "club-links", "Table 2", timeout=WAIT)

    state = json.loads((folder / "club.json").read_text())
    assert [t["number"] for t in state["tables"]] == [1, 2]
    link = f"http://{TABLE_ADDRESS}:{port}/?k={state['tables'][0]['scorer']}"
    match_id = int(state["tables"][0]["matches"][-1])
    phone = blank_page(browser, None, viewport=PHONE_360, locale="en-US")
    load_app(phone, link)
    by_id(phone, "resume").first.wait_for(timeout=60_000)
    wait_words(phone, "resume-card", "Anna — Boris", timeout=WAIT)
    body = phone.locator("body")
    assert "Clara" not in (body.inner_text() or "")
    tap(phone, "resume")
    by_id(phone, "start-deal").first.wait_for(timeout=WAIT)
    tap(phone, "turn-up-9H")
    tap(phone, "start-deal")
    by_id(phone, "offer-0-four_kings").first.wait_for(timeout=WAIT)
    tap(phone, "offer-0-four_kings")

    deadline = time.monotonic() + 20
    total = 0
    while time.monotonic() < deadline and not total:
        with Store.open(url=f"sqlite:///{folder / 'club.sqlite3'}") as store:
            total = int(store.load_match(match_id).result().sides[0].total)
        time.sleep(0.2)
    assert total > 0
    wait_words(director, "club-table-1", str(total), timeout=WAIT)
    wait_words(director, "club-table-1", "deal 1", timeout=WAIT)
    wait_words(director, "club-table-1", "Anna leads", timeout=WAIT)
    wait_words(director, "club-table-1", "Two-hand", timeout=WAIT)
    shot(phone, "issue24-club-phone-table1-360")
    shot(director, "issue24-club-director-1280")
    # the list alone, in Russian: what a projector shows during the evening
    tap(director, "club-links-2")  # "Hide links"
    tap(director, "lang-toggle")
    wait_words(director, "club-table-1", "впереди Anna", timeout=WAIT)
    shot(director, "issue24-club-director-1280-ru")
    for p in (director, phone):
        p.context.close()
