"""The "connection lost" notice hides everything under it (issue 22): Flet's web client puts
its own spinner and "Working..." over the old screen at the same moment, and through a
translucent notice they showed through its words. With the notice up, the page looks the
same whether the app's screen under it is drawn or hidden."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

NOTICE = "#bezique-reconnecting"


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    from ui_e2e_harness import launch

    with sync_playwright() as pw:
        b = launch(pw)
        yield b
        b.close()


@pytest.mark.parametrize("width", [360])
def test_nothing_of_the_app_or_flets_spinner_shows_through_the_notice(
    app_server: Any, browser: Any, width: int
) -> None:
    from ui_e2e_harness import SHOTS, blank_page, by_id, load_app, settle

    page = blank_page(browser, viewport={"width": width, "height": 780})
    load_app(page, app_server.url)
    by_id(page, "history").first.wait_for(timeout=60_000)
    app_server.stop()  # the websocket closes: Flet's spinner and the notice come up
    page.locator(NOTICE).wait_for(state="visible", timeout=15_000)
    page.wait_for_timeout(1500)  # Flet's loading layer and spinner are drawn by now
    settle(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    up = page.screenshot(path=str(SHOTS / f"issue22-reconnect-notice-{width}.png"))
    # the same notice over nothing: every pixel of the app and of Flet's spinner hidden
    page.evaluate(
        "() => { for (const e of document.body.children)"
        " if (e.id !== 'bezique-reconnecting') e.style.visibility = 'hidden'; }"
    )
    settle(page)
    alone = page.screenshot()
    assert up == alone, "the screen under the notice shows through it"
    page.context.close()
