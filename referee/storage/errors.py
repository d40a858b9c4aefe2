"""Storage exceptions: the app shows their message; none of them means data was lost."""

from __future__ import annotations


class StorageError(Exception):
    """The database could not do what was asked (nothing was half-written)."""


class StorageInputError(StorageError, ValueError):
    """Input to store is malformed or contradicts the match; ``where`` names the place
    (a file and/or a JSON path), and nothing was stored."""

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        self.detail = message
        super().__init__(f"{where}: {message}" if where else message)


class StaleWrite(StorageError):
    """A write was made against log position ``expected`` but the match's log is already at
    ``actual``: another device wrote first. Nothing was stored; the caller reloads and tells
    the user (compare-and-append, so two devices never silently diverge)."""

    def __init__(self, match_id: int, expected: int, actual: int) -> None:
        self.match_id = match_id
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"match {match_id} moved on to log position {actual} while this write was made"
            f" against position {expected}: nothing was stored"
        )


class NewerDatabaseError(StorageError):
    """The database was written by a newer version of the app: it is left untouched."""


class UnknownMatchError(StorageError, KeyError):
    """No match with that id."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown match"


class DatabaseBusyError(StorageError):
    """Another program holds the database's lock: nothing is wrong with it; try again later."""


class ReadOnlyStorageError(StorageError):
    """The database is read-only (its file or folder cannot be written): it can be read, and
    every change is refused with this error."""


class DamagedDatabaseError(StorageError):
    """A file that is not (or no longer) a usable Bezique database; ``path`` names it.
    ``bezique salvage`` recovers what it still holds."""

    def __init__(self, message: str, path: object = None) -> None:
        self.path = path
        super().__init__(message)


class AlreadyRecordedError(StorageError):
    """A retried write finds its entry already in the log (the first try was committed but
    its answer was lost with the connection): nothing was written twice."""


class DatabaseUnreachableError(StorageError):
    """The database server does not answer (stopped, or the network is down): nothing is
    wrong with the data; try again."""
