"""Issue 22 in real browsers against ``python -m ui.main --table``: every phone at the table
tells the same truth.

- each phone's Home says which role it joined with, in its own language; a viewer is asked for
  no name and is offered no Import, Abandon or Correct an entry;
- the host corrects an entry: a scorer's phone (Russian, 360 px) and a viewer (English,
  390 px) say what changed with the host's own lines, each in its language; the strip keeps
  whole lines and a tap opens it in full, where it stays past the strip's few seconds;
- the scorer's own undo is "Вы отменили …" on its screen, and "Device 1 undid" on the
  English viewer (an unnamed phone's number, said in each reader's language).

Every number the phones show is compared with what storage replays, never one written here.
Screenshots: test-artifacts/screenshots/issue22-same-truth-*.png.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import TableServer

from referee.storage import Store
from ui.i18n import Translator

PHONE = {"width": 390, "height": 844}
SMALL = {"width": 360, "height": 780}
WAIT = 30_000  # a loaded 2-core machine: never a timing test


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    from ui_e2e_harness import launch

    with sync_playwright() as pw:
        b = launch(pw, foreground=True)  # background windows keep painting
        yield b
        b.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[TableServer, Store, int]]:
    """A two-hand match whose first entry gives Boris four kings that were Anna's, and a
    table server on it where each device reads its own language."""
    from ui_e2e_harness import free_port

    url = f"sqlite:///{tmp_path / 'truth.sqlite3'}"
    store = Store.open(url)
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    store.start_deal(mid, "Anna", "9H")
    store.record(mid, {"type": "declare", "player": "Boris", "new": ["KS", "KH", "KD", "KC"]})
    srv = TableServer(url, free_port(), tmp_path / "server.log", tmp_path / "state", lang=None)
    srv.start()
    yield srv, store, mid
    srv.stop()
    store.close()


def device(browser: Any, url: str, viewport: dict[str, int], locale: str) -> Any:
    from ui_e2e_harness import by_id, load_app

    page = browser.new_context(viewport=viewport, locale=locale).new_page()
    load_app(page, url)
    by_id(page, "history").first.wait_for(timeout=60_000)
    return page


def accessible(page: Any, identifier: str) -> str:
    """A node's accessible text: its label and its content (see wait_words)."""
    return str(
        page.evaluate(
            """(id) => { const e = document.querySelector(`[flt-semantics-identifier="${id}"]`);
                return e ? (e.getAttribute('aria-label') || '') + ' ' + e.innerText : ''; }""",
            identifier,
        )
    )


def totals_lines(store: Store, mid: int, before: list[int], lang: str) -> dict[int, str]:
    """Each side's totals line of the correction, worded as the catalogue words it, from
    storage's totals before and after (by the side's index, as ``ch-total-<i>``)."""
    t = Translator(lang)
    after = [int(v) for v in store.load_match(mid).totals()]
    names = ("Anna", "Boris")
    return {
        i: " ".join(str(t("correction.change.total", side=n, before=b, after=a)).split())
        for i, (n, b, a) in enumerate(zip(names, before, after, strict=True))
        if a != b
    }


