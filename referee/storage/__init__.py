"""Storage: matches kept as an append-only event log (SQLModel; SQLite by default, PostgreSQL
for a club server). The score is never stored apart from the log: it is the engine's replay.

For the app::

    from referee.storage import Store
    store = Store.open()                      # or Store.open(app_storage_dir=...), url=...
    if store.notice: show(store.notice)       # a damaged file was moved aside
    mid = store.unfinished_match()            # resume, or None
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    store.start_deal(mid, dealer="Anna", turn_up="9H")
    ruling = store.record(mid, {"type": "declare", "player": "Boris", "new": ["QS", "JD"]})
    store.undo(mid); store.redo(mid)          # logged, unlimited depth; False if nothing to do
    match = store.load_match(mid)             # referee.match.Match replayed from the log
    store.list_matches(); store.match_info(mid); store.history(mid)
    record = store.export_match(mid)          # dict in the match-record format
    mid2 = store.import_match("file.json")    # or a dict; StorageInputError names the place
    store.export_archive("backup.zip"); store.import_archive("backup.zip")
    store.player_stats()                      # list[PlayerStats]
    store.close()

Where: $BEZIQUE_DATABASE_URL (a ``postgresql://`` URL or an SQLite path) if set, else
``bezique.sqlite3`` in Flet's app storage (``FLET_APP_STORAGE_DATA``) or the platform's user
data dir. Errors: StorageInputError (bad input, nothing stored), NewerDatabaseError,
UnknownMatchError, StorageError; all are ``StorageError``.
"""

from referee.storage.errors import (
    NewerDatabaseError,
    StorageError,
    StorageInputError,
    UnknownMatchError,
)
from referee.storage.store import LogRow, MatchInfo, Store

__all__ = [
    "LogRow",
    "MatchInfo",
    "NewerDatabaseError",
    "StorageError",
    "StorageInputError",
    "Store",
    "UnknownMatchError",
]
