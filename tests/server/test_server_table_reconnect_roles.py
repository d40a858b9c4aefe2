"""A reconnecting websocket gets the role of its own cookie, never the one its old session had
(table mode, real server, real websockets speaking Flet's protocol). Flet's web client sends
the session id it kept in every REGISTER_CLIENT; Flet's server would hand that websocket the
old session as it was (ui/server/session_roles.py)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import msgpack
import pytest
from server_helpers import TABLE_ADDRESS, TableServer, device_request
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

REGISTER_CLIENT = 1
INVOKE_METHOD = 5
HOME_DRAWN = b"This device at the table"  # the last part of Home (ui-table.en.toml)


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
    assert joined.status == 303
    return joined.headers["set-cookie"].split(";", 1)[0]


def register(port: int, cookie: str | None, session_id: str | None) -> str:
    """One websocket as Flet's web client opens it: REGISTER_CLIENT with the session id it
    kept (or none); the session id the server answers with. Like a browser it answers the
    server's method calls and stays until Home is drawn and the server is quiet, then closes
    (Flet keeps a session resumable only when the websocket goes while nothing is being sent
    to it)."""
    headers = {"Cookie": cookie} if cookie else {}
    body = {
        "session_id": session_id,
        "page_name": "",
        "page": {"route": "/", "web": True, "width": 390.0, "height": 844.0, "platform": "android"},
    }
    answered: str | None = None
    drawn = False
    with connect(
        f"ws://{TABLE_ADDRESS}:{port}/ws",
        origin=f"http://{TABLE_ADDRESS}:{port}",  # type: ignore[arg-type]
        additional_headers=headers,
        open_timeout=10,
    ) as ws:
        ws.send(b"\x00" + msgpack.packb([REGISTER_CLIENT, body]))
        while True:
            try:
                reply = ws.recv(timeout=0.7 if drawn else 30)
            except TimeoutError:
                break
            assert isinstance(reply, bytes)
            drawn = drawn or HOME_DRAWN in reply
            if reply[:1] != b"\x00":
                continue
            action, data = msgpack.unpackb(reply[1:], strict_map_key=False)
            if action == REGISTER_CLIENT:
                assert not data.get("error")
                answered = str(data["session_id"])
            elif action == INVOKE_METHOD:
                result = {"control_id": data["control_id"], "call_id": data["call_id"]}
                result |= {"result": None, "error": None}
                ws.send(b"\x00" + msgpack.packb([INVOKE_METHOD, result]))
    assert answered is not None
    return answered


def resumed(port: int, cookie: str, session_id: str) -> bool:
    """Whether a websocket with ``cookie`` gets the session back. Flet resumes a session only
    once it has seen the previous websocket go, so a same-role reconnect is retried briefly."""
    for _ in range(20):
        if register(port, cookie, session_id) == session_id:
            return True
        time.sleep(0.25)
    return False


def test_a_scorer_reconnecting_with_its_own_cookie_gets_its_session_back(
    table: TableServer,
) -> None:
    scorer = cookie(table, "scorer")
    first = register(table.port, scorer, None)
    assert resumed(table.port, scorer, first)


def test_a_reconnect_without_a_valid_cookie_is_refused_before_any_session(
    table: TableServer,
) -> None:
    scorer = cookie(table, "scorer")
    first = register(table.port, scorer, None)
    # the valid cookie with its last character changed (to a different one: a random token
    # may already end in "Q")
    forged = scorer[:-1] + ("R" if scorer.endswith("Q") else "Q")
    for bad in (None, "bezique_table=" + "x" * 32, forged):
        with pytest.raises(InvalidStatus) as refused:
            register(table.port, bad, first)
        assert refused.value.response.status_code == 403
    assert resumed(table.port, scorer, first)  # the refusals touched nothing


def test_a_viewer_cookie_cannot_take_over_a_scorer_session(table: TableServer) -> None:
    scorer, viewer = cookie(table, "scorer"), cookie(table, "viewer")
    scorer_session = register(table.port, scorer, None)
    assert resumed(table.port, scorer, scorer_session)  # resumable: the test can tell
    # The same browser (same address and user agent) now carries a viewer cookie, and its
    # client still names the scorer's session: it gets a fresh session of its own role.
    as_viewer = register(table.port, viewer, scorer_session)
    assert as_viewer != scorer_session
    # The old scorer session is retired: nobody resumes it, its own scorer neither.
    assert register(table.port, scorer, scorer_session) != scorer_session
    # The viewer's own session resumes for the viewer, and not for a scorer cookie.
    assert resumed(table.port, viewer, as_viewer)
    assert register(table.port, scorer, as_viewer) != as_viewer


def test_a_scorer_cookie_does_not_resume_a_viewer_session(table: TableServer) -> None:
    scorer, viewer = cookie(table, "scorer"), cookie(table, "viewer")
    viewer_session = register(table.port, viewer, None)
    assert resumed(table.port, viewer, viewer_session)
    assert register(table.port, scorer, viewer_session) != viewer_session


def test_a_made_up_session_id_starts_a_fresh_session(table: TableServer) -> None:
    scorer = cookie(table, "scorer")
    assert register(table.port, scorer, "x" * 16) != "x" * 16
