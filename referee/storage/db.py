"""Where the database lives, how every connection is set up, migrations, and what to do with a
damaged file.

SQLite (the default) gets WAL, ``synchronous=FULL`` (a committed declaration survives a power
cut, not only a crash), ``foreign_keys=ON`` and ``busy_timeout`` on every connection, and writes
take the lock up front (``BEGIN IMMEDIATE``) so two writers wait instead of failing halfway.
PostgreSQL (the club server) runs the same code.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.engine.url import URL
from sqlalchemy.exc import ArgumentError, DBAPIError
from sqlalchemy.pool import NullPool

if TYPE_CHECKING:  # Alembic is imported only when a migration is due (it costs the phone ~1 s)
    from alembic.config import Config

from referee.storage.errors import (
    DatabaseBusyError,
    NewerDatabaseError,
    StorageError,
    StorageInputError,
)

ENV_URL = "BEZIQUE_DATABASE_URL"
FLET_DATA_ENV = "FLET_APP_STORAGE_DATA"
APP_NAME = "bezique-referee"
DB_FILENAME = "bezique.sqlite3"
BUSY_TIMEOUT_ENV = "BEZIQUE_BUSY_TIMEOUT_MS"
BUSY_TIMEOUT_MS = int(os.environ.get(BUSY_TIMEOUT_ENV) or 10_000)
# WAL unless told otherwise: the phone build's in-browser file system asks for a rollback
# journal ("DELETE"), whose file holds exactly the committed state between two statements.
JOURNAL_ENV = "BEZIQUE_SQLITE_JOURNAL"
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

# Every revision this version knows, oldest first; the last is the head. A test checks it
# against the migration scripts, so opening a current database never has to load Alembic.
REVISIONS: tuple[str, ...] = ("0001", "0002", "0003", "0004", "0005", "0006", "0007")
HEAD_REVISION = REVISIONS[-1]
OUR_TABLES = frozenset({"player", "match", "match_player", "deal", "log_entry"})

SQLITE_HEADER = b"SQLite format 3\x00"
PG_MIGRATION_LOCK = 0x62657A69  # "bezi": the advisory lock id serialising migrations
# Files up to this size get SQLite's full page-by-page check (quick_check) on every open; it
# costs about 4 ms per MB, so bigger files get it only after a read error left a marker.
FULL_CHECK_MAX_BYTES = 8 * 1024 * 1024
CHECK_MARKER_SUFFIX = ".needs-check"


@dataclass(frozen=True)
class Location:
    """A resolved database: its SQLAlchemy URL and, for SQLite, the file."""

    url: URL
    path: Path | None
    read_only: bool = False

    @property
    def is_sqlite(self) -> bool:
        return self.url.get_backend_name() == "sqlite"

    def describe(self) -> str:
        """For messages: the file, or the server URL without its password."""
        if self.path is not None:
            return str(self.path)
        return self.url.render_as_string(hide_password=True)


def default_data_dir(app_storage_dir: str | os.PathLike[str] | None = None) -> Path:
    """Flet's app storage when run by Flet, else the platform's user data dir."""
    if app_storage_dir:
        return Path(app_storage_dir)
    flet_dir = os.environ.get(FLET_DATA_ENV)
    if flet_dir:
        return Path(flet_dir)
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def resolve(
    url: str | os.PathLike[str] | None = None,
    app_storage_dir: str | os.PathLike[str] | None = None,
) -> Location:
    """The database to use: ``url`` (a URL or a file path), else $BEZIQUE_DATABASE_URL, else
    the SQLite file in the data dir."""
    raw = os.fspath(url) if url is not None else os.environ.get(ENV_URL) or None
    if raw is None:
        path = default_data_dir(app_storage_dir) / DB_FILENAME
        return Location(URL.create("sqlite", database=str(path)), path)
    if "://" not in raw:
        path = Path(raw).expanduser().resolve()
        return Location(URL.create("sqlite", database=str(path)), path)
    try:
        parsed = make_url(raw)
    except ArgumentError as exc:
        raise StorageInputError(
            ENV_URL if url is None else "url", f"not a database URL: {exc}"
        ) from exc
    backend = parsed.get_backend_name()
    if backend in ("postgresql", "postgres"):
        # psycopg 3 is the driver we ship; plain postgresql:// would ask for psycopg2.
        parsed = parsed.set(drivername="postgresql+psycopg")
        return Location(parsed, None)
    if backend == "sqlite":
        db = parsed.database or ""
        if db in ("", ":memory:"):
            raise StorageInputError("url", "an in-memory SQLite database would lose everything")
        path = Path(db).expanduser().resolve()
        return Location(URL.create("sqlite", database=str(path)), path)
    raise StorageInputError("url", f"unsupported database {backend!r}: use sqlite or postgresql")


def is_busy(exc: BaseException | None) -> bool:
    """SQLite's answer when another connection holds the lock (not damage)."""
    text_ = str(exc).lower()
    return "is locked" in text_ or "database is busy" in text_


