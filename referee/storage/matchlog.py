"""What the store, corrections, import/export and salvage share: the way into the database (one
lock, read and write transactions, database errors worded for the user) and the reading and
writing of one match's settings, log and caches on a connection.

It sits below all of them (they import it; it imports none of them), so the storage package
has no import circle and no module reaches into another's private names.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Connection, Engine, Row, Table, delete, func, insert, select, update
from sqlalchemy.exc import DBAPIError

from referee.match import Match
from referee.storage import change_feed, db, ledger
from referee.storage import replay as rp
from referee.storage.activity import next_activity
from referee.storage.errors import (
    ReadOnlyStorageError,
    StaleWrite,
    StorageError,
    UnknownMatchError,
)
from referee.storage.log import Entry, LogCorrupt, derive
from referee.storage.schema import CACHE_VERSION, KIND_DEAL, KIND_EVENT
from referee.storage.tables import TABLES

T_PLAYER: Table = TABLES["player"]
T_MATCH: Table = TABLES["match"]
T_SEAT: Table = TABLES["match_player"]
T_DEAL: Table = TABLES["deal"]
T_LOG: Table = TABLES["log_entry"]
T_DEAL_SCORE: Table = TABLES["deal_score"]
T_MELD: Table = TABLES["meld_score"]

FORMAT = "bezique-match/1"


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """A match as listed in the app (no replay needed)."""

    id: int
    variant: str
    players: tuple[str, ...]
    tracking: str
    house_rules: tuple[str, ...]
    target: int | None
    created_at: datetime
    updated_at: datetime | None
    finished_at: datetime | None
    winner: str | None
    abandoned_at: datetime | None = None
    games: int | None = None  # games agreed where each deal is a game; None: the variant's

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    @property
    def abandoned(self) -> bool:
        """Set aside by the table: listed, not offered for resuming (see abandon_match)."""
        return self.abandoned_at is not None and self.finished_at is None

    @property
    def header(self) -> rp.Header:
        return rp.Header(
            self.variant, self.players, self.tracking, self.house_rules, self.target, self.games
        )


@dataclass
class Live:
    """An in-memory replay kept in step with the log, so recording an event costs one
    ``apply`` instead of a full replay. Trusted only while ``last_seq`` equals the log's."""

    info: MatchInfo
    match: Match
    last_seq: int
    deal_ids: list[int]
    can_undo: bool
    can_redo: bool
    seat_ids: list[int] = field(default_factory=list)


class Gate:
    """The way into one database: a lock serialising this process's writers, read and write
    transactions whose database errors become StorageError, the witness file written after
    each commit, and the in-memory replays (forgotten whenever a write fails)."""

    def __init__(self, engine: Engine, location: db.Location) -> None:
        self.engine = engine
        self.location = location
        self.read_only = location.read_only
        self.lock = threading.RLock()
        self.live: dict[int, Live] = {}
        # PostgreSQL: each write says so to the other server processes (change_feed.py)
        self.feed = change_feed.for_url(location.url)
        self.ledger: ledger.Ledger | None = None
        if location.path is not None and not location.read_only:
            self.ledger = ledger.Ledger(location.path)

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction; database failures become StorageError (nothing written)."""
        if self.read_only:
            raise ReadOnlyStorageError(
                f"{self.location.describe()} is read-only: nothing was recorded or changed"
            )
        with self.lock:
            try:
                with db.write_transaction(self.engine) as conn:
                    yield conn
                    now = seen(conn) if self.ledger is not None else None
                if now is not None and self.ledger is not None:
                    self.ledger.write(now)
            except DBAPIError as exc:
                self.live.clear()
                raise self.error(exc) from exc
            except BaseException:
                self.live.clear()
                raise

    @contextmanager
    def read(self) -> Iterator[Connection]:
        try:
            with self.engine.connect() as conn, conn.begin():
                yield conn
        except DBAPIError as exc:
            raise self.error(exc) from exc

    def error(self, exc: DBAPIError) -> StorageError:
        """A database failure for the user; damage reported by SQLite makes the next open
        check the whole file (and set it aside if it is damaged)."""
        text = str(exc.orig).lower()
        where = self.location.describe()
        if db.is_busy(exc.orig):
            return db.busy_error(where)
        if "readonly" in text or "read-only" in text:
            return ReadOnlyStorageError(f"{where} is read-only: nothing was recorded or changed")
        if self.location.path is not None and (
            "malformed" in text or "not a database" in text or "disk i/o" in text
        ):
            db.request_full_check(self.location.path)
            return StorageError(
                f"{where} is damaged ({exc.orig}); restart the app to check"
                " it (a damaged file is kept aside and a new one started)"
            )
        return StorageError(f"{where}: {exc.orig}")

    def close(self) -> None:
        self.feed.stop()
        with self.lock:
            self.live.clear()
            self.engine.dispose()
            if self.ledger is not None:
                self.ledger.close()


class Holder(Protocol):
    """What corrections and import/export need of a store: its gate and its list of matches
    (the store itself, without importing it)."""

    gate: Gate

    def list_matches(
        self, *, unfinished_only: bool = False, limit: int | None = None, offset: int = 0
    ) -> list[MatchInfo]: ...


def seen(conn: Connection) -> ledger.Seen:
    """What the database holds now, for the witness file."""
    matches = conn.execute(select(func.count()).select_from(T_MATCH)).scalar()
    log = conn.execute(select(func.max(T_LOG.c.id))).scalar()
    return ledger.Seen(int(matches or 0), int(log or 0))


# ---------------------------------------------------------------------------------- a match
def info_of(row: Row[Any], players: tuple[str, ...]) -> MatchInfo:
    return MatchInfo(
        id=int(row.id),
        variant=str(row.variant),
        players=players,
        tracking=str(row.tracking),
        house_rules=tuple(json.loads(row.house_rules or "[]")),
        target=row.target,
        created_at=row.created_at,
        updated_at=row.updated_at,
        finished_at=row.finished_at,
        winner=row.winner,
        abandoned_at=row.abandoned_at,
        games=row.games,
    )


def seat_name() -> Any:
    """A seat's name as the match's log spells it: the name it was played under when a rename
    or a merge has set one (``match_player.name``), else the player's own (join T_PLAYER)."""
    return func.coalesce(T_SEAT.c.name, T_PLAYER.c.name)


