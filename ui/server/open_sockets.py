"""The websockets this server process holds, each with its device's role and when its page
last sent something other than what it painted (a tap, a typed letter, a resize): what a
club worker needs to choose which phones to move onto a worker started again
(ui/server/club_balance.py).

Only this process's own sockets are here; nothing of a page's content is kept."""

from __future__ import annotations

import time
import weakref
from typing import Any

from ui.server.roles import SCOPE_KEY, Role

GOING_AWAY = 1012  # the websocket's "service restart": the page's client connects again

_HELD: weakref.WeakSet[HeldSocket] = weakref.WeakSet()


class HeldSocket:
    """The websocket as Flet's handler uses it, counted among the process's open ones."""

    def __init__(self, websocket: Any) -> None:
        self._websocket = websocket
        self.last_input = time.monotonic()
        self.closing = False
        _HELD.add(self)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._websocket, name)

    @property
    def role(self) -> str:
        """The device's role, as the server gave it to this websocket (ui/server/roles.py)."""
        try:
            return str(self._websocket.scope.get(SCOPE_KEY, Role.HOST.value))
        except AttributeError:  # a socket without a scope: the host's own
            return Role.HOST.value

    async def receive_bytes(self) -> bytes:
        data: bytes = await self._websocket.receive_bytes()
        self.last_input = time.monotonic()  # the page's own input (what it painted is not)
        return data

    async def close_for_move(self) -> None:
        """Close it so that the page's client connects again (and the kernel may hand the
        new connection to another worker)."""
        self.closing = True
        await self._websocket.close(code=GOING_AWAY)


def held() -> list[HeldSocket]:
    """Every open websocket of this process, not being closed already."""
    return [s for s in list(_HELD) if not s.closing]