def busy_error(where: object) -> DatabaseBusyError:
    return DatabaseBusyError(
        f"{where} is in use by another program (another Bezique window or command holds its"
        f" lock); waited {BUSY_TIMEOUT_MS / 1000:g} s. Close the other program, or try again."
    )


def writable(path: Path) -> bool:
    """Whether the database file (if it exists) and its folder can be written."""
    if path.exists() and not os.access(path, os.W_OK):
        return False
    return os.access(path.parent, os.W_OK)


def file_uri(path: Path) -> str:
    """The file's ``file:`` URI for SQLite, as ``Path.as_uri`` writes it: Python 3.14's
    ``as_uri`` imports urllib.request (with http and email), which costs a phone's start a
    quarter of a second for one string."""
    posix = path.absolute().as_posix()
    if posix.startswith("/"):
        return "file://" + quote(posix, safe="/")
    return "file:///" + posix[:2] + quote(posix[2:], safe="/")  # a Windows drive: C:/…


def read_only_uri(path: Path, immutable: bool = False) -> str:
    """A URI opening the file for reading only; ``immutable`` when its folder is read-only
    (SQLite then cannot create the WAL index a WAL database needs)."""
    return f"{file_uri(path)}?mode=ro" + ("&immutable=1" if immutable else "")


def needs_immutable(path: Path) -> bool:
    """A read-only folder without the WAL index: SQLite can then read a WAL database only as
    immutable. When a -wal and -shm are there (a folder made read-only after a crash) they are
    read normally, so their newest commits are shown too."""
    if os.access(path.parent, os.W_OK):
        return False
    side = [path.with_name(path.name + s) for s in ("-wal", "-shm")]
    return not all(p.exists() for p in side)


def _sqlite_on_connect_read_only(dbapi_conn: Any, _record: Any) -> None:
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    try:
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA query_only=ON")
    finally:
        cur.close()


def _sqlite_on_connect(dbapi_conn: Any, _record: Any) -> None:
    """Set on every connection: these settings are per connection in SQLite."""
    # Let SQLAlchemy's "begin" hook decide transactions (the stdlib default skips DDL).
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    try:
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA foreign_keys=ON")
        wanted = (os.environ.get(JOURNAL_ENV) or "WAL").upper()
        if wanted not in ("WAL", "DELETE"):
            raise StorageError(f"{JOURNAL_ENV}={wanted!r}: only WAL or DELETE")
        mode = cur.execute(f"PRAGMA journal_mode={wanted}").fetchone()
        if mode is None or str(mode[0]).upper() != wanted:
            raise StorageError(f"SQLite refused {wanted} mode (got {mode!r})")
        cur.execute("PRAGMA synchronous=FULL")
    finally:
        cur.close()


def _sqlite_on_begin(conn: Connection) -> None:
    mode = "IMMEDIATE" if conn.get_execution_options().get("bezique_write") else "DEFERRED"
    conn.exec_driver_sql(f"BEGIN {mode}")


