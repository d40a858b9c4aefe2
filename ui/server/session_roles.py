"""Every websocket gets the role of its own cookie, a reconnecting one too.

Flet's web client keeps its session id (``_flet_session_id`` in the tab's session storage) and
sends it in the REGISTER_CLIENT message of every new websocket; Flet's server then hands that
websocket the old session, with the role that session was given when it started, and runs no
``before_main`` (so no role check) for it. Left alone, a browser whose cookie changed (its
scorer link replaced by a viewer link, a host tab reopened on the table address) would keep the
rights of the session it had.

This middleware sits where the table gate has already put the websocket's role in its scope
(from its cookie, at this handshake; no valid cookie never gets this far). It reads each
REGISTER_CLIENT frame the client sends and lets it name an existing session only when that
session was started by this server with the same role. Otherwise the session id is taken out
of the message, so Flet starts a fresh session (``before_main`` runs and binds the new role),
and the old session is retired: no websocket can ever resume it (Flet evicts it on its own
timeout). Safer than changing the old session's role in place: its screens, handlers and
``AppState`` were all built for the old rights.
"""

from __future__ import annotations

import weakref
from typing import Any

import msgpack  # type: ignore[import-untyped]
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ui.server.roles import SCOPE_KEY, TABLE_SCOPE_KEY, Role, grant, role_of, table_of

REGISTER_CLIENT = 1  # flet.messaging.protocol.MessageAction.REGISTER_CLIENT
PROTOCOL_FRAME = 0x00  # the first byte of a Flet protocol frame (0x01: a data channel frame)
# A protocol frame is a msgpack array of two, [action, body]: 0x92 then the action as a fixint.
_REGISTER_PREFIX = bytes((PROTOCOL_FRAME, 0x92, REGISTER_CLIENT))


def scope_role(scope: Scope) -> str:
    """The rights the gate gave this websocket (the host when no gate ran): its role, and
    on a club server the table its link opens (``roles.grant``)."""
    return grant(str(scope.get(SCOPE_KEY, Role.HOST.value)), scope.get(TABLE_SCOPE_KEY))


class SessionRoles:
    """ASGI middleware (inside the table gate) and the record of which session has which
    role. :meth:`remember` is called for every new session (ui/server/asgi.py)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._sessions: weakref.WeakValueDictionary[str, Any] = weakref.WeakValueDictionary()

    def remember(self, page: Any) -> None:
        """A new session has started with its role bound (ui/server/roles.bind)."""
        self._sessions[str(page.session.id)] = page.session

    def may_resume(self, session_id: str, role: str) -> bool:
        """Whether a websocket with ``role`` may take over the session ``session_id``: only a
        session this server started, with the same role (and on a club server, the same
        table). A refusal retires the session."""
        session = self._sessions.get(session_id)
        if session is None:
            return False
        if grant(role_of(session.page).value, table_of(session.page)) == role:
            return True
        del self._sessions[session_id]
        return False

    def checked(self, message: Message, role: str) -> Message:
        """The client's frame, with the session id removed from a REGISTER_CLIENT that may not
        resume the session it names."""
        data = message.get("bytes")
        if not data or not data.startswith(_REGISTER_PREFIX):
            return message
        try:
            action, body = msgpack.unpackb(data[1:], raw=False, strict_map_key=False)
        except Exception:  # not a frame Flet could read either: let Flet refuse it
            return message
        if action != REGISTER_CLIENT or not isinstance(body, dict):
            return message
        session_id = body.get("session_id")
        if not session_id or self.may_resume(str(session_id), role):
            return message
        body = {**body, "session_id": ""}
        frame = bytes((PROTOCOL_FRAME,)) + msgpack.packb([action, body], use_bin_type=True)
        return {**message, "bytes": frame}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        role = scope_role(scope)

        async def receive_checked() -> Message:
            message = await receive()
            if message["type"] == "websocket.receive":
                message = self.checked(message, role)
            return message

        await self.app(scope, receive_checked, send)
