"""Which entries of a match's log count: undo and redo are entries too, so what the match
currently says is derived by walking the log, and nothing is ever deleted.

The rule is the familiar editor stack: a ``deal``/``event`` entry pushes (and forgets what
could be redone), ``undo`` pops the newest effective entry onto the redo stack, ``redo`` puts
the newest undone one back. Depth is unlimited: undo can walk back through deal starts into
the previous deal.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from referee.storage.models import KIND_DEAL, KIND_EVENT, KIND_REDO, KIND_UNDO


@dataclass(frozen=True, slots=True)
class Entry:
    """The part of a log row the derivation needs."""

    seq: int
    kind: str
    target_seq: int | None = None


@dataclass(frozen=True, slots=True)
class LogState:
    """Effective entries in order, and what redo would restore (newest last)."""

    effective: tuple[int, ...]
    redoable: tuple[int, ...]

    @property
    def undo_target(self) -> int | None:
        return self.effective[-1] if self.effective else None

    @property
    def redo_target(self) -> int | None:
        return self.redoable[-1] if self.redoable else None


class LogCorrupt(ValueError):
    """An undo/redo entry names a target other than the one the stack says: the log was
    edited by hand or by a buggy writer."""


def derive(entries: Iterable[Entry]) -> LogState:
    """Walk the log in ``seq`` order; entries must be sorted."""
    effective: list[int] = []
    redoable: list[int] = []
    for e in entries:
        if e.kind in (KIND_DEAL, KIND_EVENT):
            effective.append(e.seq)
            redoable.clear()
        elif e.kind == KIND_UNDO:
            if not effective or (e.target_seq is not None and e.target_seq != effective[-1]):
                raise LogCorrupt(f"log entry {e.seq}: undo of {e.target_seq} does not match")
            redoable.append(effective.pop())
        elif e.kind == KIND_REDO:
            if not redoable or (e.target_seq is not None and e.target_seq != redoable[-1]):
                raise LogCorrupt(f"log entry {e.seq}: redo of {e.target_seq} does not match")
            effective.append(redoable.pop())
        else:
            raise LogCorrupt(f"log entry {e.seq}: unknown kind {e.kind!r}")
    return LogState(tuple(effective), tuple(redoable))
