"""Which entries a table-mode message is about (QA P18, P25): the entry a stale write did
not record, the entries an undo took back or a redo restored, so the strip names them ("Boris
declares four aces: 100") instead of "the match's last entry". Reads the session's match and
its log; every word is the engine's ruling."""

from __future__ import annotations

from typing import Any

END_PAIR = ("last_trick", "brisques")  # one step for undo (referee/storage/undo_steps.py)


def newest_rulings(session: Any) -> tuple[Any, ...]:
    """The rulings of the newest effective entry (the end of a deal: both of its entries);
    empty when that entry is no event (a deal start, a correction) or cannot be read."""
    try:
        rows = session.store.newest_effective(session.match_id, 2)
        deal = session.match.current
    except Exception:  # words only: never let a message stop an undo
        return ()
    if not rows or rows[-1].kind != "event" or deal is None or not deal.log:
        return ()
    count = 1
    if len(rows) >= 2 and len(deal.log) >= 2:
        a, b = rows[-2], rows[-1]
        types = tuple((r.payload or {}).get("type") for r in (a, b))
        if a.kind == "event" and a.deal_id == b.deal_id and types == END_PAIR:
            count = 2
    return tuple(ruling for _, ruling in deal.log[-count:])


def words(rulings: Any, lang: str, strip: Any = None) -> str:
    """The rulings in words, joined; ``strip`` (a compiled pattern) drops a rule id suffix."""
    from ui import backend

    if rulings is None:
        return ""
    if not isinstance(rulings, tuple | list):
        rulings = (rulings,)
    out = []
    for r in rulings:
        text = backend.ruling_text(r, lang)
        out.append(strip.sub("", text) if strip is not None else text)
    return "; ".join(t for t in out if t)
