"""Work handed to a session's page loop from outside its own handlers (another session's
news, a setting to save, the strip's timer) is dropped when the page has no connection:
Flet's ``page.run_task`` raises there (its session's connection is None while a websocket
is gone), and raised inside another session's start it took that session down with it
("Error running app" on the phone that came back after a server restart)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any

log = logging.getLogger(__name__)


def connected(page: Any) -> bool:
    """Whether the page has a websocket connection now."""
    try:
        return page.session.connection is not None
    except Exception:  # no session (a page being closed)
        return False


def run_task(page: Any, handler: Callable[..., Coroutine[Any, Any, Any]], *args: Any) -> bool:
    """``page.run_task(handler, *args)``, or nothing when the page has no connection (no one
    to draw for: the session is redrawn whole when a websocket takes it up again). Returns
    whether it was handed over."""
    if not connected(page):
        log.debug("page without a connection: %s dropped", getattr(handler, "__name__", handler))
        return False
    try:
        page.run_task(handler, *args)
    except AttributeError:  # the connection went between the check and the call
        log.debug("connection gone: %s dropped", getattr(handler, "__name__", handler))
        return False
    return True
