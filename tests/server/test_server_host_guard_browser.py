"""The same refusals seen from a real browser: a page reached through a rebinding name gets
403 and opens no websocket; a foreign page's script cannot open the app's websocket."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

REBIND = "rebind.attacker.test"


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    from ui_e2e_harness import CHROMIUM, CHROMIUM_ARGS

    # The rebinding name resolves to 127.0.0.1 inside Chromium: no DNS query leaves the machine.
    rules = (
        f"--host-resolver-rules=MAP {REBIND} 127.0.0.1, "
        "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"
    )
    with sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=[*CHROMIUM_ARGS, rules]
        )
        yield b
        b.close()


@pytest.fixture
def foreign_site() -> Iterator[str]:
    """Another origin on loopback whose page tries the app's websocket."""

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b"<!doctype html><title>elsewhere</title>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://localhost:{srv.server_address[1]}/"
    srv.shutdown()
    srv.server_close()


TRY_SOCKET = """async (url) => await new Promise((resolve) => {
  const ws = new WebSocket(url);
  ws.onopen = () => { ws.close(); resolve("open"); };
  ws.onerror = () => resolve("refused");
  setTimeout(() => resolve("timeout"), 10000);
})"""


def test_a_rebinding_name_gets_a_refusal_page_and_no_websocket(
    app_server: Any, browser: Any
) -> None:
    page = browser.new_page()
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    response = page.goto(f"http://{REBIND}:{app_server.port}/")
    assert response is not None and response.status == 403
    page.wait_for_timeout(1500)
    assert sockets == []
    assert page.locator("flt-glass-pane, flutter-view").count() == 0
    # Its script reaching for the websocket by the rebinding name is refused too.
    assert page.evaluate(TRY_SOCKET, f"ws://{REBIND}:{app_server.port}/ws") == "refused"


def test_a_foreign_page_cannot_open_the_apps_websocket(
    app_server: Any, browser: Any, foreign_site: str
) -> None:
    page = browser.new_page()
    page.goto(foreign_site)
    assert page.evaluate(TRY_SOCKET, f"ws://127.0.0.1:{app_server.port}/ws") == "refused"
    # The app's own page opens it: the refusal above was the Origin check, not a dead server.
    own = browser.new_page()
    own.goto(app_server.url)
    assert own.evaluate(TRY_SOCKET, f"ws://127.0.0.1:{app_server.port}/ws") == "open"
