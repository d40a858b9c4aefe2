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
- The role reaches the app session through the ASGI scope (``bezique.role``) and then the
  session store (ui/server/roles.py).
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from urllib.parse import parse_qsl, urlencode

from starlette.types import ASGIApp, Receive, Scope, Send

from ui.server.host_guard import header, plain_response, refuse_websocket
from ui.server.roles import SCOPE_KEY, Role

COOKIE = "bezique_table"
SECRET_PARAM = "k"
LINKS_PATH = "/table-links"
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


def _query_pairs(scope: Scope) -> list[tuple[str, str]]:
    return parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)


def _query_secret(scope: Scope) -> str | None:
    """The ``k`` of the address's query, ``None`` when there is none."""
    for key, value in _query_pairs(scope):
        if key == SECRET_PARAM:
            return value
    return None


def _without_secret(scope: Scope) -> str:
    """The same address (path and the rest of the query) without the secret: where the
    browser goes once its cookie is set. Only a path of this server (no scheme or host)."""
    path = "/" + str(scope.get("path", "/")).lstrip("/")
    rest = [(k, v) for k, v in _query_pairs(scope) if k != SECRET_PARAM]
    return path + (f"?{urlencode(rest)}" if rest else "")


def cookie_secret(scope: Scope) -> str | None:
    raw = header(scope, b"cookie")
    if not raw:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(raw)
    except Exception:  # a malformed cookie header is no secret
        return None
    morsel = jar.get(COOKIE)
    return morsel.value if morsel else None


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
    ) -> None:
        self.app = app
        self.access = access
        self.table_address = table_address
        self.refusal_page = refusal_page
        self.links_page = links_page

    def role(self, scope: Scope) -> Role | None:
        if is_host(scope, self.table_address):
            return Role.HOST
        return self.access.role_for(cookie_secret(scope))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if kind == "http" and _query_secret(scope) is not None:
            await self.join(scope, send)
            return
        role = self.role(scope)
        if role is None:
            if kind == "websocket":
                await refuse_websocket(receive, send)
            else:
                await plain_response(send, 403, self.refusal_page, b"text/html; charset=utf-8")
            return
        if kind == "http" and scope.get("path") == LINKS_PATH:
            if role is Role.HOST and self.links_page is not None:
                await plain_response(send, 200, self.links_page, b"text/html; charset=utf-8")
            else:
                await plain_response(send, 404, b"Not found\n")
            return
        await self.app({**scope, SCOPE_KEY: role.value}, receive, send)

    async def join(self, scope: Scope, send: Send) -> None:
        """A join link: a valid secret becomes the device's cookie; a wrong one gets the
        refusal page (and no cookie)."""
        secret = _query_secret(scope) or ""
        role = self.access.role_for(secret)
        if role is None:
            await plain_response(send, 403, self.refusal_page, b"text/html; charset=utf-8")
            return
        cookie = f"{COOKIE}={secret}; Path=/; HttpOnly; SameSite=Strict"
        await send(
            {
                "type": "http.response.start",
                "status": 303,
                "headers": [
                    (b"location", _without_secret(scope).encode("latin-1")),
                    (b"set-cookie", cookie.encode()),
                    (b"cache-control", b"no-store"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"content-length", b"0"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": b""})