def match_info(conn: Connection, match_id: int) -> MatchInfo:
    row = conn.execute(select(T_MATCH).where(T_MATCH.c.id == match_id)).first()
    if row is None:
        raise UnknownMatchError(f"no match with id {match_id}")
    names = conn.execute(
        select(seat_name())
        .join(T_SEAT, T_SEAT.c.player_id == T_PLAYER.c.id)
        .where(T_SEAT.c.match_id == match_id)
        .order_by(T_SEAT.c.seat)
    ).scalars()
    return info_of(row, tuple(str(n) for n in names))


def player_ids(conn: Connection, names: Sequence[str]) -> list[int]:
    from referee.storage.schema import utcnow

    ids: list[int] = []
    for name in names:
        row = conn.execute(select(T_PLAYER.c.id).where(T_PLAYER.c.name == name)).first()
        if row is None:
            res = conn.execute(
                insert(T_PLAYER).values(name=name, created_at=utcnow()).returning(T_PLAYER.c.id)
            )
            ids.append(int(res.scalar_one()))
        else:
            ids.append(int(row[0]))
    return ids


def insert_match(conn: Connection, h: rp.Header, created: datetime) -> int:
    """A new match row with its seats (players created as needed); returns its id."""
    res = conn.execute(
        insert(T_MATCH)
        .values(
            format=FORMAT,
            variant=h.variant,
            tracking=h.tracking,
            house_rules=json.dumps(list(h.house_rules)),
            target=h.target,
            games=h.games,
            created_at=created,
            updated_at=created,
            cache_version=CACHE_VERSION,
            activity=next_activity(),
        )
        .returning(T_MATCH.c.id)
    )
    match_id = int(res.scalar_one())
    ids = player_ids(conn, h.players)
    conn.execute(
        insert(T_SEAT),
        [
            {"match_id": match_id, "seat": seat, "player_id": pid, "won": False}
            for seat, pid in enumerate(ids)
        ],
    )
    return match_id


def entries(conn: Connection, match_id: int) -> list[Any]:
    return list(
        conn.execute(
            select(T_LOG.c.seq, T_LOG.c.kind, T_LOG.c.deal_id, T_LOG.c.target_seq, T_LOG.c.payload)
            .where(T_LOG.c.match_id == match_id)
            .order_by(T_LOG.c.seq)
        ).all()
    )


def steps(conn: Connection, match_id: int) -> tuple[list[rp.Step], int, bool, bool]:
    """Effective steps, the last seq, and whether undo/redo have something to do."""
    rows = entries(conn, match_id)
    deal_rows = {
        int(d.id): d
        for d in conn.execute(
            select(T_DEAL.c.id, T_DEAL.c.dealer, T_DEAL.c.turn_up).where(
                T_DEAL.c.match_id == match_id
            )
        )
    }
    return steps_of(match_id, rows, deal_rows)


