"""What the database held after its last write, kept in a small file beside it
(``bezique.sqlite3.seen``), so losses that leave a valid-looking database are noticed: a file
emptied to 0 bytes, or a ``-wal`` deleted under a live writer (its acknowledged entries vanish
with it and SQLite cannot know).

Written after every committed change without fsync (it is a witness, not data: a crash of the
machine can only make it older, never claim more than was written). Read once at open.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

SUFFIX = ".seen"
_SIZE = 96  # fixed-size record, rewritten in place


@dataclass(frozen=True)
class Seen:
    """The number of matches and the highest log entry id after a write."""

    matches: int
    log: int


def ledger_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + SUFFIX)


def read(db_path: Path) -> Seen | None:
    """The last record, or None (no file yet, or unreadable: then nothing is claimed)."""
    try:
        raw = ledger_path(db_path).read_bytes()[:_SIZE]
        obj = json.loads(raw.decode("ascii").strip())
        return Seen(int(obj["matches"]), int(obj["log"]))
    except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
        return None


class Ledger:
    """The open side file of one database."""

    def __init__(self, db_path: Path) -> None:
        self.path = ledger_path(db_path)
        self._fd: int | None = None

    def write(self, seen: Seen) -> None:
        data = json.dumps({"matches": seen.matches, "log": seen.log}).encode("ascii")
        try:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            os.pwrite(self._fd, data.ljust(_SIZE), 0)
        except OSError:
            self.close()  # a witness that cannot be written claims nothing

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


def loss(before: Seen | None, now: Seen, where: str) -> str | None:
    """The sentence for the user when the database holds less than it did, else None."""
    if before is None:
        return None
    if before.matches > 0 and now.matches == 0:
        return (
            f"{where} held {before.matches} {'match' if before.matches == 1 else 'matches'}"
            " when it was last used and now holds none:"
            " the file was emptied or replaced outside the app. Restore it from a backup if"
            " you have one (bezique import backup.zip)."
        )
    if now.log < before.log:
        return (
            f"{where} ends before what was last saved: log entries after number {now.log} (up"
            f" to {before.log}) are missing, most likely because its -wal file was deleted"
            " while the app was running. The matches are shown as far as they were kept."
        )
    return None