def test_every_phone_says_its_role_and_the_same_correction_in_its_own_language(
    table: tuple[TableServer, Store, int], browser: Any
) -> None:
    from ui_e2e_harness import by_id, scroll_down, shot, tap, tap_to, wait_words

    srv, store, mid = table
    en, ru = Translator("en"), Translator("ru")
    scorer = device(browser, srv.link("scorer"), SMALL, "ru-RU")
    viewer = device(browser, srv.link("viewer"), PHONE, "en-US")
    host = device(browser, srv.host_url, PHONE, "en-US")

    # Each phone says the role it joined with; only the scorer is asked for a name.
    wait_words(scorer, "joined-scorer", ru("joined.scorer"), WAIT)
    wait_words(viewer, "joined-viewer", en("joined.viewer"), WAIT)
    assert by_id(host, "joined-scorer").count() == by_id(host, "joined-viewer").count() == 0
    shot(scorer, "issue22-same-truth-01-scorer-home-ru-360")
    shot(viewer, "issue22-same-truth-02-viewer-home-en-390")
    assert by_id(scorer, "device-name").count() == 1
    wait_words(scorer, "device-unnamed", ru("table.device.default", n=1), WAIT)
    scroll_down(scorer)
    shot(scorer, "issue22-same-truth-01b-scorer-home-name-ru-360")
    scroll_down(scorer, -2000)
    assert by_id(viewer, "device-name").count() == 0

    # The viewer's history offers no Import and no Abandon; its match, no correction.
    tap_to(viewer, "history", f"match-{mid}")
    wait_words(viewer, f"resume-{mid}", en("watch.sheet_resume"), WAIT)
    assert by_id(viewer, "import").count() == 0
    assert by_id(viewer, f"abandon-{mid}").count() == 0
    tap_to(viewer, f"open-{mid}", "hist-target")
    assert by_id(viewer, "open-entries").count() == 0
    shot(viewer, "issue22-same-truth-03-viewer-match-no-correct-en")
    tap_to(viewer, "nav-back", f"match-{mid}")
    tap_to(viewer, f"resume-{mid}", "viewer-total-0")
    tap_to(scorer, "resume", "undo")

    # The host corrects the kings to Anna on its screen.
    before = [int(v) for v in store.load_match(mid).totals()]
    tap_to(host, "resume", "to-score")
    tap_to(host, "to-score", "open-entries")
    tap_to(host, "open-entries", "entry-0-0")
    tap_to(host, "correct-0-0", "corr-original")
    tap(host, "corr-player-0")
    by_id(host, "corr-preview").wait_for(timeout=WAIT)
    tap(host, "corr-confirm")
    by_id(host, "corr-done").wait_for(timeout=WAIT)
    lines_en = totals_lines(store, mid, before, "en")
    lines_ru = totals_lines(store, mid, before, "ru")
    assert lines_en and lines_en.keys() == lines_ru.keys()
    for i, line in lines_en.items():  # what the host's own screen lists
        wait_words(host, f"ch-total-{i}", line, WAIT)
    shot(host, "issue22-same-truth-04-host-corrected-en")

    # Every other phone: the same lines, in its own language.
    wait_words(viewer, "live-strip", en("table.device.host") + " corrected", WAIT)
    wait_words(scorer, "live-strip", ru("table.device.host") + ": исправлена", WAIT)
    shot(scorer, "issue22-same-truth-05-scorer-strip-ru-360")
    shot(viewer, "issue22-same-truth-06-viewer-strip-en-390")
    box = by_id(scorer, "live-strip").first.bounding_box()
    assert box is not None and box["height"] <= 64 + 1  # the strip keeps its place
    tap(scorer, "live-strip")  # opens in full
    by_id(scorer, "live-strip-full").first.wait_for(timeout=WAIT)
    tap(viewer, "live-strip")
    by_id(viewer, "live-strip-full").first.wait_for(timeout=WAIT)
    for line in lines_ru.values():
        wait_words(scorer, "live-strip-full", line, WAIT)
    for line in lines_en.values():
        wait_words(viewer, "live-strip-full", line, WAIT)
    said_ru = accessible(scorer, "live-strip-full")
    assert "in all" not in said_ru and "Was:" not in said_ru  # nothing in the host's language
    shot(scorer, "issue22-same-truth-07-scorer-strip-full-ru-360")
    shot(viewer, "issue22-same-truth-08-viewer-strip-full-en-390")
    time.sleep(7)  # past the strip's few seconds: what a player opened stays open
    assert by_id(scorer, "live-strip-full").count() == 1
    tap(scorer, "live-strip-full")  # read: a second tap puts it away
    by_id(scorer, "live-strip-full").first.wait_for(state="detached", timeout=WAIT)

    # The scorer's own undo: "You" on its screen, its name on the others'.
    position = store.log_position(mid)
    tap(scorer, "undo")
    deadline = time.monotonic() + WAIT / 1000
    while store.log_position(mid) == position:
        assert time.monotonic() < deadline, "the undo never reached storage"
        time.sleep(0.1)
    wait_words(scorer, "live-strip", "Вы отменили", WAIT)
    # the unnamed scorer is "Device 1" on the English viewer, never its Russian default
    wait_words(viewer, "live-strip", en("table.device.default", n=1) + " undid", WAIT)
    assert ru("table.device.default", n=1) not in accessible(scorer, "live-strip")
    assert ru("table.device.default", n=1) not in accessible(viewer, "live-strip")
    shot(scorer, "issue22-same-truth-09-scorer-own-undo-ru-360")
    shot(viewer, "issue22-same-truth-10-viewer-sees-undo-en-390")
