"""One truth across server processes: "match N changed at log position P", carried between
processes on one PostgreSQL database by PostgreSQL's own LISTEN/NOTIFY (issue 24).

Storage stays the truth: a notice only says *when* to look. Each write of the store (a new
match, a deal start, a recorded entry, an undo, a redo, a correction) says so with ``NOTIFY``
inside its own write transaction, so PostgreSQL delivers it when, and only when, the write
commits, and a write that is rolled back (refused, stale, failed) is never announced. The
payload is small JSON: the match, the position, the action, the deal, who made it (what the
writer's caller put in ``telling``: the device's name, number, whether it is the host's
screen, an undo's words) and, while the whole stays under PostgreSQL's 8000-byte limit, the
entry as stored and the engine's ruling; beyond it they are left out and the receiver reads
storage, which it does anyway.

Every feed has an ``origin`` of its own (one Store in a server process: one per process), put
in each payload, so a process never hears its own writes again (it told its own sessions
in-process already).

``listen`` starts one thread with a connection of its own that LISTENs. Every notice from
another origin goes to ``heard``; when the connection drops (the database restarted, the
backend was terminated, the network went) it reconnects, waiting a little longer each time,
and then calls ``resync``: notices sent while it was away are lost, so whoever listens must
read storage again.

A club server's workers also say here what changed in the club night (a table created, its
next match, abandoned: action ``night``, :meth:`ChangeFeed.announce`), which is kept in a file
beside storage, not in it (ui/server/club_night.py): the notice is sent once the file is
written, on a connection of its own.

SQLite has no server to carry anything: its feed (``NoFeed``) says nothing and hears nothing;
a single-laptop server is one process, whose own pubsub tells every session. This module is
the only place that knows the difference.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from sqlalchemy import Connection, text
from sqlalchemy.engine import URL

from referee.rulings import Ruling

log = logging.getLogger(__name__)

CHANNEL = "bezique_changes"
NIGHT = "night"  # a club night's change (not storage's): ``news`` says which table and what
PAYLOAD_LIMIT = 7900  # PostgreSQL refuses a payload of 8000 bytes or more
RETRY_FIRST, RETRY_MAX = 0.2, 5.0  # seconds between tries to listen again, doubling
IDLE_CHECK = 5.0  # seconds without a notice before the listening connection is checked
WAKE = 0.5  # seconds between looks at whether to stop


@dataclass(frozen=True)
class Change:
    """One write another process made, as its notice said it."""

    match_id: int
    position: int
    action: str  # new | deal | record | undo | redo | correct | night
    origin: str
    deal: int = 0
    event: dict[str, Any] | None = None  # a recorded entry as stored (None: read storage)
    ruling: Ruling | None = None  # the engine's ruling on it (None: read storage)
    news: Mapping[str, Any] = field(default_factory=dict)  # who made it (``telling``)


def ruling_obj(ruling: Ruling) -> dict[str, Any]:
    """A ruling as JSON: what its words and its verdict need (not the cards it proposes)."""
    return {
        "accepted": ruling.accepted,
        "rule": ruling.rule,
        "key": ruling.key,
        "params": dict(ruling.params),
        "points": ruling.points,
        "meld": ruling.meld,
    }


def ruling_from(obj: Any) -> Ruling | None:
    """The ruling a notice carried (None when it carried none or something else)."""
    if not isinstance(obj, dict):
        return None
    try:
        params = {
            str(k): v for k, v in dict(obj.get("params") or {}).items() if isinstance(v, str | int)
        }
        return Ruling(
            bool(obj["accepted"]),
            str(obj["rule"]),
            str(obj["key"]),
            MappingProxyType(params),
            points=int(obj.get("points") or 0),
            meld=str(obj["meld"]) if obj.get("meld") is not None else None,
        )
    except (KeyError, TypeError, ValueError):
        return None


def payload(change: Change) -> str:
    """The notice's text: everything while it fits, else without the entry, the ruling and
    the words (the receiver reads storage)."""
    body: dict[str, Any] = {
        "m": change.match_id,
        "p": change.position,
        "a": change.action,
        "o": change.origin,
        "d": change.deal,
        "n": dict(change.news),
    }
    if change.event is not None:
        body["e"] = change.event
    if change.ruling is not None:
        body["r"] = ruling_obj(change.ruling)
    said = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    if len(said.encode()) <= PAYLOAD_LIMIT:
        return said
    body.pop("e", None)
    body.pop("r", None)
    news = body["n"]
    body["n"] = {k: v for k, v in news.items() if k != "words"}
    said = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    if len(said.encode()) <= PAYLOAD_LIMIT:
        return said
    body["n"] = {}  # a device name cannot be this long; the bare notice always fits
    return json.dumps(body, separators=(",", ":"))


def change_of(text_: str) -> Change | None:
    """A notice read back (None for anything that is not one of ours)."""
    try:
        body = json.loads(text_)
        news = body.get("n") or {}
        event = body.get("e")
        return Change(
            int(body["m"]),
            int(body["p"]),
            str(body["a"]),
            str(body["o"]),
            int(body.get("d") or 0),
            event if isinstance(event, dict) else None,
            ruling_from(body.get("r")),
            MappingProxyType(dict(news) if isinstance(news, dict) else {}),
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        log.warning("not a change notice: %.200s", text_)
        return None


class NoFeed:
    """SQLite's feed: one process serves the table, nothing to carry between processes."""

    origin = ""

    def said(self, conn: Connection, change: Change) -> None:
        """Nothing to say."""

    def change(self, match_id: int, position: int, action: str, **kw: Any) -> Change:
        return Change(match_id, position, action, self.origin, **kw)

    @contextmanager
    def telling(self, news: Mapping[str, Any]) -> Iterator[None]:
        yield

    def announce(self, change: Change) -> None:
        """Nothing to announce: every session is in this process."""

    def listen(self, heard: Callable[[Change], object], resync: Callable[[], object]) -> None:
        """Nothing to hear."""

    def stop(self) -> None:
        """Nothing to stop."""


