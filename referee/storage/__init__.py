"""Storage: matches kept as an append-only event log (SQLModel; SQLite by default, PostgreSQL
for a club server). The score is never stored apart from the log: it is the engine's replay.
Design, file location, migrations and benchmark figures: docs/storage.md.

For the app::

    from referee.storage import Store, StorageError, StorageInputError
    store = Store.open()                      # or Store.open(url=...), app_storage_dir=...
    if store.notice: show(store.notice)       # damage salvaged, read-only, a loss noticed
    store.read_only                           # True: everything readable, writes refused
    mid = store.unfinished_match()            # resume: last played unfinished match, or None
    mid = store.create_match("two-hand", ["Anna", "Boris"], tracking="melds",
                             house_rules=(), target=None)
    store.start_deal(mid, dealer="Anna", turn_up="9H")        # dealer by name or seat
    ruling = store.verify(mid, event)         # what it would get; records nothing
    ruling = store.record(mid, {"type": "declare", "player": "Boris", "new": ["QS", "JD"]})
                                              # durable on return; rejected events are kept
    store.undo(mid); store.redo(mid)          # logged entries, unlimited depth; False if none
    pos = store.log_position(mid)             # the log's last seq: what a device's view shows
    store.record(mid, event, at=pos)          # compare-and-append: StaleWrite (nothing stored)
                                              # unless the log is still at ``pos``; every write
                                              # appends one entry, so the new position is pos+1
                                              # (also start_deal/undo/redo ``at=``)
    store.can_undo(mid); store.can_redo(mid)
    match = store.load_match(mid)             # referee.match.Match replayed from the log
    store.match_info(mid)                     # MatchInfo: players, variant, finished, winner
    store.list_matches(limit=20, offset=0)    # newest first; unfinished_only=True
    store.history(mid)                        # every log entry, undone ones included (audit)
    store.delete_match(mid)
    record = store.export_match(mid)          # dict in the match-record format (effective log)
    mid2 = store.import_match("file.json")    # or a dict; all or nothing
    store.export_archive("backup.zip"); store.import_archive("backup.zip")  # .skipped: known
    store.player_stats(); store.biggest_deals(10); store.best_combinations(10)
    store.player_list()                       # players with match counts (PlayerRow)
    store.rename_player("Anna", "Anna K")     # the name must be free; history follows the id
    store.merge_players("Bo", "Boris")        # Bo's matches become Boris's (not if they met)
    club = store.club()                       # finished matches: results, ratings, records
    store.close()

Events are the match record's JSON objects (players by name). Errors, all ``StorageError``:
``StorageInputError`` (bad input; ``.where`` names the file/field; nothing stored; also a
``ValueError``), ``UnknownMatchError``, ``NewerDatabaseError`` (file from a newer app, left
untouched), ``DatabaseBusyError`` (another program holds the lock: try again),
``ReadOnlyStorageError`` (a change on read-only storage). Busy, read-only and damaged files:
docs/storage.md. Where: ``url``, else $BEZIQUE_DATABASE_URL (``postgresql://…`` or an SQLite path),
else ``bezique.sqlite3`` in ``app_storage_dir``, Flet's ``FLET_APP_STORAGE_DATA`` or the
platform's user data dir. A ``Store`` may be shared by threads (writes are serialised).
"""

from typing import TYPE_CHECKING, Any

from referee.storage.errors import (
    NewerDatabaseError,
    StaleWrite,
    StorageError,
    StorageInputError,
    UnknownMatchError,
)

if TYPE_CHECKING:
    from referee.storage.store import LogRow, MatchInfo, Store

_LAZY = {"LogRow", "MatchInfo", "Store"}


def __getattr__(name: str) -> Any:
    """Load the database layer on first use, so ``bezique --help`` stays fast."""
    if name in _LAZY:
        from referee.storage import store

        return getattr(store, name)
    raise AttributeError(f"module 'referee.storage' has no attribute {name!r}")


__all__ = [
    "LogRow",
    "MatchInfo",
    "NewerDatabaseError",
    "StaleWrite",
    "StorageError",
    "StorageInputError",
    "Store",
    "UnknownMatchError",
]
