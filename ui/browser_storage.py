"""The phone build's storage: the SQLite file in the browser's IndexedDB, so matches survive a
reload, a browser restart and a killed tab.

Pyodide's file system lives in memory. Before Python starts, the build's worker script
(scripts/phone/worker-storage.js) mounts Emscripten's IDBFS on the app's data folder and reads
it back from IndexedDB. After every commit this module writes the changed files back
(``FS.syncfs``): one IndexedDB transaction per sync, so a tab killed in the middle keeps the
previous sync whole. A commit is followed by at most one sync at a time; commits made while
one runs are carried by the next.

Only durable is saved: until the sync that carries an entry has finished, ``pending`` counts
it and the match screens' save status (ui/views/save_status.py) says so if it lasts; a
failed sync (quota, storage taken away) is shown and retried. When the browser refuses
storage altogether (private mode), ``mode`` is "memory" and the app warns at start.

SQLite runs with a rollback journal here ("DELETE"): between two Python steps the file holds
exactly the committed state, which is what a sync copies; WAL's shared memory is untested on
this file system.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

from ui import runtime

DATA_DIR = "/home/pyodide/bezique"  # scripts/build_phone.py mounts IndexedDB here
SLOW_SYNC_SECONDS = 1.5  # a sync taking longer than this is shown as "not saved yet"
RETRY_SECONDS = 2.0
JOURNAL_ENV = "BEZIQUE_SQLITE_JOURNAL"


def _flet_js() -> Any:
    import flet_js  # type: ignore[import-not-found]  # the worker's JS module (Pyodide only)

    return flet_js


def mode() -> str:
    """ "idbfs" when the data folder is kept in IndexedDB, "memory" when the browser refused
    (matches then last only as long as the page)."""
    try:
        return str(getattr(_flet_js(), "storage", "memory") or "memory")
    except ImportError:
        return "memory"


def refusal() -> str:
    """The browser's reason when it refused storage ('' otherwise)."""
    try:
        return str(getattr(_flet_js(), "storageError", "") or "")
    except ImportError:
        return ""


def database_url() -> str:
    """The SQLite file in the data folder, with the journal mode the file system needs."""
    os.makedirs(DATA_DIR, exist_ok=True)
    os.environ.setdefault(JOURNAL_ENV, "DELETE")
    return f"sqlite:///{DATA_DIR}/bezique.sqlite3"


class BrowserDurability(runtime.Durability):
    """Counts commits not yet in IndexedDB and writes them there, one sync at a time."""

    def __init__(self, fs: Any) -> None:
        super().__init__()
        self._fs = fs
        self.pending = 0
        self.problem: str | None = None
        self._running = False
        self._files_changed = False  # a file beside the database (the device's settings)
        self._started_at = 0.0
        self.memory_only = mode() != "idbfs"
        self.refusal = refusal()
        if self.memory_only:
            self.problem = "memory"

    def watch(self, engine: Any) -> None:
        """Sync after every commit on ``engine`` (SQLAlchemy's commit event)."""
        from sqlalchemy import event

        event.listen(engine, "commit", lambda _conn: self.committed())

    def committed(self) -> None:
        if self.memory_only:
            return
        self.pending += 1
        if not self._running:
            asyncio.get_event_loop().call_soon(self._start)

    def carry_files(self) -> None:
        """A file beside the database changed (ui/device_settings.py): carry it to IndexedDB
        with the next sync, without counting it among the match's entries."""
        if self.memory_only:
            return
        self._files_changed = True
        if not self._running:
            asyncio.get_event_loop().call_soon(self._start)

    def _start(self) -> None:
        if self._running or (self.pending == 0 and not self._files_changed):
            return
        self._running = True
        self._files_changed = False
        self._started_at = time.monotonic()
        carried = self.pending
        loop = asyncio.get_event_loop()

        def done(err: Any = None) -> None:
            loop.call_soon(self._finished, carried, _error_text(err))

        self._fs.syncfs(False, _once(done))
        loop.call_later(SLOW_SYNC_SECONDS, self._check_slow)

    def _finished(self, carried: int, err: str | None) -> None:
        self._running = False
        before = self.problem
        if err is None:
            self.pending = max(0, self.pending - carried)
            self.problem = None
        else:
            self.problem = err
            self._files_changed = True  # whatever that sync carried is carried again
            asyncio.get_event_loop().call_later(RETRY_SECONDS, self._start)
        if (self.pending or self._files_changed) and err is None:
            self._start()
        if before != self.problem:
            self.changed()

    def _check_slow(self) -> None:
        slow = self._running and time.monotonic() - self._started_at >= SLOW_SYNC_SECONDS
        if slow and self.problem is None:
            self.problem = "slow"
            self.changed()


def _once(fn: Any) -> Any:
    """A callback JavaScript may call once (Pyodide frees it after); plain outside Pyodide."""
    try:
        from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]
    except ImportError:
        return fn
    return create_once_callable(fn)


def _error_text(err: Any) -> str | None:
    """``FS.syncfs``'s callback gets JavaScript's null when all went well (Pyodide's
    ``jsnull``, which is not None), else an error."""
    if err is None or not err:
        return None
    text = str(getattr(err, "message", "") or err)
    return None if text in ("null", "undefined", "jsnull") else text


def install() -> BrowserDurability:
    """The browser's durability for the app (called once, before storage opens)."""
    import pyodide_js  # type: ignore[import-not-found]

    d = BrowserDurability(pyodide_js.FS)
    runtime.use_durability(d)
    return d
