"""Fixtures shared by the browser tests: the app served on a free port of 127.0.0.1 with a
database of its own, and Debian's headless Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Any]:
    from ui_e2e_harness import AppServer, free_port

    srv = AppServer(f"sqlite:///{tmp_path / 'e2e.sqlite3'}", free_port(), lang="en")
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    from ui_e2e_harness import launch

    with sync_playwright() as pw:
        b = launch(pw)
        yield b
        b.close()
