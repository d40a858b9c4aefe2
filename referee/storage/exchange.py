"""Export and import of matches as match records (shared/spec/match-record.md and
docs/match-record-2.md), one at a time or as a zip archive of all of them for backup.

A match is exported as ``bezique-match/2`` with ``played``, the time it was started, or on
request as version 1 without it; a record with ``played`` is stored with that start time, so
History and the statistics show when it was played. A backup's members stay version 1 (every
version of the app reads them): its manifest keeps the dates.

Import is all-or-nothing: the file is parsed, every event replayed by the engine, and only then
is anything written, in one transaction. A malformed file raises StorageInputError naming the
file and the JSON path (``deals[1].events[4].new[0]: unknown card "1S"``).
"""

from __future__ import annotations

import json
import os
import tempfile
import zipfile
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, insert, update

from referee import input_limits as lim
from referee.errors import BeziqueError, RecordError
from referee.record import FORMAT_1, FORMAT_2, FORMATS, parse_record, played_text, record_to_obj
from referee.storage import matchlog as ml
from referee.storage import replay as rp
from referee.storage.errors import StorageInputError
from referee.storage.schema import KIND_DEAL, KIND_EVENT, utcnow

ARCHIVE_FORMAT = "bezique-archive/1"
MIN_YEAR, MAX_YEAR = 1900, 9000  # what every database and datetime conversion can hold
MANIFEST = "manifest.json"
MAX_MEMBER_BYTES = lim.MAX_RECORD_BYTES


def export_match(store: ml.Holder, match_id: int, *, format: str = FORMAT_2) -> dict[str, Any]:
    """The effective log as a match record; undone entries are left out. Version 2 (the
    default) says when the match was started (``played``, UTC to the second); ``format=
    FORMAT_1`` writes version 1, without it, for tools that read only that."""
    if format not in FORMATS:
        raise StorageInputError(
            "--format", f'unknown record format "{format}" (known: {", ".join(FORMATS)})'
        )
    with store.gate.read() as conn:
        info = ml.match_info(conn, match_id)
        steps, _, _, _ = ml.steps(conn, match_id)
    obj: dict[str, Any] = {
        "format": format,
        "variant": info.variant,
        "players": list(info.players),
        "tracking": info.tracking,
        "house_rules": list(info.house_rules),
    }
    if info.target is not None:
        obj["target"] = info.target
    if info.games is not None:
        obj["games"] = info.games
    if format == FORMAT_2 and info.created_at is not None:
        obj["played"] = played_text(_utc(info.created_at))
    deals: list[dict[str, Any]] = []
    by_id: dict[int, dict[str, Any]] = {}
    for step in steps:
        if isinstance(step, rp.DealStart):
            deal: dict[str, Any] = {"dealer": info.players[step.dealer]}
            if step.turn_up is not None:
                deal["turn_up"] = step.turn_up
            deal["events"] = []
            deals.append(deal)
            by_id[step.deal_id] = deal
        else:
            by_id[step.deal_id]["events"].append(dict(step.payload))
    obj["deals"] = deals
    return obj


@dataclass(frozen=True)
class _Parsed:
    """A validated record, normalised to canonical spelling, ready to store."""

    obj: dict[str, Any]
    where: str
    created_at: datetime | None = None
    finished_at: datetime | None = None


