"""Salvage: give back what a damaged SQLite file still holds instead of discarding it whole.

One bad page (of an index, a cache or the log) or a cut-off tail leaves almost every row
readable. This reads each of our tables row by row, by ranges of rowids that are split in
halves around whatever SQLite cannot read (so one bad page costs only the rows on it), then
writes a new database from the identity rows (players, matches, seats, deals) and the log,
and rebuilds everything derived (indexes, caches) from the log by replaying it.

A match keeps the longest start of its log that is whole (no missing entry) and that the
engine can replay; what is cut is reported by match and entry numbers. The damaged file itself
is only ever read from a private copy, so it stays exactly as it was, for whoever wants to try
harder.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.storage import db
from referee.storage import replay as rp
from referee.storage.errors import StorageError, StorageInputError
from referee.storage.log import Entry, LogCorrupt, derive
from referee.storage.models import CACHE_VERSION, KIND_DEAL, KIND_EVENT
from referee.storage.progress import READ, REPLAY, WRITE, Progress, ProgressSink

# The columns we copy, per table, in the order rows are inserted (parents first). Columns a
# file from an older schema lacks are left to the new schema's defaults.
COLUMNS: dict[str, tuple[str, ...]] = {
    "player": ("id", "name", "created_at"),
    "match": (
        "id",
        "format",
        "variant",
        "tracking",
        "house_rules",
        "target",
        "created_at",
        "updated_at",
        "finished_at",
        "winner",
        "activity",
        "abandoned_at",
    ),
    "match_player": ("match_id", "seat", "player_id"),
    "deal": ("id", "match_id", "dealer", "turn_up", "created_at"),
    "log_entry": (
        "id",
        "match_id",
        "seq",
        "kind",
        "deal_id",
        "target_seq",
        "payload",
        "created_at",
    ),
}
# Below this width a range SQLite cannot read is tried rowid by rowid.
_POINT_WIDTH = 8
# Rows fetched per step of a scan (a progress report after each).
_BATCH = 5000
# Matches whose caches are rebuilt in one write transaction (one commit, one fsync, each).
_REPLAY_BATCH = 50


@dataclass
class _Counter:
    """Rows read so far across all tables, reported to the progress sink."""

    sink: ProgressSink | None = None
    total: int = 0
    pages: int = 0
    done: int = 0

    def add(self, rows: int) -> None:
        self.done += rows
        if self.sink is not None:
            self.sink(Progress(READ, self.done, max(self.total, self.done), self.pages))


@dataclass
class TableRead:
    """The rows of one table that could be read, and the rowids that could not."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    unreadable: int = 0  # rowids (or rowid ranges' width) whose pages SQLite refused
    whole: bool = True


@dataclass
class SalvageReport:
    """What was recovered from a damaged file, for the user."""

    source: Path
    matches: int = 0
    entries: int = 0
    lost_matches: list[int] = field(default_factory=list)
    cut: dict[int, tuple[int, int]] = field(default_factory=dict)  # match: (kept, last seq)
    unreadable_rows: int = 0
    readable: bool = True

    @property
    def complete(self) -> bool:
        return not self.lost_matches and not self.cut and not self.unreadable_rows

    def sentence(self) -> str:
        """One paragraph: how many matches and entries came back, and which did not."""
        if not self.readable:
            return "Nothing in it could be read as Bezique matches."
        text = f"Recovered {self.matches} matches with {self.entries} log entries."
        if self.complete:
            return text + " Nothing was lost."
        parts: list[str] = []
        if self.lost_matches:
            ids = ", ".join(str(i) for i in self.lost_matches[:20])
            more = "…" if len(self.lost_matches) > 20 else ""
            parts.append(f"matches {ids}{more} could not be recovered")
        for mid, (kept, last) in sorted(self.cut.items())[:20]:
            if kept:
                parts.append(f"match {mid} kept entries 1–{kept}, lost {kept + 1}–{last}")
            else:
                parts.append(f"match {mid} lost entries 1–{last}")
        if len(self.cut) > 20:
            parts.append(f"{len(self.cut) - 20} more matches lost their last entries")
        if self.unreadable_rows and not parts:
            parts.append(f"{self.unreadable_rows} unreadable rows held nothing that was needed")
        return text + " Not recovered: " + "; ".join(parts) + "."


