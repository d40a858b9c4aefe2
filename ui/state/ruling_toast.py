"""Rulings on the deal screen without a sheet over the buttons.

An accepted ruling shows for a few seconds in a strip of its own (a place no control uses)
and then goes away by itself; a rejected one stays until the table has read it (OK, or the
next entry). The last rulings stay one tap away (``reopen``). Plain state: the clock is passed
in, so tests need no page and no waiting.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

HOLD_SECONDS = 4.0  # how long an accepted ruling shows before the strip goes quiet
KEEP = 6  # rulings listed when reopened


@dataclass
class RulingToast:
    """The ruling being shown, when it was shown, and the last few for reopening."""

    current: Any | None = None  # a RulingView
    shown_at: float = 0.0
    serial: int = 0  # changes with every ruling shown (the view's timer knows which it hides)
    recent: list[Any] = field(default_factory=list)
    listing: bool = False

    def show(self, view: Any, now: float) -> None:
        self.current = view
        self.shown_at = now
        self.serial += 1
        self.listing = False
        self.recent.insert(0, view)
        del self.recent[KEEP:]

    def visible(self, now: float) -> Any | None:
        """The ruling to show now: a rejected one until dismissed, an accepted one for
        HOLD_SECONDS."""
        v = self.current
        if v is None:
            return None
        if v.accepted and now - self.shown_at >= HOLD_SECONDS:
            return None
        return v

    def hide_at(self) -> float | None:
        """When an accepted ruling goes away by itself (None: nothing to hide later)."""
        v = self.current
        return self.shown_at + HOLD_SECONDS if v is not None and v.accepted else None

    def dismiss(self) -> None:
        self.current = None

    def reopen(self) -> None:
        if self.recent:
            self.listing = True

    def close_list(self) -> None:
        self.listing = False

    def clear(self) -> None:
        """After undo, redo or a new deal: nothing shown is current any more."""
        self.current = None
        self.listing = False
        self.recent.clear()