def _parse(obj: Any, where: str) -> _Parsed:
    """Check a record (structure, then a full replay) without touching the database."""
    try:
        lim.check_text(obj, "")
        rec = parse_record(obj)
        normal = record_to_obj(rec)  # version 2 exactly when the record has ``played``
    except RecordError as exc:
        raise _input(where, exc.path, exc.detail) from exc
    except BeziqueError as exc:
        raise _input(where, "", str(exc)) from exc
    # Replay now so that a record the engine cannot follow never reaches the database.
    header = _header(normal)
    steps: list[rp.Step] = []
    paths: dict[int, str] = {}
    seq = 0
    for d, deal in enumerate(normal["deals"]):
        seq += 1
        paths[seq] = f"deals[{d}]"
        dealer = list(header.players).index(deal["dealer"])
        steps.append(rp.DealStart(seq, d, dealer, deal.get("turn_up")))
        for i, ev in enumerate(deal["events"]):
            seq += 1
            paths[seq] = f"deals[{d}].events[{i}]"
            steps.append(rp.EventEntry(seq, d, ev))
    try:
        rp.replay(header, steps, lambda s: paths[s.seq])
    except StorageInputError as exc:
        raise _input(where, exc.where, exc.detail) from exc
    return _Parsed(normal, where, rec.played)


def _input(file: str, path: str, message: str) -> StorageInputError:
    place = ": ".join(p for p in (file, path) if p)
    return StorageInputError(place, message)


def _header(obj: Mapping[str, Any]) -> rp.Header:
    return rp.Header(
        str(obj["variant"]),
        tuple(str(p) for p in obj["players"]),
        str(obj.get("tracking", "melds")),
        tuple(str(r) for r in obj.get("house_rules", [])),
        obj.get("target"),
        obj.get("games"),
    )


def _store(store: ml.Holder, conn: Connection, parsed: _Parsed) -> int:
    """Write one validated record: match, deals, log entries, then its caches."""
    obj = parsed.obj
    header = _header(obj)
    match_id = ml.insert_match(conn, header, parsed.created_at or utcnow())

    seq = 0
    steps: list[rp.Step] = []
    rows: list[dict[str, Any]] = []
    now = utcnow()
    for deal in obj["deals"]:
        dealer = list(header.players).index(deal["dealer"])
        turn_up = deal.get("turn_up")
        deal_id = int(
            conn.execute(
                insert(ml.T_DEAL)
                .values(match_id=match_id, dealer=dealer, turn_up=turn_up, created_at=now)
                .returning(ml.T_DEAL.c.id)
            ).scalar_one()
        )
        seq += 1
        rows.append(_log_row(match_id, seq, KIND_DEAL, deal_id, None, now))
        steps.append(rp.DealStart(seq, deal_id, dealer, turn_up))
        for ev in deal["events"]:
            seq += 1
            payload = json.dumps(ev, ensure_ascii=False)
            rows.append(_log_row(match_id, seq, KIND_EVENT, deal_id, payload, now))
            steps.append(rp.EventEntry(seq, deal_id, ev))
    if rows:
        conn.execute(insert(ml.T_LOG), rows)
    done = rp.replay(header, steps)
    info = ml.match_info(conn, match_id)
    live = ml.write_caches(conn, match_id, info, done, seq, bool(steps), False)
    if parsed.finished_at is not None and live.info.finished_at is not None:
        # A restored backup keeps when the match ended (the replay decides whether it did).
        conn.execute(
            update(ml.T_MATCH)
            .where(ml.T_MATCH.c.id == match_id)
            .values(finished_at=parsed.finished_at, updated_at=parsed.finished_at)
        )
    return match_id


def _log_row(
    match_id: int, seq: int, kind: str, deal_id: int, payload: str | None, now: datetime
) -> dict[str, Any]:
    return {
        "match_id": match_id,
        "seq": seq,
        "kind": kind,
        "deal_id": deal_id,
        "target_seq": None,
        "payload": payload,
        "created_at": now,
    }


def read_json_file(path: Path) -> Any:
    """A JSON file's content (a regular file within the size limit); StorageInputError names
    the file, line and column."""
    try:
        return lim.load_json_file(path)
    except RecordError as exc:
        raise StorageInputError(exc.path, exc.detail) from exc


def _loads(data: bytes, where: str) -> Any:
    try:
        return lim.parse_json(data, where)
    except RecordError as exc:
        raise StorageInputError(exc.path, exc.detail) from exc


