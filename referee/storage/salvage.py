"""Salvage: give back what a damaged SQLite file still holds instead of discarding it whole.

The file is read page by page (``pages.py``), not through SQLite: a changed or zeroed header,
a cut tail or a damaged interior page stops SQLite at the first page it cannot follow, while
nearly every row is still there. Every row of our tables that parses is taken, from its
table's tree or from a page no tree reaches any more; a row read twice keeps the copy that
checks out (valid in every column, and where the log's unique index still says which row holds
a match's position, the row it names). A new database is written from the identity rows
(players, matches, seats, deals) and the log, and everything derived (indexes, caches) is
rebuilt by replaying the log once. Identity rows lost with their page come back where the file
still says them (players and seats from their indexes); a lost deal row's dealer and turn-up
and a lost match row's settings are inferred from the entries (what the engine follows best,
checked against the stored deal scores), and the report says so.

A match keeps every entry that came back and that the engine can follow: a lost entry leaves a
gap (later entries keep their numbers), and an entry the engine refuses without it is left out
too. The report names each match's lost positions, counted from the rows and the index entries
the file still lists, so it never says nothing was lost without having counted. The damaged
file is only read, never written.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from referee import input_limits as lim
from referee.errors import BeziqueError, RecordError
from referee.storage import db, pages
from referee.storage import matchlog as ml
from referee.storage import replay as rp
from referee.storage.errors import StorageError, StorageInputError
from referee.storage.log import Entry, LogCorrupt, derive
from referee.storage.progress import READ, REPLAY, WRITE, Progress, ProgressSink
from referee.storage.schema import (
    CACHE_VERSION,
    KIND_CORRECT,
    KIND_DEAL,
    KIND_DELETE,
    KIND_EVENT,
    KIND_REDO,
    KIND_UNDO,
)

OURS = ("player", "match", "match_player", "deal", "log_entry")
LOG_INDEX = "sqlite_autoindex_log_entry_1"  # UNIQUE (match_id, seq): which row holds which place
PLAYER_INDEX = "sqlite_autoindex_player_1"  # UNIQUE (name): a lost player row's name and id
SEAT_INDEX = "sqlite_autoindex_match_player_1"  # (match_id, seat) of each seat row
SEAT_PLAYER_INDEX = "ix_match_player_player_id"  # player_id of each seat row
INDEXES = {LOG_INDEX, PLAYER_INDEX, SEAT_INDEX, SEAT_PLAYER_INDEX}
CACHE = "deal_score"  # each deal's points per seat: checks settings rebuilt for a lost match
KINDS = (KIND_DEAL, KIND_EVENT, KIND_UNDO, KIND_REDO, KIND_CORRECT, KIND_DELETE)
# Matches whose caches are written in one transaction (one commit, one fsync, each).
_REPLAY_BATCH = 50


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _ranges(seqs: Iterable[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s in sorted(seqs):
        if out and s == out[-1][1] + 1:
            out[-1] = (out[-1][0], s)
        else:
            out.append((s, s))
    return out


def _say(spans: list[tuple[int, int]]) -> str:
    words = [f"{a}" if a == b else f"{a}–{b}" for a, b in spans[:6]]
    if len(spans) > 6:
        words.append("…")
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]


@dataclass
class SalvageReport:
    """What was recovered from a damaged file, counted, for the user."""

    source: Path
    matches: int = 0
    entries: int = 0
    lost_matches: list[int] = field(default_factory=list)
    kept: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # match: seq ranges
    lost: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # match: seq ranges
    unreadable_pages: int = 0  # pages of our tables that could not be read at all
    readable: bool = True
    guessed: dict[int, str] = field(default_factory=dict)  # match: settings rebuilt, in words
    inferred: dict[int, list[str]] = field(default_factory=dict)  # match: deal rows rebuilt

    @property
    def complete(self) -> bool:
        """Every match and every log position the file still lists came back, and no page of
        our tables was unreadable (so nothing can have been on one)."""
        return (
            not self.lost_matches
            and not self.lost
            and not self.unreadable_pages
            and not self.guessed
            and not self.inferred
        )

    def sentence(self) -> str:
        """One paragraph: how many matches and entries came back, and which did not."""
        if not self.readable:
            return "Nothing in it could be read as Bezique matches."
        text = (
            f"Recovered {_count(self.matches, 'match', 'matches')} with"
            f" {_count(self.entries, 'log entry', 'log entries')}."
        )
        if self.complete:
            return text + " Nothing was lost: every entry the file lists came back."
        parts: list[str] = []
        if self.lost_matches:
            ids = ", ".join(str(i) for i in self.lost_matches[:20])
            more = "…" if len(self.lost_matches) > 20 else ""
            one = len(self.lost_matches) == 1
            parts.append(f"{'match' if one else 'matches'} {ids}{more} could not be recovered")
        for mid, lost in sorted(self.lost.items())[:20]:
            kept = self.kept.get(mid, [])
            if kept:
                parts.append(f"match {mid}: entries {_say(kept)} recovered, {_say(lost)} lost")
            else:
                parts.append(f"match {mid}: entries {_say(lost)} lost")
        if len(self.lost) > 20:
            parts.append(f"{len(self.lost) - 20} more matches lost entries")
        for mid, words in sorted(self.guessed.items())[:20]:
            parts.append(f"match {mid} lost its settings, rebuilt from its log as {words}")
        for mid, deals in sorted(self.inferred.items())[:20]:
            parts.append(
                f"match {mid}: the dealer and turn-up of {'; '.join(deals)} were lost and are"
                " inferred from the entries"
            )
        if self.unreadable_pages:
            parts.append(
                f"{_count(self.unreadable_pages, 'damaged page', 'damaged pages')} could not"
                " be read; entries no longer listed anywhere may have been on them"
            )
        return text + " Not recovered: " + "; ".join(parts) + "."


# ------------------------------------------------------------------------------ the rows
@dataclass(frozen=True)
class _Column:
    name: str
    kind: str  # INTEGER, TEXT, DATETIME, BOOLEAN …
    required: bool
    alias: bool  # the INTEGER PRIMARY KEY: stored as the rowid
    default: bool  # a row written before the column was added takes this default


def _columns_of(conn: sqlite3.Connection, table: str) -> list[_Column]:
    info = conn.execute(f'PRAGMA table_info("{table}")').fetchall()
    pk = [r for r in info if r[5]]
    out = []
    for r in info:
        kind = str(r[2]).upper()
        alias = len(pk) == 1 and bool(r[5]) and kind == "INTEGER"
        out.append(_Column(str(r[1]), kind, bool(r[3]), alias, r[4] is not None))
    return out


def _layouts(schema: dict[str, tuple[str, int, str]], target: Path) -> dict[str, list[_Column]]:
    """Each of our tables' columns in the order the file stores them: from the file's own
    CREATE TABLE where it reads as one of ours (older schemas differ), else the current
    schema's (a damaged CREATE TABLE, with a column name no version ever had, is not used)."""
    conn = sqlite3.connect(target)
    try:
        now = {table: _columns_of(conn, table) for table in OURS}
    finally:
        conn.close()
    out = dict(now)
    mem = sqlite3.connect(":memory:")
    try:
        for table in OURS:
            sql = schema.get(table, ("", 0, ""))[2]
            if not sql.upper().startswith("CREATE TABLE"):
                continue
            try:
                mem.execute(sql)
                cols = _columns_of(mem, table)
            except sqlite3.Error:
                continue
            known = {c.name: c for c in now[table]}
            if {c.name for c in cols} <= set(known) and all(
                c.alias == known[c.name].alias for c in cols
            ):
                out[table] = cols
    finally:
        mem.close()
    return out


