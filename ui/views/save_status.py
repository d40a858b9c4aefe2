"""A banner on the match screens while entries shown there are not saved yet because storage
is not answering (ui/pending_writes.py): how many wait, why, and that they are kept and
retried in order, so nobody believes a tap was stored when it was not."""

from __future__ import annotations

from typing import Any

import flet as ft

from ui.views.common import ViewContext, banner


def save_status(ctx: ViewContext, session: Any) -> list[ft.Control]:
    """[] while everything shown is saved; else one banner (identifier ``unsaved``)."""
    away = getattr(session, "storage_away", None) if session is not None else None
    if not away:
        return []
    n = int(getattr(session, "unsaved", 0))
    if away == "memory":  # the phone's browser refused storage (ui/browser_storage.py)
        return [banner(ctx.t("phone.memory_short"), error=True, identifier="unsaved")]
    if away == "slow":  # the browser has not confirmed the write to its storage yet
        away = ctx.t("phone.not_confirmed")
    text = ctx.t("storage_safety.unsaved", n=n, why=_short(str(away)))
    return [banner(text, error=True, identifier="unsaved")]


def _short(why: str, limit: int = 60) -> str:
    """The last, plainest part of a driver's message ("Connection refused"), not the URL."""
    lines = [x for x in why.strip().splitlines() if x.strip()]
    line = lines[0] if lines else why
    line = line.rsplit(": ", 1)[-1].strip() or line
    return line if len(line) <= limit else line[: limit - 1] + "…"
