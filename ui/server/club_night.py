"""A club night on one server (issue #24): the director's secret, and for each table its
number, its scorer and viewer secrets and its matches (the current one last).

Kept like table mode keeps its secrets (ui/server/table_mode.py): one file only the user can
read (mode 0600, written whole then renamed), so a restarted server lets the director and
every table's phones back in with the cookies they hold. Which match a table plays is kept
here too rather than in the database: the tables of one evening are the server's business,
the matches are storage's (a table's matches are ordinary matches there).

The night is changed by the director's sessions (ui/state/club.py) and read by the club gate
on every request (ui/server/club_gate.py), from several threads and, with ``--workers``, from
several processes (ui/server/club_workers.py) that keep the one file:

- every change is a locked read-modify-write (:meth:`ClubNight.changing`): an exclusive
  ``fcntl`` lock on a file beside the night's, the night read again if another process
  changed it, the change made, the whole file written and renamed, the lock let go; so two
  processes adding tables at once get two numbers, and neither change is lost;
- every read first looks whether the file changed on disk (one ``stat``: its inode, time and
  size) and reads it again if so, so a table another worker created opens its links here at
  once, and a table another worker abandoned writes nothing more here either.

Within a process every change and every read takes the lock, and readers get copies.
"""

from __future__ import annotations

import contextlib
import copy
import fcntl
import hmac
import json
import os
import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ui.server import qr
from ui.server.roles import Role
from ui.server.secret_link import SECRET_PARAM
from ui.server.table import SECRET_BYTES

NIGHT_HOURS = 18  # a kept night older than this is over: the next start is a new one


def _secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


@dataclass(frozen=True)
class ClubTable:
    """One table of the evening: its links' secrets and its matches (the current one last)."""

    number: int
    scorer: str = field(default_factory=_secret)
    viewer: str = field(default_factory=_secret)
    matches: tuple[int, ...] = ()
    abandoned: bool = False

    @property
    def match_id(self) -> int:
        return self.matches[-1]


@dataclass(frozen=True)
class Grant:
    """What a secret opens: the director's screen (``table`` None) or one table's role."""

    role: Role
    table: int | None = None


