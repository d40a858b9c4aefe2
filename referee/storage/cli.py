"""``bezique export`` / ``bezique import`` / ``bezique matches`` / ``bezique stats``: the
storage on the command line, so backups and transfers need no app.

Exit status: 0 done, 2 malformed input (the message names the file and the place; nothing was
stored), 1 the database could not do it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.storage.errors import (
    DatabaseBusyError,
    ReadOnlyStorageError,
    StorageError,
    StorageInputError,
    UnknownMatchError,
)
from referee.storage.progress import to_stream

if TYPE_CHECKING:
    from referee.storage.store import Store


def _add_db(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--db",
        metavar="URL_OR_FILE",
        help="database: an SQLite file or a postgresql:// URL "
        "(default: $BEZIQUE_DATABASE_URL, else the app's own database)",
    )


@contextmanager
def _store(args: argparse.Namespace, *, reading: bool = False) -> Iterator[Store]:
    """The database; ``reading`` commands given a damaged file (``--db FILE.corrupt-…``) read
    what salvage recovers from it into a temporary database, leaving the file untouched."""
    from referee.storage.errors import DamagedDatabaseError
    from referee.storage.store import Store  # the database layer loads only when used

    # A file named on the command line is never moved aside: it may not be ours at all.
    try:
        store = Store.open(args.db, repair=args.db is None, progress=to_stream())
    except DamagedDatabaseError as exc:
        if not reading or exc.path is None:
            raise
        with _salvaged(Path(str(exc.path))) as salvaged:
            yield salvaged
        return
    try:
        if store.notice:
            print(f"bezique: {store.notice}", file=sys.stderr)
        yield store
    finally:
        store.close()


@contextmanager
def _salvaged(path: Path) -> Iterator[Store]:
    import tempfile

    from referee.storage.salvage import salvage
    from referee.storage.store import Store

    with tempfile.TemporaryDirectory(prefix="bezique-read-") as work:
        out = Path(work) / "salvaged.sqlite3"
        report = salvage(path, out, to_stream())
        if not report.readable:
            raise StorageError(
                f"{path}: not a usable Bezique database; nothing in it could be read as matches"
            )
        print(
            f"bezique: {path} is damaged; reading what it still holds. {report.sentence()}",
            file=sys.stderr,
        )
        store = Store.open(out, repair=False)
        try:
            yield store
        finally:
            store.close()


def _cmd_salvage(args: argparse.Namespace) -> int:
    from referee.storage.salvage import salvage

    src = Path(args.file)  # salvage itself refuses a folder, device or pipe, or a huge file
    out = Path(args.output) if args.output else src.with_name(src.name + ".salvaged.sqlite3")
    if out.exists():
        raise StorageInputError(str(out), "already exists; salvage writes a new file (-o NAME)")
    report = salvage(src, out, to_stream())
    if not report.readable:
        out.unlink(missing_ok=True)
        raise StorageInputError(str(src), report.sentence())
    from referee.storage.store import Store

    Store.open(out, repair=False).close()  # rebuild the caches from the recovered log
    print(f"{src}: {report.sentence()}")
    print(f"Written to {out} (the original is unchanged); read it with --db {out}")
    return 0


def _guard(name: str, fn: Callable[[argparse.Namespace], int]) -> Callable[..., int]:
    """Turn storage errors into a message and an exit status instead of a traceback."""

    def run(args: argparse.Namespace) -> int:
        try:
            return fn(args)
        except StorageInputError as exc:
            print(f"bezique {name}: {exc}", file=sys.stderr)
            return 2
        except (UnknownMatchError, DatabaseBusyError, ReadOnlyStorageError) as exc:
            print(f"bezique {name}: {exc}", file=sys.stderr)
            return 2
        except StorageError as exc:
            print(f"bezique {name}: {exc}", file=sys.stderr)
            return 1

    return run


def _write_json(obj: Any, out: str | None) -> None:
    text = json.dumps(obj, ensure_ascii=False, indent=1) + "\n"
    if out is None or out == "-":
        sys.stdout.write(text)
        return
    target = Path(out)
    if not target.parent.is_dir():
        raise StorageInputError(str(target.parent), "no such folder: create it first")
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise StorageInputError(out, f"cannot write: {exc.strerror or exc}") from exc


def _cmd_export(args: argparse.Namespace) -> int:
    if args.all:
        if args.match is not None:
            raise StorageInputError("export", "give a match id or --all, not both")
        if not args.output or args.output == "-":
            raise StorageInputError("--output", "--all writes a zip archive: name the file")
        with _store(args, reading=True) as store:
            n = store.export_archive(args.output)
        print(f"{n} matches written to {args.output}", file=sys.stderr)
        return 0
    if args.match is None:
        raise StorageInputError("export", "give a match id (see `bezique matches`) or --all")
    with _store(args, reading=True) as store:
        _write_json(store.export_match(args.match, format=args.format), args.output)
    return 0


def _cmd_import(args: argparse.Namespace) -> int:
    from referee import input_limits as lim
    from referee.errors import RecordError
    from referee.storage.exchange import is_archive

    path = Path(args.file)
    try:  # before opening the database: a pipe or /dev/zero is never read
        lim.check_regular(path, lim.MAX_ARCHIVE_BYTES)
    except RecordError as exc:
        raise StorageInputError(exc.path, exc.detail) from exc
    with _store(args) as store:
        if is_archive(path):
            done = store.import_archive(path, copies=args.copy)
            print(f"{len(done)} matches imported from {path}", file=sys.stderr)
        else:
            done = store.import_record(path, copies=args.copy)
            if done:
                when = (
                    f"played {done.played:%Y-%m-%d %H:%M} UTC"
                    if done.played is not None
                    else "the record carries no date: dated now"
                )
                print(f"imported {path} as match {done[0]} ({when})", file=sys.stderr)
        if done.skipped:
            ids = ", ".join(str(i) for i in done.skipped[:10])
            more = "…" if len(done.skipped) > 10 else ""
            print(
                f"{len(done.skipped)} already stored, skipped (matches {ids}{more});"
                " --copy stores them again",
                file=sys.stderr,
            )
    return 0


def _cmd_matches(args: argparse.Namespace) -> int:
    with _store(args, reading=True) as store:
        matches = store.list_matches()
    if args.json:
        _write_json(
            [
                {
                    "id": m.id,
                    "variant": m.variant,
                    "players": list(m.players),
                    "created_at": m.created_at.isoformat(),
                    "finished": m.finished,
                    "winner": m.winner,
                }
                for m in matches
            ],
            None,
        )
        return 0
    for m in matches:
        state = f"won by {m.winner}" if m.finished else "unfinished"
        when = m.created_at.strftime("%Y-%m-%d %H:%M")
        print(f"{m.id:>6}  {when}  {m.variant:<11} {', '.join(m.players)}  ({state})")
    return 0


def _cmd_stats(args: argparse.Namespace) -> int:
    with _store(args, reading=True) as store:
        rows = store.player_stats()
    if args.json:
        _write_json(
            [
                {
                    "player": s.name,
                    "matches_played": s.matches_played,
                    "matches_won": s.matches_won,
                    "deals_played": s.deals_played,
                    "average_points_per_deal": s.average_points_per_deal,
                    "biggest_deal": s.biggest_deal,
                    "best_melds": [
                        {"meld": b.meld, "count": b.count, "best_points": b.best_points}
                        for b in s.best_melds
                    ],
                }
                for s in rows
            ],
            None,
        )
        return 0
    for s in rows:
        avg = "-" if s.average_points_per_deal is None else f"{s.average_points_per_deal:.1f}"
        best = ", ".join(f"{b.meld} {b.best_points}" for b in s.best_melds) or "-"
        print(
            f"{s.name}: {s.matches_won}/{s.matches_played} won, {s.deals_played} deals, "
            f"average {avg}, biggest deal {s.biggest_deal or '-'}, best: {best}"
        )
    return 0


def _cmd_migrate(args: argparse.Namespace) -> int:
    from referee.storage import db

    with _store(args) as store, store.engine.connect() as conn:
        revision = db.current_revision(conn)
    print(f"{store.location.describe()}: schema {revision} (newest known {db.HEAD_REVISION})")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the storage subcommands to ``bezique``'s parser."""
    p = subparsers.add_parser("export", help="write a stored match as a record, or all as a zip")
    p.add_argument("match", nargs="?", type=int, help="the match id (see `bezique matches`)")
    p.add_argument("--all", action="store_true", help="every match, into one zip archive")
    p.add_argument("-o", "--output", help="file to write (default: stdout; required with --all)")
    p.add_argument(
        "--format",
        choices=("bezique-match/2", "bezique-match/1"),
        default="bezique-match/2",
        help="the record's version: 2 (default) says when the match was played; 1 leaves the"
        " date out, for tools that read only version 1",
    )
    _add_db(p)
    p.set_defaults(func=_guard("export", _cmd_export))

    p = subparsers.add_parser("import", help="store a match record (.json) or an archive (.zip)")
    p.add_argument("file")
    p.add_argument(
        "--copy", action="store_true", help="store matches already stored again, as copies"
    )
    _add_db(p)
    p.set_defaults(func=_guard("import", _cmd_import))

    p = subparsers.add_parser("matches", help="list the stored matches")
    p.add_argument("--json", action="store_true")
    _add_db(p)
    p.set_defaults(func=_guard("matches", _cmd_matches))

    p = subparsers.add_parser(
        "migrate", help="bring a database (e.g. the club server's) up to this version's schema"
    )
    _add_db(p)
    p.set_defaults(func=_guard("migrate", _cmd_migrate))

    p = subparsers.add_parser(
        "salvage", help="recover the matches a damaged database file still holds, into a new file"
    )
    p.add_argument("file", help="the damaged file (e.g. bezique.sqlite3.corrupt-…); unchanged")
    p.add_argument("-o", "--output", help="new database (default: FILE.salvaged.sqlite3)")
    p.set_defaults(func=_guard("salvage", _cmd_salvage))

    p = subparsers.add_parser("stats", help="per-player statistics of the stored matches")
    p.add_argument("--json", action="store_true")
    _add_db(p)
    p.set_defaults(func=_guard("stats", _cmd_stats))