def read_table(
    conn: sqlite3.Connection,
    table: str,
    columns: Sequence[str],
    counter: _Counter | None = None,
) -> TableRead:
    """Every readable row of ``table``; unreadable pages are skipped by splitting rowid
    ranges in halves around them."""
    counter = counter or _Counter()
    cols = ", ".join(f'"{c}"' for c in columns)
    out = TableRead()
    scanned = 0
    try:
        cur = conn.execute(f'SELECT {cols} FROM "{table}" ORDER BY rowid')
        while batch := cur.fetchmany(_BATCH):
            out.rows.extend(dict(zip(columns, r, strict=True)) for r in batch)
            scanned += len(batch)
            counter.add(len(batch))
        return out
    except sqlite3.DatabaseError:
        out.whole = False
        out.rows = []
        counter.done -= scanned  # read again below, range by range
    hi = _max_rowid(conn, table)
    stack = [(1, hi)]
    found: list[tuple[int, dict[str, Any]]] = []
    query = f'SELECT rowid, {cols} FROM "{table}" WHERE rowid BETWEEN ? AND ?'
    while stack:
        lo, top = stack.pop()
        try:
            got = conn.execute(query, (lo, top)).fetchall()
            found.extend((int(r[0]), dict(zip(columns, r[1:], strict=True))) for r in got)
            counter.add(len(got))
            continue
        except sqlite3.DatabaseError:
            pass
        if top - lo < _POINT_WIDTH:
            for rowid in range(lo, top + 1):
                try:
                    got = conn.execute(query, (rowid, rowid)).fetchall()
                    found.extend((int(r[0]), dict(zip(columns, r[1:], strict=True))) for r in got)
                    counter.add(len(got))
                except sqlite3.DatabaseError:
                    out.unreadable += 1
            continue
        mid = (lo + top) // 2
        stack.append((mid + 1, top))
        stack.append((lo, mid))
    found.sort(key=lambda t: t[0])
    out.rows = [row for _, row in found]
    return out


def _max_rowid(conn: sqlite3.Connection, table: str) -> int:
    """The highest rowid: from the table, else from an index holding its rowids, else a bound
    from the file size (rowids are dense: they are handed out one after another)."""
    try:
        val = conn.execute(f'SELECT max(rowid) FROM "{table}"').fetchone()[0]
        return int(val or 0)
    except sqlite3.DatabaseError:
        pass
    best = 0
    try:
        indexes = [r[1] for r in conn.execute(f'PRAGMA index_list("{table}")').fetchall()]
    except sqlite3.DatabaseError:
        indexes = []
    for name in indexes:
        try:
            cols = [r[2] for r in conn.execute(f'PRAGMA index_info("{name}")').fetchall()]
            if not cols or None in cols:
                continue
            val = conn.execute(
                f'SELECT max(r) FROM (SELECT rowid AS r FROM "{table}" INDEXED BY "{name}"'
                f' WHERE "{cols[0]}" IS NOT NULL)'
            ).fetchone()[0]
            best = max(best, int(val or 0))
        except sqlite3.DatabaseError:
            continue
    if best:
        return best
    pages = int(conn.execute("PRAGMA page_count").fetchone()[0] or 1)
    size = int(conn.execute("PRAGMA page_size").fetchone()[0] or 4096)
    return pages * size // 64


