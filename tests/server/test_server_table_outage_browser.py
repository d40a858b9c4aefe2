"""A scorer's phone while the table server restarts (real server in table mode, real
Chromium at phone size): the screen says at once, in the language the phone chose, that the
connection is lost and that taps are not recorded; a tap in that window reaches nothing, is
not queued and is not sent after the reconnect (Flet's client would queue it and send it to
the new session); once the server is back the phone shows the match as stored, nothing
recorded, still in the language it chose (P11: it came back in English)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest
from server_helpers import TableServer

from ui.i18n import load_catalog

CONTROL_EVENT = 3
PHONE = {"width": 390, "height": 844}
NOTICE = "#bezique-reconnecting"


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    from ui_e2e_harness import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


class Frames:
    """What the page sends on each of its websockets, by socket."""

    def __init__(self, page: Any) -> None:
        self.sockets: list[list[bytes]] = []
        page.on("websocket", self._opened)

    def _opened(self, ws: Any) -> None:
        sent: list[bytes] = []
        self.sockets.append(sent)
        ws.on("framesent", lambda p: sent.append(p if isinstance(p, bytes) else p.encode()))

    def clicks(self, index: int) -> list[Any]:
        out = []
        for frame in self.sockets[index]:
            if frame[:1] == b"\x00":
                action, body = msgpack.unpackb(frame[1:], strict_map_key=False)
                if action == CONTROL_EVENT and body.get("name") == "click":
                    out.append(body)
        return out


def test_a_tap_while_the_server_restarts_is_refused_on_screen_and_never_sent(
    tmp_path: Path, browser: Any
) -> None:
    from ui_e2e_harness import back_after_restart, by_id, free_port, load_app, shot, tap

    from referee.storage import Store

    url = f"sqlite:///{tmp_path / 'outage.sqlite3'}"
    store = Store.open(url)
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    store.start_deal(mid, "Anna", "9H")
    before = store.log_position(mid)
    srv = TableServer(url, free_port(), tmp_path / "server.log", tmp_path / "state", lang=None)
    srv.start()
    try:
        page = browser.new_context(viewport=PHONE).new_page()
        frames = Frames(page)
        load_app(page, srv.link("scorer"))
        tap(page, "lang-toggle")  # this phone reads Russian
        by_id(page, "resume").first.wait_for(timeout=20_000)
        page.get_by_text("Продолжить партию").first.wait_for(timeout=20_000)
        tap(page, "resume")
        declare = by_id(page, "declare-1").first
        declare.wait_for(timeout=60_000)
        assert page.locator(NOTICE).count() == 0 or not page.locator(NOTICE).is_visible()

        assert srv.proc is not None
        srv.proc.kill()
        srv.proc.wait(timeout=10)
        srv.proc = None
        notice = page.locator(NOTICE)
        notice.wait_for(state="visible", timeout=15_000)
        said = notice.inner_text()
        ru = load_catalog("ru")
        assert ru["reconnect.title"] in said and ru["reconnect.body"] in said
        shot(page, "49-table-scorer-server-restarting")
        sockets_down = len(frames.sockets)
        # Taps on the old screen: a finger where the button is, and a click on the button's
        # accessibility node (the way Flet's client would still take and queue a tap).
        box = declare.bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        declare.dispatch_event("click")
        declare.click(force=True)

        srv.start()
        back_after_restart(page)  # a new session: the page starts afresh, as on a first visit
        by_id(page, "declare-1").first.wait_for(timeout=60_000)
        page.get_by_text("Сдача 1").first.wait_for(timeout=20_000)  # still Russian
        shot(page, "50-table-scorer-back-after-restart")
        # Nothing the phone sent after the outage was one of those taps.
        for index in range(sockets_down, len(frames.sockets)):
            assert frames.clicks(index) == [], "a tap of the outage was sent"
        assert store.log_position(mid) == before  # nothing recorded
        tap(page, "declare-1")  # the screen is live again: the tap opens the picker
        by_id(page, "tab-cards").first.wait_for(timeout=20_000)
        page.context.close()
    finally:
        srv.stop()
        store.close()


def test_a_phone_comes_back_once_the_server_answers_not_at_flets_next_retry(
    tmp_path: Path, browser: Any
) -> None:
    """Flet's client doubles its wait between websocket retries without a cap, so after a
    long outage its next try can be a minute away. Here every websocket the phone opens is
    refused while the restarted server answers plain requests (as between two of Flet's
    retries): the page must start afresh by itself, say so in its session storage, and show
    the match again once sockets get through."""
    import re

    from ui_e2e_harness import back_after_restart, by_id, free_port, load_app, tap

    from referee.storage import Store

    url = f"sqlite:///{tmp_path / 'outage.sqlite3'}"
    store = Store.open(url)
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    store.start_deal(mid, "Anna", "9H")
    srv = TableServer(url, free_port(), tmp_path / "server.log", tmp_path / "state", lang="en")
    srv.start()
    try:
        page = browser.new_context(viewport=PHONE).new_page()
        load_app(page, srv.link("scorer"))
        by_id(page, "resume").first.wait_for(timeout=20_000)
        tap(page, "resume")
        by_id(page, "declare-1").first.wait_for(timeout=60_000)
        assert page.evaluate("sessionStorage.getItem('bezique.reconnect.reloaded')") is None

        blocked = {"on": True}

        def sockets(ws: Any) -> None:
            if blocked["on"]:
                ws.close()
            else:
                ws.connect_to_server()

        page.route_web_socket(re.compile(r"/ws$"), sockets)
        page.on("framenavigated", lambda f: blocked.update(on=f != page.main_frame))
        assert srv.proc is not None
        srv.proc.kill()
        srv.proc.wait(timeout=10)
        srv.proc = None
        page.locator(NOTICE).wait_for(state="visible", timeout=15_000)
        srv.start()
        back_after_restart(page, timeout=60_000)
        by_id(page, "declare-1").first.wait_for(timeout=60_000)  # the match it showed
        assert page.evaluate("sessionStorage.getItem('bezique.reconnect.reloaded')") is not None
        page.context.close()
    finally:
        srv.stop()
        store.close()