def _moment(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        datetime.fromisoformat(value)
        return True
    except ValueError:
        return False


def _json(value: object, kind: type) -> bool:
    if not isinstance(value, str):
        return False
    try:
        return isinstance(json.loads(value), kind)
    except ValueError:
        return False


def _shape(table: str, cols: list[_Column], row: pages.Row) -> dict[str, Any] | None:
    """The row as column values if every column holds what it must, else None (damage).
    Columns a row predates (added later by ALTER TABLE) are left out: they take defaults."""
    values = row.values
    if len(values) > len(cols):
        return None
    out: dict[str, Any] = {}
    for col, v in zip(cols, values, strict=False):
        if col.alias:
            if v is not None:
                return None
            v = row.rowid
        if v is None:
            if col.required:
                return None
        elif "INT" in col.kind or "BOOL" in col.kind:
            if not isinstance(v, int):
                return None
        elif "DATE" in col.kind or "TIME" in col.kind:
            if not _moment(v):
                return None
        elif not isinstance(v, str):
            return None
        out[col.name] = v
    if any(c.alias or (c.required and not c.default) for c in cols[len(values) :]):
        return None
    return out if _sensible(table, out) else None


def _sensible(table: str, r: dict[str, Any]) -> bool:
    """What each table's rows must say beyond their column types."""
    if table == "log_entry":
        kind = r.get("kind")
        if kind not in KINDS or not r.get("match_id", 0) > 0 or not r.get("seq", 0) > 0:
            return False
        if kind in (KIND_DEAL, KIND_EVENT) and r.get("deal_id") is None:
            return False
        if kind in (KIND_EVENT, KIND_CORRECT) and not _json(r.get("payload"), dict):
            return False
        return not (kind in (KIND_CORRECT, KIND_DELETE) and r.get("target_seq") is None)
    if table == "match":
        return bool(r.get("variant")) and _json(r.get("house_rules") or "[]", list)
    if table == "match_player":
        return 0 <= int(r.get("seat") or 0) < 16 and int(r.get("match_id") or 0) > 0
    if table == "deal":
        return 0 <= int(r.get("dealer") or 0) < 16 and int(r.get("match_id") or 0) > 0
    if table == "player":
        return bool(r.get("name"))
    return True


@dataclass
class _Read:
    """The rows chosen per table, what the log's index lists, and the damage seen."""

    rows: dict[str, list[dict[str, Any]]]
    places: dict[int, set[int]]  # match: every log position some row or index entry names
    unreadable: int
    ours: bool
    scores: dict[int, dict[tuple[int, int], int]] = field(default_factory=dict)  # deal_score


def _index(found: pages.Found) -> tuple[dict[tuple[int, int], int], dict[int, tuple[int, int]]]:
    """The log index's (match, seq) → rowid, and back, leaving out entries that disagree."""
    to_row: dict[tuple[int, int], set[int]] = {}
    to_place: dict[int, set[tuple[int, int]]] = {}
    for key in found.keys.get(LOG_INDEX, []):
        if len(key) == 3 and all(isinstance(v, int) for v in key):
            m, s, r = key
            to_row.setdefault((m, s), set()).add(r)
            to_place.setdefault(r, set()).add((m, s))
    return (
        {k: next(iter(v)) for k, v in to_row.items() if len(v) == 1},
        {k: next(iter(v)) for k, v in to_place.items() if len(v) == 1},
    )


def _choose(
    table: str, candidates: list[tuple[dict[str, Any], bool]], index_row: dict[int, tuple[int, int]]
) -> list[dict[str, Any]]:
    """One row per rowid (per (match, seat) for seats, per (match, seq) for the log): the
    copy the index agrees with, else one reached from its table's root."""

    def key(row: dict[str, Any]) -> Any:
        if table == "match_player":
            return (row["match_id"], row["seat"])
        return row["id"]

    def rank(item: tuple[dict[str, Any], bool]) -> tuple[int, int]:
        row, reached = item
        backed = 0
        if table == "log_entry" and row["id"] in index_row:
            backed = 1 if index_row[row["id"]] == (row["match_id"], row["seq"]) else -1
        return backed, int(reached)

    best: dict[Any, tuple[dict[str, Any], bool]] = {}
    for item in candidates:
        k = key(item[0])
        if k not in best or rank(item) > rank(best[k]):
            best[k] = item
    chosen = [item for item in best.values() if rank(item)[0] >= 0]
    if table != "log_entry":
        return [row for row, _ in chosen]
    by_place: dict[tuple[int, int], tuple[dict[str, Any], bool]] = {}
    for item in chosen:
        place = (item[0]["match_id"], item[0]["seq"])
        if place not in by_place or rank(item) > rank(by_place[place]):
            by_place[place] = item
    return [row for row, _ in by_place.values()]


def read_everything(
    source: Path, target: Path, wal: Path | None, progress: ProgressSink | None = None
) -> _Read:
    """Every row of our tables the file still holds, one copy each."""

    read = [0]

    def on_page(done: int, total: int, rows: int) -> None:
        read[0] = rows
        if progress is not None and rows:
            about = max(rows, rows * total // max(done, 1))
            progress(Progress(READ, rows, about, total))

    found = pages.read_file(
        source,
        {*OURS, CACHE},
        INDEXES,
        wal,
        lim.MAX_DATABASE_BYTES,
        on_page,
    )
    layouts = _layouts(found.schema, target)
    index_place, index_row = _index(found)
    candidates: dict[str, list[tuple[dict[str, Any], bool]]] = {t: [] for t in OURS}
    for table in OURS:
        for row in found.rows.get(table, []):
            shaped = _shape(table, layouts[table], row)
            if shaped is not None:
                candidates[table].append((shaped, True))
    for row in found.orphans:  # a page no tree reached: whose is it? Its shape says.
        fits = [(t, got) for t in OURS if (got := _shape(t, layouts[t], row)) is not None]
        if len(fits) == 1:
            candidates[fits[0][0]].append((fits[0][1], False))
    chosen = {t: _choose(t, candidates[t], index_row) for t in OURS}
    _from_indexes(found, chosen)
    places: dict[int, set[int]] = {}
    for m, seq in index_place:
        places.setdefault(m, set()).add(seq)
    for entry, _ in candidates["log_entry"]:
        places.setdefault(int(entry["match_id"]), set()).add(int(entry["seq"]))
    if progress is not None and read[0]:  # the end of reading, whatever the estimate was
        progress(Progress(READ, read[0], read[0], found.pages))
    ours = bool(chosen["match"]) or "log_entry" in found.schema or bool(chosen["log_entry"])
    scores: dict[int, dict[tuple[int, int], int]] = {}
    for row in found.rows.get(CACHE, []):
        v = row.values
        if len(v) == 5 and all(isinstance(x, int) for x in v):  # deal, seat, match, player, pts
            scores.setdefault(v[2], {})[(v[0], v[1])] = v[4]
    unreadable = set().union(*(found.bad_pages.get(t, set()) for t in OURS))
    return _Read(chosen, places, len(unreadable), ours, scores)


def _from_indexes(found: pages.Found, chosen: dict[str, list[dict[str, Any]]]) -> None:
    """Player and seat rows whose pages were lost, written again from the indexes that list
    them: the players' unique index holds each name with its id, and the two indexes of the
    seats hold each seat's (match, seat) and player by the seat row's id."""
    when = min((str(r["created_at"]) for r in chosen["log_entry"]), default="2000-01-01 00:00:00")
    have = {int(p["id"]) for p in chosen["player"]}
    names = {str(p["name"]) for p in chosen["player"]}
    for key in found.keys.get(PLAYER_INDEX, []):
        if (
            len(key) == 2
            and isinstance(key[0], str)
            and isinstance(key[1], int)
            and key[1] not in have
            and key[0] not in names
            and key[0]
        ):
            chosen["player"].append({"id": key[1], "name": key[0], "created_at": when})
            have.add(key[1])
            names.add(key[0])
    player_of = {
        k[1]: k[0]
        for k in found.keys.get(SEAT_PLAYER_INDEX, [])
        if len(k) == 2 and all(isinstance(x, int) for x in k)
    }
    seats = {(int(r["match_id"]), int(r["seat"])) for r in chosen["match_player"]}
    for k in found.keys.get(SEAT_INDEX, []):
        if (
            len(k) == 3
            and all(isinstance(x, int) for x in k)
            and k[2] in player_of
            and (k[0], k[1]) not in seats
            and 0 <= k[1] < 16
        ):
            chosen["match_player"].append(
                {"match_id": k[0], "seat": k[1], "player_id": player_of[k[2]], "won": 0}
            )
            seats.add((k[0], k[1]))


# ------------------------------------------------------------------------------ the logs
@dataclass
class _Log:
    """A match's log as it will be stored, with its replay."""

    entries: list[dict[str, Any]]
    done: rp.Replayed
    last: int
    can_undo: bool
    can_redo: bool


class _Drop(Exception):
    def __init__(self, seq: int) -> None:
        self.seq = seq


def _steps(
    entries: list[dict[str, Any]], deals: dict[int, dict[str, Any]]
) -> tuple[list[tuple[rp.Step, int]], bool, bool]:
    """The effective steps (each with the entry whose content it carries), as the store
    reads them; _Drop names an entry that cannot be part of the log."""
    try:
        state = derive(Entry(int(e["seq"]), str(e["kind"]), e.get("target_seq")) for e in entries)
    except LogCorrupt as exc:
        found = re.match(r"log entry (\d+)", str(exc))
        raise _Drop(int(found.group(1)) if found else int(entries[-1]["seq"])) from exc
    by_seq = {int(e["seq"]): e for e in entries}
    out: list[tuple[rp.Step, int]] = []
    current = None
    for seq in state.effective:
        e = by_seq[seq]
        if e["kind"] in (KIND_DEAL, KIND_EVENT) and e.get("deal_id") not in deals:
            raise _Drop(seq)
        if e["kind"] == KIND_DEAL:
            deal = deals[int(e["deal_id"])]
            step = rp.DealStart(seq, int(deal["id"]), int(deal["dealer"]), deal["turn_up"])
            out.append((step, seq))
            current = int(deal["id"])
        elif e["kind"] == KIND_EVENT and int(e["deal_id"]) != current:
            raise _Drop(seq)  # its deal's start was lost: it would count in another deal
        elif e["kind"] == KIND_EVENT and seq not in state.deletions:
            source = state.corrections.get(seq, seq)  # a correction counts in its place
            try:
                payload = json.loads(by_seq[source]["payload"])
            except (TypeError, ValueError) as exc:
                raise _Drop(source) from exc
            out.append((rp.EventEntry(seq, int(e["deal_id"]), payload), source))
    return out, bool(state.effective), bool(state.redoable)


def _replay(header: rp.Header, steps: list[tuple[rp.Step, int]]) -> rp.Replayed:
    """As rp.replay, naming the entry the engine refuses (_Drop)."""
    m = rp.new_match(header)
    deal_ids: list[int] = []
    scored: list[rp.Scored] = []
    for step, source in steps:
        try:
            if isinstance(step, rp.DealStart):
                rp.start_deal(m, step.dealer, step.turn_up)
                deal_ids.append(step.deal_id)
                continue
            event = rp.parse_event(m, step.payload)
            ruling = rp.apply(m, event)
        except (StorageInputError, BeziqueError, ValueError, KeyError, TypeError) as exc:
            raise _Drop(source) from exc
        row = rp.scored_of(step.seq, step.deal_id, event, ruling)
        if row is not None:
            scored.append(row)
    return rp.Replayed(m, deal_ids, scored)


def usable_log(
    header: rp.Header,
    deals: dict[int, dict[str, Any]],
    entries: list[dict[str, Any]],
    max_drops: int | None = None,
) -> _Log:
    """Every entry that came back and that the engine can follow. A deal entry that was lost
    while its deal row and events came back is written again from the deal row (it holds
    nothing else). StorageInputError: the match's settings themselves are refused."""
    rp.new_match(header)
    log = {int(e["seq"]): e for e in entries}
    starts = {int(e["deal_id"]) for e in entries if e["kind"] == KIND_DEAL}
    first: dict[int, int] = {}
    for e in sorted(entries, key=lambda e: int(e["seq"])):
        if e["kind"] == KIND_EVENT and e["deal_id"] in deals:
            first.setdefault(int(e["deal_id"]), int(e["seq"]))
    for deal_id, seq in first.items():
        # A lost deal start is written again from its deal row (it holds nothing else) only
        # where its place is certain: just after the previous deal's last entry, or first.
        before = log.get(seq - 2)
        certain = seq == 2 or (
            before is not None
            and before["kind"] in (KIND_DEAL, KIND_EVENT)
            and before["deal_id"] != deal_id
        )
        if deal_id not in starts and seq > 1 and seq - 1 not in log and certain:
            d = deals[deal_id]
            log[seq - 1] = {
                "id": None,
                "match_id": d["match_id"],
                "seq": seq - 1,
                "kind": KIND_DEAL,
                "deal_id": deal_id,
                "target_seq": None,
                "payload": None,
                "created_at": d["created_at"],
            }
    for seq, e in list(log.items()):
        if e["kind"] in (KIND_DEAL, KIND_EVENT) and e["deal_id"] not in deals:
            del log[seq]
    dropped = 0
    for _ in range(len(log) + 1):
        ordered = [log[s] for s in sorted(log)]
        try:
            steps, can_undo, can_redo = _steps(ordered, deals)
            done = _replay(header, steps)
        except _Drop as drop:
            log.pop(drop.seq, None)
            dropped += 1
            if max_drops is not None and dropped > max_drops:
                break
            continue
        last = int(ordered[-1]["seq"]) if ordered else 0
        return _Log(ordered, done, last, can_undo, can_redo)
    raise StorageInputError("log", "no part of the log can be followed")


_SUITS = ("S", "H", "D", "C")
_RANKS = ("A", "10", "K", "Q", "J", "9", "8", "7")


def _try_deal(
    header: rp.Header,
    before: list[tuple[rp.Step, int]],
    dealer: int,
    turn_up: str | None,
    events: list[dict[str, Any]],
) -> tuple[int, rp.Replayed] | None:
    """How many of a deal's events the engine accepts when it starts with this dealer and
    turn-up, after the steps before it (None: it cannot start so)."""
    try:
        done = _replay(header, before)
        rp.start_deal(done.match, dealer, turn_up)
    except (_Drop, StorageInputError, BeziqueError, ValueError):
        return None
    done.deal_ids.append(-1)
    accepted = 0
    for e in events:
        try:
            rp.apply(done.match, rp.parse_event(done.match, json.loads(e["payload"])))
            accepted += 1
        except (StorageInputError, BeziqueError, ValueError, KeyError, TypeError):
            continue
    return accepted, done


def _lost_deals(
    header: rp.Header,
    deals: dict[int, dict[str, Any]],
    entries: list[dict[str, Any]],
    scores: dict[tuple[int, int], int],
) -> tuple[dict[int, dict[str, Any]], list[str]]:
    """Deal rows lost while their log entries came back, inferred from those entries: the
    dealer and turn-up under which the engine accepts the most of the deal's events (and the
    most of its stored deal scores agree); the trump suit first, then the card. Returns the
    rows and, for the report, what was inferred."""
    wanted = sorted(
        {int(e["deal_id"]) for e in entries if e["kind"] in (KIND_DEAL, KIND_EVENT)} - set(deals)
    )
    rebuilt: dict[int, dict[str, Any]] = {}
    words: list[str] = []
    for deal_id in wanted:
        mine = sorted(
            (e for e in entries if e.get("deal_id") == deal_id), key=lambda e: int(e["seq"])
        )
        first = int(mine[0]["seq"])
        events = [e for e in mine if e["kind"] == KIND_EVENT]
        known = {**deals, **rebuilt}
        try:
            prior = usable_log(header, known, [e for e in entries if int(e["seq"]) < first])
            before, _, _ = _steps(prior.entries, known)
        except (StorageInputError, _Drop):
            continue
        n = len(header.players)
        last_dealer = next(
            (s.dealer for s, _ in reversed(before) if isinstance(s, rp.DealStart)), n - 1
        )
        dealers = [(last_dealer + 1 + k) % n for k in range(n)]

        def score(
            dealer: int,
            card: str | None,
            _b: list[tuple[rp.Step, int]] = before,
            _e: list[dict[str, Any]] = events,
            _d: int = deal_id,
        ) -> tuple[int, int] | None:
            got = _try_deal(header, _b, dealer, card, _e)
            if got is None:
                return None
            accepted, done = got
            index = len(done.deal_ids) - 1
            agree = sum(
                scores.get((_d, seat)) == pts
                for seat, pts in enumerate(rp.seat_scores(done.match, index))
            )
            return accepted, agree

        best: tuple[tuple[int, int], int, str | None] | None = None
        for dealer in dealers:
            for card in [None, *(f"7{suit}" for suit in _SUITS)]:
                got = score(dealer, card)
                if got is not None and (best is None or got > best[0]):
                    best = (got, dealer, card)
        if best is None:
            continue
        if best[2] is not None:  # the suit is found: which card of it?
            suit = best[2][1:]
            for rank in _RANKS:
                got = score(best[1], rank + suit)
                if got is not None and got > best[0]:
                    best = (got, best[1], rank + suit)
        (accepted, agree), dealer, card = best
        rebuilt[deal_id] = {
            "id": deal_id,
            "match_id": int(mine[0]["match_id"]),
            "dealer": dealer,
            "turn_up": card,
            "created_at": mine[0]["created_at"],
        }
        shown = f", turn-up {card}" if card else ""
        check = f"; {agree} stored scores agree" if agree else ""
        words.append(
            f"deal {deal_id} (dealer {header.players[dealer]}{shown}: {accepted} of its"
            f" {len(events)} events follow{check})"
        )
    return rebuilt, words


def _following(
    header: rp.Header, deals: dict[int, dict[str, Any]], entries: list[dict[str, Any]]
) -> tuple[int, rp.Replayed] | None:
    """How many of a match's events the engine follows under these settings, in one pass
    that skips what it refuses (to compare settings; the log kept is usable_log's)."""
    log = {int(e["seq"]): e for e in entries}
    for _ in range(len(log) + 1):
        ordered = [log[q] for q in sorted(log)]
        try:
            steps, _, _ = _steps(ordered, deals)
            break
        except _Drop as drop:
            log.pop(drop.seq, None)
    else:
        return None
    try:
        m = rp.new_match(header)
    except StorageInputError:
        return None
    deal_ids: list[int] = []
    followed = 0
    for step, _source in steps:
        try:
            if isinstance(step, rp.DealStart):
                rp.start_deal(m, step.dealer, step.turn_up)
                deal_ids.append(step.deal_id)
            else:
                rp.apply(m, rp.parse_event(m, step.payload))
                followed += 1
        except (StorageInputError, BeziqueError, ValueError, KeyError, TypeError):
            if isinstance(step, rp.DealStart):
                return None
    return followed, rp.Replayed(m, deal_ids, [])


def _guess_settings(
    mid: int,
    names: tuple[str, ...],
    deals: dict[int, dict[str, Any]],
    entries: list[dict[str, Any]],
    scores: dict[tuple[int, int], int],
) -> tuple[dict[str, Any], str] | None:
    """Settings for a match whose own row was lost: the variant (for its number of players)
    under which the most of its entries replay, agreeing with the most deal scores the file's
    cache still holds; tracking as its events show; no house rules, the variant's target.
    Returns the match row and the settings in words (the report asks the user to check)."""
    from referee.variants import load_variant, variant_ids

    events = []
    for e in entries:
        if e["kind"] == KIND_EVENT:
            obj = json.loads(e["payload"])
            events.append(obj if isinstance(obj, dict) else {})
    tricks = [ev for ev in events if ev.get("type") == "trick"]
    tracking = "cards" if any("cards" in ev for ev in tricks) else "tricks" if tricks else "melds"
    best: tuple[tuple[int, int], str, rp.Replayed] | None = None
    for variant in variant_ids():
        if len(names) not in load_variant(variant).player_counts:
            continue
        header = rp.Header(variant, names, tracking, (), None, None)
        got = _following(header, deals, entries)
        if got is None:
            continue
        followed, done = got
        agree = 0
        for index, deal_id in enumerate(done.deal_ids):
            for seat, pts in enumerate(rp.seat_scores(done.match, index)):
                agree += scores.get((deal_id, seat)) == pts
        key = (followed, agree)
        if best is None or key > best[0]:
            best = (key, variant, done)
    if best is None or best[0][0] == 0:
        return None
    (_followed, agree), variant, _done = best
    times = sorted(str(e["created_at"]) for e in entries)
    row = {
        "id": mid,
        "format": ml.FORMAT,
        "variant": variant,
        "tracking": tracking,
        "house_rules": "[]",
        "target": None,
        "created_at": times[0],
        "updated_at": times[-1],
    }
    checked = f", {agree} stored deal scores agree" if agree else ", no stored score to check"
    return row, f"{variant} with {tracking} tracking and no house rules{checked}"


def _settings_ok(m: dict[str, Any], names: list[str]) -> bool:
    try:
        rp.new_match(
            rp.Header(
                str(m["variant"]),
                tuple(names),
                str(m["tracking"]),
                tuple(json.loads(m.get("house_rules") or "[]")),
                m.get("target"),
                m.get("games"),
            )
        )
        return True
    except (StorageInputError, BeziqueError, ValueError, TypeError):
        return False


# ------------------------------------------------------------------------------ salvage
def _check_source(source: Path) -> Path | None:
    """The file (and its -wal, if any) must be regular files within the stated limit."""
    try:
        lim.check_regular(source, lim.MAX_DATABASE_BYTES)
    except RecordError as exc:
        raise StorageInputError(exc.path, exc.detail) from exc
    wal = source.with_name(source.name + "-wal")
    try:
        lim.check_regular(wal, lim.MAX_DATABASE_BYTES)
    except RecordError:
        return None
    return wal


def _remove(target: Path) -> None:
    for side in ("", "-wal", "-shm", "-journal"):
        target.with_name(target.name + side).unlink(missing_ok=True)


def salvage(source: Path, target: Path, progress: ProgressSink | None = None) -> SalvageReport:
    """Write a new database at ``target`` with everything recoverable from ``source`` (only
    read), its caches rebuilt from one replay of each recovered log. ``progress`` hears how
    far it got (rows read, matches checked, matches rebuilt). Nothing is left at ``target``
    when it fails."""
    wal = _check_source(source)
    if target.exists():
        raise StorageError(f"{target}: already exists; salvage writes a new file")
    try:
        db.upgrade(db.Location(db.resolve(target).url, target))
        return _salvage(source, target, wal, progress)
    except BaseException:
        _remove(target)
        raise


def _recover_match(
    mid: int,
    read: _Read,
    players: dict[int, dict[str, Any]],
    seats: dict[int, dict[int, int]],
    deals_of: dict[int, dict[int, dict[str, Any]]],
    log_of: dict[int, list[dict[str, Any]]],
    match_rows: dict[int, dict[str, Any]],
    every_deal: set[int],
    report: SalvageReport,
    seat_names: dict[tuple[int, int], str] | None = None,
) -> tuple[dict[str, Any], dict[int, int], dict[int, dict[str, Any]], _Log] | None:
    """One match as it will be written (its row, seats, deals and log), or None: it cannot
    be rebuilt (its seats or players are gone, or nothing of it can be followed). A seat
    played under another name than its player's now (a rename, a merge) keeps that name,
    which is the one its log speaks."""
    seat_map = seats.get(mid, {})
    named = seat_names or {}
    names = [
        named.get((mid, s), players[p]["name"])
        for s, p in sorted(seat_map.items())
        if p in players
    ]
    if (
        not seat_map
        or len(names) != len(seat_map)
        or sorted(seat_map) != list(range(len(seat_map)))
    ):
        return None
    entries = log_of.get(mid, [])
    scores = read.scores.get(mid, {})
    m = match_rows.get(mid)
    if m is not None and not _settings_ok(m, names):
        m = None  # a row that survived damaged: its settings are refused
    if m is None:  # its settings were lost with its row
        guess = _guess_settings(mid, tuple(names), deals_of.get(mid, {}), entries, scores)
        if guess is None:
            return None
        m, report.guessed[mid] = guess
    header = rp.Header(
        str(m["variant"]),
        tuple(names),
        str(m["tracking"]),
        tuple(json.loads(m.get("house_rules") or "[]")),
        m.get("target"),
        m.get("games"),
    )
    deals = deals_of.get(mid, {})
    # a deal id another match's row holds is not this match's lost deal (a damaged id)
    ours = [e for e in entries if e.get("deal_id") in deals or e.get("deal_id") not in every_deal]
    lost, words = _lost_deals(header, deals, ours, scores)
    if lost:
        deals = {**deals, **lost}
        report.inferred[mid] = words
    log = usable_log(header, deals, entries)
    return m, seat_map, deals, log


def _salvage(
    source: Path, target: Path, wal: Path | None, progress: ProgressSink | None
) -> SalvageReport:
    report = SalvageReport(source)
    read = read_everything(source, target, wal, progress)
    if not read.ours:
        report.readable = False
        return report
    report.unreadable_pages = read.unreadable
    rows = read.rows
    players = {int(p["id"]): p for p in rows["player"]}
    seats: dict[int, dict[int, int]] = {}
    # the name a seat was played under when it is no longer its player's (r0007)
    seat_names: dict[tuple[int, int], str] = {}
    for s in rows["match_player"]:
        seats.setdefault(int(s["match_id"]), {})[int(s["seat"])] = int(s["player_id"])
        if isinstance(s.get("name"), str) and s["name"]:
            seat_names[(int(s["match_id"]), int(s["seat"]))] = str(s["name"])
    deals_of: dict[int, dict[int, dict[str, Any]]] = {}
    for d in rows["deal"]:
        deals_of.setdefault(int(d["match_id"]), {})[int(d["id"])] = d
    log_of: dict[int, list[dict[str, Any]]] = {}
    for e in rows["log_entry"]:
        log_of.setdefault(int(e["match_id"]), []).append(e)
    match_rows = {int(m["id"]): m for m in rows["match"]}
    known = set(match_rows) | set(seats) | {m for m, p in read.places.items() if len(p) > 1}
    logs: dict[int, _Log] = {}
    rebuilt: list[dict[str, Any]] = []
    conn = sqlite3.connect(target, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("BEGIN IMMEDIATE")
        _insert(conn, "player", players.values())
        candidates = sorted(set(match_rows) | (set(seats) & set(log_of)))
        every_deal = {int(d["id"]) for d in rows["deal"]}
        for n, mid in enumerate(candidates, start=1):
            if progress is not None:
                progress(Progress(WRITE, n, len(candidates)))
            try:
                got = _recover_match(
                    mid,
                    read,
                    players,
                    seats,
                    deals_of,
                    log_of,
                    match_rows,
                    every_deal,
                    report,
                    seat_names,
                )
            except (StorageInputError, BeziqueError, ValueError, KeyError, TypeError):
                got = None  # what cannot be rebuilt is reported lost, never a crash
            if got is None:
                continue
            m, seat_map, deals, log = got
            used = {int(e["deal_id"]) for e in log.entries if e.get("deal_id") is not None}
            conn.execute("SAVEPOINT one_match")
            try:
                _insert(conn, "match", [{**m, "cache_version": CACHE_VERSION}])
                _insert(
                    conn,
                    "match_player",
                    [
                        {
                            "match_id": mid,
                            "seat": s,
                            "player_id": p,
                            "name": seat_names.get((mid, s)),
                        }
                        for s, p in seat_map.items()
                    ],
                )
                _insert(conn, "deal", [d for i, d in deals.items() if i in used])
                _insert(conn, "log_entry", [e for e in log.entries if e["id"] is not None])
            except sqlite3.Error:
                conn.execute("ROLLBACK TO one_match")
                conn.execute("RELEASE one_match")
                report.guessed.pop(mid, None)
                report.inferred.pop(mid, None)
                continue
            conn.execute("RELEASE one_match")
            logs[mid] = log
            rebuilt.extend(e for e in log.entries if e["id"] is None)
        _insert(conn, "log_entry", rebuilt)  # after every kept id, so no id is taken twice
        conn.execute("COMMIT")
    finally:
        conn.close()
    _write_caches(target, logs, progress)
    report.matches = len(logs)
    report.entries = sum(len(log.entries) for log in logs.values())
    report.lost_matches = sorted(known - set(logs))
    for mid, log in logs.items():
        kept = {int(e["seq"]) for e in log.entries}
        listed = read.places.get(mid, set())
        top = max(listed | kept, default=0)
        missing = set(range(1, top + 1)) - kept
        if missing:
            report.lost[mid] = _ranges(missing)
            report.kept[mid] = _ranges(kept)
    return report


def _write_caches(target: Path, logs: dict[int, _Log], progress: ProgressSink | None) -> None:
    """Every recovered match's caches from the replay already made, :data:`_REPLAY_BATCH`
    matches to a transaction."""
    loc = db.resolve(target)
    gate = ml.Gate(db.make_engine(loc, pool=False), loc)
    try:
        ids = sorted(logs)
        for start in range(0, len(ids), _REPLAY_BATCH):
            with gate.write() as c:
                for n, mid in enumerate(ids[start : start + _REPLAY_BATCH], start=start + 1):
                    log = logs[mid]
                    info = ml.match_info(c, mid)
                    ml.write_caches(c, mid, info, log.done, log.last, log.can_undo, log.can_redo)
                    if progress is not None:
                        progress(Progress(REPLAY, n, len(ids)))
    finally:
        gate.close()


def _insert(conn: sqlite3.Connection, table: str, rows: Iterable[dict[str, Any]]) -> None:
    """Insert rows, one ``executemany`` per set of columns; columns the current schema no
    longer has are left out, and an id that is None is given by SQLite."""
    have = {str(r[1]) for r in conn.execute(f'PRAGMA table_info("{table}")')}
    groups: dict[tuple[str, ...], list[list[Any]]] = {}
    for row in rows:
        cols = tuple(c for c in row if c in have and not (c == "id" and row[c] is None))
        groups.setdefault(cols, []).append([row[c] for c in cols])
    for cols, values in groups.items():
        names = ", ".join(f'"{c}"' for c in cols)
        marks = ", ".join("?" for _ in cols)
        conn.executemany(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', values)