def _open_copy(source: Path, work: Path) -> sqlite3.Connection:
    """A private copy of the file (and its WAL, which holds the newest commits): reading it
    may replay the WAL, which must never touch the kept original."""
    copy = work / "damaged.sqlite3"
    shutil.copyfile(source, copy)
    wal = source.with_name(source.name + "-wal")
    if wal.exists():
        shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
    conn = sqlite3.connect(copy, isolation_level=None)
    conn.execute("PRAGMA query_only=ON")
    return conn


def _tables(conn: sqlite3.Connection) -> dict[str, set[str]]:
    """Our tables in the file and the columns each has (empty if the schema is unreadable)."""
    out: dict[str, set[str]] = {}
    for table in COLUMNS:
        try:
            info = conn.execute(f'PRAGMA table_info("{table}")').fetchall()
        except sqlite3.DatabaseError:
            continue
        if info:
            out[table] = {str(r[1]) for r in info}
    return out


def read_everything(
    source: Path, progress: ProgressSink | None = None
) -> tuple[dict[str, TableRead], bool]:
    """Every readable row of our tables, and whether the file looked like ours at all."""
    with tempfile.TemporaryDirectory(prefix="bezique-salvage-") as work:
        try:
            conn = _open_copy(source, Path(work))
        except (OSError, sqlite3.Error):
            return {}, False
        try:
            try:
                tables = _tables(conn)
            except sqlite3.DatabaseError:
                tables = {}
            if "match" not in tables or "log_entry" not in tables:
                return {}, False
            counter = _Counter(progress)
            if progress is not None:
                counter.pages = int(conn.execute("PRAGMA page_count").fetchone()[0] or 0)
                counter.total = sum(_max_rowid(conn, t) for t in tables)
            out: dict[str, TableRead] = {}
            for table, wanted in COLUMNS.items():
                cols = [c for c in wanted if c in tables.get(table, set())]
                out[table] = (
                    read_table(conn, table, cols, counter) if cols else TableRead(whole=False)
                )
            if progress is not None:  # the end of reading, whatever the estimate was
                progress(Progress(READ, counter.done, counter.done, counter.pages))
            return out, True
        finally:
            conn.close()