def make_engine(loc: Location, *, pool: bool = True) -> Engine:
    """An engine with the per-connection settings installed."""
    if loc.is_sqlite:
        kwargs: dict[str, Any] = {}
        if not pool:
            kwargs["poolclass"] = NullPool
        if loc.read_only and loc.path is not None:
            uri = read_only_uri(loc.path, immutable=needs_immutable(loc.path))
            kwargs["creator"] = lambda: sqlite3.connect(
                uri, uri=True, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000
            )
            engine = create_engine("sqlite://", **kwargs)
            event.listen(engine, "connect", _sqlite_on_connect_read_only)
            event.listen(engine, "begin", _sqlite_on_begin)
            return engine
        engine = create_engine(loc.url, **kwargs)
        event.listen(engine, "connect", _sqlite_on_connect)
        event.listen(engine, "begin", _sqlite_on_begin)
        return engine
    kwargs = {"pool_pre_ping": True}
    if not pool:
        kwargs["poolclass"] = NullPool
    return create_engine(loc.url, **kwargs)


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction that holds the write lock from its first statement (SQLite)."""
    with engine.connect() as conn:
        conn.execution_options(bezique_write=True)
        with conn.begin():
            yield conn


# ---------------------------------------------------------------------------------------------
# Damaged files


class Damaged(Exception):
    """The SQLite file cannot be used as our database; ``reason`` says why, for the user."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def probe_sqlite_file(path: Path, read_only: bool = False) -> str | None:
    """The revision stored in an existing file (None: a new, empty database).

    Raises Damaged when it is not a readable database of ours, NewerDatabaseError when a newer
    version of the app wrote it, DatabaseBusyError when another program holds its lock. Uses
    the stdlib driver so no setting can write to the file.
    """
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return None
    if size == 0:
        return None
    try:
        with path.open("rb") as fh:
            header = fh.read(100)
    except OSError as exc:
        raise StorageError(f"{path}: cannot read the database file: {exc}") from exc
    if header[: len(SQLITE_HEADER)] != SQLITE_HEADER:
        raise Damaged("it is not an SQLite database (wrong header)")
    if len(header) < 100:
        raise Damaged("it is truncated (shorter than an SQLite header)")
    expected = _size_from_header(header)
    # With a WAL or journal left by a killed process the file may legitimately lag behind its
    # header (a checkpoint cut short); SQLite recovers it on open, so only judge a lone file.
    if expected is not None and size < expected and not _has_sidecar(path):
        raise Damaged(f"it is truncated ({size} bytes of {expected})")
    marker = check_marker(path)
    full_check = size <= FULL_CHECK_MAX_BYTES or marker.exists()
    if read_only:
        uri = read_only_uri(path, immutable=needs_immutable(path))
    else:
        uri = f"{file_uri(path)}?mode=rw"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as exc:
        raise Damaged(f"SQLite cannot open it: {exc}") from exc
    try:
        if full_check:
            check = conn.execute("PRAGMA quick_check(1)").fetchone()
            if check is None or check[0] != "ok":
                raise Damaged(f"SQLite's check failed: {check[0] if check else 'no answer'}")
            if not read_only:
                marker.unlink(missing_ok=True)
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            return None
        if "alembic_version" not in tables:
            raise Damaged("it is another application's database (no Bezique tables)")
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        if row is None:
            # A first creation killed mid-way is rolled back as a whole; this is something else.
            raise Damaged("its schema version is missing")
        revision = str(row[0])
        if revision not in REVISIONS:
            raise NewerDatabaseError(
                f"{path} was written by a newer version of Bezique Referee (schema {revision});"
                " update the app to open it. The file was not changed."
            )
        missing = OUR_TABLES - tables
        if missing:
            raise Damaged(f"tables are missing: {', '.join(sorted(missing))}")
        return revision
    except sqlite3.OperationalError as exc:
        if is_busy(exc):
            raise busy_error(path) from exc
        if "i/o" in str(exc).lower() and readable_as_is(path):
            raise StorageError(
                f"{path} cannot be opened now ({exc}), though the file itself reads whole:"
                " it is not damaged, and nothing was moved or changed. If another program has"
                " it open, close that program, then open it again."
            ) from exc
        raise Damaged(f"SQLite cannot read it: {exc}") from exc
    except sqlite3.DatabaseError as exc:
        raise Damaged(f"SQLite cannot read it: {exc}") from exc
    finally:
        conn.close()


def _size_from_header(header: bytes) -> int | None:
    """The file size the header promises (page size x page count), when the count is valid."""
    page_size = int.from_bytes(header[16:18], "big")
    if page_size == 1:
        page_size = 65536
    pages = int.from_bytes(header[28:32], "big")
    change_counter = header[24:28]
    valid_for = header[92:96]
    if pages == 0 or change_counter != valid_for or page_size < 512:
        return None
    return page_size * pages


def _has_sidecar(path: Path) -> bool:
    for suffix in ("-wal", "-journal"):
        side = path.with_name(path.name + suffix)
        try:
            if side.stat().st_size > 0:
                return True
        except FileNotFoundError:
            continue
    return False


# SQLite's locks (os_unix.c): every connection to a WAL database holds a read lock on the
# -shm's "dead man switch" byte, and a reader of the database file one in its shared range.
_SHARED_FIRST, _SHARED_SIZE = 0x40000000, 2 + 510  # PENDING, RESERVED and SHARED bytes
_SHM_LOCKS, _SHM_SIZE = 120, 9  # the eight WAL locks and the DMS byte


