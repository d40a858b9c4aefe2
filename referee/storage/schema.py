"""What the storage layer's code says about its rows, apart from the tables themselves: the
kinds of log entries, the derived caches' version and the clock. Kept apart from ``models.py``
so that the code that writes and reads rows never needs SQLModel (see ``tables.py``: the phone
build starts without it).
"""

from __future__ import annotations

from datetime import UTC, datetime

# Kinds of log entries. ``deal`` and ``event`` are what happened; ``undo``/``redo`` are storage
# entries that hide or restore an earlier one (``target_seq``), so the history stays auditable.
KIND_DEAL = "deal"
KIND_EVENT = "event"
KIND_UNDO = "undo"
KIND_REDO = "redo"
# A correction replaces what an earlier ``event`` entry (``target_seq``) says with its own
# ``payload``; a deletion makes it count for nothing. The original row is never changed, and
# both are undone and redone like any other entry.
KIND_CORRECT = "correct"
KIND_DELETE = "delete"

# Bumped whenever the derived caches change meaning; matches below it are re-derived on open.
CACHE_VERSION = 2  # 2: a game's deal points leave out brisques that do not count


def utcnow() -> datetime:
    """Aware UTC, as the datetime columns require."""
    return datetime.now(UTC)