def steps_of(
    match_id: int, rows: Sequence[Any], deal_rows: Mapping[int, Any]
) -> tuple[list[rp.Step], int, bool, bool]:
    """:func:`steps` from a match's log rows (``entries``' columns, in seq order) and its deal
    rows by id (id, dealer, turn_up), read by the caller (the club reads every match's at
    once)."""
    try:
        state = derive(Entry(int(r.seq), str(r.kind), r.target_seq) for r in rows)
    except LogCorrupt as exc:
        raise StorageError(f"match {match_id}: {exc}") from exc
    by_seq = {int(r.seq): r for r in rows}
    out: list[rp.Step] = []
    for seq in state.effective:
        r = by_seq[seq]
        if r.kind == KIND_DEAL:
            d = deal_rows[int(r.deal_id)]
            out.append(rp.DealStart(seq, int(d.id), int(d.dealer), d.turn_up))
        elif r.kind == KIND_EVENT and seq not in state.deletions:
            # a correction's payload counts in the original's place
            source = by_seq[state.corrections.get(seq, seq)]
            try:
                payload = json.loads(source.payload)
            except (TypeError, ValueError) as exc:
                raise StorageError(
                    f"match {match_id}: log entry {source.seq} is unreadable ({exc})"
                ) from exc
            out.append(rp.EventEntry(seq, int(r.deal_id), payload))
    last = int(rows[-1].seq) if rows else 0
    return out, last, bool(state.effective), bool(state.redoable)


def last_seq(conn: Connection, match_id: int) -> int:
    val = conn.execute(select(func.max(T_LOG.c.seq)).where(T_LOG.c.match_id == match_id)).scalar()
    return int(val or 0)


def lock_match(conn: Connection, match_id: int) -> datetime:
    """Serialise writers of one match (PostgreSQL; SQLite already holds the write lock);
    returns its creation time, which tells a reused id from the match we replayed."""
    row = conn.execute(
        select(T_MATCH.c.created_at).where(T_MATCH.c.id == match_id).with_for_update()
    ).first()
    if row is None:
        raise UnknownMatchError(f"no match with id {match_id}")
    created: datetime = row[0]
    return created


def check_at(match_id: int, at: int | None, actual: int) -> None:
    """Compare-and-append: called under the match's write lock, so nobody can append
    between this check and the insert."""
    if at is not None and at != actual:
        raise StaleWrite(match_id, at, actual)


# ---------------------------------------------------------------------------------- caches
def seat_ids(conn: Connection, match_id: int) -> list[int]:
    return [
        int(v)
        for v in conn.execute(
            select(T_SEAT.c.player_id).where(T_SEAT.c.match_id == match_id).order_by(T_SEAT.c.seat)
        ).scalars()
    ]


def meld_values(match_id: int, s: rp.Scored, seats: Sequence[int]) -> dict[str, Any]:
    return {
        "match_id": match_id,
        "deal_id": s.deal_id,
        "seq": s.seq,
        "player_id": seats[s.seat],
        "meld": s.meld,
        "points": s.points,
    }


def refresh_deal_cache(conn: Connection, match_id: int, live: Live, index: int) -> None:
    deal_id = live.deal_ids[index]
    seats = live.seat_ids or seat_ids(conn, match_id)
    live.seat_ids = seats
    conn.execute(delete(T_DEAL_SCORE).where(T_DEAL_SCORE.c.deal_id == deal_id))
    conn.execute(
        insert(T_DEAL_SCORE),
        [
            {
                "deal_id": deal_id,
                "seat": seat,
                "match_id": match_id,
                "player_id": seats[seat],
                "points": pts,
            }
            for seat, pts in enumerate(rp.seat_scores(live.match, index))
        ],
    )


def write_caches(
    conn: Connection,
    match_id: int,
    info: MatchInfo,
    done: rp.Replayed,
    last: int,
    can_undo: bool,
    can_redo: bool,
) -> Live:
    """Write every cache of a match from its replay ``done``; returns the replay kept live."""
    from referee.storage.schema import utcnow

    live = Live(info, done.match, last, done.deal_ids, can_undo, can_redo)
    conn.execute(delete(T_DEAL_SCORE).where(T_DEAL_SCORE.c.match_id == match_id))
    conn.execute(delete(T_MELD).where(T_MELD.c.match_id == match_id))
    for index in range(len(done.deal_ids)):
        refresh_deal_cache(conn, match_id, live, index)
    seats = seat_ids(conn, match_id)
    if done.scored:
        conn.execute(insert(T_MELD), [meld_values(match_id, s, seats) for s in done.scored])
    finished, winner, won = rp.winner_seats(done.match)
    conn.execute(
        update(T_SEAT)
        .where(T_SEAT.c.match_id == match_id)
        .values(won=T_SEAT.c.seat.in_(won) if won else False)
    )
    finished_at = (info.finished_at or utcnow()) if finished else None
    conn.execute(
        update(T_MATCH)
        .where(T_MATCH.c.id == match_id)
        .values(finished_at=finished_at, winner=winner, cache_version=CACHE_VERSION)
    )
    live.info = replace(match_info(conn, match_id))
    return live


def rebuild(conn: Connection, match_id: int) -> Live:
    """Replay the log and re-derive every cache of the match from it."""
    info = match_info(conn, match_id)
    got, last, can_undo, can_redo = steps(conn, match_id)
    done = rp.replay(info.header, got)
    return write_caches(conn, match_id, info, done, last, can_undo, can_redo)
