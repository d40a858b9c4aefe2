"""Fixtures shared by the browser tests: the app served on a free port of 127.0.0.1 with a
database of its own, and Debian's headless Chromium. Without that browser every test here is
skipped, saying why (one guard for all the modules of this folder)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

NO_BROWSER = not Path("/usr/bin/chromium").exists() and shutil.which("chromium") is None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not NO_BROWSER:
        return
    here = Path(__file__).resolve().parent
    skip = pytest.mark.skip(reason="Debian's chromium is not installed (scripts/system-deps.sh)")
    for item in items:
        if here in Path(str(item.fspath)).resolve().parents:
            item.add_marker(skip)


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


@pytest.fixture
def phones_browser() -> Iterator[Any]:
    """One browser for several phones: its background windows keep painting."""
    from playwright.sync_api import sync_playwright
    from ui_e2e_harness import launch

    with sync_playwright() as pw:
        b = launch(pw, foreground=True)
        yield b
        b.close()
