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


@pytest.fixture
def club_with_players(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """A club server whose storage already knows four players (matches of another evening),
    so the tournament's set-up offers them."""
    from ui_e2e_harness import free_port

    with Store.open(url=f"sqlite:///{tmp_path / 'club.sqlite3'}") as store:
        store.create_match("two-hand", ["Anna", "Boris"])
        store.create_match("two-hand", ["Clara", "Dmitri"])
    port = free_port()
    proc = _start(tmp_path, {"created": time.time(), "director": "D" * 32, "tables": []}, port)
    yield port, tmp_path
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def finish(store: Store, match_id: int, winner: str) -> None:
    """The table plays its match to the end (in storage, as its phones would): ``winner``
    declares a double bezique and takes the last trick."""
    players = list(store.match_info(match_id).players)
    store.start_deal(match_id, 0, "9H")
    store.record(match_id, {"type": "declare", "player": winner, "new": ["QS", "QS", "JD", "JD"]})
    store.record(match_id, {"type": "stock_exhausted"})
    store.record(match_id, {"type": "last_trick", "winner": winner})
    store.record(match_id, {"type": "brisques", "counts": dict.fromkeys(players, 8)})


def test_a_director_runs_a_round_robin_and_sees_the_standings(
    club_with_players: tuple[int, Path], browser: Any
) -> None:
    from ui_e2e_harness import (
        Typist,
        blank_page,
        by_id,
        load_app,
        shot,
        tap,
        tap_to,
        wait_words,
    )

    port, folder = club_with_players
    sent: list[bytes] = []
    director = blank_page(browser, sent, viewport=LAPTOP, locale="en-US")
    load_app(director, f"http://127.0.0.1:{port}/")
    by_id(director, "club-tournament").first.wait_for(timeout=60_000)
    tap_to(director, "club-tournament", "tournament-new")
    tap_to(director, "tournament-new", "tournament-create")
    for n in range(4):  # the club's players, offered: each tap takes the first one left
        tap(director, "tournament-offer-0")
        by_id(director, f"tournament-entrant-{n}").first.wait_for(timeout=WAIT)
    tap(director, "tournament-format-round_robin")
    Typist(director, sent).type("Target (points)", "500")
    shot(director, "issue24-tournament-setup-1280")
    tap(director, "tournament-create")
    # the server's proposal: round 1 of 3, two tables
    wait_words(director, "tournament-next", "Next: round 1 of 3", timeout=WAIT)
    wait_words(director, "tournament-next", "proposed by the server", timeout=WAIT)
    wait_words(director, "tournament-standings", "Dmitri", timeout=WAIT)
    shot(director, "issue24-tournament-proposed-1280")
    tap(director, "tournament-start")
    wait_words(director, "tournament-current", "Table 1", timeout=WAIT)
    wait_words(director, "tournament-current", "Table 2", timeout=WAIT)

    state = json.loads((folder / "club.json").read_text())
    assert [t["number"] for t in state["tables"]] == [1, 2]
    played = state["tournament"]["played"][0]["tables"]
    assert [t["table"] for t in played] == [1, 2]
    first = played[0]
    winner = first["players"][1]
    with Store.open(url=f"sqlite:///{folder / 'club.sqlite3'}") as store:
        finish(store, int(first["match"]), winner)
    # the club screen (its tables, the standings, who plays whom) reads storage when drawn;
    # a write by another process reaches it at the next redraw: going back draws it (within
    # one server a table's write redraws it at once, ui/live.py)
    tap_to(director, "nav-back", "tournament-who")  # the club screen's top (its cards below)
    wait_words(director, "tournament-who", f"{winner} won", timeout=WAIT)
    wait_words(director, "standing-1", winner, timeout=WAIT)
    wait_words(director, "tournament-standings", "after round 1", timeout=WAIT)
    shot(director, "issue24-tournament-club-1280")
    tap_to(director, "club-tournament", "tournament-current")
    wait_words(director, "tournament-current", f"{winner} won", timeout=WAIT)
    shot(director, "issue24-tournament-round1-1280")

    # the other table finishes: round 2 is proposed; the director swaps two players, which
    # seats two pairs of round 1 again: warned in words, and the proposal comes back
    second = played[1]
    with Store.open(url=f"sqlite:///{folder / 'club.sqlite3'}") as store:
        finish(store, int(second["match"]), second["players"][0])
    tap_to(director, "nav-back", "tournament-who")
    tap_to(director, "club-tournament", "tournament-next")
    wait_words(director, "tournament-next", "Next: round 2 of 3", timeout=WAIT)
    tap(director, "tournament-pick-0-1")
    by_id(director, "tournament-picked").first.wait_for(timeout=WAIT)
    tap(director, "tournament-pick-1-0")
    wait_words(director, "tournament-warning-0", "have already met (round 1)", timeout=WAIT)
    wait_words(director, "tournament-next", "edited by the director", timeout=WAIT)
    shot(director, "issue24-tournament-edited-1280")
    tap(director, "tournament-propose-again")
    wait_words(director, "tournament-next", "proposed by the server", timeout=WAIT)
    tap(director, "lang-toggle")
    wait_words(director, "tournament-standings", "Таблица", timeout=WAIT)
    shot(director, "issue24-tournament-round2-1280-ru")
    director.context.close()
