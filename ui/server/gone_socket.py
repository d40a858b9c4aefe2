"""The app's websocket as Flet's handler uses it, for a phone that may go mid-message
(issue 22).

A tab closed (or a phone gone off the Wi-Fi) while the server sends it a drawing makes the
send fail (``WebSocketDisconnect``); Flet's handler lets that out of its send loop, so it
never tells its session that the device went (the session stays subscribed to the table's
moves, and never expires), and the server logs two tracebacks for a phone that merely went.
Here a send to a socket that has gone is dropped, and the next receive says the socket closed,
as Flet expects of a device that leaves: its receive loop ends quietly and Flet disconnects
the session as usual.
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.websockets import WebSocketDisconnect, WebSocketState

log = logging.getLogger(__name__)
GONE = 1006  # the websocket's "closed without a close frame"


class GoneSocket:
    """A websocket whose sends after the device went are dropped."""

    def __init__(self, websocket: Any) -> None:
        self._websocket = websocket

    def __getattr__(self, name: str) -> Any:
        return getattr(self._websocket, name)

    def _gone(self) -> bool:
        return bool(self._websocket.application_state == WebSocketState.DISCONNECTED)

    async def send_bytes(self, data: bytes) -> None:
        if self._gone():
            return
        try:
            await self._websocket.send_bytes(data)
        except WebSocketDisconnect:  # the device went while this was on its way
            log.debug("a message to a device that went is dropped")

    async def receive_bytes(self) -> bytes:
        if self._gone():  # a send found it gone: closed, as a leaving device says
            raise WebSocketDisconnect(GONE)
        data: bytes = await self._websocket.receive_bytes()
        return data
