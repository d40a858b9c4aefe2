"""A club server's access control: table mode's gate (ui/server/table.py) with one secret per
table and role, and the director's.

- The 127.0.0.1 listener (the laptop itself) and the director's link are the director.
- A table's scorer or viewer link opens that table only: the gate puts the role and the table
  number in the websocket's ASGI scope, ``roles.bind`` binds both into the new session before
  the app's ``main`` runs, and a reconnecting websocket may resume only a session of the same
  role *and* table (ui/server/session_roles.py). What a bound session may read and write is
  then enforced by its store (ui/club_scope.py), at every read and write.
- Anything else gets table mode's 403 page; ``/table-check`` says only whether the caller's
  own cookie opens something on this server.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from ui.server.club_night import ClubNight, Grant
from ui.server.host_guard import plain_response
from ui.server.roles import SCOPE_KEY, TABLE_SCOPE_KEY, Role
from ui.server.secret_link import cookie_value, keep_secret, query_secret, refuse
from ui.server.table import CHECK_PATH, TableGate, is_host

COOKIE = "bezique_club"


class ClubGate:
    """ASGI middleware in front of the app on a club server (inside the host guard)."""

    def __init__(
        self, app: ASGIApp, night: ClubNight, club_address: str | None, refusal_page: bytes
    ) -> None:
        self.app = app
        self.night = night
        self.club_address = club_address or ""
        self.refusal_page = refusal_page

    def grant(self, scope: Scope) -> Grant | None:
        if is_host(scope, self.club_address):
            return Grant(Role.DIRECTOR)
        return self.night.grant_for(cookie_value(scope, COOKIE))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if kind == "http" and query_secret(scope) is not None:
            await self.join(scope, send)
            return
        grant = self.grant(scope)
        if kind == "http" and scope.get("path") == CHECK_PATH:
            await TableGate.check(send, grant is not None)
            return
        if grant is None:
            await refuse(scope, receive, send, self.refusal_page)
            return
        inner = {k: v for k, v in scope.items() if k not in (SCOPE_KEY, TABLE_SCOPE_KEY)}
        inner[SCOPE_KEY] = grant.role.value
        if grant.table is not None:
            inner[TABLE_SCOPE_KEY] = grant.table
        await self.app(inner, receive, send)

    async def join(self, scope: Scope, send: Send) -> None:
        """A join link: a valid secret becomes the device's cookie (replacing any other
        link's: a phone is at one table at a time); a wrong one gets the refusal page."""
        secret = query_secret(scope) or ""
        if self.night.grant_for(secret) is None:
            await plain_response(send, 403, self.refusal_page, b"text/html; charset=utf-8")
            return
        await keep_secret(scope, send, COOKIE, secret)
