"""The score sheet on a phone, in a real browser: two, three and four sides at 360 and 390 px
wide, every number standing under its name (the deal in play too), no number cut, and the
players' table fitting the screen. Screenshots sheet-*.png in test-artifacts/screenshots/."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
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
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from sheet_samples import JOKER_PLAYERS, PLAYERS, joker_match, sample_match

from ui import backend

VIEWPORTS = {"360": {"width": 360, "height": 780}, "390": {"width": 390, "height": 844}}


@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[tuple[AppServer, dict[int, int]]]:
    url = f"sqlite:///{tmp_path / 'sheet.sqlite3'}"
    store = backend.open_store(url)
    ids = {sides: sample_match(store, sides) for sides in (2, 3, 4)}
    ids[5] = joker_match(store)  # "5": four sides on their own (four-hand plays in teams)
    store.close()
    srv = AppServer(url, free_port(), lang="en")
    srv.start()
    yield srv, ids
    srv.stop()


def right_edge(page: Page, identifier: str) -> float:
    box = by_id(page, identifier).first.bounding_box()
    assert box is not None, identifier
    return float(box["x"] + box["width"])


def check_aligned(page: Page, sides: int, deals: int, width: int) -> None:
    """Each column's name, deal numbers and total share one right edge, inside the screen."""
    n = {2: 2, 3: 3, 4: 2, 5: 4}[sides]  # four-hand plays in two teams
    for i in range(n):
        edge = right_edge(page, f"hist-name-{i}")
        assert edge <= width, (sides, i, edge)
        for d in range(1, deals + 1):
            assert abs(right_edge(page, f"hist-d{d}-s{i}") - edge) <= 2, (sides, d, i)
        assert abs(right_edge(page, f"hist-total-{i}") - edge) <= 2, (sides, i)
        total = by_id(page, f"hist-total-{i}").first
        box = total.bounding_box()
        assert box is not None and box["x"] >= 0
        assert total.inner_text().strip().lstrip("-").isdigit()


@pytest.mark.parametrize("vp", list(VIEWPORTS))
def test_score_sheet_fits_a_phone_with_two_to_four_sides(
    seeded: tuple[AppServer, dict[int, int]], browser: Any, vp: str
) -> None:
    server, ids = seeded
    viewport = VIEWPORTS[vp]
    page = blank_page(browser, viewport=viewport)
    load_app(page, server.url)
    tap_to(page, "history", f"match-{ids[2]}")
    for sides in (2, 3, 4, 5):
        deals = 3 if sides == 5 else 4
        tap_to(page, f"open-{ids[sides]}", "hist-table")
        by_id(page, f"hist-row-{deals}").wait_for()
        check_aligned(page, sides, deals, viewport["width"])
        scroll_down(page, -5000)  # the sheet's top, whatever a query scrolled
        label = "4-single" if sides == 5 else str(sides)
        shot(page, f"sheet-{label}-sides-{vp}")
        tap_to(page, "nav-back", f"match-{ids[2]}")
    tap_to(page, "nav-back", "history")
    tap_to(page, "stats", f"stat-{PLAYERS[4][0]}")
    for name in (*PLAYERS[4], *JOKER_PLAYERS[:1]):
        box = by_id(page, f"stat-{name}").first.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    shot(page, f"sheet-stats-{vp}")
    if vp == "360":  # the Russian sheet's words fit too
        tap(page, "lang-toggle")
        tap_to(page, "nav-back", "history")
        tap_to(page, "history", f"match-{ids[3]}")
        tap_to(page, f"open-{ids[3]}", "hist-table")
        check_aligned(page, 3, 4, viewport["width"])
        scroll_down(page, -5000)
        shot(page, "sheet-3-sides-360-ru")
    page.context.close()
