"""Run the ASGI app with uvicorn on exactly the addresses asked for, all on one port."""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Sequence

from starlette.types import ASGIApp


def bind_sockets(addresses: Sequence[str], port: int) -> list[socket.socket]:
    """Listening sockets on each address with the same port (a free one when ``port`` is 0,
    taken from the first address)."""
    sockets: list[socket.socket] = []
    try:
        for addr in addresses:
            family = socket.AF_INET6 if ":" in addr else socket.AF_INET
            s = socket.socket(family, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((addr, port))
            port = int(s.getsockname()[1])
            s.listen(128)
            s.set_inheritable(True)
            sockets.append(s)
    except OSError:
        for s in sockets:
            s.close()
        raise
    return sockets


def log_level_from_env() -> None:
    """``FLET_LOG_LEVEL`` (Flet's own switch, which ``flet run -v`` sets) applies to this
    server as to ``ft.run``: ``info`` shows each session leaving and coming back to the
    table (ui/live.py). Unset, only warnings and errors are printed, as before."""
    level = os.environ.get("FLET_LOG_LEVEL")
    if not level:
        return
    resolved = logging.getLevelName(level.strip().upper())
    if isinstance(resolved, int):
        logging.basicConfig(level=resolved)


def serve(app: ASGIApp, sockets: list[socket.socket], log_level: str = "warning") -> None:
    """Serve until SIGINT/SIGTERM (uvicorn's own signal handling and graceful shutdown)."""
    import uvicorn

    log_level_from_env()

    config = uvicorn.Config(app, ws="websockets-sansio", log_level=log_level, lifespan="on")
    uvicorn.Server(config).run(sockets=sockets)
