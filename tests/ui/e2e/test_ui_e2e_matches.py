"""Keeping the matches in a real browser at 390×844: every unfinished match resumable from
Home and History, abandoning (confirmed, kept, resumed again), the warning before a new
match, the winner's reason in words, "the partie ends with this deal", a new match with the
same players, Home's last result; and files: downloads of the record, CSV and PDF to this
browser, and an import from a file picked on the device (with a bad file's error and place).
Screenshots matches-*.png in test-artifacts/screenshots/."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from ui_e2e_harness import (
    AppServer,
    blank_page,
    by_id,
    free_port,
    load_app,
    scroll_down,
    shot,
    tap,
    tap_to,
    wait_words,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from sheet_samples import PLAYERS, play_deal, sample_match

from ui import backend

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[tuple[AppServer, dict[str, int]]]:
    """A finished match (both reach 100 in one deal, Boris takes the last trick), an older
    unfinished two-hand match, a newer three-hand one, and one whose deal in play has passed
    its target."""
    url = f"sqlite:///{tmp_path / 'matches.sqlite3'}"
    store = backend.open_store(url)
    ids = {
        "past": sample_match(store, 2, deals=0, target=40, in_play=True),
        "older": sample_match(store, 2, deals=1),
        "newer": sample_match(store, 3, deals=1),
    }
    # played last, so History lists it first (its buttons on screen without a swipe)
    done = int(store.create_match(variant="two-hand", players=["Anna", "Boris"], target=100,
                                  house_rules=["H-TARGET"]))
    play_deal(store, done, PLAYERS[2], "two-hand", 0, last=1)
    ids["finished"] = done
    store.close()
    srv = AppServer(url, free_port(), lang="en")
    srv.start()
    yield srv, ids
    srv.stop()


def phone(browser: Any, server: AppServer) -> Page:
    page = blank_page(browser, viewport=PHONE)
    page.context.set_default_timeout(20_000)
    load_app(page, server.url)
    by_id(page, "new-match").wait_for()
    return page


def test_matches_resume_abandon_warn_verdict_and_rematch(
    seeded: tuple[AppServer, dict[str, int]], browser: Any
) -> None:
    server, ids = seeded
    page = phone(browser, server)
    by_id(page, "resume-card").wait_for()
    wait_words(page, "resume-card", "Clara")  # the newest unfinished first
    wait_words(page, "last-result", "took the last trick")
    shot(page, "matches-01-home")

    # an older unfinished match resumes too (the others are listed below the main actions)
    scroll_down(page, 800)
    by_id(page, f"resume-card-{ids['older']}").wait_for()
    shot(page, "matches-01b-home-others")
    tap_to(page, f"resume-{ids['older']}", "nav-home")
    tap_to(page, "nav-home", "resume-card")

    # the deal in play has passed the target: the partie ends with this deal
    scroll_down(page, 800)
    tap_to(page, f"resume-{ids['past']}", "verdict-ends-with-deal")
    wait_words(page, "verdict-ends-with-deal", "ends with this deal")
    shot(page, "matches-02-ends-with-deal")
    tap_to(page, "to-score", "sheet-ends-with-deal")  # the live sheet says it too
    by_id(page, "sheet-row-1").wait_for()
    shot(page, "matches-02b-sheet-in-play")
    scroll_down(page, 3000)  # the live sheet downloads too
    with page.expect_download() as dl:
        tap(page, "export-pdf-sheet")
    assert dl.value.suggested_filename == f"bezique-{ids['past']}-Anna-Boris.pdf"
    scroll_down(page, -5000)
    tap_to(page, "nav-back", "verdict-ends-with-deal")
    tap_to(page, "nav-home", "resume-card")

    # abandon asks first, keeps the match, and History can resume it
    scroll_down(page, 800)
    tap(page, f"abandon-{ids['older']}")
    by_id(page, f"abandon-ask-{ids['older']}").wait_for()
    shot(page, "matches-03-abandon-ask")
    tap(page, f"abandon-yes-{ids['older']}")
    scroll_down(page, -5000)
    wait_words(page, "notice", "abandoned")
    expect(by_id(page, f"resume-card-{ids['older']}")).to_have_count(0)
    shot(page, "matches-04-abandoned")
    tap_to(page, "history", f"match-{ids['older']}")
    wait_words(page, f"status-{ids['older']}", "abandoned")
    shot(page, "matches-05-history")
    tap_to(page, f"resume-{ids['older']}", "nav-home")
    tap_to(page, "nav-home", "resume-card")
    scroll_down(page, 800)
    by_id(page, f"resume-card-{ids['older']}").wait_for()  # unfinished again, on Home
    scroll_down(page, -5000)

    # a new match while others are unfinished: a warning first
    tap(page, "new-match")
    by_id(page, "new-warning").wait_for()
    wait_words(page, "new-warning", "Anna — Boris — Clara")
    shot(page, "matches-06-new-warning")
    tap(page, "new-cancel")
    expect(by_id(page, "new-warning")).to_have_count(0)

    # the winner and why, then the next partie with the seats moved on
    tap_to(page, "last-result-open", "hist-winner")
    wait_words(page, "hist-winner", "Boris took the last trick")
    wait_words(page, "hist-winner", "R-TIE")
    shot(page, "matches-07-verdict")
    tap_to(page, "rematch-rotate", "start-deal")
    shot(page, "matches-08-rematch")
    tap_to(page, "nav-home", "resume-card")
    wait_words(page, "resume-card", "Boris — Anna")

    # in Russian: Home's last result and the verdict
    tap(page, "lang-toggle")
    wait_words(page, "last-result", "Последний итог")
    shot(page, "matches-12-home-ru")
    tap_to(page, "last-result-open", "hist-winner")
    wait_words(page, "hist-winner", "последнюю взятку берёт")
    shot(page, "matches-13-verdict-ru")
    page.context.close()


def test_files_download_to_the_device_and_import_from_it(
    seeded: tuple[AppServer, dict[str, int]], browser: Any, tmp_path: Path
) -> None:
    server, ids = seeded
    page = phone(browser, server)
    done = ids["finished"]
    tap_to(page, "history", f"match-{done}")
    got: dict[str, Path] = {}
    for kind in ("json", "csv", "pdf"):
        scroll_down(page, -5000)  # its card is first: back to the top after the last tap
        with page.expect_download() as dl:
            tap(page, f"export-{kind}-{done}")
        name = dl.value.suggested_filename
        assert name == f"bezique-{done}-Anna-Boris.{kind}"
        got[kind] = tmp_path / name
        dl.value.save_as(got[kind])
        wait_words(page, "notice", name)
    assert json.loads(got["json"].read_text(encoding="utf-8"))["players"] == ["Anna", "Boris"]
    assert got["csv"].read_text(encoding="utf-8-sig").splitlines()[0].endswith("Anna,Boris")
    assert got["pdf"].read_bytes().startswith(b"%PDF")
    scroll_down(page, -5000)  # the notice, at the top
    shot(page, "matches-09-downloaded")

    # import the record just downloaded: already stored, so not stored again (issue 21)
    with page.expect_file_chooser() as fc:
        tap(page, "import")
    fc.value.set_files(str(got["json"]))
    wait_words(page, "notice", "already stored: not imported again")
    scroll_down(page, -5000)  # the notice, at the top
    shot(page, "matches-10-already-stored")

    # a record this device does not have (the same partie without its first entry): a new
    # match, and the notice says which
    record = json.loads(got["json"].read_text(encoding="utf-8"))
    record["deals"][0]["events"].pop(0)
    other = tmp_path / "other.json"
    other.write_text(json.dumps(record), encoding="utf-8")
    with page.expect_file_chooser() as fc:
        tap(page, "import")
    fc.value.set_files(str(other))
    wait_words(page, "notice", "imported Anna — Boris")
    wait_words(page, "notice", "deals played: 1")
    scroll_down(page, -5000)  # the notice, at the top
    shot(page, "matches-10b-imported")

    # a broken file: nothing stored, the error names the place
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "bezique-match/1",\n "players": [}', encoding="utf-8")
    with page.expect_file_chooser() as fc:
        tap(page, "import")
    fc.value.set_files(str(bad))
    wait_words(page, "notice", "line 2")
    scroll_down(page, -5000)  # the notice, at the top
    shot(page, "matches-11-import-error")
    page.context.close()


def test_the_winner_screen_after_the_last_deal_says_why(tmp_path: Path, browser: Any) -> None:
    """Both sides past 40 in the deal in play; the table ends it (Boris takes the last trick):
    the deal's summary names the winner, says why in words and offers the next partie."""
    from ui_e2e_harness import Typist

    url = f"sqlite:///{tmp_path / 'winner.sqlite3'}"
    store = backend.open_store(url)
    mid = sample_match(store, 2, deals=0, target=40, in_play=True)
    store.record(mid, {"type": "stock_exhausted"})
    store.close()
    srv = AppServer(url, free_port(), lang="en")
    srv.start()
    try:
        sent: list[bytes] = []
        page = blank_page(browser, sent, viewport=PHONE)
        load_app(page, srv.url)
        tap_to(page, "resume", "last-trick-1")
        tap_to(page, "last-trick-1", "finish-deal")  # phase 2: the last trick opens the end
        Typist(page, sent).type("Anna", "8")  # Boris's 8 follows from the 16 in the packs
        tap_to(page, "finish-deal", "winner")
        wait_words(page, "winner", "Boris wins")
        wait_words(page, "winner", "Boris took the last trick")
        by_id(page, "rematch-rotate").wait_for()
        shot(page, "matches-14-winner-screen")
        page.context.close()
    finally:
        srv.stop()
