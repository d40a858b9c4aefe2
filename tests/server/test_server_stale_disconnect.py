"""A page's old connection that ends after the page came back on a new one leaves the new one
attached (ui/server/stale_disconnect.py): Flet's handler tells the app manager of its end
only after its loops ended, by when a quick reconnect may already have re-attached the
session."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from ui.server.stale_disconnect import GuardedManager, ReceivingSocket


class Handler:
    receiving = False


class Session:
    def __init__(self, connection: Any) -> None:
        self.connection = connection


class Manager:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.disconnected: list[str] = []

    async def get_session(self, session_id: str) -> Session:
        return self.session

    async def disconnect_session(self, session_id: str, session_timeout_seconds: int) -> None:
        self.disconnected.append(session_id)
        self.session.connection = None


class Socket:
    def __init__(self, frames: list[bytes]) -> None:
        self.frames = frames

    async def receive_bytes(self) -> bytes:
        if not self.frames:
            raise ConnectionError("closed")
        return self.frames.pop(0)


def test_a_handler_is_receiving_until_its_socket_ends() -> None:
    handler = Handler()
    sock = ReceivingSocket(Socket([b"\x00hello"]), handler)
    assert handler.receiving
    assert asyncio.run(sock.receive_bytes()) == b"\x00hello"
    assert handler.receiving
    with pytest.raises(ConnectionError):
        asyncio.run(sock.receive_bytes())
    assert not handler.receiving


def test_the_old_connections_late_end_leaves_the_new_one_attached() -> None:
    old, new = Handler(), Handler()
    ReceivingSocket(Socket([]), new)  # the page is back: its new socket receives
    session = Session(new)
    manager = Manager(session)
    asyncio.run(GuardedManager(manager).disconnect_session("s", 60))
    assert manager.disconnected == [] and session.connection is new
    # its own end (the current connection stopped receiving) disconnects as before
    new.receiving = False
    asyncio.run(GuardedManager(manager).disconnect_session("s", 60))
    assert manager.disconnected == ["s"]
    assert old.receiving is False


def test_flets_handler_module_calls_the_guarded_manager() -> None:
    import flet_web.fastapi.flet_app as flet_app

    from ui.server.stale_disconnect import install

    install()
    install()  # once: not wrapped twice
    assert isinstance(flet_app.app_manager, GuardedManager)
    assert not isinstance(flet_app.app_manager.manager, GuardedManager)
