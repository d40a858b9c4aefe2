"""Issue 22, the server log: a phone that went away costs no traceback. One evening logged 74
from closed tabs still subscribed to the table's moves (ui/live.py heard -> page.run_task ->
'NoneType' object has no attribute 'loop'), the same from the ruling strip's timer when a tab
closed within seconds of a ruling, and "coroutine was never awaited" after restarts.

Real table server (its log at Flet's ``info`` level, which shows sessions leaving the table),
real Chromium tabs closed at those moments; the log must hold no traceback and no unawaited
coroutine, and the closed tab's session must have been unsubscribed when it went."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import TableServer

PHONE = {"width": 390, "height": 844}
WAIT = 30_000
LEFT = re.compile(r"session (\w+) left the table: unsubscribed")
DISCONNECTED = re.compile(r"Session disconnected: (\S+)")  # Flet's key holds the id
FAULTS = ("Traceback", "never awaited", "never retrieved", "exception calling callback")


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    from ui_e2e_harness import launch

    with sync_playwright() as pw:
        b = launch(pw, foreground=True)  # several phones: the windows behind keep painting
        yield b
        b.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[TableServer, Any, int]]:
    from ui_e2e_harness import free_port

    from referee.storage import Store

    url = f"sqlite:///{tmp_path / 'tabs.sqlite3'}"
    store = Store.open(url)
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    store.start_deal(mid, "Anna", "9H")
    srv = TableServer(
        url, free_port(), tmp_path / "server.log", tmp_path / "state",
        env={"FLET_LOG_LEVEL": "info"},
    )
    srv.start()
    yield srv, store, mid
    srv.stop()
    store.close()


def phone_at_the_deal(browser: Any, srv: TableServer) -> Any:
    from ui_e2e_harness import by_id, load_app, tap

    page = browser.new_context(viewport=PHONE).new_page()
    load_app(page, srv.link("scorer"))
    by_id(page, "resume").first.wait_for(timeout=60_000)
    tap(page, "resume")
    by_id(page, "declare-1").first.wait_for(timeout=60_000)
    return page


def declare_bezique(page: Any, seat: int) -> None:
    from ui_e2e_harness import by_id, tap

    tap(page, f"declare-{seat}")
    tap(page, "tab-cards")  # the free choice of cards (not by name)
    tap(page, "pick-QS")
    by_id(page, "chosen-0").wait_for()
    tap(page, "pick-JD")
    by_id(page, "option-bezique").wait_for()
    tap(page, "option-bezique")


def recorded(store: Any, mid: int, position: int) -> None:
    """Wait (bounded) until storage holds the match at ``position``."""
    deadline = time.monotonic() + 30
    while store.log_position(mid) < position:
        assert time.monotonic() < deadline, f"the match never reached {position}"
        time.sleep(0.1)


def log_text(srv: TableServer) -> str:
    return srv.log_path.read_text(errors="replace")


def wait_for_log(srv: TableServer, pattern: re.Pattern[str], count: int = 1) -> list[str]:
    """The ids of the first ``count`` matches of ``pattern`` in the server's log, waiting
    for them (bounded)."""
    deadline = time.monotonic() + 30
    while True:
        found = pattern.findall(log_text(srv))
        if len(found) >= count:
            return list(found)
        assert time.monotonic() < deadline, f"no {pattern.pattern!r} in the log"
        time.sleep(0.1)


def no_faults(text: str) -> None:
    for fault in FAULTS:
        at = text.find(fault)
        assert at < 0, f"{fault!r} in the server log:\n{text[max(0, at - 300) : at + 2000]}"


def settle_log(srv: TableServer, seconds: float = 2.0) -> str:
    """The log once it has stopped growing for a while (a fault is logged when its future is
    collected, a moment after the event)."""
    size, still = -1, time.monotonic()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        now = srv.log_path.stat().st_size
        if now != size:
            size, still = now, time.monotonic()
        elif time.monotonic() - still >= seconds:
            break
        time.sleep(0.1)
    return log_text(srv)


def test_a_tab_closed_after_hearing_a_move_is_unsubscribed_and_the_next_moves_log_nothing(
    table: tuple[TableServer, Any, int], browser: Any
) -> None:
    from ui_e2e_harness import wait_words

    srv, store, mid = table
    anna = phone_at_the_deal(browser, srv)
    boris = phone_at_the_deal(browser, srv)
    start = store.log_position(mid)
    declare_bezique(anna, 1)
    recorded(store, mid, start + 1)
    wait_words(boris, "live-strip", "recorded", timeout=WAIT)  # Boris heard it
    boris.context.close()
    gone = wait_for_log(srv, LEFT)
    disconnected = DISCONNECTED.findall(log_text(srv))
    assert [k for k in disconnected if gone[0] in k] == disconnected  # the closed tab's own
    declare_bezique(anna, 0)  # a move the closed tab is no longer told of
    recorded(store, mid, start + 2)
    anna.context.close()
    wait_for_log(srv, LEFT, 2)
    no_faults(settle_log(srv))


def test_a_tab_closed_within_a_second_of_a_ruling_logs_nothing(
    table: tuple[TableServer, Any, int], browser: Any
) -> None:
    from ui_e2e_harness import by_id

    srv, store, mid = table
    anna = phone_at_the_deal(browser, srv)
    before = store.log_position(mid)
    declare_bezique(anna, 1)
    by_id(anna, "ruling").first.wait_for(timeout=WAIT)  # the accepted ruling, its timer set
    anna.context.close()  # before the strip's timer (4 s) goes off
    recorded(store, mid, before + 1)
    wait_for_log(srv, LEFT)
    time.sleep(5)  # the timer goes off on a page that has gone
    no_faults(settle_log(srv))


def test_phones_across_a_server_restart_log_nothing(
    table: tuple[TableServer, Any, int], browser: Any
) -> None:
    from ui_e2e_harness import back_after_restart, by_id

    srv, _store, _mid = table
    anna = phone_at_the_deal(browser, srv)
    boris = phone_at_the_deal(browser, srv)
    assert srv.proc is not None
    srv.proc.kill()
    srv.proc.wait(timeout=10)
    srv.proc = None
    first = log_text(srv)
    srv.start()  # the log starts anew
    for page in (anna, boris):  # each page starts afresh on a new session
        back_after_restart(page)
    by_id(anna, "declare-1").first.wait_for(timeout=60_000)
    by_id(boris, "declare-1").first.wait_for(timeout=60_000)
    left = len(LEFT.findall(log_text(srv)))  # the old pages' first sessions, if they had any
    boris.context.close()  # one phone goes as soon as it is back
    wait_for_log(srv, LEFT, left + 1)
    anna.context.close()
    no_faults(first)
    no_faults(settle_log(srv))


BACK = re.compile(r"session (\w+) is back at the table: subscribed")


def test_a_phone_that_drops_and_comes_back_shows_what_it_missed_and_hears_moves_again(
    table: tuple[TableServer, Any, int], browser: Any
) -> None:
    """The other side of unsubscribing: Boris's websocket drops (his Wi-Fi), Anna records
    meanwhile, and Boris comes back on the same session: he shows her entry (read again from
    storage, nobody told him) and hears her next one."""
    from ui_e2e_harness import by_id, shot, wait_words

    srv, store, mid = table
    anna = phone_at_the_deal(browser, srv)
    boris = browser.new_context(viewport=PHONE).new_page()
    sockets: list[tuple[Any, Any]] = []
    blocked = {"on": False}

    def route(ws: Any) -> None:
        if blocked["on"]:
            ws.close()  # no Wi-Fi: refused
        else:
            sockets.append((ws, ws.connect_to_server()))

    boris.route_web_socket(re.compile(r"/ws$"), route)
    from ui_e2e_harness import load_app, tap

    load_app(boris, srv.link("scorer"))
    by_id(boris, "resume").first.wait_for(timeout=60_000)
    tap(boris, "resume")
    by_id(boris, "declare-1").first.wait_for(timeout=60_000)
    start = store.log_position(mid)
    blocked["on"] = True
    page_side, server_side = sockets[-1]
    server_side.close()
    page_side.close()
    gone = wait_for_log(srv, LEFT)[0]
    declare_bezique(anna, 1)  # while Boris is away
    recorded(store, mid, start + 1)
    blocked["on"] = False  # back on the Wi-Fi: Flet's retry or the notice's reload
    deadline = time.monotonic() + 90
    while gone not in BACK.findall(log_text(srv)):
        assert time.monotonic() < deadline, "Boris never came back to his session"
        boris.wait_for_timeout(200)  # Playwright runs the socket's route while it waits
    placeholder = boris.locator("flt-semantics-placeholder")  # after a reload: on again
    if placeholder.count():
        placeholder.dispatch_event("click")
    scores = store.load_match(mid).current.scores()
    wait_words(boris, "deal-score-1", str(scores[1]), timeout=WAIT)  # what he missed
    shot(boris, "closed-tabs-boris-back")
    declare_bezique(anna, 0)  # and the next move reaches him
    recorded(store, mid, start + 2)
    wait_words(boris, "live-strip", "recorded", timeout=WAIT)
    for page in (anna, boris):
        page.context.close()
    no_faults(settle_log(srv))
