"""Writing an entry durably while storage may be away (PostgreSQL stopped, the file busy).

The session's single writer thread (ui/backend.py) calls :meth:`RetryWhileAway.call` for
each entry in order. Storage that does not answer raises a plain StorageError: the call then
waits (0.25 s, doubling to 4 s) and tries again, for as long as it takes, so the entries
behind it keep their order and nothing shown on screen is dropped; ``away`` says why, and the
listener is told when storage stops and starts answering. Errors a retry cannot fix (the
event refused, another device's entry in the way, read-only storage, a bug) are raised at
once. A retry whose first try was committed but whose answer was lost finds the entry already
stored (AlreadyRecordedError) and counts as saved: nothing is written twice.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

RETRY_FIRST = 0.25  # seconds before the first retry; doubles up to RETRY_MAX
RETRY_MAX = 4.0


def permanent(exc: BaseException) -> bool:
    """Errors a retry cannot fix; a plain StorageError (no answer) is waited out."""
    from referee.storage.errors import (
        ReadOnlyStorageError,
        StaleWrite,
        StorageError,
        StorageInputError,
        UnknownMatchError,
    )

    if isinstance(
        exc, StaleWrite | ReadOnlyStorageError | StorageInputError | UnknownMatchError
    ):
        return True
    return not isinstance(exc, StorageError)


class RetryWhileAway:
    """One session's retrying of writes, and whether storage is answering."""

    CLOSE_GRACE = 10.0  # seconds a closed session's writer keeps trying before giving up

    def __init__(self, listener: Callable[[], Callable[[], object] | None]) -> None:
        self._listener = listener
        self.away: str | None = None  # why storage does not answer (None: it does)
        self._deadline: float | None = None
        self._wake = threading.Event()

    def give_up_after(self, seconds: float) -> None:
        """The session is closing: stop retrying after ``seconds`` (the error is raised)."""
        self._deadline = time.monotonic() + seconds
        self._wake.set()

    def call(self, fn: Callable[[], Any], shown: Any) -> Any:
        """``fn()`` (one durable write) retried while storage is away; ``shown`` stands for
        the answer when the entry turns out to be stored already."""
        from referee.storage.errors import AlreadyRecordedError

        delay = RETRY_FIRST
        while True:
            try:
                out = fn()
            except AlreadyRecordedError:
                out = shown
            except Exception as exc:
                if permanent(exc) or (
                    self._deadline is not None and time.monotonic() > self._deadline
                ):
                    raise
                first = self.away is None
                self.away = str(exc) or type(exc).__name__
                if first:
                    self._changed()
                self._wake.wait(delay)
                self._wake.clear()
                delay = min(delay * 2, RETRY_MAX)
                continue
            if self.away is not None:
                self.away = None
                self._changed()
            return out

    def _changed(self) -> None:
        fn = self._listener()
        if fn is not None:
            with contextlib.suppress(Exception):  # a closed page must not stop the writer
                fn()
