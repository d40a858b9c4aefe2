"""The ASGI app that serves the table app's web client: Flet's websocket session handler and
its static web client, behind this project's own guards and headers.

Built here rather than by ``ft.run`` because Flet's app answers any ``Host`` and ``Origin``,
sends ``Access-Control-Allow-Origin: *`` and gives no place to attach a device's role to its
session; the pieces (``FletApp``, ``FletStaticFiles``, the app manager's lifespan) are Flet's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from fastapi import WebSocket
from starlette.types import ASGIApp, Receive, Scope, Send

from ui.server.host_guard import AllowedAddresses, HostGuard
from ui.server.session_roles import SessionRoles

SessionHook = Callable[[Any, Scope], None]
"""Called with a new Flet page and the websocket's ASGI scope before the app's ``main``."""


class IsolationHeaders:
    """Cross-origin isolation, which Flutter's skwasm renderer needs for its threads (the two
    headers Flet's own app sends); no ``Access-Control-Allow-Origin: *``: no other site may
    read this app's responses."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"cross-origin-opener-policy", b"same-origin"))
                headers.append((b"cross-origin-embedder-policy", b"require-corp"))
                headers.append((b"x-content-type-options", b"nosniff"))
                headers.append((b"referrer-policy", b"no-referrer"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def build_app(
    main: Callable[[Any], Any],
    *,
    allowed: AllowedAddresses,
    assets_dir: str | None,
    static: ASGIApp | None = None,
    session_hook: SessionHook | None = None,
    gate: Callable[[ASGIApp], ASGIApp] | None = None,
    app_fonts: Sequence[str] = (),
    prepare_page: Callable[[Any], None] | None = None,
) -> ASGIApp:
    """The whole server app. ``static`` serves the web client (ui/server/web_client.py when
    not given); ``session_hook`` sees each new session's page with the websocket's scope
    (table mode puts the device's role there); ``gate`` wraps the app inside the host guard
    (table mode's secret check). With a session hook, a reconnecting websocket may resume only
    a session of its own role (ui/server/session_roles.py). ``app_fonts`` are the app's
    ``page.fonts`` files, which the page asks for early; ``prepare_page`` sets a new page's
    first properties (fonts, themes) before the register answer, which then carries them."""
    from flet_web.fastapi.flet_app import app_manager  # type: ignore[import-untyped]
    from flet_web.fastapi.flet_fastapi import FastAPI  # type: ignore[import-untyped]

    from ui.server.gone_socket import GoneSocket
    from ui.server.open_sockets import HeldSocket
    from ui.server.painted import ShownApp, ShownSocket
    from ui.server.stale_disconnect import ReceivingSocket, install

    install()  # a page's old connection ending late leaves its new one be

    if static is None:
        from ui.server.web_client import WebClientFiles

        static = WebClientFiles(assets_dir=assets_dir, app_fonts=app_fonts)

    # No API docs pages: they would load their scripts from a CDN and serve nothing useful.
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)

    @app.websocket("/ws")  # type: ignore[untyped-decorator]  # Flet's FastAPI is untyped
    async def flet_session(websocket: WebSocket) -> None:
        """One device's Flet session over its websocket (Flet's own handler)."""
        before_main = None
        if session_hook is not None or prepare_page is not None:
            scope = websocket.scope

            def before_main(page: Any) -> None:
                if prepare_page is not None:
                    prepare_page(page)
                if session_hook is not None:
                    session_hook(page, scope)
                if session_roles is not None:
                    session_roles.remember(page)

        # Flet's handler, also carrying what the device's screen showed (painted.py)
        handler = ShownApp(
            loop=asyncio.get_running_loop(),
            executor=app_manager.executor,
            main=main,
            before_main=before_main,
        )
        # outermost, under Flet's handler: what the page itself sent, not what it painted;
        # the handler knows when its socket ended (stale_disconnect.py)
        shown = ShownSocket(GoneSocket(websocket), handler)
        await handler.handle(HeldSocket(ReceivingSocket(shown, handler)))

    app.mount("/", app=static)
    session_roles = SessionRoles(app) if session_hook is not None else None
    inner: ASGIApp = IsolationHeaders(session_roles or app)
    if gate is not None:
        inner = gate(inner)
    return HostGuard(inner, allowed)
