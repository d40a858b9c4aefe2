"""Work for a page's own event loop, from any thread, for a page that may have gone.

A phone at the table closes its tab, locks its screen or leaves the Wi-Fi whenever it likes;
its Flet session then has no connection (``page.session.connection`` is None) until it comes
back or expires. ``page.run_task`` on such a page creates the coroutine, then fails on the
connection's loop (``'NoneType' object has no attribute 'loop'``): a traceback in the server
log and "coroutine was never awaited" (issue 22 counted 74 in one evening). Here a page that
has gone gets no task, nothing is created for it, and a task that finds its page gone on the
way ends quietly; a task of a page that is still there fails as loudly as before.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)


def _loop(page: Any) -> asyncio.AbstractEventLoop | None:
    """The event loop of the page's connection, None when it has none (gone, or no session
    at all: a page being closed, or a test's stand-in)."""
    try:
        connection = page.session.connection
        loop: asyncio.AbstractEventLoop | None = (
            connection.loop if connection is not None else None
        )
    except Exception:  # Flet's connection raises while it has no loop yet
        return None
    return loop


def connected(page: Any) -> bool:
    """The page's device is connected now."""
    return _loop(page) is not None


def run_task(page: Any, handler: Callable[..., Awaitable[object]], *args: Any) -> bool:
    """Run ``handler(*args)`` on the page's event loop, from any thread; False when the page
    has gone (nothing is run, or created, for it)."""
    loop = _loop(page)
    if loop is None:
        log.debug("no %s for a page that has gone", getattr(handler, "__name__", "task"))
        return False
    try:
        here: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        here = None
    if here is loop:
        _start(page, handler, args)
        return True
    try:  # decided on the page's own loop, where its connection comes and goes
        loop.call_soon_threadsafe(_start, page, handler, args)
    except RuntimeError:  # the server's loop is closed: it is stopping
        return False
    return True


def _start(page: Any, handler: Callable[..., Awaitable[object]], args: tuple[Any, ...]) -> None:
    if connected(page):
        page.run_task(_guarded, page, handler, *args)


async def _guarded(page: Any, handler: Callable[..., Awaitable[object]], *args: Any) -> None:
    try:
        await handler(*args)
    except Exception:
        if connected(page):
            raise  # the page is there: a fault, shown as Flet shows any
        log.debug("a task of a page that went on the way ended", exc_info=True)
