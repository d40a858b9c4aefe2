"""Entries the screen shows but storage does not hold yet, written in order by one thread that
keeps retrying while storage is away (PostgreSQL stopped, the file busy).

The screen may show a ruling at once (the session's engine copy decides it), but an entry
counts as saved only when ``store.record`` has returned, i.e. when it is durable. While storage
is away the entries wait here in order, ``away`` says why (the screen shows it), and they are
written as soon as storage answers again, so a session survives an outage. A retry passes the
log position the entry must take, so an entry whose first write was committed but whose answer
was lost is never written twice.

Failures that retrying cannot fix (storage ruled differently, the log moved on elsewhere, the
event is refused, the storage is read-only) stop the queue: ``failure`` holds the error and the
session goes back to what storage has.
"""

from __future__ import annotations

import contextlib
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

RETRY_FIRST = 0.25  # seconds before the first retry; doubles up to RETRY_MAX
RETRY_MAX = 4.0


@dataclass
class _Entry:
    seq: int
    obj: dict[str, Any]
    shown: Any
    record: Callable[..., Any]  # the store's writer as it was when the entry was made


class Diverged(Exception):
    """Storage ruled differently on an event than the screen showed (another device changed
    the match meanwhile)."""


def _permanent(exc: BaseException) -> bool:
    """Errors a retry cannot fix. Storage that does not answer (a lost connection, a server
    stopped, a busy file) raises a plain StorageError: that is waited out. Anything else (a
    refused event, another device's entry in the way, read-only storage, a bug) is not."""
    from referee.storage.errors import (
        LogMovedOnError,
        ReadOnlyStorageError,
        StorageError,
        StorageInputError,
        UnknownMatchError,
    )

    if isinstance(
        exc, LogMovedOnError | ReadOnlyStorageError | StorageInputError | UnknownMatchError
    ):
        return True
    return not isinstance(exc, StorageError)


class PendingWrites:
    """One match's queue of unsaved entries and the thread that writes them."""

    def __init__(
        self,
        store: Any,
        match_id: int,
        verdict: Callable[[Any], object],
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self.store = store
        self.match_id = match_id
        self._verdict = verdict
        self.on_change = on_change
        self._queue: deque[_Entry] = deque()
        self._cond = threading.Condition()
        self._closed = False
        self.away: str | None = None  # why storage is not answering (None: it is)
        self.failure: BaseException | None = None
        self.saved = 0  # entries made durable by this queue
        self._thread = threading.Thread(
            target=self._run, name=f"bezique-write-{match_id}", daemon=True
        )
        self._thread.start()

    # ------------------------------------------------------------------ the session's side
    def submit(self, seq: int, obj: dict[str, Any], shown: Any) -> None:
        with self._cond:
            self._queue.append(_Entry(seq, obj, shown, self.store.record))
            self._cond.notify_all()

    @property
    def pending(self) -> int:
        """Entries shown but not yet durable."""
        with self._cond:
            return len(self._queue)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until every entry is saved (True) or a failure stopped the queue (True), or
        ``timeout`` passed with entries still waiting (False)."""
        with self._cond:
            return self._cond.wait_for(
                lambda: not self._queue or self.failure is not None, timeout=timeout
            )

    def take_failure(self) -> BaseException | None:
        with self._cond:
            failure, self.failure = self.failure, None
            return failure

    def close(self, timeout: float | None = None) -> bool:
        """Stop taking entries; wait up to ``timeout`` for the queue. Entries still waiting
        (storage away) keep being retried by the thread until they are saved."""
        done = self.wait(timeout)
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        return done

    # ------------------------------------------------------------------ the writer thread
    def _run(self) -> None:
        delay = RETRY_FIRST
        while True:
            with self._cond:
                self._cond.wait_for(lambda: bool(self._queue) or self._closed)
                if not self._queue:
                    return  # closed and everything saved
                head = self._queue[0]
            try:
                self._write(head)
            except Exception as exc:  # every failure is either waited out or reported
                if _permanent(exc):
                    with self._cond:
                        self.failure = exc
                        self._queue.clear()
                        self.away = None
                        self._cond.notify_all()
                    self._changed()
                    delay = RETRY_FIRST
                    continue
                first = self.away is None
                self.away = str(exc) or type(exc).__name__
                if first:
                    self._changed()
                with self._cond:
                    self._cond.wait(timeout=delay)
                delay = min(delay * 2, RETRY_MAX)
                continue
            came_back = self.away is not None
            with self._cond:
                if self._queue and self._queue[0] is head:
                    self._queue.popleft()
                self.saved += 1
                if not self._queue:
                    self.away = None
                self._cond.notify_all()
                drained = not self._queue
            delay = RETRY_FIRST
            if came_back and drained:  # only a change of state re-renders, not every save
                self._changed()

    def _write(self, entry: _Entry) -> None:
        from referee.storage.errors import AlreadyRecordedError

        try:
            stored = entry.record(self.match_id, entry.obj, seq=entry.seq)
        except AlreadyRecordedError:
            return  # the earlier try was committed; its answer was lost with the connection
        if self._verdict(stored) != self._verdict(entry.shown):
            raise Diverged(str(getattr(stored, "message", "")))

    def _changed(self) -> None:
        if self.on_change is not None:
            with contextlib.suppress(Exception):  # a closed page must not stop the writer
                self.on_change()
