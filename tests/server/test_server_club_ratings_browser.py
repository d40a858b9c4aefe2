"""The club's ratings in a real browser (issue #24): a club server over a store with a few
finished matches (two-hand and three-hand, one whose log no longer replays); the director
opens the leaderboard from the director's screen, then a player's page with the rating curve,
at 1280×800 (a laptop or a projector) and at 360×780 (the director's link on a phone), in
English and Russian. Screenshots ``issue24-ratings-*``."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_server_club import _start

from referee.storage import Store

LAPTOP = {"width": 1280, "height": 800}
PHONE_360 = {"width": 360, "height": 780}
WAIT = 30_000
DOUBLE = ["QS", "QS", "JD", "JD"]


def play(store: Store, players: list[str], first: str, last_trick: str) -> int:
    """A finished match of one deal: ``first`` declares a double bezique (500)."""
    mid = store.create_match(
        "two-hand" if len(players) == 2 else "three-hand",
        players,
        target=500 if len(players) == 2 else 300,
    )
    store.start_deal(mid, 0, "9H")
    store.record(mid, {"type": "declare", "player": first, "new": DOUBLE})
    store.record(mid, {"type": "stock_exhausted"})
    store.record(mid, {"type": "last_trick", "winner": last_trick})
    store.record(mid, {"type": "brisques", "counts": dict.fromkeys(players, 8)})
    assert store.match_info(mid).finished
    return mid


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    from ui_e2e_harness import launch

    with sync_playwright() as pw:
        b = launch(pw, foreground=True)
        yield b
        b.close()


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[int, dict[str, str], int]]:
    from ui_e2e_harness import free_port

    db = tmp_path / "club.sqlite3"
    with Store.open(url=f"sqlite:///{db}") as store:
        play(store, ["Anna", "Boris"], "Anna", "Anna")
        play(store, ["Anna", "Boris", "Clara"], "Boris", "Clara")
        play(store, ["Clara", "Anna"], "Anna", "Anna")
        play(store, ["Dmitri", "Anna"], "Dmitri", "Dmitri")
        play(store, ["Boris", "Dmitri"], "Boris", "Boris")
        play(store, ["Anna", "Clara"], "Anna", "Anna")
        broken = play(store, ["Elena", "Boris"], "Elena", "Elena")
        store.create_match("two-hand", ["Fyodor", "Clara"])  # not finished: not rated
        ids = {r.name: str(r.id) for r in store.player_list()}
    with sqlite3.connect(db) as conn:  # a seat nobody has: this match no longer replays
        seq, payload = conn.execute(
            "SELECT seq, payload FROM log_entry WHERE match_id = ? AND kind = 'event'"
            " ORDER BY seq LIMIT 1",
            (broken,),
        ).fetchone()
        event = json.loads(payload)
        event["player"] = "Nobody"
        conn.execute(
            "UPDATE log_entry SET payload = ? WHERE match_id = ? AND seq = ?",
            (json.dumps(event), broken, seq),
        )
    port = free_port()
    proc = _start(tmp_path, {"created": time.time(), "director": "D" * 32, "tables": []}, port)
    yield port, ids, broken
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def test_the_director_opens_the_leaderboard_and_a_players_curve(
    club: tuple[int, dict[str, str], int], browser: Any
) -> None:
    from ui_e2e_harness import blank_page, shot

    port, ids, broken = club
    for viewport, size in ((LAPTOP, "1280"), (PHONE_360, "360")):
        sent: list[bytes] = []
        page = blank_page(browser, sent, viewport=viewport, locale="en-US")
        try:
            walk(page, sent, port, ids, broken, size)
        except Exception:
            shot(page, f"issue24-ratings-FAILED-{size}")
            raise
        page.context.close()


def walk(
    page: Any, sent: list[bytes], port: int, ids: dict[str, str], broken: int, size: str
) -> None:
    from ui_e2e_harness import by_id, load_app, shot, tap, tap_to, wait_words

    load_app(page, f"http://127.0.0.1:{port}/")
    by_id(page, "club-ratings").first.wait_for(timeout=60_000)
    tap_to(page, "club-ratings", "ratings-board")
    wait_words(page, "ratings-board", "Leaderboard", timeout=WAIT)
    wait_words(page, f"rating-{ids['Anna']}", "Anna: rating", timeout=WAIT)
    wait_words(page, "ratings-skipped", f"Match {broken}:", timeout=WAIT)
    shot(page, f"issue24-ratings-board-{size}")
    if size == "1280":
        wait_words(page, "ratings-records", "590", timeout=WAIT)
        wait_words(page, "ratings-model", "Plackett", timeout=WAIT)
        wait_words(page, "ratings-unrated", "Fyodor", timeout=WAIT)
    tap_to(page, f"rating-{ids['Anna']}", "player-curve")
    wait_words(page, "player-summary", "Anna", timeout=WAIT)
    wait_words(page, "player-curve", "over 5 matches", timeout=WAIT)
    wait_words(page, "player-history", "vs Boris", timeout=WAIT)
    shot(page, f"issue24-ratings-player-{size}")
    if size == "1280":
        refusals(page, sent)
    tap(page, "lang-toggle")
    wait_words(page, "player-summary", "Рейтинг", timeout=WAIT)
    wait_words(page, "player-curve", "за 5 партий", timeout=WAIT)
    shot(page, f"issue24-ratings-player-{size}-ru")
    tap_to(page, "nav-back", "ratings-board")
    wait_words(page, "ratings-board", "Таблица рейтинга", timeout=WAIT)
    shot(page, f"issue24-ratings-board-{size}-ru")


def refusals(page: Any, sent: list[bytes]) -> None:
    """Anna's page, scrolled to its actions: a rename to a taken name and a merge of two
    people who played each other, each refused in words beside its button."""
    from ui_e2e_harness import by_id, scroll_down, shot, tap, wait_words

    scroll_down(page, 3000)
    for _ in range(3):  # a fill before the field has the focus is lost: again until sent
        box = page.get_by_role("textbox", name="New name")
        box.click()
        page.wait_for_timeout(200)
        box.fill("Boris")
        deadline = time.monotonic() + 10
        while not any(b"Boris" in f and b"value" in f for f in sent):
            if time.monotonic() > deadline:
                break
            page.wait_for_timeout(25)
        if any(b"Boris" in f and b"value" in f for f in sent):
            break
    tap(page, "player-rename-go")
    wait_words(page, "player-rename", "already another player's name", timeout=WAIT)
    # the refusal pushed the merge below the fold (its button was cut off by the screen's
    # edge in a failed run): to the page's end again, and let the scroll settle
    scroll_down(page, 3000)
    page.wait_for_timeout(500)
    tap(page, "player-merge-into")
    pick(page, "Boris")
    by_id(page, "player-merge-go").first.wait_for(timeout=WAIT)
    tap(page, "player-merge-go")
    wait_words(page, "player-merge-question", 'Merge "Anna" into "Boris"?', timeout=WAIT)
    scroll_down(page, 3000)  # the question's buttons below it, at the page's end
    page.wait_for_timeout(500)
    shot(page, "issue24-ratings-player-1280-merge-question")
    tap(page, "player-merge-yes")
    wait_words(page, "player-merge", "both sat in matches", timeout=WAIT)
    shot(page, "issue24-ratings-player-1280-refused")


def pick(page: Any, name: str) -> None:
    """An option of the open dropdown menu, whatever role Flutter gives it."""
    from playwright.sync_api import Error

    deadline = time.monotonic() + WAIT / 1000
    while True:
        for loc in (
            page.get_by_role("menuitem", name=name, exact=True),
            page.get_by_role("option", name=name, exact=True),
            page.get_by_role("button", name=name, exact=True),
        ):
            if loc.count():
                try:
                    loc.first.click(timeout=2_000)
                    return
                except Error:
                    pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"no option {name!r} in the open menu")
        page.wait_for_timeout(100)
