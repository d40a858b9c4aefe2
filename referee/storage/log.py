"""Which entries of a match's log count: undo and redo are entries too, so what the match
currently says is derived by walking the log, and nothing is ever deleted.

The rule is the familiar editor stack: a ``deal``/``event``/``correct``/``delete`` entry pushes
(and forgets what could be redone), ``undo`` pops the newest effective entry onto the redo
stack, ``redo`` puts the newest undone one back. Depth is unlimited: undo can walk back through
deal starts into the previous deal.

A ``correct`` entry replaces what an earlier event entry says (its own payload counts
instead); a ``delete`` entry makes it count for nothing. Both name the original event in
``target_seq``; the newest effective one wins. Since they sit on the stack like any entry,
undo takes a correction back before anything older, so an effective correction always names
an effective event.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from referee.storage.schema import (
    KIND_CORRECT,
    KIND_DEAL,
    KIND_DELETE,
    KIND_EVENT,
    KIND_REDO,
    KIND_UNDO,
)

PUSHED = (KIND_DEAL, KIND_EVENT, KIND_CORRECT, KIND_DELETE)
EDITS = (KIND_CORRECT, KIND_DELETE)


@dataclass(frozen=True, slots=True)
class Entry:
    """The part of a log row the derivation needs."""

    seq: int
    kind: str
    target_seq: int | None = None


def _empty() -> Mapping[int, int]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class LogState:
    """Effective entries in order, and what redo would restore (newest last).

    ``corrections`` maps an event's seq to the seq of the correction whose payload counts
    instead; ``deletions`` maps a deleted event's seq to the deleting entry's seq.
    """

    effective: tuple[int, ...]
    redoable: tuple[int, ...]
    corrections: Mapping[int, int] = field(default_factory=_empty)
    deletions: Mapping[int, int] = field(default_factory=_empty)

    @property
    def undo_target(self) -> int | None:
        return self.effective[-1] if self.effective else None

    @property
    def redo_target(self) -> int | None:
        return self.redoable[-1] if self.redoable else None

    def replaced_by(self, seq: int) -> int | None:
        """The correction or deletion in force for an event entry, if any."""
        return self.deletions.get(seq, self.corrections.get(seq))


class LogCorrupt(ValueError):
    """An undo/redo entry names a target other than the one the stack says, or a correction
    names no event that counts: the log was edited by hand or by a buggy writer."""


def derive(entries: Iterable[Entry]) -> LogState:
    """Walk the log in ``seq`` order; entries must be sorted."""
    effective: list[int] = []
    redoable: list[int] = []
    kinds: dict[int, str] = {}
    targets: dict[int, int | None] = {}
    for e in entries:
        kinds[e.seq] = e.kind
        targets[e.seq] = e.target_seq
        if e.kind in PUSHED:
            if e.kind in EDITS and e.target_seq is None:
                raise LogCorrupt(f"log entry {e.seq}: {e.kind} names no entry")
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
    corrections: dict[int, int] = {}
    deletions: dict[int, int] = {}
    seen: set[int] = set()
    for seq in effective:
        kind = kinds[seq]
        if kind in EDITS:
            target = targets[seq]
            assert target is not None
            if target not in seen or kinds.get(target) != KIND_EVENT or target in deletions:
                raise LogCorrupt(
                    f"log entry {seq}: {kind} of entry {target}, which is no event that counts"
                )
            if kind == KIND_DELETE:
                deletions[target] = seq
                corrections.pop(target, None)
            else:
                corrections[target] = seq
        seen.add(seq)
    return LogState(
        tuple(effective),
        tuple(redoable),
        MappingProxyType(corrections),
        MappingProxyType(deletions),
    )
