"""In a real browser, each device's Flet session gets the role of the link it joined with,
decided by the server before the session starts; a device without a link gets the refusal
page and no websocket (issue 12). The app here is a one-line Flet main that shows its role,
served by the real table-mode server stack in this process."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import flet as ft
import pytest
from server_helpers import TABLE_ADDRESS

from ui.server.asgi import build_app
from ui.server.host_guard import AllowedAddresses
from ui.server.roles import Role, bind, role_of
from ui.server.serve import bind_sockets
from ui.server.table import TableAccess, TableGate


def show_role(page: ft.Page) -> None:
    page.add(ft.Semantics(identifier="role", content=ft.Text(f"role={role_of(page).value}")))


@pytest.fixture
def table_stack() -> Iterator[tuple[int, TableAccess]]:
    import uvicorn

    sockets = bind_sockets(["127.0.0.1", TABLE_ADDRESS], 0)
    port = int(sockets[0].getsockname()[1])
    access = TableAccess()
    app = build_app(
        show_role,
        allowed=AllowedAddresses.loopback(port, extra=[TABLE_ADDRESS]),
        assets_dir=None,
        session_hook=bind,
        gate=lambda inner: TableGate(inner, access, TABLE_ADDRESS, b"private", b"links"),
    )
    server = uvicorn.Server(
        uvicorn.Config(app, ws="websockets-sansio", log_level="warning", lifespan="on")
    )
    thread = threading.Thread(
        target=lambda: asyncio.run(server.serve(sockets=sockets)), daemon=True
    )
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield port, access
    server.should_exit = True
    thread.join(timeout=15)


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    from ui_e2e_harness import CHROMIUM, CHROMIUM_ARGS

    offline = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE 127.0.0.2"
    with sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, offline]
        )
        yield b
        b.close()


def shown_role(browser: Any, url: str) -> tuple[str, list[str]]:
    """Open ``url`` in a fresh device; its websockets' URLs and the role its app shows."""
    from ui_e2e_harness import load_app, wait_words

    page = browser.new_context().new_page()
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    load_app(page, url)
    wait_words(page, "role", "role=")
    text = page.locator('[flt-semantics-identifier="role"]').first
    return (text.get_attribute("aria-label") or "") + text.inner_text(), sockets


def test_each_device_gets_the_role_of_its_link_and_none_without_one(
    table_stack: tuple[int, TableAccess], browser: Any
) -> None:
    port, access = table_stack
    base = f"http://{TABLE_ADDRESS}:{port}"
    scorer, _ = shown_role(browser, access.join_url(base, Role.SCORER))
    assert "role=scorer" in scorer
    viewer, _ = shown_role(browser, access.join_url(base, Role.VIEWER))
    assert "role=viewer" in viewer
    host, _ = shown_role(browser, f"http://127.0.0.1:{port}/")
    assert "role=host" in host

    for url in (f"{base}/", f"{base}/?k=wrong-{access.secrets_by_role[Role.SCORER][6:]}"):
        page = browser.new_context().new_page()
        sockets: list[str] = []
        page.on("websocket", lambda ws, sockets=sockets: sockets.append(ws.url))
        response = page.goto(url)
        assert response is not None and response.status == 403
        page.wait_for_timeout(1000)
        assert sockets == []
        assert "private" in page.content()
