"""Flet's websocket session handler, letting go of its session only once the app's ``main``
has returned (issue 22).

A page that reloads or closes while the app's ``main`` still awaits (a phone's first
connection to a restarted server, which the reconnect notice reloads at once; a tab closed
as it opens) disposes of Flet's handler, which forgets its session; when ``main`` returns,
Flet's handler then reads the forgotten session (``'NoneType' object has no attribute
'after_event'``) and logs a traceback for a page that merely went. Here the handler forgets
the session one turn of the loop after ``main`` returned instead: the session is disconnected
all the same (Flet's session drops the connection itself), only Flet's last use of it works.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from flet_web.fastapi.flet_app import FletApp  # type: ignore[import-untyped]

Main = Callable[[Any], Awaitable[None] | None]


class LateDisposeApp(FletApp):  # type: ignore[misc]  # Flet's web app is untyped
    """Flet's handler for an async ``main``, disposed of only after ``main`` returned."""

    def __init__(self, *args: Any, main: Main, **kwargs: Any) -> None:
        self._main_running = False
        self._dispose_asked = False
        # one wrapper per app: Flet keys the sessions' shared pubsub by the main function
        super().__init__(*args, main=main_telling(main), **kwargs)

    def main_started(self) -> None:
        self._main_running = True

    def main_ended(self) -> None:
        self._main_running = False
        if self._dispose_asked:  # after Flet's handler has used the session once more
            asyncio.get_running_loop().call_soon(self._dispose_now)

    def dispose(self) -> None:
        if self._main_running:
            self._dispose_asked = True
            return
        super().dispose()

    def _dispose_now(self) -> None:
        super().dispose()


@functools.cache
def main_telling(main: Main) -> Main:
    """``main``, telling its session's handler when it starts and ends (one wrapper per
    ``main``: Flet keys the sessions' shared pubsub by it). A plain function is called as
    Flet calls one (the wrapper is a coroutine function, so Flet awaits whatever it gets)."""

    async def main_then(page: Any) -> None:
        handler = page.session.connection  # this session's handler, as main starts
        if isinstance(handler, LateDisposeApp):
            handler.main_started()
        try:
            started = main(page)
            if inspect.isawaitable(started):
                await started
        finally:
            if isinstance(handler, LateDisposeApp):
                handler.main_ended()

    return main_then