class ChangeFeed(NoFeed):
    """PostgreSQL's feed: NOTIFY in each write transaction, one LISTEN thread per feed."""

    def __init__(self, url: URL) -> None:
        self.origin = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"
        # psycopg's own address for the listening connection (SQLAlchemy's names the driver)
        self._conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._news = threading.local()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.backend_pid: int | None = None  # the listening connection's server process
        self.listening = threading.Event()  # set while LISTEN is in force

    @contextmanager
    def telling(self, news: Mapping[str, Any]) -> Iterator[None]:
        """Writes made on this thread inside the block say ``news`` (who makes them)."""
        before = getattr(self._news, "value", None)
        self._news.value = dict(news)
        try:
            yield
        finally:
            self._news.value = before

    def change(self, match_id: int, position: int, action: str, **kw: Any) -> Change:
        news = getattr(self._news, "value", None) or {}
        return Change(match_id, position, action, self.origin, news=news, **kw)

    def said(self, conn: Connection, change: Change) -> None:
        """NOTIFY inside the write's transaction: sent at its commit, never if rolled back."""
        conn.execute(
            text("SELECT pg_notify(:channel, :payload)"),
            {"channel": CHANNEL, "payload": payload(change)},
        )

    def announce(self, change: Change) -> None:
        """NOTIFY now, outside any storage write, on a connection of its own (a change of
        what is kept beside storage, made already: the club night's file)."""
        import psycopg

        with psycopg.connect(self._conninfo, autocommit=True, connect_timeout=5) as conn:
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload(change)))

    # --- listening ----------------------------------------------------------------------
    def listen(self, heard: Callable[[Change], object], resync: Callable[[], object]) -> None:
        """Hear every other origin's changes on a thread of its own (once per feed)."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._run, args=(heard, resync), name="bezique-change-feed", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=WAKE + 5)

    def _run(self, heard: Callable[[Change], object], resync: Callable[[], object]) -> None:
        wait = RETRY_FIRST
        first = True
        while not self._stop.is_set():
            try:
                self._listen(heard, resync, first)
                wait = RETRY_FIRST
            except Exception as exc:  # dropped or refused: try again, a little later each time
                self.listening.clear()
                self.backend_pid = None
                log.warning("change feed: not listening (%s); again in %.1f s", exc, wait)
                self._stop.wait(wait)
                wait = min(wait * 2, RETRY_MAX)
            first = False

    def _listen(
        self, heard: Callable[[Change], object], resync: Callable[[], object], first: bool
    ) -> None:
        import psycopg

        with psycopg.connect(self._conninfo, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f"LISTEN {CHANNEL}")
            row = conn.execute("SELECT pg_backend_pid()").fetchone()
            self.backend_pid = int(row[0]) if row else None
            self.listening.set()
            if not first:
                log.warning("change feed: listening again; every session reads storage again")
                _quietly(resync)  # what was said while away is lost: read storage instead
            checked = time.monotonic()
            while not self._stop.is_set():
                for notice in conn.notifies(timeout=WAKE, stop_after=1):
                    checked = time.monotonic()
                    change = change_of(notice.payload)
                    if change is not None and change.origin != self.origin:
                        _quietly(heard, change)
                if time.monotonic() - checked > IDLE_CHECK:
                    conn.execute("SELECT 1")  # a connection gone without a word raises here
                    checked = time.monotonic()
        self.listening.clear()


def _quietly(fn: Callable[..., object], *args: Any) -> None:
    """The listener's callbacks never stop it."""
    try:
        fn(*args)
    except Exception:
        log.exception("change feed callback")


def for_url(url: URL) -> NoFeed:
    """The feed of a database: PostgreSQL's, or SQLite's silent one."""
    return ChangeFeed(url) if url.get_backend_name() == "postgresql" else NoFeed()
