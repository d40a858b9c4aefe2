"""Corrections and deletions of a match's entries, as log entries of their own.

A mistake noticed later is fixed where it happened: a ``correct`` entry names the original
event (``target_seq``) and carries what it should have said; a ``delete`` entry makes it count
for nothing. The original row is never touched (the history shows both), the engine replays
everything after it (``referee.correction_diff``), and undo/redo treat the correction like
any entry. A correction that makes a later entry contradict the facts is refused and stores
nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, insert, update

from referee.correction_diff import CorrectionDiff, CorrectionError, Edit, preview
from referee.match import Match
from referee.storage import matchlog as ml
from referee.storage import replay as rp
from referee.storage.activity import next_activity
from referee.storage.errors import StorageError, StorageInputError
from referee.storage.schema import KIND_CORRECT, KIND_DELETE, utcnow
from referee.storage.tables import TABLES

T_LOG = TABLES["log_entry"]


@dataclass(frozen=True)
class Correction:
    """A correction worked out against the stored log: the replays before and after, what
    changed, and the stored form of the replacement (None: a deletion)."""

    seq: int
    deal_id: int
    before: Match
    after: Match
    diff: CorrectionDiff
    payload: str | None


def _places(steps: list[rp.Step]) -> dict[int, tuple[int, int, int]]:
    """Event seq → (deal index, event index, deal id) in the effective replay."""
    out: dict[int, tuple[int, int, int]] = {}
    deal, event = -1, 0
    for step in steps:
        if isinstance(step, rp.DealStart):
            deal, event = deal + 1, 0
        else:
            out[step.seq] = (deal, event, step.deal_id)
            event += 1
    return out


def event_seqs(store: ml.Holder, match_id: int) -> list[list[int]]:
    with store.gate.read() as conn:
        ml.match_info(conn, match_id)
        steps, _, _, _ = ml.steps(conn, match_id)
    out: list[list[int]] = []
    for step in steps:
        if isinstance(step, rp.DealStart):
            out.append([])
        elif out:
            out[-1].append(step.seq)
    return out


def _work_out(
    store: ml.Holder, conn: Connection, match_id: int, seq: int, event: Mapping[str, Any] | None
) -> Correction:
    info = ml.match_info(conn, match_id)
    steps, _, _, _ = ml.steps(conn, match_id)
    place = _places(steps).get(seq)
    if place is None:
        raise StorageInputError(
            "entry", f"entry {seq} of match {match_id} is no event that counts now"
            " (it was undone or deleted, or it starts a deal)"
        )
    deal, index, deal_id = place
    before = rp.replay(info.header, steps).match
    replacement = None
    payload = None
    if event is not None:
        replacement = rp.parse_event(before, event, "correction")
        payload = rp.canonical(before, replacement)
    edit = Edit(deal, index, replacement)
    try:
        after, diff = preview(before, edit)
    except CorrectionError as exc:
        raise StorageInputError("correction", str(exc)) from exc
    return Correction(seq, deal_id, before, after, diff, payload)


def preview_correction(
    store: ml.Holder, match_id: int, seq: int, event: Mapping[str, Any] | None
) -> Correction:
    with store.gate.read() as conn:
        return _work_out(store, conn, match_id, seq, event)


def correct(
    store: ml.Holder,
    match_id: int,
    seq: int,
    event: Mapping[str, Any] | None,
    at: int | None = None,
) -> Correction:
    with store.gate.write() as conn:
        ml.lock_match(conn, match_id)
        last = ml.last_seq(conn, match_id)
        ml.check_at(match_id, at, last)  # compare-and-append, under the match's lock
        worked = _work_out(store, conn, match_id, seq, event)
        conn.execute(
            insert(T_LOG).values(
                match_id=match_id,
                seq=last + 1,
                kind=KIND_DELETE if event is None else KIND_CORRECT,
                deal_id=worked.deal_id,
                target_seq=seq,
                payload=worked.payload,
                created_at=utcnow(),
            )
        )
        live = ml.rebuild(conn, match_id)
        if live.match.totals() != worked.after.totals():  # the stored log says what we showed
            raise StorageError(f"match {match_id}: the corrected log replays differently")
        conn.execute(
            update(TABLES["match"])
            .where(TABLES["match"].c.id == match_id)
            .values(updated_at=utcnow(), activity=next_activity())
        )
        feed = store.gate.feed  # the other server processes hear of it at the commit
        feed.said(conn, feed.change(match_id, last + 1, "correct", deal=len(live.deal_ids)))
        return worked
