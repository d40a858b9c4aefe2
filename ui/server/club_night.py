"""A club night on one server (issue #24): the director's secret, and for each table its
number, its scorer and viewer secrets and its matches (the current one last).

Kept like table mode keeps its secrets (ui/server/table_mode.py): one file only the user can
read (mode 0600, written whole then renamed), so a restarted server lets the director and
every table's phones back in with the cookies they hold. Which match a table plays is kept
here too rather than in the database: the tables of one evening are the server's business,
the matches are storage's (a table's matches are ordinary matches there).

The night is changed only by the director's session (ui/state/club.py) and read by the club
gate on every request (ui/server/club_gate.py), from several threads: every change and every
read takes the lock, and readers get copies.
"""

from __future__ import annotations

import contextlib
import copy
import hmac
import json
import os
import secrets
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ui.server import qr
from ui.server.roles import Role
from ui.server.table import SECRET_BYTES, SECRET_PARAM

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
        self._saving = threading.Lock()  # one writer of the file at a time (two director tabs)

    # --- reading (any thread) --------------------------------------------------------------
    def tables(self) -> list[ClubTable]:
        with self._lock:
            return sorted(self._tables.values(), key=lambda t: t.number)

    def table(self, number: int) -> ClubTable | None:
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
        with self._lock:
            number = max(self._tables, default=0) + 1
            table = ClubTable(number, matches=(match_id,))
            self._tables[number] = table
        self.save()
        return table

    def next_match(self, number: int, match_id: int) -> ClubTable:
        """The table plays ``match_id`` now (its links stay: the phones follow it)."""
        with self._lock:
            t = self._tables[number]
            t = replace(t, matches=(*t.matches, match_id), abandoned=False)
            self._tables[number] = t
        self.save()
        return t

    def abandon(self, number: int) -> ClubTable:
        """The table stops: its scorers write nothing more (its match stays readable)."""
        with self._lock:
            t = replace(self._tables[number], abandoned=True)
            self._tables[number] = t
        self.save()
        return t

    # --- the evening's tournament (ui/state/club_tournament.py) ----------------------------
    def tournament(self) -> dict[str, Any] | None:
        """The tournament as last kept (a copy), or None."""
        with self._lock:
            return copy.deepcopy(self._tournament)

    def set_tournament(self, data: dict[str, Any] | None) -> None:
        """Keep the tournament (None: there is none) with the night, saved like a table."""
        with self._lock:
            self._tournament = copy.deepcopy(data) if data is not None else None
        self.save()

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
        """Write the night readable by this user only (whole, then renamed); unsaved, a
        restart makes new links, no worse than that."""
        if self.path is None:
            return
        with self._saving, contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(self.path.name + ".tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(self.to_json(), fh)
            os.replace(tmp, self.path)


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
    return ClubNight(
        director, tables, path=path, created=float(data["created"]), tournament=tournament
    )


_current: ClubNight | None = None


def start(
    address: str | None, port: int, *, new: bool = False, path: Path | None = None
) -> ClubNight:
    """The club night served on ``address`` (None: this machine only) and ``port``: the
    kept one after a restart, else (or with ``new``) a new one; :func:`current` gives it to
    the director's sessions."""
    global _current
    path = path or state_path()
    now = time.time()
    night = None if new else _load(path, now)
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
