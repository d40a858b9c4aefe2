"""A secret link and the cookie it becomes, shared by table mode's gate (ui/server/table.py)
and a club server's (ui/server/club_gate.py): each has its own cookie and its own secrets,
but a join link, the redirect that takes the secret out of the address, and a refusal are
the same on both.
"""

from __future__ import annotations

from http.cookies import SimpleCookie
from urllib.parse import parse_qsl, urlencode

from starlette.types import Receive, Scope, Send

from ui.server.host_guard import header, plain_response, refuse_websocket

SECRET_PARAM = "k"


def query_pairs(scope: Scope) -> list[tuple[str, str]]:
    return parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)


def query_secret(scope: Scope) -> str | None:
    """The ``k`` of the address's query, ``None`` when there is none."""
    for key, value in query_pairs(scope):
        if key == SECRET_PARAM:
            return value
    return None


def without_secret(scope: Scope) -> str:
    """The same address (path and the rest of the query) without the secret: where the
    browser goes once its cookie is set. Only a path of this server (no scheme or host)."""
    path = "/" + str(scope.get("path", "/")).lstrip("/")
    rest = [(k, v) for k, v in query_pairs(scope) if k != SECRET_PARAM]
    return path + (f"?{urlencode(rest)}" if rest else "")


def cookie_value(scope: Scope, name: str) -> str | None:
    """The cookie ``name`` of the request; a malformed cookie header is no secret."""
    raw = header(scope, b"cookie")
    if not raw:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(raw)
    except Exception:
        return None
    morsel = jar.get(name)
    return morsel.value if morsel else None


async def keep_secret(scope: Scope, send: Send, cookie: str, secret: str) -> None:
    """The join link's answer: the secret becomes an HttpOnly, SameSite=Strict cookie and the
    browser goes to the same address without it (no Referer or pushed route carries it)."""
    value = f"{cookie}={secret}; Path=/; HttpOnly; SameSite=Strict"
    await send(
        {
            "type": "http.response.start",
            "status": 303,
            "headers": [
                (b"location", without_secret(scope).encode("latin-1")),
                (b"set-cookie", value.encode()),
                (b"cache-control", b"no-store"),
                (b"referrer-policy", b"no-referrer"),
                (b"content-length", b"0"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": b""})


async def refuse(scope: Scope, receive: Receive, send: Send, page: bytes) -> None:
    """No valid cookie: a websocket is closed before it is accepted, a page gets ``page``."""
    if scope["type"] == "websocket":
        await refuse_websocket(receive, send)
    else:
        await plain_response(send, 403, page, b"text/html; charset=utf-8")