class Imported(list[int]):
    """The ids of the matches stored by an import; ``skipped`` holds the ids of matches that
    were already stored (the same settings and effective log; see _same_as_stored for
    dates)."""

    def __init__(
        self, ids: Sequence[int] = (), skipped: Sequence[int] = (), played: datetime | None = None
    ) -> None:
        super().__init__(ids)
        self.skipped = list(skipped)
        # A single record's own date (version 2's ``played``, UTC), None when it has none.
        self.played = played


def _content(obj: Mapping[str, Any]) -> dict[str, Any]:
    """What a record says happened: everything but its format and date."""
    return {k: v for k, v in obj.items() if k not in ("format", "played")}


def _second(t: datetime) -> int:
    return int(_utc(t).timestamp() // 1)


def _same_as_stored(store: ml.Holder, parsed: Sequence[_Parsed]) -> list[int | None]:
    """For each record, the id of a stored match it is a copy of (or None).

    A copy has the same content: the same settings and effective log, whatever the version of
    the record. A record without a date (version 1) is a copy of any stored match with that
    content. One with a date (``played``, a backup's start time) is a copy of such a match
    started in the same second, or else of one started later: a match stored from a record
    without a date carries the time it was imported, always after it was played, so the
    version 2 of a match imported as version 1 is recognised too. One started earlier is
    another match that happened to go the same way."""
    by_key: dict[tuple[str, tuple[str, ...]], list[Any]] = {}
    for info in store.list_matches():
        by_key.setdefault((info.variant, info.players), []).append(info)
    exported: dict[int, dict[str, Any]] = {}

    def first_same(content: dict[str, Any], candidates: Sequence[Any]) -> int | None:
        for info in candidates:  # each stored match is exported at most once per import
            if info.id not in exported:
                exported[info.id] = _content(export_match(store, info.id, format=FORMAT_1))
            if exported[info.id] == content:
                return int(info.id)
        return None

    out: list[int | None] = []
    for p in parsed:
        key = (str(p.obj["variant"]), tuple(str(n) for n in p.obj["players"]))
        content = _content(p.obj)
        candidates = by_key.get(key, [])
        if p.created_at is None:
            out.append(first_same(content, candidates))
            continue
        at = _second(p.created_at)  # only matches started then or later are exported
        found = first_same(content, [i for i in candidates if _second(i.created_at) == at])
        if found is None:
            found = first_same(content, [i for i in candidates if _second(i.created_at) > at])
        out.append(found)
    return out


def _utc(t: datetime) -> datetime:
    return (t if t.tzinfo else t.replace(tzinfo=UTC)).astimezone(UTC)


def import_match(
    store: ml.Holder, source: Mapping[str, Any] | str | os.PathLike[str], *, copies: bool = True
) -> Imported:
    """Validate, then store one record in one transaction. With ``copies=False`` a record
    already stored is recognised and skipped (its id is in ``skipped``)."""
    if isinstance(source, Mapping):
        parsed = _parse(dict(source), "")
    else:
        path = Path(source)
        parsed = _parse(read_json_file(path), str(path))
    if not copies:
        (same,) = _same_as_stored(store, [parsed])
        if same is not None:
            return Imported((), [same], parsed.created_at)
    with store.gate.write() as conn:
        return Imported([_store(store, conn, parsed)], (), parsed.created_at)


def import_many(store: ml.Holder, records: Sequence[Mapping[str, Any]]) -> list[int]:
    """Store several record dicts in one transaction (all or none); used by benchmarks."""
    parsed = [_parse(dict(r), f"records[{i}]") for i, r in enumerate(records)]
    with store.gate.write() as conn:
        return [_store(store, conn, p) for p in parsed]


# ------------------------------------------------------------------------------------ archive
def export_archive(store: ml.Holder, path: Path) -> int:
    """Write every match to a zip (one record per match plus a manifest with dates), through a
    temporary file so an interrupted backup never replaces a good one."""
    matches = sorted(store.list_matches(), key=lambda m: m.id)
    manifest: dict[str, Any] = {
        "format": ARCHIVE_FORMAT,
        "exported_at": datetime.now(UTC).isoformat(),
        "matches": [],
    }
    path = path.expanduser().resolve()
    if not path.parent.is_dir():
        # Never create folders nobody asked for (a typo would scatter backups).
        raise StorageInputError(str(path.parent), "no such folder: create it first")
    if path.exists() and not path.is_file():
        raise StorageInputError(str(path), "exists and is not a regular file")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as exc:
        raise StorageInputError(
            str(path.parent), f"cannot write there: {exc.strerror or exc}"
        ) from exc
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            for n, info in enumerate(matches, start=1):
                member = f"matches/{n:06d}.json"
                record = export_match(store, info.id, format=FORMAT_1)  # dates: manifest
                zf.writestr(member, json.dumps(record, ensure_ascii=False, indent=1))
                manifest["matches"].append(
                    {
                        "file": member,
                        "players": list(info.players),
                        "created_at": info.created_at.isoformat(),
                        "finished_at": info.finished_at.isoformat() if info.finished_at else None,
                        "winner": info.winner,
                    }
                )
            zf.writestr(MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1))
        with tmp.open("rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        raise StorageInputError(str(path), f"cannot write: {exc.strerror or exc}") from exc
    finally:
        tmp.unlink(missing_ok=True)
    return len(matches)


def _read_member(zf: zipfile.ZipFile, name: str, where: str) -> Any:
    try:
        info = zf.getinfo(name)
    except KeyError as exc:
        raise StorageInputError(where, f"{name} is missing from the archive") from exc
    place = f"{where}!{name}"
    if info.flag_bits & 0x1:
        raise StorageInputError(place, "encrypted: a backup is never encrypted; cannot read it")
    if info.file_size > MAX_MEMBER_BYTES:
        raise StorageInputError(place, "too large for a match record")
    try:
        with zf.open(info) as fh:
            data = fh.read(MAX_MEMBER_BYTES + 1)  # bounded even if the header lies
    except (
        zipfile.BadZipFile,
        OSError,
        ValueError,
        RuntimeError,
        NotImplementedError,
        EOFError,
        zlib.error,
    ) as exc:
        raise StorageInputError(place, f"cannot read it: {exc}") from exc
    if len(data) > MAX_MEMBER_BYTES:
        raise StorageInputError(place, "too large for a match record")
    return _loads(data, place)


def check_archive(zf: zipfile.ZipFile, where: str) -> None:
    """Refuse an archive before extracting anything: too many members, duplicate names,
    unpacked sizes over the limits, or a compression ratio only a zip bomb has."""
    infos = zf.infolist()
    if len(infos) > lim.MAX_ARCHIVE_MEMBERS:
        raise StorageInputError(
            where, f"{len(infos)} members; an archive may hold {lim.MAX_ARCHIVE_MEMBERS}"
        )
    seen: set[str] = set()
    total = 0
    for info in infos:
        if info.filename in seen:
            raise StorageInputError(f"{where}!{info.filename}", "listed twice in the archive")
        seen.add(info.filename)
        total += info.file_size
        if info.file_size > lim.RATIO_FROM and info.file_size > lim.MAX_RATIO * max(
            info.compress_size, 1
        ):
            raise StorageInputError(
                f"{where}!{info.filename}", "compressed beyond any real record (a zip bomb?)"
            )
    if total > lim.MAX_ARCHIVE_UNPACKED:
        raise StorageInputError(
            where, f"unpacks to {total} bytes; the limit is {lim.MAX_ARCHIVE_UNPACKED}"
        )


def _parse_time(value: Any, where: str) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 64:
        raise StorageInputError(where, "not a date and time")
    try:
        t = datetime.fromisoformat(value)
        t = (t if t.tzinfo else t.replace(tzinfo=UTC)).astimezone(UTC)
    except (ValueError, OverflowError) as exc:
        raise StorageInputError(where, f"not a date and time: {value!r}") from exc
    if not MIN_YEAR <= t.year <= MAX_YEAR:
        raise StorageInputError(where, f"out of range: {value!r} (years {MIN_YEAR}–{MAX_YEAR})")
    return t


def read_archive(path: Path) -> list[_Parsed]:
    """Every record of an archive, validated; nothing is stored."""
    where = str(path)
    try:
        lim.check_regular(path, lim.MAX_ARCHIVE_BYTES)
    except RecordError as exc:
        raise StorageInputError(exc.path, exc.detail) from exc
    try:
        zf = zipfile.ZipFile(path)
    except FileNotFoundError as exc:
        raise StorageInputError(where, "no such file") from exc
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        try:
            with path.open("rb") as fh:
                started = fh.read(len(ZIP_START)) == ZIP_START
        except OSError:
            started = False
        if started:
            raise StorageInputError(
                where,
                "a damaged zip archive (cut short or overwritten: its table of contents is"
                f" missing or unreadable: {exc}); nothing was imported",
            ) from exc
        raise StorageInputError(where, f"not a zip archive: {exc}") from exc
    with zf:
        check_archive(zf, where)
        manifest = _read_member(zf, MANIFEST, where)
        if not isinstance(manifest, dict) or manifest.get("format") != ARCHIVE_FORMAT:
            raise StorageInputError(f"{where}!{MANIFEST}", f'format must be "{ARCHIVE_FORMAT}"')
        entries = manifest.get("matches")
        if not isinstance(entries, list):
            raise StorageInputError(f"{where}!{MANIFEST}: matches", "must be a list")
        out: list[_Parsed] = []
        files: set[str] = set()
        for i, entry in enumerate(entries):
            place = f"{where}!{MANIFEST}: matches[{i}]"
            if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
                raise StorageInputError(place, "must be an object with a file name")
            if entry["file"] in files:
                raise StorageInputError(f"{place}.file", f"{entry['file']} is listed twice")
            files.add(entry["file"])
            obj = _read_member(zf, entry["file"], where)
            parsed = _parse(obj, f"{where}!{entry['file']}")
            created = _parse_time(entry.get("created_at"), f"{place}.created_at")
            created = created or parsed.created_at  # a member's own ``played``
            finished = _parse_time(entry.get("finished_at"), f"{place}.finished_at")
            out.append(_Parsed(parsed.obj, parsed.where, created, finished))
        return out


def import_archive(store: ml.Holder, path: Path, *, copies: bool = False) -> Imported:
    """Store every match of an archive in one transaction (all or none). Matches already
    stored (the same backup imported again) are skipped unless ``copies``: importing a backup
    twice never doubles the matches or the statistics."""
    parsed = read_archive(path)
    same = [None] * len(parsed) if copies else _same_as_stored(store, parsed)
    fresh = [p for p, s in zip(parsed, same, strict=True) if s is None]
    skipped = [s for s in same if s is not None]
    if not fresh:
        return Imported((), skipped)
    with store.gate.write() as conn:
        return Imported([_store(store, conn, p) for p in fresh], skipped)


ZIP_START = b"PK\x03\x04"  # a zip's first member header: a backup cut short still starts so


def is_archive(path: Path) -> bool:
    """Whether a regular file is a zip, or starts as one (a backup cut short is a damaged
    archive, not a record); never opens a pipe or device."""
    try:
        lim.check_regular(path, lim.MAX_ARCHIVE_BYTES)
        if zipfile.is_zipfile(path):
            return True
        with path.open("rb") as fh:
            return fh.read(len(ZIP_START)) == ZIP_START
    except (OSError, RecordError):
        return False