class ClubNight:
    """The evening's tables and secrets; ``path`` None keeps them in memory only (tests)."""

    def __init__(
        self,
        director: str | None = None,
        tables: tuple[ClubTable, ...] = (),
        *,
        path: Path | None = None,
        created: float | None = None,
        base_url: str = "http://127.0.0.1:8550",
        host_url: str = "http://127.0.0.1:8550/",
        tournament: dict[str, Any] | None = None,
    ) -> None:
        self.director = director or _secret()
        self._tables = {t.number: t for t in tables}
        # the evening's tournament (ui/state/club_tournament.py): JSON the night keeps whole
        # and does not read; None while there is none
        self._tournament = copy.deepcopy(tournament) if tournament is not None else None
        self.path = path
        self.created = time.time() if created is None else created
        self.base_url = base_url.rstrip("/")  # where phones reach the server
        self.host_url = host_url  # the laptop's own address (the director without a link)
        self._lock = threading.Lock()
        # one writer of the file at a time (two director tabs); re-entered by a change made
        # inside another (a tournament's round: its tables, then the round)
        self._saving = threading.RLock()
        self._file_locked = 0  # how deep this process holds the file's lock (under _saving)
        self._on_disk: tuple[int, int, int] | None = None  # the file as last read or written

    # --- reading (any thread) --------------------------------------------------------------
    def tables(self) -> list[ClubTable]:
        self.fresh()
        with self._lock:
            return sorted(self._tables.values(), key=lambda t: t.number)

    def table(self, number: int) -> ClubTable | None:
        self.fresh()
        with self._lock:
            return self._tables.get(number)

    def readable(self, number: int) -> frozenset[int]:
        """The matches a phone of table ``number`` may read: every match the table played."""
        t = self.table(number)
        return frozenset(t.matches) if t else frozenset()

    def writable(self, number: int) -> int | None:
        """The one match a scorer of table ``number`` may write to: its current one, while
        the table is not abandoned."""
        t = self.table(number)
        return None if t is None or t.abandoned or not t.matches else t.match_id

    def grant_for(self, secret: str | None) -> Grant | None:
        """What ``secret`` opens, compared in constant time with every secret of the night
        (no early exit: the time taken does not say which one nearly matched)."""
        if not secret:
            return None
        given = secret.encode("utf-8", "replace")
        found: Grant | None = None
        self.fresh()
        with self._lock:
            pairs = [(self.director, Grant(Role.DIRECTOR))]
            for t in self._tables.values():
                pairs.append((t.scorer, Grant(Role.SCORER, t.number)))
                pairs.append((t.viewer, Grant(Role.VIEWER, t.number)))
        for expected, grant in pairs:
            if hmac.compare_digest(given, expected.encode()):
                found = grant
        return found

    def director_url(self) -> str:
        return f"{self.base_url}/?{SECRET_PARAM}={self.director}"

    def join_url(self, number: int, role: str) -> str:
        t = self.table(number)
        if t is None:
            raise KeyError(number)
        secret = t.scorer if role == Role.SCORER.value else t.viewer
        return f"{self.base_url}/?{SECRET_PARAM}={secret}"

    def qr_png(self, number: int, role: str) -> bytes:
        return qr.png_bytes(self.join_url(number, role))

    # --- the director's changes ------------------------------------------------------------
    def add_table(self, match_id: int) -> ClubTable:
        """A new table (the next number) playing ``match_id``, with new secrets."""
        with self.changing(), self._lock:
            number = max(self._tables, default=0) + 1
            table = ClubTable(number, matches=(match_id,))
            self._tables[number] = table
        return table

    def next_match(self, number: int, match_id: int) -> ClubTable:
        """The table plays ``match_id`` now (its links stay: the phones follow it)."""
        with self.changing(), self._lock:
            t = self._tables[number]
            t = replace(t, matches=(*t.matches, match_id), abandoned=False)
            self._tables[number] = t
        return t

    def abandon(self, number: int) -> ClubTable:
        """The table stops: its scorers write nothing more (its match stays readable)."""
        with self.changing(), self._lock:
            t = replace(self._tables[number], abandoned=True)
            self._tables[number] = t
        return t

    # --- the evening's tournament (ui/state/club_tournament.py) ----------------------------
    def tournament(self) -> dict[str, Any] | None:
        """The tournament as last kept (a copy), or None."""
        self.fresh()
        with self._lock:
            return copy.deepcopy(self._tournament)

    def set_tournament(self, data: dict[str, Any] | None) -> None:
        """Keep the tournament (None: there is none) with the night, saved like a table."""
        with self.changing(), self._lock:
            self._tournament = copy.deepcopy(data) if data is not None else None

    # --- one file, several processes -------------------------------------------------------
    @contextlib.contextmanager
    def changing(self) -> Iterator[None]:
        """One change of the night, whole, among every process that keeps its file: the
        file's lock taken, the night read again if another process changed it, the block's
        change made (in memory, under ``self._lock``), the whole night written, the lock let
        go. Every change of the night goes through here; a change that raises is not written
        (what the block changed in memory stays until the file is read again)."""
        with self._saving, self._file_lock():
            self.fresh(force=True)
            yield
            self._write()

    @contextlib.contextmanager
    def _file_lock(self) -> Iterator[None]:
        """The exclusive lock of the night among processes (``fcntl.flock`` on a file beside
        it, which renames never replace); none for a night kept in memory, or where the lock
        file cannot be made (the write that follows fails too, as an unsaved night)."""
        if self.path is None or self._file_locked:
            self._file_locked += 1  # held already, further out (flock would wait on itself)
            try:
                yield
            finally:
                self._file_locked -= 1
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path.with_name(self.path.name + ".lock"), os.O_RDWR | os.O_CREAT,
                         0o600)
        except OSError:
            yield
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            self._file_locked += 1
            try:
                yield
            finally:
                self._file_locked -= 1
        finally:
            os.close(fd)  # closing lets the lock go

    def fresh(self, *, force: bool = False) -> None:
        """Read the night again if its file changed since this process last read or wrote
        it (another worker created a table, started its next match, abandoned it; each
        writing has a later modification time than the one before, :meth:`_write`), or
        always with ``force``. A file that is gone or unreadable leaves the night as it
        is."""
        if self.path is None:
            return
        seen = _stamp(self.path)
        if seen is None or (seen == self._on_disk and not force):
            return
        kept = _load(self.path, time.time())
        if kept is None:
            return
        with self._lock:
            for name, value in vars(kept).items():
                if name not in _RUNNING and not isinstance(value, _LOCKS):
                    setattr(self, name, value)
            self._on_disk = seen

    # --- keeping ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, object]:
        with self._lock:
            tables = [
                {
                    "number": t.number,
                    "scorer": t.scorer,
                    "viewer": t.viewer,
                    "matches": list(t.matches),
                    "abandoned": t.abandoned,
                }
                for t in sorted(self._tables.values(), key=lambda t: t.number)
            ]
            tournament = copy.deepcopy(self._tournament)
        kept: dict[str, object] = {
            "created": self.created,
            "director": self.director,
            "tables": tables,
        }
        if tournament is not None:
            kept["tournament"] = tournament
        return kept

    def save(self) -> None:
        """Write the night readable by this user only (whole, then renamed), under the
        file's lock; unsaved, a restart makes new links, no worse than that. A change of
        the night goes through :meth:`changing` instead, which also reads it first."""
        if self.path is None:
            return
        with self._saving, self._file_lock():
            self._write()

    def _write(self) -> None:
        """The file written whole and renamed (the caller holds the file's lock); each
        process writes through its own temporary file. Its modification time is made later
        than the file's before it, even within one tick of the clock, so a reader's one
        ``stat`` always tells a new writing (:meth:`fresh`)."""
        if self.path is None:
            return
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            before = _stamp(self.path)
            tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(self.to_json(), fh)
            ns = time.time_ns()
            if before is not None and ns <= before[1]:
                ns = before[1] + 1
            os.utime(tmp, ns=(ns, ns))
            os.replace(tmp, self.path)
            self._on_disk = _stamp(self.path)


