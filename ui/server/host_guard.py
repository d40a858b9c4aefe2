"""Answer only requests meant for this server: a ``Host`` it was started for and, on the
websocket, an ``Origin`` that is this app itself.

Why: a web page anywhere can point a DNS name it controls at 127.0.0.1 (DNS rebinding) and then
talk to the app from the victim's browser as if it were same-origin; only the ``Host`` header
gives that away. A foreign page that opens a websocket to us directly is given away by its
``Origin``. Both are refused here, before routing, so no Flet session ever starts for them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = ("127.0.0.1", "localhost")


def _host_port(host: str, port: int) -> str:
    """``host:port`` as a browser writes it in ``Host`` (IPv6 in brackets)."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{host}:{port}"


@dataclass(frozen=True)
class AllowedAddresses:
    """The ``Host`` values and websocket ``Origin`` values this server answers."""

    hosts: frozenset[str]
    origins: frozenset[str]

    @classmethod
    def for_server(cls, addresses: Iterable[str], port: int) -> AllowedAddresses:
        """Every address the server was started for, with its port (and without it when the
        port is 80, as browsers then leave it out)."""
        hosts: set[str] = set()
        for addr in addresses:
            hp = _host_port(addr.lower(), port)
            hosts.add(hp)
            if port == 80:
                hosts.add(hp.rsplit(":", 1)[0])
        origins = {f"http://{h}" for h in hosts}
        return cls(frozenset(hosts), frozenset(origins))

    @classmethod
    def loopback(cls, port: int, extra: Iterable[str] = ()) -> AllowedAddresses:
        """127.0.0.1 and localhost on ``port``, plus ``extra`` addresses (table mode)."""
        return cls.for_server([*LOOPBACK_NAMES, *extra], port)

    def host_ok(self, host: str | None) -> bool:
        return host is not None and host.lower() in self.hosts

    def origin_ok(self, origin: str | None) -> bool:
        return origin is not None and origin.lower() in self.origins


def header(scope: Scope, name: bytes) -> str | None:
    """One request header (the first one), decoded; ``None`` when absent."""
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None


class HostGuard:
    """ASGI middleware: HTTP 403 for a foreign ``Host`` (or a foreign ``Origin`` when the
    request carries one); a websocket is closed before it is accepted unless both its ``Host``
    and its ``Origin`` are ours (a browser always sends ``Origin`` on a websocket)."""

    def __init__(self, app: ASGIApp, allowed: AllowedAddresses) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host_ok = self.allowed.host_ok(header(scope, b"host"))
        origin = header(scope, b"origin")
        if kind == "websocket":
            if host_ok and self.allowed.origin_ok(origin):
                await self.app(scope, receive, send)
            else:
                await refuse_websocket(receive, send)
            return
        if host_ok and (origin is None or self.allowed.origin_ok(origin)):
            await self.app(scope, receive, send)
        else:
            await plain_response(send, 403, b"Forbidden: this server answers only its own app.\n")


async def refuse_websocket(receive: Receive, send: Send) -> None:
    """Close a websocket before accepting it: the server answers the handshake with 403."""
    message: Any = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.close", "code": 1008})


async def plain_response(
    send: Send, status: int, body: bytes, content_type: bytes = b"text/plain; charset=utf-8"
) -> None:
    """A small complete HTTP response that no browser caches."""
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", content_type),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
