"""What one tap of Undo (or Redo) takes back: usually the newest entry, but the end of a deal
is one step. The end form records the last trick and the brisques together (issue 10: a deal
is never half ended), so undoing only the brisques would leave a deal whose last trick is
recorded and whose end form can no longer close it (QA P21). Undo therefore takes the
brisques and the last trick just before them, in the same deal, back together, and Redo puts
both back. The log keeps one ``undo``/``redo`` entry per event, so its derivation
(referee/storage/log.py) is unchanged and older readers understand it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from referee.storage.log import LogState
from referee.storage.schema import KIND_EVENT


@dataclass(frozen=True, slots=True)
class Logged:
    """The part of an entry that says whether it belongs to the end of a deal."""

    kind: str
    deal_id: int | None
    event_type: str | None  # the event's "type" for an event entry


Lookup = Callable[[int], Logged]


def _end_pair(first: Logged, second: Logged, first_type: str, second_type: str) -> bool:
    return (
        first.kind == KIND_EVENT
        and second.kind == KIND_EVENT
        and first.event_type == first_type
        and second.event_type == second_type
        and first.deal_id == second.deal_id
    )


def undo_targets(state: LogState, entry: Lookup) -> tuple[int, ...]:
    """The entries one Undo hides, newest first (empty: nothing to undo)."""
    eff = state.effective
    if not eff:
        return ()
    if len(eff) >= 2 and _end_pair(entry(eff[-1]), entry(eff[-2]), "brisques", "last_trick"):
        return (eff[-1], eff[-2])
    return (eff[-1],)


def redo_targets(state: LogState, entry: Lookup) -> tuple[int, ...]:
    """The entries one Redo restores, in the order they are restored."""
    red = state.redoable
    if not red:
        return ()
    if len(red) >= 2 and _end_pair(entry(red[-1]), entry(red[-2]), "last_trick", "brisques"):
        return (red[-1], red[-2])
    return (red[-1],)
