"""A page's old connection ending late must not cut off its new one (a documented patch of
Flet 1.0.5's web server; issue #24).

Flet's websocket handler, when its socket closes, first ends its receive and send loops and
only then tells the app manager that its session disconnected. A page that reconnects
quickly (a phone moved between club workers lands back on its own, a Wi-Fi blip) can
re-attach the session to its new connection before that: the old handler's late
``disconnect_session`` then disposes of the *new* connection and tells the app that the
device went, while the page stays connected to a handler without a session. The phone then
hears nothing more (seen in the club benchmark under load: a viewer stuck at entry 6 of 12).

Here the app manager's ``disconnect_session`` (the name Flet's handler calls, replaced in
its module once) does nothing while the session's current connection is another handler
that is still receiving; :class:`ReceivingSocket` tells a handler when its socket ended.
"""

from __future__ import annotations

from typing import Any


class ReceivingSocket:
    """The websocket as a handler reads it: the handler's ``receiving`` is True until the
    socket's receive fails (closed, gone), when the handler's loops end."""

    def __init__(self, websocket: Any, handler: Any) -> None:
        self._websocket = websocket
        self._handler = handler
        handler.receiving = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self._websocket, name)

    async def receive_bytes(self) -> bytes:
        try:
            data: bytes = await self._websocket.receive_bytes()
        except BaseException:
            self._handler.receiving = False
            raise
        return data


class GuardedManager:
    """Flet's app manager, whose ``disconnect_session`` leaves alone a session that is on a
    newer connection than the one ending."""

    def __init__(self, manager: Any) -> None:
        self.manager = manager

    def __getattr__(self, name: str) -> Any:
        return getattr(self.manager, name)

    async def disconnect_session(self, session_id: str, session_timeout_seconds: int) -> None:
        session = await self.manager.get_session(session_id)
        current = getattr(session, "connection", None) if session is not None else None
        if current is not None and getattr(current, "receiving", False):
            return  # the page is back on a connection that still receives: old news
        await self.manager.disconnect_session(session_id, session_timeout_seconds)


def install() -> None:
    """Once per process, before any session: Flet's handler module calls the guarded
    manager (the manager itself, its sessions and everything else stay Flet's)."""
    import flet_web.fastapi.flet_app as flet_app  # type: ignore[import-untyped]

    if not isinstance(flet_app.app_manager, GuardedManager):
        flet_app.app_manager = GuardedManager(flet_app.app_manager)