def _usable_log(
    match: dict[str, Any],
    names: Sequence[str],
    deals: dict[int, dict[str, Any]],
    entries: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """The longest start of a match's log that is whole: no missing entry, every deal row
    there, undo/redo/corrections consistent, every payload readable JSON."""
    entries = sorted(entries, key=lambda e: int(e["seq"]))
    keep: list[dict[str, Any]] = []
    for expected, e in enumerate(entries, start=1):
        if int(e["seq"]) != expected:
            break
        kind = str(e["kind"])
        if kind in (KIND_DEAL, KIND_EVENT) and e.get("deal_id") not in deals:
            break
        keep.append(e)
    header = rp.Header(
        str(match["variant"]),
        tuple(names),
        str(match["tracking"]),
        tuple(json.loads(match.get("house_rules") or "[]")),
        match.get("target"),
        match.get("games"),
    )
    rp.new_match(header)  # settings the engine refuses: the match cannot be rebuilt
    while True:  # the engine's replay comes later, once, while the caches are rebuilt
        try:
            _steps(keep, deals)
            return keep
        except _Cut as cut:
            keep = [e for e in keep if int(e["seq"]) < cut.seq]


class _Cut(Exception):
    def __init__(self, seq: int) -> None:
        self.seq = seq


def _steps(entries: list[dict[str, Any]], deals: dict[int, dict[str, Any]]) -> list[rp.Step]:
    try:
        state = derive(Entry(int(e["seq"]), str(e["kind"]), e.get("target_seq")) for e in entries)
    except LogCorrupt as exc:
        seq = int(str(exc).split()[2].rstrip(":"))
        raise _Cut(seq) from exc
    by_seq = {int(e["seq"]): e for e in entries}
    steps: list[rp.Step] = []
    for seq in state.effective:  # the same reading as Store._steps
        e = by_seq[seq]
        if e["kind"] == KIND_DEAL:
            deal = deals[int(e["deal_id"])]
            steps.append(rp.DealStart(seq, int(deal["id"]), int(deal["dealer"]), deal["turn_up"]))
        elif e["kind"] == KIND_EVENT and seq not in state.deletions:
            # a correction's payload counts in the original's place
            source = by_seq[state.corrections.get(seq, seq)]
            try:
                payload = json.loads(source["payload"])
            except (TypeError, ValueError) as exc:
                raise _Cut(int(source["seq"])) from exc
            steps.append(rp.EventEntry(seq, int(e["deal_id"]), payload))
    return steps


def salvage(source: Path, target: Path, progress: ProgressSink | None = None) -> SalvageReport:
    """Write a new database at ``target`` with everything recoverable from ``source`` (left
    untouched), its caches rebuilt by replaying each recovered log once. ``progress`` hears
    how far it got (rows read, then matches replayed), as often as it is called."""
    report = SalvageReport(source)
    read, ours = read_everything(source, progress)
    if target.exists():
        raise StorageError(f"{target}: already exists; salvage writes a new file")
    db.upgrade(db.Location(db.resolve(target).url, target))
    if not ours:
        report.readable = False
        return report
    report.unreadable_rows = sum(t.unreadable for t in read.values())
    players = {int(p["id"]): p for p in read["player"].rows}
    seats: dict[int, dict[int, int]] = {}
    for s in read["match_player"].rows:
        seats.setdefault(int(s["match_id"]), {})[int(s["seat"])] = int(s["player_id"])
    deals_of: dict[int, dict[int, dict[str, Any]]] = {}
    for d in read["deal"].rows:
        deals_of.setdefault(int(d["match_id"]), {})[int(d["id"])] = d
    log_of: dict[int, list[dict[str, Any]]] = {}
    for e in read["log_entry"].rows:
        log_of.setdefault(int(e["match_id"]), []).append(e)
    known_ids = {int(m["id"]) for m in read["match"].rows} | set(log_of) | set(seats)
    last_seq: dict[int, int] = {}
    conn = sqlite3.connect(target, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("BEGIN IMMEDIATE")
        _insert(conn, "player", players.values())
        for n, m in enumerate(read["match"].rows, start=1):
            if progress is not None:
                progress(Progress(WRITE, n, len(read["match"].rows)))
            mid = int(m["id"])
            seat_map = seats.get(mid, {})
            names = [players[pid]["name"] for _, pid in sorted(seat_map.items()) if pid in players]
            if (
                not seat_map
                or len(names) != len(seat_map)
                or sorted(seat_map) != list(range(len(seat_map)))
            ):
                continue
            deals = deals_of.get(mid, {})
            entries = log_of.get(mid, [])
            try:
                keep = _usable_log(m, names, deals, entries)
            except StorageInputError:
                continue
            used = {int(e["deal_id"]) for e in keep if e.get("deal_id") is not None}
            _insert(conn, "match", [{**m, "cache_version": CACHE_VERSION}])
            _insert(
                conn,
                "match_player",
                [{"match_id": mid, "seat": s, "player_id": p} for s, p in seat_map.items()],
            )
            _insert(conn, "deal", [d for i, d in deals.items() if i in used])
            _insert(conn, "log_entry", keep)
            last_seq[mid] = max((int(e["seq"]) for e in entries), default=0)
        conn.execute("COMMIT")
    finally:
        conn.close()
    kept = _replay_and_cache(target, progress)
    report.matches = len(kept)
    report.entries = sum(kept.values())
    report.cut = {mid: (n, last_seq[mid]) for mid, n in kept.items() if n < last_seq.get(mid, 0)}
    report.lost_matches = sorted(known_ids - set(kept))
    return report


def _replay_and_cache(target: Path, progress: ProgressSink | None = None) -> dict[int, int]:
    """Replay every recovered match once, writing its caches; a log the engine cannot follow
    is cut before the entry it refuses. Returns each match's kept entries.

    Matches are rebuilt :data:`_REPLAY_BATCH` to a transaction (a commit per match cost more
    than the replay on a busy disk); a batch in which the engine refuses an entry is rolled
    back whole and done again match by match, cutting the refused logs."""
    from sqlalchemy import func, select

    from referee.storage.store import T_LOG, T_MATCH, Store

    store = Store.open(target, repair=False)
    try:
        with store._read() as c:
            ids = [int(v) for v in c.execute(select(T_MATCH.c.id)).scalars()]
        alive: set[int] = set()
        for start in range(0, len(ids), _REPLAY_BATCH):
            batch = ids[start : start + _REPLAY_BATCH]
            try:
                with store._write() as c:
                    for n, mid in enumerate(batch, start=start + 1):
                        store._lock_match(c, mid)
                        store._rebuild(c, mid)
                        if progress is not None:
                            progress(Progress(REPLAY, n, len(ids)))
                alive.update(batch)
            except StorageError:
                for n, mid in enumerate(batch, start=start + 1):
                    if _replay_cutting(store, mid):
                        alive.add(mid)
                    if progress is not None:
                        progress(Progress(REPLAY, n, len(ids)))
        with store._read() as c:
            counts = c.execute(
                select(T_LOG.c.match_id, func.count()).group_by(T_LOG.c.match_id)
            ).all()
        per_match = {int(mid): int(n) for mid, n in counts}
        return {mid: per_match.get(mid, 0) for mid in ids if mid in alive}
    finally:
        store.close()


def _replay_cutting(store: Any, mid: int) -> bool:
    """Rebuild one match's caches, cutting its log before each entry the engine refuses;
    False when the match itself cannot be rebuilt (it is then removed)."""
    from sqlalchemy import delete

    from referee.storage.store import T_LOG, T_MATCH

    while True:
        try:
            store.rebuild_caches(mid)
            return True
        except StorageError:
            seq = _first_refused(store, mid)
            with store._write() as c:
                if seq is None:  # the settings themselves, or no log to follow
                    c.execute(delete(T_MATCH).where(T_MATCH.c.id == mid))
                    return False
                c.execute(delete(T_LOG).where(T_LOG.c.match_id == mid, T_LOG.c.seq >= seq))


def _first_refused(store: Any, match_id: int) -> int | None:
    """The first log entry the engine refuses (None: the match's settings, or its log cannot
    be read at all). Only called when a replay failed, so replaying step by step is fine."""
    try:
        with store._read() as c:
            info = store._info(c, match_id)
            steps, _, _, _ = store._steps(c, match_id)
        m = rp.new_match(info.header)
    except (StorageError, ValueError):
        return None
    for step in steps:
        try:
            if isinstance(step, rp.DealStart):
                rp.start_deal(m, step.dealer, step.turn_up)
            else:
                rp.apply(m, rp.parse_event(m, step.payload))
        except StorageInputError:
            return int(step.seq)
    return None


def _stored_ids(path: Path) -> set[int]:
    conn = sqlite3.connect(path)
    try:
        return {int(r[0]) for r in conn.execute("SELECT id FROM match")}
    finally:
        conn.close()


def _insert(conn: sqlite3.Connection, table: str, rows: Iterable[dict[str, Any]]) -> None:
    """Insert rows, one ``executemany`` per set of columns (rows of one table share it)."""
    groups: dict[tuple[str, ...], list[list[Any]]] = {}
    for row in rows:
        cols = tuple(c for c in row if c in COLUMNS[table] or c == "cache_version")
        groups.setdefault(cols, []).append([row[c] for c in cols])
    for cols, values in groups.items():
        names = ", ".join(f'"{c}"' for c in cols)
        marks = ", ".join("?" for _ in cols)
        conn.executemany(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', values)
