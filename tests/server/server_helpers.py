"""Raw HTTP and websocket handshakes against a real app server on 127.0.0.1, with any Host and
Origin a hostile page could send (a client library would fix them up for us)."""

from __future__ import annotations

import base64
import os
import socket
import sys
from dataclasses import dataclass
from pathlib import Path

E2E = Path(__file__).resolve().parents[1] / "ui" / "e2e"
if str(E2E) not in sys.path:
    sys.path.insert(0, str(E2E))


@dataclass
class RawResponse:
    status: int
    headers: dict[str, str]
    body: bytes


def raw_request(
    port: int,
    path: str = "/",
    *,
    host: str | None = None,
    headers: dict[str, str] | None = None,
    method: str = "GET",
    read_body: bool = True,
) -> RawResponse:
    """One HTTP/1.1 request to 127.0.0.1:``port`` with exactly these headers."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    lines += ["Connection: close", "", ""]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall("\r\n".join(lines).encode("latin-1"))
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
            if not read_body and b"\r\n\r\n" in data:
                break
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    parsed = {}
    for line in header_lines:
        k, _, v = line.partition(":")
        parsed[k.strip().lower()] = v.strip()
    return RawResponse(int(status_line.split()[1]), parsed, body)


def websocket_handshake(
    port: int,
    *,
    host: str | None = None,
    origin: str | None = None,
    cookie: str | None = None,
    path: str = "/ws",
) -> RawResponse:
    """The opening handshake of the app's websocket; 101 means a Flet session could start."""
    headers = {
        "Upgrade": "websocket",
        "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode(),
        "Sec-WebSocket-Version": "13",
    }
    if origin is not None:
        headers["Origin"] = origin
    if cookie is not None:
        headers["Cookie"] = cookie
    lines = [f"GET {path} HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    lines += ["Connection: Upgrade", "", ""]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall("\r\n".join(lines).encode("latin-1"))
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    parsed = {}
    for line in header_lines:
        k, _, v = line.partition(":")
        parsed[k.strip().lower()] = v.strip()
    return RawResponse(int(status_line.split()[1]), parsed, body)
