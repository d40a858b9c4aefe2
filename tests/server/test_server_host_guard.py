"""The server answers only its own app: a foreign Host (DNS rebinding) or a foreign websocket
Origin gets a refusal before any Flet session starts (issue 11, last section)."""

from __future__ import annotations

from typing import Any

import pytest
from server_helpers import raw_request, websocket_handshake

from ui.server.host_guard import AllowedAddresses


def test_allowed_addresses_are_loopback_names_with_the_port() -> None:
    allowed = AllowedAddresses.loopback(8550)
    assert allowed.host_ok("127.0.0.1:8550")
    assert allowed.host_ok("LOCALHOST:8550")
    assert not allowed.host_ok("127.0.0.1:8551")
    assert not allowed.host_ok("127.0.0.1")
    assert not allowed.host_ok("rebind.attacker.example:8550")
    assert not allowed.host_ok(None)
    assert allowed.origin_ok("http://localhost:8550")
    assert not allowed.origin_ok("null")
    assert not allowed.origin_ok("https://127.0.0.1:8550")
    assert not allowed.origin_ok(None)


def test_table_addresses_are_added_and_port_80_may_be_left_out() -> None:
    allowed = AllowedAddresses.loopback(80, extra=["192.168.1.20"])
    assert allowed.host_ok("192.168.1.20")
    assert allowed.host_ok("192.168.1.20:80")
    assert allowed.origin_ok("http://192.168.1.20")
    assert not allowed.host_ok("192.168.1.21")


def test_the_app_itself_is_served_and_its_websocket_opens(app_server: Any) -> None:
    page = raw_request(app_server.port)
    assert page.status == 200
    assert b"flutter_bootstrap.js" in page.body
    own = f"http://127.0.0.1:{app_server.port}"
    assert websocket_handshake(app_server.port, origin=own).status == 101
    local = f"localhost:{app_server.port}"
    assert websocket_handshake(app_server.port, host=local, origin=f"http://{local}").status == 101


@pytest.mark.parametrize("host", ["rebind.attacker.example", "192.168.1.66", "127.0.0.2"])
def test_a_dns_rebinding_host_gets_no_page_and_no_session(app_server: Any, host: str) -> None:
    foreign = f"{host}:{app_server.port}"
    page = raw_request(app_server.port, host=foreign)
    assert page.status == 403
    assert b"flutter" not in page.body
    assert raw_request(app_server.port, "/main.dart.mjs", host=foreign).status == 403
    ws = websocket_handshake(app_server.port, host=foreign, origin=f"http://{foreign}")
    assert ws.status == 403


@pytest.mark.parametrize(
    "origin", ["http://evil.example", "null", "http://127.0.0.1:1", "https://127.0.0.1", None]
)
def test_a_foreign_or_missing_websocket_origin_gets_no_session(
    app_server: Any, origin: str | None
) -> None:
    ws = websocket_handshake(app_server.port, origin=origin)
    assert ws.status == 403
    assert "sec-websocket-accept" not in ws.headers


def test_a_cross_site_request_with_a_foreign_origin_is_refused(app_server: Any) -> None:
    r = raw_request(app_server.port, headers={"Origin": "http://evil.example"})
    assert r.status == 403
    assert "access-control-allow-origin" not in raw_request(app_server.port).headers
