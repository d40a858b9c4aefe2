"""Issue 22: on the host's laptop screen (1280 x 800) both join codes are in sight at once,
side by side, each large enough to scan across the table, in English and in Russian (longer
labels), in the dark theme too; and a phone's camera reads both from the screen as it is shown
(zxing-cpp, inversion off)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import TableServer

from ui.i18n import load_catalog

LAPTOP = {"width": 1280, "height": 800}
LARGE = 400  # px: a code's card at least this wide reads from across a table


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    from ui_e2e_harness import launch

    with sync_playwright() as pw:
        b = launch(pw)
        yield b
        b.close()


def boxes_in_sight(page: Any) -> list[dict[str, float]]:
    """The two codes' boxes, each asserted wholly on the screen."""
    from ui_e2e_harness import by_id

    boxes = []
    for role in ("scorer", "viewer"):
        box = by_id(page, f"join-code-{role}").first.bounding_box()
        assert box is not None, role
        assert box["x"] >= 0 and box["y"] >= 0, (role, box)
        assert box["x"] + box["width"] <= LAPTOP["width"], (role, box)
        assert box["y"] + box["height"] <= LAPTOP["height"], (role, box)
        boxes.append(box)
    return boxes


def decoded(path: Path) -> list[str]:
    import zxingcpp
    from PIL import Image

    found = zxingcpp.read_barcodes(
        Image.open(path), formats=zxingcpp.BarcodeFormat.QRCode, try_invert=False
    )
    return sorted(code.text for code in found)


def test_both_join_codes_are_on_the_laptop_screen_side_by_side_and_scan(
    tmp_path: Path, browser: Any
) -> None:
    from ui_e2e_harness import by_id, free_port, load_app, shot, tap, wait_words

    srv = TableServer(
        f"sqlite:///{tmp_path / 'host.sqlite3'}", free_port(), tmp_path / "server.log",
        tmp_path / "state",
    )
    srv.start()
    links = sorted(srv.link(role) for role in ("scorer", "viewer"))
    try:
        host = browser.new_context(viewport=LAPTOP).new_page()
        load_app(host, srv.host_url)
        tap(host, "join-codes")
        for lang in ("en", "ru", "ru-dark"):
            if lang == "ru":
                tap(host, "lang-toggle")
                host.get_by_text(load_catalog("ru")["hostlinks.hide"]).first.wait_for(
                    timeout=20_000
                )
            if lang == "ru-dark":  # the theme switch goes system -> light -> dark
                tap(host, "theme-toggle")
                wait_words(host, "theme-toggle", load_catalog("ru")["nav.theme_light"])
                tap(host, "theme-toggle")
                wait_words(host, "theme-toggle", load_catalog("ru")["nav.theme_dark"])
            for role in ("scorer", "viewer"):
                by_id(host, f"join-code-{role}").first.wait_for(timeout=20_000)
                wait_words(host, f"join-code-{role}", srv.link(role))
            path = shot(host, f"hostlinks-wide-{lang}")
            scorer, viewer = boxes_in_sight(host)
            assert abs(scorer["y"] - viewer["y"]) < 2  # one row
            assert scorer["x"] + scorer["width"] <= viewer["x"]  # side by side, no overlap
            assert min(scorer["width"], viewer["width"]) >= LARGE
            assert decoded(path) == links
        host.context.close()
    finally:
        srv.stop()
    assert "Traceback" not in srv.log_path.read_text()
