"""A club server (``python -m ui.main --club``, issue #24) with two tables kept from before
its start: a table's link opens that table only, at the HTTP level, at the websocket (real
websockets speaking Flet's protocol: what the session sends never holds another table's
match) and for a reconnect; no table link reaches the director's screen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import msgpack
import pytest
from server_helpers import ROOT, TABLE_ADDRESS, raw_request, raw_request_to
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from referee.storage import Store

REGISTER_CLIENT = 1
INVOKE_METHOD = 5
TABLE_1 = ("Annushka", "Borislav")
TABLE_2 = ("Zinaida", "Yaroslav")


@dataclass
class Club:
    port: int
    proc: subprocess.Popen[bytes]
    state: dict[str, object]
    log: Path
    matches: tuple[int, int]

    def table_secret(self, number: int, role: str) -> str:
        tables = self.state["tables"]
        assert isinstance(tables, list)
        return str(tables[number - 1][role])

    @property
    def director(self) -> str:
        return str(self.state["director"])


def _start(tmp_path: Path, state: dict[str, object], port: int) -> subprocess.Popen[bytes]:
    state_path = tmp_path / "club.json"
    state_path.write_text(json.dumps(state))
    env = dict(os.environ, FLET_FORCE_WEB_SERVER="1", PYTHONUNBUFFERED="1")
    env["BEZIQUE_WEB_PRECOMPRESS"] = "off"
    env["BEZIQUE_CLUB_STATE"] = str(state_path)
    env.pop("DISPLAY", None)
    cmd = [sys.executable, "-m", "ui.main", "--club", "--club-address", TABLE_ADDRESS]
    cmd += ["--port", str(port), "--db", f"sqlite:///{tmp_path / 'club.sqlite3'}"]
    cmd += ["--lang", "en"]
    log = (tmp_path / "log").open("wb")
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError((tmp_path / "log").read_text())
        try:
            if raw_request(port).status == 200:
                return proc
        except OSError:
            time.sleep(0.1)
    raise TimeoutError("club server did not answer")


@pytest.fixture
def club(tmp_path: Path) -> Iterator[Club]:
    from ui_e2e_harness import free_port

    with Store.open(url=f"sqlite:///{tmp_path / 'club.sqlite3'}") as store:
        one = store.create_match("two-hand", list(TABLE_1))
        two = store.create_match("two-hand", list(TABLE_2))
    state: dict[str, object] = {
        "created": time.time(),
        "director": "D" * 32,
        "tables": [
            {"number": 1, "scorer": "A" * 32, "viewer": "B" * 32, "matches": [one]},
            {"number": 2, "scorer": "C" * 32, "viewer": "E" * 32, "matches": [two]},
        ],
    }
    # (the secrets are fixed here so the test names them; a server makes random ones)
    port = free_port()
    proc = _start(tmp_path, state, port)
    yield Club(port, proc, state, tmp_path / "log", (one, two))
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def joined_cookie(club: Club, secret: str) -> str:
    joined = raw_request_to(TABLE_ADDRESS, club.port, f"/?k={secret}")
    assert joined.status == 303, joined
    return joined.headers["set-cookie"].split(";", 1)[0]


def session_bytes(
    port: int, cookie: str | None, route: str, session_id: str | None = None
) -> tuple[str, bytes]:
    """One websocket as Flet's web client opens it on ``route``; the session id the server
    answers with and every byte it sent until it was quiet."""
    headers = {"Cookie": cookie} if cookie else {}
    body = {
        "session_id": session_id,
        "page_name": "",
        "page": {
            "route": route,
            "web": True,
            "width": 390.0,
            "height": 844.0,
            "platform": "android",
        },
    }
    answered: str | None = None
    seen = b""
    with connect(
        f"ws://{TABLE_ADDRESS}:{port}/ws",
        origin=f"http://{TABLE_ADDRESS}:{port}",  # type: ignore[arg-type]
        additional_headers=headers,
        open_timeout=10,
    ) as ws:
        ws.send(b"\x00" + msgpack.packb([REGISTER_CLIENT, body]))
        quiet = 30.0
        while True:
            try:
                reply = ws.recv(timeout=quiet)
            except TimeoutError:
                break
            assert isinstance(reply, bytes)
            seen += reply
            quiet = 2.0  # drawing: until the server has been quiet for a while
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
    return answered, seen


def test_a_table_link_opens_the_server_and_nothing_else_does(club: Club) -> None:
    printed = club.log.read_text()
    assert f"Director's link: http://{TABLE_ADDRESS}:{club.port}/?k={club.director}" in printed
    assert "▀" in printed  # its QR code, as table mode prints its codes
    director = joined_cookie(club, club.director)
    assert raw_request_to(TABLE_ADDRESS, club.port, "/", {"Cookie": director}).status == 200
    assert raw_request_to(TABLE_ADDRESS, club.port, "/").status == 403
    assert raw_request_to(TABLE_ADDRESS, club.port, "/?k=" + "x" * 32).status == 403
    one = joined_cookie(club, club.table_secret(1, "scorer"))
    assert one.startswith("bezique_club=")
    assert raw_request_to(TABLE_ADDRESS, club.port, "/", {"Cookie": one}).status == 200
    check = raw_request_to(TABLE_ADDRESS, club.port, "/table-check", {"Cookie": one})
    assert check.body == b'{"valid": true}'
    # table mode's cookie name opens nothing here
    other = {"Cookie": f"bezique_table={club.table_secret(1, 'scorer')}"}
    assert raw_request_to(TABLE_ADDRESS, club.port, "/", other).status == 403


def test_a_table_1_phone_never_receives_table_2s_match(club: Club) -> None:
    one = joined_cookie(club, club.table_secret(1, "scorer"))
    m1, m2 = club.matches
    _, home = session_bytes(club.port, one, "/")
    assert TABLE_1[0].encode() in home  # its own match is on its Home
    assert b"table 1" in home
    assert TABLE_2[0].encode() not in home and TABLE_2[1].encode() not in home
    for route in (f"/match/{m2}", f"/view/{m2}"):
        _, asked = session_bytes(club.port, one, route)
        assert TABLE_2[0].encode() not in asked and TABLE_2[1].encode() not in asked
        assert b"Not allowed: this phone is at table 1" in asked
    _, own = session_bytes(club.port, one, f"/match/{m1}")
    assert TABLE_1[1].encode() in own


def test_a_table_link_does_not_reach_the_directors_screen(club: Club) -> None:
    for secret in (club.table_secret(1, "scorer"), club.table_secret(2, "viewer")):
        cookie = joined_cookie(club, secret)
        _, seen = session_bytes(club.port, cookie, "/club")
        assert b"New table" not in seen and b"Club night" not in seen
    director = joined_cookie(club, club.director)
    _, seen = session_bytes(club.port, director, "/")
    assert b"New table" in seen
    assert TABLE_1[0].encode() in seen and TABLE_2[0].encode() in seen


def test_a_table_2_cookie_cannot_take_over_a_table_1_session(club: Club) -> None:
    one = joined_cookie(club, club.table_secret(1, "scorer"))
    two = joined_cookie(club, club.table_secret(2, "scorer"))
    first, _ = session_bytes(club.port, one, "/")
    resumed = False
    for _ in range(20):  # Flet resumes once it has seen the last websocket go
        if session_bytes(club.port, one, "/", first)[0] == first:
            resumed = True
            break
        time.sleep(0.25)
    assert resumed  # the test can tell a resume
    taken, seen = session_bytes(club.port, two, "/", first)
    assert taken != first  # the same role of another table: a fresh session
    assert TABLE_1[0].encode() not in seen
    assert session_bytes(club.port, one, "/", first)[0] != first  # retired


def test_a_websocket_without_a_valid_cookie_is_refused(club: Club) -> None:
    for bad in (None, "bezique_club=" + "x" * 32):
        with pytest.raises(InvalidStatus) as refused:
            session_bytes(club.port, bad, "/")
        assert refused.value.response.status_code == 403


def test_the_club_command_line() -> None:
    from ui.main import parse_args

    args = parse_args(["--club", "--club-address", "192.0.2.5", "--new-club"])
    assert args.club and args.club_address == "192.0.2.5" and args.new_club
    assert not parse_args(["--club"]).club_address  # 127.0.0.1 only
    for wrong in (
        ["--club", "--table"],
        ["--club-address", "192.0.2.5"],
        ["--new-club"],
        ["--club", "--club-address", "0.0.0.0"],
    ):
        with pytest.raises(SystemExit):
            parse_args(wrong)
