"""Table mode with a real server (``--table``): only devices with a join link get the app, and
each gets the role of its link; everything is refused at the HTTP and websocket level before a
Flet session starts (issue 12, server side). 127.0.0.2 stands in for the LAN address."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import (
    TABLE_ADDRESS,
    TableServer,
    device_handshake,
    device_request,
    raw_request,
    raw_request_to,
    websocket_handshake,
)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableServer]:
    from ui_e2e_harness import free_port

    srv = TableServer(
        f"sqlite:///{tmp_path / 'table.sqlite3'}", free_port(), tmp_path / "log", tmp_path / "st"
    )
    srv.start()
    yield srv
    srv.stop()


def cookie(srv: TableServer, role: str) -> str:
    joined = device_request(srv.port, f"/?k={srv.secret(role)}")
    assert joined.status == 303 and joined.headers["location"] == "/"
    set_cookie = joined.headers["set-cookie"]
    assert "HttpOnly" in set_cookie and "SameSite=Strict" in set_cookie
    return set_cookie.split(";", 1)[0]


def test_the_default_server_does_not_listen_on_the_network(app_server: Any) -> None:
    with pytest.raises(OSError):
        socket.create_connection((TABLE_ADDRESS, app_server.port), timeout=3).close()


def test_a_device_without_a_link_gets_neither_the_app_nor_a_session(table: TableServer) -> None:
    for path in ("/", "/main.dart.wasm", "/assets/FontManifest.json", "/table-links"):
        r = device_request(table.port, path)
        assert r.status == 403, path
        assert b"flutter" not in r.body and b"k=" not in r.body
    page = device_request(table.port, "/")
    assert b"This table is private" in page.body and "Это закрытый стол".encode() in page.body
    assert device_handshake(table.port, cookie=None).status == 403


def test_a_wrong_or_old_secret_gets_nothing(table: TableServer) -> None:
    real = table.secret("scorer")
    for wrong in (real[:-1] + ("A" if real[-1] != "A" else "B"), "", "x" * 32, real.upper()):
        joined = device_request(table.port, f"/?k={wrong}")
        assert joined.status == 403 and "set-cookie" not in joined.headers
        forged = f"bezique_table={wrong}"
        assert device_request(table.port, "/", cookie=forged).status == 403
        assert device_handshake(table.port, cookie=forged).status == 403


def test_each_link_lets_its_device_in(table: TableServer) -> None:
    for role in ("scorer", "viewer"):
        c = cookie(table, role)
        page = device_request(table.port, "/", cookie=c)
        assert page.status == 200 and b"flutter_bootstrap.js" in page.body
        assert device_handshake(table.port, cookie=c).status == 101
        # A page elsewhere cannot borrow the device's cookie for the websocket.
        assert device_handshake(table.port, c, origin="http://evil.example").status == 403


def test_a_restart_keeps_the_links_and_a_new_table_session_retires_them(
    tmp_path: Path,
) -> None:
    from ui_e2e_harness import free_port

    port, db, state = free_port(), f"sqlite:///{tmp_path / 'a.sqlite3'}", tmp_path / "state"
    first = TableServer(db, port, tmp_path / "log1", state)
    first.start()
    kept = cookie(first, "scorer")
    first.stop()
    again = TableServer(db, port, tmp_path / "log2", state)
    again.start()
    try:  # the same table after a restart: every phone comes back with the cookie it has
        assert again.secret("scorer") == first.secret("scorer")
        assert device_handshake(port, cookie=kept).status == 101
    finally:
        again.stop()
    assert oct(state.stat().st_mode & 0o777) == "0o600"
    new = TableServer(db, port, tmp_path / "log3", state, ("--new-table",))
    new.start()
    try:
        assert new.secret("scorer") != first.secret("scorer")
        assert device_request(port, "/", cookie=kept).status == 403
        assert device_handshake(port, cookie=kept).status == 403
    finally:
        new.stop()


def test_a_link_to_any_screen_sets_the_cookie_and_drops_the_secret_from_the_address(
    table: TableServer,
) -> None:
    joined = device_request(table.port, f"/view/12?lang=ru&k={table.secret('viewer')}")
    assert joined.status == 303
    assert joined.headers["location"] == "/view/12?lang=ru"
    c = joined.headers["set-cookie"].split(";", 1)[0]
    deep = device_request(table.port, "/match/12", cookie=c)
    assert deep.status == 200 and b"flutter_bootstrap.js" in deep.body


def test_the_host_computer_has_the_app_and_the_links_a_device_does_not(
    table: TableServer,
) -> None:
    assert raw_request(table.port).status == 200
    own = f"http://127.0.0.1:{table.port}"
    assert websocket_handshake(table.port, origin=own).status == 101
    links = raw_request(table.port, "/table-links")
    assert links.status == 200
    assert table.link("scorer").encode() in links.body
    assert table.link("viewer").encode() in links.body
    assert b"<svg" in links.body
    c = cookie(table, "scorer")
    assert device_request(table.port, "/table-links", cookie=c).status == 404


def test_table_mode_still_refuses_foreign_hosts(table: TableServer) -> None:
    c = cookie(table, "scorer")
    r = raw_request_to(
        TABLE_ADDRESS, table.port, "/", headers={"Cookie": c, "Host": "rebind.example"}
    )
    assert r.status == 403


def test_the_terminal_shows_both_links_with_their_codes(table: TableServer) -> None:
    log = table.log_path.read_text()
    assert table.link("scorer") != table.link("viewer")
    assert table.link("scorer").startswith(f"http://{TABLE_ADDRESS}:{table.port}/?k=")
    # the codes, two rows of modules a character (ui/server/qr.py; decoded in
    # test_server_terminal_codes.py)
    assert sum(log.count(c) for c in "▀▄█") > 200


def test_a_joining_process_serves_the_kept_table_on_its_own_port_and_leaves_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--join-table`` (issue 24): one more process of the table the file keeps, whatever
    port the first one has; the file stays the first process's; none kept: no start."""
    import json

    from ui.server import table_mode
    from ui.server.roles import Role

    monkeypatch.setattr(table_mode, "_current", None)  # this process serves no table after
    state = tmp_path / "table.json"
    with pytest.raises(table_mode.NoTableToJoin):
        table_mode.start("192.168.1.20", 8551, path=state, join=True)
    assert not state.exists()  # nothing made up
    first = table_mode.start("192.168.1.20", 8550, path=state)
    kept = state.read_bytes()
    second = table_mode.start("192.168.1.20", 8551, path=state, join=True)
    assert second.access.secrets_by_role == first.access.secrets_by_role
    assert second.port == 8551 and ":8551/?k=" in second.join_url(Role.SCORER)
    assert state.read_bytes() == kept and json.loads(kept)["port"] == 8550
    again = table_mode.start("192.168.1.20", 8550, path=state)  # the first one's restart
    assert again.access.secrets_by_role == first.access.secrets_by_role
    with pytest.raises(table_mode.NoTableToJoin):  # another address is another table
        table_mode.start("192.168.1.21", 8551, path=state, join=True)


def test_join_table_goes_with_table_and_not_with_new_table() -> None:
    from ui.main import parse_args

    assert parse_args(["--table", "--join-table", "--port", "8551"]).join_table
    for wrong in (["--join-table"], ["--table", "--new-table", "--join-table"]):
        with pytest.raises(SystemExit):
            parse_args(wrong)
