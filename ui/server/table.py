"""Table mode's access control: one fresh secret per role and table session, given to a
device once through its join link, then carried by a cookie; checked on every HTTP request and
websocket handshake before any Flet session starts.

- Any page address with ``?k=SECRET`` (the join link is ``/?k=SECRET``) and a valid secret
  sets an HttpOnly, SameSite=Strict cookie and sends the browser to the same address without
  the secret (so it leaves the address bar, and no Referer or pushed route carries it).
- A request without a valid cookie gets a 403 page that tells the user to scan the host's
  code; a websocket without one is closed before it is accepted (HTTP 403).
- The laptop's own browser, on the 127.0.0.1 listener (which no other device can reach), is
  the host: it may do everything and is shown the join links (``/table-links``).
- ``/table-check`` answers anyone, with only whether the caller's own cookie opens this table
  (``{"valid": true}`` or ``{"valid": false}``): the reconnect notice asks it when the
  websocket will not come back, to tell "server away" from "this phone's link was retired"
  (``--new-table``, QA P31). A 403 on any other address already says as much.
- The role reaches the app session through the ASGI scope (``bezique.role``) and then the
  session store (ui/server/roles.py).
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Receive, Scope, Send

from ui.server.host_guard import header, plain_response
from ui.server.roles import SCOPE_KEY, Role
from ui.server.secret_link import (
    SECRET_PARAM,
    cookie_value,
    keep_secret,
    query_pairs,
    query_secret,
    refuse,
)

COOKIE = "bezique_table"
LINKS_PATH = "/table-links"
CHECK_PATH = "/table-check"
SECRET_BYTES = 24  # 192 bits (the issue asks for at least 128)


@dataclass(frozen=True)
class TableAccess:
    """The secrets of one table session (never stored: a new run makes new ones)."""

    secrets_by_role: dict[Role, str] = field(
        default_factory=lambda: {
            Role.SCORER: secrets.token_urlsafe(SECRET_BYTES),
            Role.VIEWER: secrets.token_urlsafe(SECRET_BYTES),
        }
    )

    def role_for(self, secret: str | None) -> Role | None:
        """The role a secret gives, compared in constant time with every role's secret (no
        early exit, so the timing does not say which one nearly matched)."""
        if not secret:
            return None
        given = secret.encode("utf-8", "replace")
        found: Role | None = None
        for role, expected in self.secrets_by_role.items():
            if hmac.compare_digest(given, expected.encode()):
                found = role
        return found

    def join_url(self, base_url: str, role: Role) -> str:
        return f"{base_url.rstrip('/')}/?{SECRET_PARAM}={self.secrets_by_role[role]}"


def cookie_secret(scope: Scope) -> str | None:
    """The table cookie's secret."""
    return cookie_value(scope, COOKIE)


def chosen_language(
    scope: Scope, offered: Mapping[str, bytes], accept_language: bool = True
) -> str | None:
    """The language the host's browser asks for: ``?lang=`` (the app's own link to the page
    carries the app's language), else (unless the server was started with ``--lang``) the
    first ``Accept-Language`` we have."""
    for key, value in query_pairs(scope):
        if key == "lang" and value in offered:
            return value
    if not accept_language:
        return None
    for part in (header(scope, b"accept-language") or "").split(","):
        code = part.split(";", 1)[0].strip().lower().split("-", 1)[0]
        if code in offered:
            return code
    return None


def is_host(scope: Scope, table_address: str) -> bool:
    """The request arrived on the loopback listener: the laptop itself, not a phone."""
    server = scope.get("server")
    local = server[0] if server else None
    return local in ("127.0.0.1", "::1") and local != table_address


class TableGate:
    """ASGI middleware in front of the app in table mode (inside the host guard)."""

    def __init__(
        self,
        app: ASGIApp,
        access: TableAccess,
        table_address: str,
        refusal_page: bytes,
        links_page: bytes | None = None,
        links_pages: Mapping[str, bytes] | None = None,
        accept_language: bool = True,
    ) -> None:
        self.app = app
        self.access = access
        self.table_address = table_address
        self.refusal_page = refusal_page
        self.links_page = links_page  # in the server's language; ``links_pages`` by language
        self.links_pages = dict(links_pages or {})
        self.accept_language = accept_language  # False: ``links_page`` unless ``?lang=``

    def role(self, scope: Scope) -> Role | None:
        if is_host(scope, self.table_address):
            return Role.HOST
        return self.access.role_for(cookie_secret(scope))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if kind == "http" and query_secret(scope) is not None:
            await self.join(scope, send)
            return
        role = self.role(scope)
        if kind == "http" and scope.get("path") == CHECK_PATH:
            await self.check(send, role is not None)
            return
        if role is None:
            await refuse(scope, receive, send, self.refusal_page)
            return
        if kind == "http" and scope.get("path") == LINKS_PATH:
            lang = chosen_language(scope, self.links_pages, self.accept_language)
            page = self.links_pages[lang] if lang else self.links_page
            if role is Role.HOST and page is not None:
                await plain_response(send, 200, page, b"text/html; charset=utf-8")
            else:
                await plain_response(send, 404, b"Not found\n")
            return
        await self.app({**scope, SCOPE_KEY: role.value}, receive, send)

    @staticmethod
    async def check(send: Send, valid: bool) -> None:
        """``/table-check``: whether the caller's own cookie opens the table, and nothing else
        (no role, no address, no match)."""
        body = b'{"valid": true}' if valid else b'{"valid": false}'
        await plain_response(send, 200, body, b"application/json")

    async def join(self, scope: Scope, send: Send) -> None:
        """A join link: a valid secret becomes the device's cookie; a wrong one gets the
        refusal page (and no cookie)."""
        secret = query_secret(scope) or ""
        if self.access.role_for(secret) is None:
            await plain_response(send, 403, self.refusal_page, b"text/html; charset=utf-8")
            return
        await keep_secret(scope, send, COOKIE, secret)
