"""A club night on several worker processes behind one address (issue #24):
``--club --workers N --db postgresql+psycopg://…``.

uvicorn's own workers share the server's listening sockets: this process binds them (the
laptop's 127.0.0.1 and the club's address, one port), starts the night, prints the
director's link, then uvicorn's supervisor (``Multiprocess``) starts N worker processes that
each build the whole app (:func:`app`, from the settings this process leaves in
:data:`ENV`) and accept on the same sockets; the kernel hands each new connection to one of
them. A worker that dies (killed, crashed) is started again by the supervisor; meanwhile its
phones' websockets reconnect to the same address, which a surviving worker answers.

Why shared sockets and not separate servers behind a small proxy: the club's gate tells the
director (the laptop itself) from a phone by the address the connection came *to*
(ui/server/table.py ``is_host``: the 127.0.0.1 listener is the director). Behind a proxy
every connection would reach the workers from 127.0.0.1 and be the director's; here each
worker holds the real sockets, so the gate, the host guard and the cookies work exactly as
in one process. No proxy also means no hop of its own: no added latency, no process to copy
every byte of 80 phones' websockets, nothing more to die.

One truth between the workers: storage (PostgreSQL) for the matches, with its change feed
(referee/storage/change_feed.py: each write's NOTIFY reaches the other workers' sessions);
the night's file for the tables and their secrets (ui/server/club_night.py: locked changes,
read again when changed), whose changes are announced on the same feed
(ui/server/club_app.py ``AnnouncedNight``). A phone's session lives in the worker that
accepted its websocket; a phone that reconnects elsewhere gets a new session there, bound to
its table by its cookie, which opens its table's match again (its page's address names it).
"""

from __future__ import annotations

import json
import os
import socket
from dataclasses import asdict, dataclass
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

ENV = "BEZIQUE_CLUB_WORKER"  # the settings each worker builds its app from (JSON)
WORKER_HEADER = b"x-bezique-worker"


@dataclass(frozen=True)
class Plan:
    """What every worker needs to build the same app as the others."""

    db: str
    lang: str | None
    host: str
    port: int
    club_address: str | None
    binds: tuple[str, ...]
    workers: int = 1


def serve(plan: Plan, sockets: list[socket.socket]) -> None:
    """Run the plan's ``workers`` worker processes on ``sockets`` until SIGINT/SIGTERM (uvicorn's
    supervisor: it starts them, pings them, starts again any that died, stops them all)."""
    import uvicorn

    from ui.server.club_balance import supervisor
    from ui.server.serve import log_level_from_env

    log_level_from_env()
    os.environ[ENV] = json.dumps(asdict(plan))  # the spawned workers inherit it
    config = uvicorn.Config(
        "ui.server.club_workers:app",
        factory=True,
        workers=plan.workers,
        ws="websockets-sansio",
        log_level="warning",
        lifespan="on",
    )
    supervisor(config, sockets).run()  # uvicorn's, moving phones onto a worker restarted


def plan_from_env() -> Plan:
    data = json.loads(os.environ[ENV])
    data["binds"] = tuple(data["binds"])
    return Plan(**data)


def app() -> ASGIApp:
    """In each worker process: the club server's whole app, as one process builds it, on
    the night the first process started (never a new one)."""
    import flet_web.fastapi  # type: ignore[import-untyped]  # noqa: F401  (before the store's thread)

    from ui.main import _allowed, _app_main, _club_app
    from ui.server import club_night
    from ui.server.club_balance import listen
    from ui.server.serve import log_level_from_env

    log_level_from_env()
    plan = plan_from_env()
    app_main = _app_main(plan.db, plan.lang, table=False, club=True)
    night = club_night.start(plan.club_address, plan.port, join=True)
    allowed = _allowed(plan.host, list(plan.binds), plan.port)
    built = _club_app(app_main, allowed, plan.port, plan.club_address, False, plan.lang,
                      night=night)
    listen(plan.workers)  # the supervisor's word that a worker was started again
    return WorkerHeader(built)


class WorkerHeader:
    """Every answer says which worker gave it (``X-Bezique-Worker``: its process id), so a
    test, a benchmark or the person running the night can tell where a phone landed."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.value = str(os.getpid()).encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def send_saying_who(message: Any) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                headers = [*message.get("headers", []), (WORKER_HEADER, self.value)]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_saying_who)
