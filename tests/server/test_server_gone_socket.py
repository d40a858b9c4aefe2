"""ui/server/gone_socket.py: a send to a phone that went mid-message is dropped and the
socket then reads as closed (Flet let the failed send out of its send loop: the session was
never told the device went, and the log had tracebacks, issue 22)."""

from __future__ import annotations

import asyncio

import pytest
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ui.server.gone_socket import GoneSocket


class Socket:
    """Starlette's websocket as a closed tab leaves it: a send fails and marks it gone."""

    def __init__(self) -> None:
        self.application_state = WebSocketState.CONNECTED
        self.sent: list[bytes] = []
        self.closes = False
        self.url = "ws://127.0.0.2/ws"

    async def send_bytes(self, data: bytes) -> None:
        if self.closes:
            self.application_state = WebSocketState.DISCONNECTED
            raise WebSocketDisconnect(code=1006)
        self.sent.append(data)

    async def receive_bytes(self) -> bytes:
        return b"\x00frame"


def test_a_send_to_a_phone_that_went_is_dropped_and_the_socket_reads_closed() -> None:
    raw = Socket()
    socket = GoneSocket(raw)

    async def scenario() -> None:
        await socket.send_bytes(b"first")
        assert await socket.receive_bytes() == b"\x00frame"
        raw.closes = True
        await socket.send_bytes(b"drawing")  # the tab closed while this was on its way
        await socket.send_bytes(b"next")
        with pytest.raises(WebSocketDisconnect):  # what Flet's receive loop takes quietly
            await socket.receive_bytes()

    asyncio.run(scenario())
    assert raw.sent == [b"first"]
    assert socket.url == raw.url  # the rest is the websocket's own
