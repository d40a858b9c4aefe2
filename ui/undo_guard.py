"""An Undo or Redo tapped just after another device changed the match is refused (QA P30).

Storage refuses an undo made at a log position other than the device's view (compare-and-
append), but the view is the *session's*: when another phone's entry or undo reaches this
session a moment before this phone's tap is handled, the session already shows the new entry
while the screen the player tapped on did not, and the undo took an entry nobody at this phone
had seen (two Undo taps at once removed two entries; an Undo at the moment another phone
recorded took that entry). A tap within ``GRACE`` seconds of such a change is therefore not
carried out; the screen says which entry is now the last one, and the next tap undoes it.
"""

from __future__ import annotations

from typing import Any

GRACE = 2.0  # seconds: a screen update reaches a phone well within this


def note_foreign_move(session: Any, now: float) -> None:
    """Another device moved this session's match on (ui/live.py ``arrive``)."""
    session.foreign_at = now


def too_soon(session: Any, now: float) -> bool:
    at = getattr(session, "foreign_at", None)
    return at is not None and 0 <= now - at < GRACE
