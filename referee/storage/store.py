"""The repository the app uses: every change is one transaction that appends to a match's log
(and refreshes the caches derived from it), so a crash at any moment leaves either the whole
change or none of it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, and_, delete, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from referee.match import Match
from referee.rulings import Ruling
from referee.storage import db, ledger, stats
from referee.storage import matchlog as ml
from referee.storage import replay as rp
from referee.storage.activity import next_activity
from referee.storage.errors import (
    AlreadyRecordedError,
    DamagedDatabaseError,
    DatabaseBusyError,
    DatabaseUnreachableError,
    ReadOnlyStorageError,
    StorageError,
    StorageInputError,
)
from referee.storage.log import Entry, LogCorrupt, LogState, derive
from referee.storage.progress import ProgressSink
from referee.storage.schema import (
    CACHE_VERSION,
    KIND_DEAL,
    KIND_EVENT,
    KIND_REDO,
    KIND_UNDO,
    utcnow,
)
from referee.storage.stats import PlayerStats
from referee.storage.undo_steps import Logged, redo_targets, undo_targets

if TYPE_CHECKING:
    from referee.storage.club_results import Club
    from referee.storage.exchange import Imported
    from referee.storage.players import PlayerRow

T_PLAYER = ml.T_PLAYER
T_MATCH = ml.T_MATCH
T_SEAT = ml.T_SEAT
T_DEAL = ml.T_DEAL
T_LOG = ml.T_LOG
T_DEAL_SCORE = ml.T_DEAL_SCORE
T_MELD = ml.T_MELD
MatchInfo = ml.MatchInfo
_next_activity = next_activity


@dataclass(frozen=True, slots=True)
class LogRow:
    """One log entry for an audit view: what was done and whether it still counts."""

    seq: int
    kind: str
    deal_id: int | None
    target_seq: int | None
    payload: dict[str, Any] | None
    created_at: datetime
    effective: bool
    # For an event: the seq of the correction or deletion now in force (the row itself is
    # never changed, so the history shows both what was said and what counts).
    replaced_by: int | None = None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A match as of one log position (see :meth:`Store.snapshot`)."""

    match: Match
    position: int
    can_undo: bool
    can_redo: bool


def _log_rows(rows: list[Any], state: LogState) -> list[LogRow]:
    """Log rows as the audit view shows them, judged by the whole log's ``state``."""
    eff = set(state.effective)
    return [
        LogRow(
            int(r.seq),
            str(r.kind),
            r.deal_id,
            r.target_seq,
            json.loads(r.payload) if r.payload else None,
            r.created_at,
            int(r.seq) in eff,
            state.replaced_by(int(r.seq)),
        )
        for r in rows
    ]

