"""What a device's screen showed travels with its taps (ui/server/painted.py, issue 22): the
page's frames naming it are read and kept from Flet's handler, a malformed one counts as
nothing known, and the served page carries the script ahead of Flutter."""

from __future__ import annotations

import asyncio
from typing import Any

from server_helpers import raw_request

from ui.server import painted


class FakeSocket:
    def __init__(self, frames: list[bytes]) -> None:
        self.frames = list(frames)
        self.url = "ws://127.0.0.1/ws"

    async def receive_bytes(self) -> bytes:
        return self.frames.pop(0)


class Heard:
    seen: tuple[int, int] | None = None

    def heard(self, packet: bytes) -> None:
        painted.ShownApp.heard(self, packet)  # the handler's own method on a bare object


def test_seen_packets_are_read_and_never_reach_flets_handler() -> None:
    app = Heard()
    flet_frame = b"\x00\x92\x05\x80"
    sock = painted.ShownSocket(FakeSocket([b"\x0212:7", flet_frame, b"\x02", b"\x00x"]), app)  # type: ignore[arg-type]
    assert asyncio.run(sock.receive_bytes()) == flet_frame
    assert app.seen == (12, 7)
    assert asyncio.run(sock.receive_bytes()) == b"\x00x"
    assert app.seen == painted.NOTHING  # the screen showed no match
    assert sock.url == "ws://127.0.0.1/ws"  # everything else is the websocket's


def test_a_label_goes_there_and_back_and_junk_means_nothing_known() -> None:
    for shown in ((1, 0), (42, 1234), None):
        assert painted.parse(painted.label(shown)) == (shown or painted.NOTHING)
    for junk in ("x:1", "1:", ":2", "1:-2", "1;2", "9" * 50 + ":1"):
        assert painted.parse(junk) is None
    app = Heard()
    app.heard(b"\x02\xff\xfe")
    assert app.seen is None


def test_the_served_page_carries_the_script_before_flutter(app_server: Any) -> None:
    r = raw_request(app_server.port, "/")
    assert r.status == 200
    body = r.body.decode("utf-8")
    assert "beziqueFlet" in body
    assert body.index("beziqueFlet") < body.index("flutter_bootstrap.js")