def _locked_by_other(file: Path, start: int, length: int) -> bool | None:
    """Whether another process holds any POSIX lock on the range (None: cannot tell here)."""
    try:
        import fcntl
        import struct
        import sys
    except ImportError:  # not a POSIX system
        return None
    if sys.platform.startswith("linux"):
        layout, at = "@hhqqi", 0
    elif sys.platform == "darwin" or "bsd" in sys.platform:
        layout, at = "@qqihh", 20
    else:
        return None
    try:
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return False
    except OSError:
        return None
    try:
        if layout == "@hhqqi":
            query = struct.pack(layout, fcntl.F_WRLCK, os.SEEK_SET, start, length, 0)
        else:
            query = struct.pack(layout, start, length, 0, fcntl.F_WRLCK, os.SEEK_SET)
        answer = fcntl.fcntl(fd, fcntl.F_GETLK, query + bytes(16))
        (kind,) = struct.unpack_from("@h", answer, at)
        return bool(kind != fcntl.F_UNLCK)
    except OSError:
        return None
    finally:
        os.close(fd)


def held_elsewhere(path: Path) -> bool:
    """Whether another process has the database open, by SQLite's own locks on the file and
    its -shm. A file another process has open is never moved aside or replaced: its writes
    would go on into the file moved away, and be lost with it."""
    shm = path.with_name(path.name + "-shm")
    return bool(
        _locked_by_other(path, _SHARED_FIRST, _SHARED_SIZE)
        or _locked_by_other(shm, _SHM_LOCKS, _SHM_SIZE)
    )


def readable_as_is(path: Path) -> bool:
    """A read-only look at the file alone (its WAL and -shm ignored): whether SQLite reads it
    as a whole. An error opening it normally (a disk I/O error from a -wal deleted under a live
    writer) is damage only when this look fails too."""
    try:
        conn = sqlite3.connect(read_only_uri(path, immutable=True), uri=True)
    except sqlite3.Error:
        return False
    try:
        row = conn.execute("PRAGMA quick_check(1)").fetchone()
        return row is not None and row[0] == "ok"
    except sqlite3.Error:
        return False
    finally:
        conn.close()


def check_marker(path: Path) -> Path:
    """A file next to the database asking the next open for a full check."""
    return path.with_name(path.name + CHECK_MARKER_SUFFIX)


def request_full_check(path: Path) -> None:
    """Called when SQLite reported damage while reading: the next open checks every page."""
    with suppress(OSError):
        check_marker(path).touch()


def move_aside(path: Path, now: datetime | None = None) -> Path:
    """Rename a damaged file (and its WAL/SHM) to ``name.corrupt-YYYYmmdd-HHMMSS``, keeping it
    for whoever wants to rescue it, and return the new name."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        n += 1
    check_marker(path).unlink(missing_ok=True)
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, target.with_name(target.name + suffix))
    os.replace(path, target)
    return target


# ---------------------------------------------------------------------------------------------
# Migrations


def alembic_config() -> Config:
    """Alembic's configuration for the migrations shipped inside this package."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    return cfg


def current_revision(conn: Connection) -> str | None:
    from sqlalchemy import inspect

    if not inspect(conn).has_table("alembic_version"):
        return None
    row = conn.execute(text("SELECT version_num FROM alembic_version")).first()
    return None if row is None else str(row[0])


def upgrade(loc: Location, revision: str = "head") -> None:
    """Bring the schema to ``revision`` in one transaction (all or nothing)."""
    engine = make_engine(loc, pool=False)
    try:
        with engine.connect() as conn:
            if loc.is_sqlite:
                # Batch mode rebuilds tables; SQLite's own procedure for that wants FK checks
                # off (set outside a transaction), then a foreign_key_check before commit.
                conn.connection.driver_connection.execute(  # type: ignore[union-attr]
                    "PRAGMA foreign_keys=OFF"
                )
            conn.execution_options(bezique_write=True)
            with conn.begin():
                if not loc.is_sqlite:
                    # Two app instances starting on an empty club database: one migrates.
                    conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": PG_MIGRATION_LOCK})
                found = current_revision(conn)
                if found is not None and found not in REVISIONS:
                    raise NewerDatabaseError(
                        f"{loc.describe()} was written by a newer version of Bezique Referee"
                        f" (schema {found}); update the app to open it."
                    )
                from alembic import command

                cfg = alembic_config()
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, revision)
                if loc.is_sqlite:
                    bad = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if bad:
                        raise StorageError(f"migration left broken references: {bad[:5]}")
    except DBAPIError as exc:
        text_ = str(exc.orig).lower()
        if is_busy(exc.orig):
            raise busy_error(loc.describe()) from exc
        if loc.path is not None and ("malformed" in text_ or "not a database" in text_):
            request_full_check(loc.path)
        raise StorageError(
            f"{loc.describe()}: cannot bring the database up to date: {exc.orig}"
        ) from exc
    finally:
        engine.dispose()