class Store:
    """Storage for matches. Build it with :meth:`open`; see the package docstring."""

    def __init__(self, engine: Engine, location: db.Location, notice: str | None) -> None:
        self.gate = ml.Gate(engine, location)
        self.engine = engine
        self.location = location
        self.notice = notice
        self.read_only = location.read_only
        self._live = self.gate.live
        self._ledger = self.gate.ledger
        self.feed = self.gate.feed  # the other server processes hear of each write
        # the club's replays of finished matches, kept while their logs stay the same
        self._club_memo: dict[int, Any] = {}

    # ------------------------------------------------------------------------------ opening
    @classmethod
    def open(
        cls,
        url: str | os.PathLike[str] | None = None,
        app_storage_dir: str | os.PathLike[str] | None = None,
        *,
        repair: bool = True,
        progress: ProgressSink | None = None,
    ) -> Store:
        """Open (creating or upgrading as needed) the database.

        A damaged SQLite file is moved aside as ``NAME.corrupt-YYYYmmdd-HHMMSS`` and a fresh
        database started; ``store.notice`` then holds the message to show the user. With
        ``repair=False`` (a file named on the command line) it is left alone and StorageError
        says why it cannot be used. ``progress`` hears how a salvage is getting on (it can
        take many seconds for a large file).
        """
        loc = db.resolve(url, app_storage_dir)
        if loc.is_sqlite:
            return cls._open_sqlite(loc, repair, progress)
        engine = db.make_engine(loc)
        try:
            with engine.connect() as conn:
                revision = db.current_revision(conn)
        except DBAPIError as exc:
            engine.dispose()
            raise DatabaseUnreachableError(f"cannot reach {loc.describe()}: {exc.orig}") from exc
        if revision != db.HEAD_REVISION:
            db.upgrade(loc)
        store = cls(engine, loc, None)
        store.refresh_stale_caches()
        return store

    @classmethod
    def _open_sqlite(
        cls, loc: db.Location, repair: bool, progress: ProgressSink | None = None
    ) -> Store:
        path = loc.path
        assert path is not None
        if path.exists() and not path.is_file():  # never opened: a pipe would block, a
            raise StorageInputError(  # device read forever, a folder is no database
                str(path), "not a regular file (a folder, device or pipe is not a database)"
            )
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(f"{path.parent}: cannot create the folder: {exc}") from exc
        if path.exists() and not db.writable(path):
            return cls._open_read_only(replace(loc, read_only=True))
        if not path.exists() and not db.writable(path):
            raise ReadOnlyStorageError(
                f"{path.parent} is read-only: cannot create the database {path.name} there"
            )
        notice: str | None = None
        # Damage the cheap checks miss can surface while upgrading or reading the caches:
        # then the file is checked page by page and, if damaged, moved aside (second pass).
        for attempt in (1, 2):
            try:
                revision = db.probe_sqlite_file(path)
            except db.Damaged as damage:
                if db.held_elsewhere(path):
                    raise DatabaseBusyError(
                        f"{path} looks damaged to this program ({damage.reason}), but another"
                        " program has it open: nothing was moved or changed. Close the other"
                        " program (what it wrote then reaches the file) and open it again."
                    ) from damage
                if not repair:
                    raise DamagedDatabaseError(
                        f"{path}: not a usable Bezique database ({damage.reason});"
                        f" `bezique salvage {path}` recovers what it still holds",
                        path,
                    ) from damage
                notice = cls._salvage_in_place(path, damage.reason, progress)
                revision = db.probe_sqlite_file(path)
            store: Store | None = None
            try:
                if revision != db.HEAD_REVISION:
                    db.upgrade(loc)
                store = cls(db.make_engine(loc), loc, notice)
                store.refresh_stale_caches()
                store._compare_ledger(check=notice is None)
                return store
            except (DBAPIError, StorageError) as exc:
                if store is not None:
                    store.engine.dispose()
                if isinstance(exc, DatabaseBusyError):
                    raise
                if isinstance(exc, DBAPIError) and db.is_busy(exc.orig):
                    raise db.busy_error(path) from exc
                if isinstance(exc, DBAPIError):
                    text = str(exc.orig).lower()
                    if "malformed" in text or "not a database" in text:
                        db.request_full_check(path)
                if attempt == 2 or not db.check_marker(path).exists():
                    if isinstance(exc, DBAPIError):
                        raise StorageError(f"{path}: {exc.orig}") from exc
                    raise
        raise AssertionError("unreachable")

    @staticmethod
    def _salvage_in_place(path: Path, reason: str, progress: ProgressSink | None = None) -> str:
        """Keep the damaged file aside, rebuild the database from what it still holds, and
        return the sentence for the user."""
        from referee.storage.salvage import salvage

        moved = db.move_aside(path)
        try:
            report = salvage(moved, path, progress)
        except Exception as exc:  # salvage must never cost the app: start empty instead
            for side in ("", "-wal", "-shm", "-journal"):
                path.with_name(path.name + side).unlink(missing_ok=True)
            return (
                f"The saved matches in {path} could not be read ({reason}) and could not be"
                f" recovered ({exc}). The file was kept as {moved.name} and a new, empty"
                " database was started."
            )
        return (
            f"The saved matches in {path} were damaged ({reason}). {report.sentence()}"
            f" The damaged file was kept as {moved.name}."
        )

    @classmethod
    def _open_read_only(cls, loc: db.Location) -> Store:
        """A file (or folder) that cannot be written: read everything, change nothing. Damage
        cannot be repaired here (nothing can be moved or rebuilt), so it is only reported."""
        path = loc.path
        assert path is not None
        try:
            revision = db.probe_sqlite_file(path, read_only=True)
        except db.Damaged as damage:
            raise ReadOnlyStorageError(
                f"{path} is read-only and cannot be read as a Bezique database ({damage.reason});"
                " nothing was changed"
            ) from damage
        if revision is None:
            raise ReadOnlyStorageError(f"{path} is read-only and holds no Bezique database yet")
        if revision != db.HEAD_REVISION:
            raise ReadOnlyStorageError(
                f"{path} is read-only and was written by an older version (schema {revision}):"
                " it must be updated before it can be shown; make it writable and open it again"
            )
        notice = (
            f"{path} is read-only: every match is shown, but nothing can be recorded or changed"
            " until the file and its folder can be written."
        )
        return cls(db.make_engine(loc), loc, notice)

    def _compare_ledger(self, check: bool) -> None:
        """Say so when the file holds less than after its last write (emptied, or a deleted
        -wal took acknowledged entries with it), then record what it holds now."""
        if self._ledger is None or self.location.path is None:
            return
        before = ledger.read(self.location.path)
        with self._read() as conn:
            now = ml.seen(conn)
        lost = ledger.loss(before, now, str(self.location.path)) if check else None
        if lost:
            self.notice = f"{self.notice} {lost}" if self.notice else lost
        self._ledger.write(now)

    def close(self) -> None:
        """Release connections (SQLite checkpoints its WAL when the last one closes)."""
        self.gate.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self) -> AbstractContextManager[Connection]:
        return self.gate.write()

    def _read(self) -> AbstractContextManager[Connection]:
        return self.gate.read()

    # ------------------------------------------------------------------------------ players
    def players(self) -> list[str]:
        """Every player ever seen, by name (for the app's name picker)."""
        with self._read() as conn:
            return [str(r[0]) for r in conn.execute(select(T_PLAYER.c.name).order_by("name"))]

    def player_list(self) -> list[PlayerRow]:
        """Every player by name with their match counts (played, finished) and the other
        names their matches were played under."""
        from referee.storage.players import roster

        with self._read() as conn:
            return roster(conn)

    def rename_player(self, old: str, new: str) -> None:
        """Call a player by a new, free name. Their matches keep the names their logs speak
        (records and replays unchanged); statistics and club ratings follow the player."""
        from referee.storage.players import rename

        with self._write() as conn:
            rename(conn, old, new)

    def merge_players(self, source: str, into: str) -> int:
        """Make every match of player ``source`` player ``into``'s and remove ``source``;
        refused (StorageInputError naming the matches) if both sat in one match. Returns how
        many matches moved."""
        from referee.storage.players import merge

        with self._write() as conn:
            _, moved = merge(conn, source, into)
        self._live.clear()  # the seats' players changed: the replays' seat ids are stale
        return moved

    # ------------------------------------------------------------------------------ matches
    def create_match(
        self,
        variant: str,
        players: Sequence[str],
        tracking: str = "melds",
        house_rules: Sequence[str] = (),
        target: int | None = None,
        games: int | None = None,
    ) -> int:
        """A new match; settings the engine refuses are a StorageInputError. ``games``: the
        number of games where each deal is a game (Rubicon …); None for the variant's."""
        names = tuple(str(p).strip() for p in players)
        header = rp.Header(variant, names, tracking, tuple(house_rules), target, games)
        m = rp.new_match(header)
        with self._write() as conn:
            match_id = ml.insert_match(conn, header, utcnow())
            info = ml.match_info(conn, match_id)
            self.feed.said(conn, self.feed.change(match_id, 0, "new"))
        self._live[match_id] = ml.Live(info, m, 0, [], False, False)
        return match_id

    def match_info(self, match_id: int) -> MatchInfo:
        with self._read() as conn:
            return ml.match_info(conn, match_id)

    def list_matches(
        self, *, unfinished_only: bool = False, limit: int | None = None, offset: int = 0
    ) -> list[MatchInfo]:
        """Matches, the most recently played first; ``limit``/``offset`` page through many."""
        with self._read() as conn:
            q = select(T_MATCH)
            if unfinished_only:
                q = q.where(T_MATCH.c.finished_at.is_(None), T_MATCH.c.abandoned_at.is_(None))
            q = q.order_by(T_MATCH.c.activity.desc(), T_MATCH.c.id.desc())
            if limit is not None:
                q = q.limit(limit)
            if offset:
                q = q.offset(offset)
            rows = conn.execute(q).all()
            seat_q = (
                select(T_SEAT.c.match_id, ml.seat_name())
                .join(T_PLAYER, T_SEAT.c.player_id == T_PLAYER.c.id)
                .order_by(T_SEAT.c.match_id, T_SEAT.c.seat)
            )
            if limit is not None:
                seat_q = seat_q.where(T_SEAT.c.match_id.in_([int(r.id) for r in rows]))
            seats = conn.execute(seat_q).all()
        names: dict[int, list[str]] = {}
        for mid, name in seats:
            names.setdefault(int(mid), []).append(str(name))
        return [ml.info_of(r, tuple(names.get(int(r.id), []))) for r in rows]

    def versions(self, match_ids: Sequence[int]) -> dict[int, tuple[int, bool]]:
        """Each named match's version, in one read: its change counter (``match.activity``,
        moved by every write, undo and correction) and whether it is abandoned. A screen that
        shows many matches (the club director's) replays only those whose version moved
        since it last looked; a match not stored is left out."""
        ids = sorted({int(m) for m in match_ids})
        if not ids:
            return {}
        with self._read() as conn:
            rows = conn.execute(
                select(T_MATCH.c.id, T_MATCH.c.activity, T_MATCH.c.abandoned_at).where(
                    T_MATCH.c.id.in_(ids)
                )
            ).all()
        return {int(r.id): (int(r.activity or 0), r.abandoned_at is not None) for r in rows}

    def unfinished_match(self) -> int | None:
        """The match to resume: the one played last (by the order of changes, never the wall
        clock) that is neither finished nor abandoned."""
        with self._read() as conn:
            row = conn.execute(
                select(T_MATCH.c.id)
                .where(T_MATCH.c.finished_at.is_(None), T_MATCH.c.abandoned_at.is_(None))
                .order_by(T_MATCH.c.activity.desc(), T_MATCH.c.id.desc())
                .limit(1)
            ).first()
        return None if row is None else int(row[0])

    def last_finished_match(self) -> int | None:
        """The match finished most recently (for Home's "last result")."""
        with self._read() as conn:
            row = conn.execute(
                select(T_MATCH.c.id)
                .where(T_MATCH.c.finished_at.is_not(None))
                .order_by(T_MATCH.c.activity.desc(), T_MATCH.c.id.desc())
                .limit(1)
            ).first()
        return None if row is None else int(row[0])

    def abandon_match(self, match_id: int) -> MatchInfo:
        """Set an unfinished match aside: its log stays whole, history lists it as abandoned
        and it is no longer offered for resuming; ``restore_match`` brings it back. A
        finished match has a result and cannot be abandoned (StorageInputError)."""
        return self._set_abandoned(match_id, abandon=True)

    def restore_match(self, match_id: int) -> MatchInfo:
        """Undo ``abandon_match``: the match is unfinished and resumable again."""
        return self._set_abandoned(match_id, abandon=False)

    def _set_abandoned(self, match_id: int, *, abandon: bool) -> MatchInfo:
        with self._write() as conn:
            info = ml.match_info(conn, match_id)
            if abandon and info.finished:
                raise StorageInputError(
                    f"match {match_id}", "it is finished; only an unfinished match is abandoned"
                )
            conn.execute(
                update(T_MATCH)
                .where(T_MATCH.c.id == match_id)
                .values(abandoned_at=utcnow() if abandon else None)
            )
            info = ml.match_info(conn, match_id)
        live = self._live.get(match_id)
        if live is not None:
            live.info = replace(live.info, abandoned_at=info.abandoned_at)
        return info

    def delete_match(self, match_id: int) -> None:
        """Remove a match and its log (the user's explicit choice; cascades)."""
        with self._write() as conn:
            ml.match_info(conn, match_id)
            conn.execute(delete(T_MATCH).where(T_MATCH.c.id == match_id))
        self._live.pop(match_id, None)

    # ------------------------------------------------------------------------------ the log
    def log_position(self, match_id: int) -> int:
        """The match's log position: the seq of its newest entry (0 for an empty log). A
        device passes it back as ``at=`` so a write made on a stale view is refused."""
        with self._read() as conn:
            ml.match_info(conn, match_id)
            return ml.last_seq(conn, match_id)

    def _live_for_write(self, conn: Connection, match_id: int, at: int | None = None) -> ml.Live:
        """The in-memory replay, rebuilt from the log if another writer moved it on; with
        ``at``, refused (StaleWrite) unless the log is still at that position."""
        created = ml.lock_match(conn, match_id)
        live = self._live.get(match_id)
        actual = ml.last_seq(conn, match_id)
        ml.check_at(match_id, at, actual)
        if live is not None and live.info.created_at == created and live.last_seq == actual:
            # who sits in each seat can change without a log entry (a merge of players, maybe
            # in another process): the caches written next must name the players of now
            live.seat_ids = ml.seat_ids(conn, match_id)
            return live
        self._live.pop(match_id, None)
        info = ml.match_info(conn, match_id)
        steps, last, can_undo, can_redo = ml.steps(conn, match_id)
        done = rp.replay(info.header, steps)
        live = ml.Live(info, done.match, last, done.deal_ids, can_undo, can_redo)
        live.seat_ids = ml.seat_ids(conn, match_id)
        self._live[match_id] = live
        return live

    def _append(
        self,
        conn: Connection,
        live: ml.Live,
        match_id: int,
        kind: str,
        *,
        deal_id: int | None = None,
        target_seq: int | None = None,
        payload: str | None = None,
    ) -> int:
        seq = live.last_seq + 1
        try:
            conn.execute(
                insert(T_LOG).values(
                    match_id=match_id,
                    seq=seq,
                    kind=kind,
                    deal_id=deal_id,
                    target_seq=target_seq,
                    payload=payload,
                    created_at=utcnow(),
                )
            )
        except IntegrityError as exc:
            raise StorageError(
                f"match {match_id} was changed by someone else at the same moment; try again"
            ) from exc
        return seq

    def start_deal(
        self, match_id: int, dealer: int | str, turn_up: str | None, *, at: int | None = None
    ) -> int:
        """Start the next deal (dealer by seat or name); returns the deal's id. With ``at``,
        only if the log is still at that position (else StaleWrite, nothing stored)."""
        with self._write() as conn:
            live = self._live_for_write(conn, match_id, at)
            seat = _seat(live.info.players, dealer)
            code: str | None = None
            if turn_up is not None:
                from referee.cards import parse_card

                try:
                    code = parse_card(turn_up).code
                except ValueError as exc:
                    raise StorageInputError("turn_up", str(exc)) from exc
            rp.start_deal(live.match, seat, code)
            res = conn.execute(
                insert(T_DEAL)
                .values(match_id=match_id, dealer=seat, turn_up=code, created_at=utcnow())
                .returning(T_DEAL.c.id)
            )
            deal_id = int(res.scalar_one())
            live.last_seq = self._append(conn, live, match_id, KIND_DEAL, deal_id=deal_id)
            live.deal_ids.append(deal_id)
            live.can_undo, live.can_redo = True, False
            ml.refresh_deal_cache(conn, match_id, live, len(live.deal_ids) - 1)
            self._touch(conn, match_id, live)
            deal = len(live.deal_ids)
            self.feed.said(conn, self.feed.change(match_id, live.last_seq, "deal", deal=deal))
            return deal_id

    def record(self, match_id: int, event: Mapping[str, Any], *, at: int | None = None) -> Ruling:
        """Record one event (the record's JSON form) in the current deal; return the ruling.

        A rejected event is recorded too (the table's history); an event that is malformed or
        contradicts the facts raises StorageInputError and stores nothing. Durable on return.
        With ``at`` (the log position the device's view showed) the event is appended only if
        the log is still there; otherwise StaleWrite and nothing is stored. If the entry just
        after ``at`` is already this very event (a retry whose first try was committed but
        whose answer was lost with the connection), AlreadyRecordedError says so: nothing is
        written twice.
        """
        with self._write() as conn:
            if at is not None:
                self._check_recorded(conn, match_id, at, event)
            live = self._live_for_write(conn, match_id, at)
            if not live.deal_ids:
                raise StorageInputError("event", "no deal has started: start a deal first")
            ev = rp.parse_event(live.match, event)
            ruling = rp.apply(live.match, ev)
            deal_id = live.deal_ids[-1]
            stored = rp.canonical(live.match, ev)
            seq = self._append(conn, live, match_id, KIND_EVENT, deal_id=deal_id, payload=stored)
            live.last_seq = seq
            live.can_undo, live.can_redo = True, False
            scored = rp.scored_of(seq, deal_id, ev, ruling)
            if scored is not None:
                values = ml.meld_values(match_id, scored, live.seat_ids)
                conn.execute(insert(T_MELD).values(**values))
            ml.refresh_deal_cache(conn, match_id, live, len(live.deal_ids) - 1)
            self._touch(conn, match_id, live)
            said = self.feed.change(
                match_id,
                seq,
                "record",
                deal=len(live.deal_ids),
                event=json.loads(stored),
                ruling=ruling,
            )
            self.feed.said(conn, said)
            return ruling

    def _check_recorded(
        self, conn: Connection, match_id: int, at: int, event: Mapping[str, Any]
    ) -> None:
        if ml.last_seq(conn, match_id) != at + 1:
            return
        row = conn.execute(
            select(T_LOG.c.kind, T_LOG.c.payload).where(
                T_LOG.c.match_id == match_id, T_LOG.c.seq == at + 1
            )
        ).first()
        try:
            same = (
                row is not None
                and row.kind == KIND_EVENT
                and json.loads(row.payload) == json.loads(json.dumps(dict(event)))
            )
        except (TypeError, ValueError):
            same = False
        if same:
            raise AlreadyRecordedError(f"match {match_id}: entry {at + 1} is already stored")

    def last_seq(self, match_id: int) -> int:
        """The number of the newest log entry of a match (0 for none)."""
        with self._read() as conn:
            return ml.last_seq(conn, match_id)

    def verify(self, match_id: int, event: Mapping[str, Any]) -> Ruling:
        """The ruling an event would get now, recording nothing."""
        m = self.load_match(match_id)
        ev = rp.parse_event(m, event)
        try:
            return m.verify(ev)
        except ValueError as exc:
            raise StorageInputError("event", str(exc)) from exc

    def undo(self, match_id: int, *, at: int | None = None) -> bool:
        """Hide the newest effective entry (event or deal start); False if none is left.
        The end of a deal (its last trick and brisques) is one step (undo_steps.py). The
        undo is itself logged. With ``at``: only if the log is still at that position
        (StaleWrite otherwise), so a device never undoes an entry it has not seen."""
        return self._undo_redo(match_id, KIND_UNDO, at)

    def redo(self, match_id: int, *, at: int | None = None) -> bool:
        """Restore the newest undone entry (the end of a deal as one step); False if there
        is nothing to redo."""
        return self._undo_redo(match_id, KIND_REDO, at)

    def _undo_redo(self, match_id: int, kind: str, at: int | None = None) -> bool:
        with self._write() as conn:
            ml.lock_match(conn, match_id)
            rows = ml.entries(conn, match_id)
            ml.check_at(match_id, at, int(rows[-1].seq) if rows else 0)
            try:
                state = derive(Entry(int(r.seq), str(r.kind), r.target_seq) for r in rows)
            except LogCorrupt as exc:
                raise StorageError(f"match {match_id}: {exc}") from exc
            by_seq = {int(r.seq): r for r in rows}
            step = undo_targets if kind == KIND_UNDO else redo_targets
            targets = step(state, lambda seq: _logged(by_seq[seq]))
            if not targets:
                return False
            last = int(rows[-1].seq) if rows else 0
            for offset, target in enumerate(targets, start=1):  # the end of a deal: one step
                conn.execute(
                    insert(T_LOG).values(
                        match_id=match_id,
                        seq=last + offset,
                        kind=kind,
                        target_seq=target,
                        created_at=utcnow(),
                    )
                )
            self._rebuild(conn, match_id)
            conn.execute(
                update(T_MATCH)
                .where(T_MATCH.c.id == match_id)
                .values(updated_at=utcnow(), activity=_next_activity())
            )
            self.feed.said(conn, self.feed.change(match_id, last + len(targets), kind))
            return True

    def can_undo(self, match_id: int) -> bool:
        return self._undo_state(match_id)[0]

    def can_redo(self, match_id: int) -> bool:
        return self._undo_state(match_id)[1]

    def _undo_state(self, match_id: int) -> tuple[bool, bool]:
        with self._read() as conn:
            rows = ml.entries(conn, match_id)
        state = derive(Entry(int(r.seq), str(r.kind), r.target_seq) for r in rows)
        return bool(state.effective), bool(state.redoable)

    def history(self, match_id: int) -> list[LogRow]:
        """The whole log, undone entries and undo/redo entries included (the audit trail)."""
        with self._read() as conn:
            ml.match_info(conn, match_id)
            rows = list(
                conn.execute(
                    select(T_LOG).where(T_LOG.c.match_id == match_id).order_by(T_LOG.c.seq)
                )
            )
        state = derive(Entry(int(r.seq), str(r.kind), r.target_seq) for r in rows)
        return _log_rows(rows, state)

    def newest_effective(self, match_id: int, count: int) -> list[LogRow]:
        """The newest ``count`` entries that count, oldest first: what an undo's message
        names. Only the log's order is read whole; the payloads are read (and decoded) for
        these entries alone, since an undo late in a partie would decode hundreds."""
        with self._read() as conn:
            ml.match_info(conn, match_id)
            order = conn.execute(
                select(T_LOG.c.seq, T_LOG.c.kind, T_LOG.c.target_seq)
                .where(T_LOG.c.match_id == match_id)
                .order_by(T_LOG.c.seq)
            )
            state = derive(Entry(int(r.seq), str(r.kind), r.target_seq) for r in order)
            newest = state.effective[-count:] if count > 0 else []
            rows = list(
                conn.execute(
                    select(T_LOG)
                    .where(T_LOG.c.match_id == match_id, T_LOG.c.seq.in_(newest))
                    .order_by(T_LOG.c.seq)
                )
            ) if newest else []
        return _log_rows(rows, state)

    def snapshot(self, match_id: int) -> Snapshot:
        """The match replayed from its log together with the log position it reflects, read
        in one go (a device writes ``at=`` that position: its view and its writes agree)."""
        with self._read() as conn:
            info = ml.match_info(conn, match_id)
            steps, last, can_undo, can_redo = ml.steps(conn, match_id)
        return Snapshot(rp.replay(info.header, steps).match, last, can_undo, can_redo)

    def load_match(self, match_id: int) -> Match:
        """The match replayed from its log by the engine (a fresh object the caller owns)."""
        with self._read() as conn:
            info = ml.match_info(conn, match_id)
            steps, _, _, _ = ml.steps(conn, match_id)
        return rp.replay(info.header, steps).match

    # ------------------------------------------------------------------------------ caches
    def _touch(self, conn: Connection, match_id: int, live: ml.Live) -> None:
        """Update the match's cached verdict and last-played time."""
        finished, winner, seats = rp.winner_seats(live.match)
        was = live.info.finished_at is not None
        now = utcnow()
        values: dict[str, Any] = {"updated_at": now, "activity": _next_activity()}
        if finished != was or winner != live.info.winner:
            values["finished_at"] = now if finished else None
            values["winner"] = winner
            live.info = replace(live.info, finished_at=values["finished_at"], winner=winner)
            conn.execute(
                update(T_SEAT)
                .where(T_SEAT.c.match_id == match_id)
                .values(won=T_SEAT.c.seat.in_(seats) if seats else False)
            )
        conn.execute(update(T_MATCH).where(T_MATCH.c.id == match_id).values(**values))
        live.info = replace(live.info, updated_at=now)

    def _rebuild(self, conn: Connection, match_id: int) -> ml.Live:
        """Replay the log and re-derive every cache of the match from it."""
        self._live.pop(match_id, None)
        live = ml.rebuild(conn, match_id)
        self._live[match_id] = live
        return live

    def rebuild_caches(self, match_id: int) -> None:
        """Re-derive a match's caches from its log (repair, or after an engine update)."""
        with self._write() as conn:
            ml.lock_match(conn, match_id)
            self._rebuild(conn, match_id)

    def refresh_stale_caches(self) -> int:
        """Rebuild the caches of matches written before the caches existed or changed
        meaning (after a migration); returns how many. A match the engine can no longer
        replay keeps its stale cache and is named in ``notice`` instead of stopping the app."""
        with self._read() as conn:
            stale = [
                int(v)
                for v in conn.execute(
                    select(T_MATCH.c.id).where(T_MATCH.c.cache_version < CACHE_VERSION)
                ).scalars()
            ]
        failed: list[str] = []
        for match_id in stale:
            try:
                self.rebuild_caches(match_id)
            except StorageInputError as exc:
                failed.append(f"match {match_id}: {exc}")
        if failed:
            extra = "Some matches cannot be replayed by this version: " + "; ".join(failed)
            self.notice = f"{self.notice} {extra}" if self.notice else extra
        return len(stale) - len(failed)

    def cached_scores(self, match_id: int) -> list[list[int]]:
        """Per effective deal, each seat's cached points (tests compare this to a replay)."""
        with self._read() as conn:
            steps, _, _, _ = ml.steps(conn, match_id)
            deal_ids = [s.deal_id for s in steps if isinstance(s, rp.DealStart)]
            rows = conn.execute(
                select(T_DEAL_SCORE.c.deal_id, T_DEAL_SCORE.c.seat, T_DEAL_SCORE.c.points).where(
                    T_DEAL_SCORE.c.match_id == match_id
                )
            ).all()
        by_deal: dict[int, dict[int, int]] = {}
        for deal_id, seat, pts in rows:
            by_deal.setdefault(int(deal_id), {})[int(seat)] = int(pts)
        return [[v for _, v in sorted(by_deal.get(d, {}).items())] for d in deal_ids]

    def cached_melds(self, match_id: int) -> list[tuple[int, int, str, int]]:
        """(seq, seat, meld, points) of cached declarations, in order (for tests)."""
        with self._read() as conn:
            rows = conn.execute(
                select(T_MELD.c.seq, T_SEAT.c.seat, T_MELD.c.meld, T_MELD.c.points)
                .join(
                    T_SEAT,
                    and_(
                        T_SEAT.c.match_id == T_MELD.c.match_id,
                        T_SEAT.c.player_id == T_MELD.c.player_id,
                    ),
                )
                .where(T_MELD.c.match_id == match_id)
                .order_by(T_MELD.c.seq)
            ).all()
        return [(int(a), int(b), str(c), int(d)) for a, b, c, d in rows]

    # ------------------------------------------------------------------------------ corrections
    def event_seqs(self, match_id: int) -> list[list[int]]:
        """Per effective deal, the log seq of each event that counts (the original entry's
        seq, also when a correction now speaks for it): how the app names an entry."""
        from referee.storage.corrections import event_seqs

        return event_seqs(self, match_id)

    def preview_correction(self, match_id: int, seq: int, event: Mapping[str, Any] | None) -> Any:
        """What replacing event entry ``seq`` with ``event`` (None: deleting it) would change,
        storing nothing; a correction that cannot be made raises StorageInputError."""
        from referee.storage.corrections import preview_correction

        return preview_correction(self, match_id, seq, event)

    def correct(
        self,
        match_id: int,
        seq: int,
        event: Mapping[str, Any] | None,
        *,
        at: int | None = None,
    ) -> Any:
        """Append a correction (or, with ``event`` None, a deletion) of event entry ``seq``,
        replay the rest on top of it and return what it changed. The original entry stays
        in the log; undo takes the correction back. With ``at``: only if the log is still at
        that position (StaleWrite otherwise, nothing stored)."""
        from referee.storage.corrections import correct

        return correct(self, match_id, seq, event, at)

    # ------------------------------------------------------------------------------ records
    def export_match(self, match_id: int, *, format: str = "bezique-match/2") -> dict[str, Any]:
        """The match record with the effective events only: ``bezique-match/2`` with
        ``played`` (when it was started), or ``format="bezique-match/1"`` without it."""
        from referee.storage.exchange import export_match

        return export_match(self, match_id, format=format)

    def import_match(
        self, source: Mapping[str, Any] | str | os.PathLike[str], *, copies: bool = True
    ) -> int:
        """Store a match record (a dict or a JSON file) and return its id; a malformed one
        stores nothing and raises StorageInputError naming the file and the place. A version 2
        record's ``played`` becomes the match's start time (else: now). With ``copies=False``
        a record already stored is not stored again: its id is returned."""
        from referee.storage.exchange import import_match

        done = import_match(self, source, copies=copies)
        return done[0] if done else done.skipped[0]

    def import_record(
        self, source: Mapping[str, Any] | str | os.PathLike[str], *, copies: bool = False
    ) -> Imported:
        """Like import_match, telling stored from skipped (``.skipped``)."""
        from referee.storage.exchange import import_match

        return import_match(self, source, copies=copies)

    def export_archive(self, path: str | os.PathLike[str]) -> int:
        """Write every match to one zip archive (for backup); returns how many."""
        from referee.storage.exchange import export_archive

        return export_archive(self, Path(path))

    def import_archive(self, path: str | os.PathLike[str], *, copies: bool = False) -> Imported:
        """Store every match of an archive, all or none; matches already stored are skipped
        (their ids in ``.skipped``) unless ``copies``."""
        from referee.storage.exchange import import_archive

        return import_archive(self, Path(path), copies=copies)

    # ------------------------------------------------------------------------------ the club
    def club(self, records: int = 10) -> Club:
        """Every finished match replayed, in finish order, as the club's results, with the
        ratings and the top ``records`` of each record over them (club_results.py)."""
        from referee.storage.club_results import club

        return club(self, records, self._club_memo)

    # ------------------------------------------------------------------------------ stats
    def player_stats(self) -> list[PlayerStats]:
        """Per player: matches played/won, average points per deal, biggest deal, best
        combinations (from the replay-derived caches)."""
        with self._read() as conn:
            return stats.player_stats(conn)

    def biggest_deals(self, limit: int = 10) -> list[stats.DealRecordHolder]:
        """The highest deal scores stored, best first."""
        with self._read() as conn:
            return stats.biggest_deals(conn, limit)

    def best_combinations(self, limit: int = 10) -> list[tuple[str, stats.MeldStat]]:
        """The highest-scoring combinations declared, with who declared them."""
        with self._read() as conn:
            return stats.best_combinations(conn, limit)


def _seat(players: Sequence[str], who: int | str) -> int:
    if isinstance(who, bool):
        raise StorageInputError("dealer", f"not a player: {who!r}")
    if isinstance(who, int):
        if 0 <= who < len(players):
            return who
        raise StorageInputError("dealer", f"no player in seat {who}")
    if who in players:
        return list(players).index(who)
    raise StorageInputError("dealer", f'unknown player "{who}"; players: {", ".join(players)}')


def _logged(row: Any) -> Logged:
    """A log row as undo_steps reads it (an unreadable payload is simply no end of deal)."""
    event_type: str | None = None
    if row.kind == KIND_EVENT and row.payload:
        try:
            payload = json.loads(row.payload)
        except ValueError:
            payload = None
        if isinstance(payload, dict) and isinstance(payload.get("type"), str):
            event_type = payload["type"]
    return Logged(str(row.kind), row.deal_id, event_type)
