"""``bezique export`` / ``bezique import`` / ``bezique matches`` / ``bezique stats`` /
``bezique club …``: the storage on the command line, so backups, transfers and the club's
players and ratings need no app.

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
            # "bezique club merge: merge: …" says the command twice: once is enough
            said = exc.detail if name.startswith("club ") and name.endswith(exc.where) else exc
            print(f"bezique {name}: {said}", file=sys.stderr)
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


# ---------------------------------------------------------------------------------- club
def _cmd_club_players(args: argparse.Namespace) -> int:
    with _store(args, reading=True) as store:
        rows = store.player_list()
    if args.json:
        _write_json(
            [
                {
                    "id": r.id,
                    "name": r.name,
                    "matches": r.matches,
                    "finished": r.finished,
                    "played_as": list(r.played_as),
                }
                for r in rows
            ],
            None,
        )
        return 0
    if not rows:
        print("no players yet")
    for r in rows:
        also = f"  (also played as {', '.join(r.played_as)})" if r.played_as else ""
        print(f"{r.name}: {_count(r.matches, 'match', 'matches')}, {r.finished} finished{also}")
    return 0


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _cmd_club_rename(args: argparse.Namespace) -> int:
    with _store(args) as store:
        store.rename_player(args.old, args.new)
        row = next(r for r in store.player_list() if r.name == args.new.strip())
    print(
        f'"{args.old}" is now "{row.name}" ({_count(row.matches, "match", "matches")});'
        " the matches keep the names they were played under"
    )
    return 0


def _cmd_club_merge(args: argparse.Namespace) -> int:
    with _store(args) as store:
        moved = store.merge_players(args.source, args.into)
    print(
        f'"{args.source}" merged into "{args.into}":'
        f" {_count(moved, 'match', 'matches')} moved, \"{args.source}\" removed"
    )
    return 0


def _skipped(club: Any) -> None:
    for line in club.skipped:
        print(f"bezique club: not counted: {line}", file=sys.stderr)


def _cmd_club_ratings(args: argparse.Namespace) -> int:
    with _store(args, reading=True) as store:
        club = store.club()
    _skipped(club)
    board = club.ratings.leaderboard()
    if args.json:
        _write_json(
            [
                {
                    "place": row.place,
                    "player": club.name(row.player),
                    "rating": row.rating.shown,
                    "mu": row.rating.mu,
                    "sigma": row.rating.sigma,
                    "ordinal": row.rating.ordinal,
                    "matches": row.matches,
                }
                for row in board
            ],
            None,
        )
        return 0
    if not board:
        print("no finished matches yet: nobody is rated")
        return 0
    width = max(len(club.name(row.player)) for row in board)
    for row in board:
        name = club.name(row.player)
        print(f"{row.place:>3}. {name:<{width}}  {row.rating.shown:>6.1f}  {row.matches:>4}")
    return 0


def _ordinal_place(rank: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(rank if rank < 20 else rank % 10, "th")
    return f"{rank}{suffix}"


def _cmd_club_history(args: argparse.Namespace) -> int:
    with _store(args, reading=True) as store:
        club = store.club()
        roster = store.player_list()
    _skipped(club)
    if not any(r.name == args.name for r in roster):
        now = [r.name for r in roster if args.name in r.played_as]
        hint = f'; "{args.name}" is now called "{now[0]}"' if now else ""
        raise StorageInputError(
            "history", f'no player is called "{args.name}" (see `bezique club players`){hint}'
        )
    pid = club.player(args.name)
    steps = club.ratings.history.get(pid, ()) if pid is not None else ()
    out: list[dict[str, Any]] = []
    for step in steps:
        res = club.result(step.match_id)
        mine = next(side for side in res.sides if pid in side.players)
        partners = [club.name(p) for p in mine.players if p != pid]
        others = [s for s in res.sides if s is not mine]
        if mine.rank == 1:
            word = "drew" if res.drawn else "won"
        elif len(res.sides) == 2:
            word = "lost"
        else:
            word = f"came {_ordinal_place(mine.rank)}"
        out.append(
            {
                "match": int(step.match_id),
                "finished_at": step.finished_at.isoformat(),
                "variant": club.variants.get(step.match_id, ""),
                "partners": partners,
                "opponents": [[club.name(p) for p in s.players] for s in others],
                "result": word,
                "place": mine.rank,
                "score": mine.score,
                "opponents_scores": [s.score for s in others],
                "before": step.before.shown,
                "after": step.after.shown,
                "date": f"{step.finished_at:%Y-%m-%d}",
            }
        )
    if args.json:
        _write_json(out, None)
        return 0
    if not out:
        print(f"{args.name} has no finished match yet")
    for h in out:
        vs = " / ".join(" & ".join(side) for side in h["opponents"])
        with_ = f" with {' & '.join(h['partners'])}" if h["partners"] else ""
        scores = "–".join(str(v) for v in [h["score"], *h["opponents_scores"]])
        change = h["after"] - h["before"]
        print(
            f"{h['date']}  match {h['match']:<5} {h['variant']:<11}{with_} vs {vs}:"
            f" {h['result']} {scores}  {h['before']:.1f} → {h['after']:.1f} ({change:+.1f})"
        )
    return 0


def _cmd_club_records(args: argparse.Namespace) -> int:
    with _store(args, reading=True) as store:
        club = store.club(records=args.limit)
    _skipped(club)
    deals = club.records.highest_deals
    doubles = club.records.most_double_beziques
    if args.json:
        _write_json(
            {
                "highest_deals": [
                    {
                        "match": int(d.match_id),
                        "finished_at": d.finished_at.isoformat(),
                        "variant": d.variant,
                        "deal": d.deal + 1,
                        "players": list(d.players),
                        "points": d.points,
                    }
                    for d in deals
                ],
                "most_double_beziques": [
                    {
                        "match": int(d.match_id),
                        "finished_at": d.finished_at.isoformat(),
                        "variant": d.variant,
                        "player": d.player,
                        "count": d.count,
                    }
                    for d in doubles
                ],
            },
            None,
        )
        return 0
    print("Highest deal scores:")
    if not deals:
        print("  none yet")
    for i, d in enumerate(deals, start=1):
        print(
            f"{i:>3}. {d.points:>5}  {' & '.join(d.players)}  (match {d.match_id}, deal"
            f" {d.deal + 1}, {d.variant}, {d.finished_at:%Y-%m-%d})"
        )
    print("Most double beziques in a match:")
    if not doubles:
        print("  none yet")
    for i, b in enumerate(doubles, start=1):
        print(
            f"{i:>3}. {b.count:>5}  {b.player}  (match {b.match_id}, {b.variant},"
            f" {b.finished_at:%Y-%m-%d})"
        )
    return 0


def _register_club(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    club = subparsers.add_parser(
        "club", help="the club: players (rename, merge), ratings, history, records"
    )
    sub = club.add_subparsers(dest="club_command", required=True)

    p = sub.add_parser("players", help="every player with their number of matches")
    p.add_argument("--json", action="store_true")
    _add_db(p)
    p.set_defaults(func=_guard("club players", _cmd_club_players))

    p = sub.add_parser("rename", help="give a player a new (free) name; history follows")
    p.add_argument("old", metavar="OLD")
    p.add_argument("new", metavar="NEW")
    _add_db(p)
    p.set_defaults(func=_guard("club rename", _cmd_club_rename))

    p = sub.add_parser(
        "merge", help="one person under two names: FROM's matches become INTO's, FROM goes"
    )
    p.add_argument("source", metavar="FROM")
    p.add_argument("into", metavar="INTO")
    _add_db(p)
    p.set_defaults(func=_guard("club merge", _cmd_club_merge))

    p = sub.add_parser("ratings", help="the leaderboard: place, name, rating, matches")
    p.add_argument("--json", action="store_true")
    _add_db(p)
    p.set_defaults(func=_guard("club ratings", _cmd_club_ratings))

    p = sub.add_parser("history", help="a player's matches with their rating before and after")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--json", action="store_true")
    _add_db(p)
    p.set_defaults(func=_guard("club history", _cmd_club_history))

    p = sub.add_parser("records", help="the highest deal scores, the most double beziques")
    p.add_argument("--limit", type=int, default=10, help="how many of each (default 10)")
    p.add_argument("--json", action="store_true")
    _add_db(p)
    p.set_defaults(func=_guard("club records", _cmd_club_records))


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

    _register_club(subparsers)
