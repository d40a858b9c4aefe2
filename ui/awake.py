"""Keep the screen on while a deal is open (Flet's Wakelock service: the phone's wake lock,
the browser's Screen Wake Lock where it has one), switchable on Home. Where the platform has
no wake lock the call fails quietly: the game goes on, the screen may sleep."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger(__name__)

DEAL_SCREENS = ("deal", "viewer", "score")


def wanted(app: Any) -> bool:
    """Whether the screen should stay on now: the switch is on and a match's deal is open
    on screen (not finished)."""
    if not getattr(app, "keep_awake", True) or app.screen not in DEAL_SCREENS:
        return False
    session = app.session
    if session is None or session.match is None:
        return False
    current = session.match.current
    return current is not None and not current.complete


class Awake:
    """Follows ``wanted(app)`` with as few calls to the service as possible."""

    def __init__(self, service: Any) -> None:
        self.service = service
        self.enabled = False

    async def follow(self, app: Any) -> None:
        want = wanted(app)
        if want == self.enabled:
            return
        self.enabled = want
        try:
            switch = self.service.enable if want else self.service.disable
            await asyncio.wait_for(switch(), timeout=5.0)
        except Exception:  # no wake lock on this platform, or the client went away
            log.debug("wake lock not switched", exc_info=True)