# what a night read again from its file leaves as this process has it: where it is served,
# its locks, what it knows of the file (everything else is the file's)
_RUNNING = frozenset({"path", "base_url", "host_url", "_on_disk", "_file_locked"})
_LOCKS = (type(threading.Lock()), type(threading.RLock()))


def _stamp(path: Path) -> tuple[int, int, int] | None:
    """What tells one writing of the file from another (a writing is a new file renamed
    over the old one: a new inode, time and size), or None when there is no file."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def state_path() -> Path:
    """Where the club night is kept (``BEZIQUE_CLUB_STATE`` or the user's state folder)."""
    env = os.environ.get("BEZIQUE_CLUB_STATE")
    if env:
        return Path(env)
    import platformdirs

    folder = platformdirs.user_state_dir("bezique-referee", appauthor=False)
    return Path(folder) / "club-night.json"


def _load(path: Path, now: float) -> ClubNight | None:
    """The kept night if it is young enough and whole; anything unreadable is no night."""
    stamp = _stamp(path)  # before reading: a writing after it is read again next time
    try:
        data = json.loads(path.read_text("utf-8"))
        if now - float(data["created"]) >= NIGHT_HOURS * 3600:
            return None
        tables = tuple(
            ClubTable(
                int(t["number"]),
                str(t["scorer"]),
                str(t["viewer"]),
                tuple(int(m) for m in t["matches"]),
                bool(t.get("abandoned", False)),
            )
            for t in data["tables"]
        )
        director = str(data["director"])
        tournament = data.get("tournament")
        if not isinstance(tournament, dict):
            tournament = None  # its own reader (ui/state/club_tournament.py) checks the rest
    except (OSError, ValueError, KeyError, TypeError):
        return None
    kept = [director, *(s for t in tables for s in (t.scorer, t.viewer))]
    if any(len(s) < 22 for s in kept) or any(not t.matches for t in tables):
        return None  # under 128 bits, or a table without a match: not one of ours
    night = ClubNight(
        director, tables, path=path, created=float(data["created"]), tournament=tournament
    )
    night._on_disk = stamp
    return night


class NoNightToJoin(Exception):
    """A worker found no night kept in the file its server process started."""


_current: ClubNight | None = None


def start(
    address: str | None,
    port: int,
    *,
    new: bool = False,
    path: Path | None = None,
    join: bool = False,
) -> ClubNight:
    """The club night served on ``address`` (None: this machine only) and ``port``: the
    kept one after a restart, else (or with ``new``) a new one; :func:`current` gives it to
    the director's sessions. ``join``: a worker of a server that already started the night
    (``--workers``): the kept night, never a new one (NoNightToJoin)."""
    global _current
    path = path or state_path()
    now = time.time()
    night = None if new else _load(path, now)
    if night is None and join:
        raise NoNightToJoin(f"no club night is kept in {path}")
    if night is None:
        night = ClubNight(path=path, created=now)
        night.save()
    night.base_url = f"http://{address or '127.0.0.1'}:{port}"
    night.host_url = f"http://127.0.0.1:{port}/"
    _current = night
    return night


def current() -> ClubNight | None:
    """The club night this server runs, or None outside club mode."""
    return _current


def terminal_text(night: ClubNight, t: dict[str, str]) -> str:
    """What the terminal shows at the start: the director's link with its code."""
    url = night.director_url()
    return "\n".join(
        [
            t["club.terminal_title"],
            "",
            f"{t['club.terminal_director']}: {url}",
            qr.terminal_text(url),
            f"{t['club.terminal_host']}: {night.host_url}",
        ]
    )
