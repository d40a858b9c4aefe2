"""A damaged database never crashes the app: it is kept aside with a timestamp, what it still
holds is salvaged into a new database (tests/storage/test_storage_salvage.py), and the user is
told. Also: every connection gets the settings that make
writes safe."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from storage_samples import SAMPLE_EVENTS

from referee.storage import NewerDatabaseError, StorageError, Store, db


def _good_database(path: Path, events: int = 400) -> None:
    s = Store.open(path)
    mid = s.create_match("two-hand", ["Anna", "Boris"])
    s.start_deal(mid, "Anna", "9H")
    for i in range(events):
        s.record(mid, {"type": "penalty", "player": ["Anna", "Boris"][i % 2],
                       "offence": "P-REVOKE"})
    s.close()


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    assert len(data) > 8192
    path.write_bytes(data[: len(data) // 2 + 100])


def _garbage(path: Path) -> None:
    path.write_bytes(b"\x00garbage\xff" * 5000)


def _other_app(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    conn.execute("INSERT INTO notes (body) VALUES ('not ours')")
    conn.commit()
    conn.close()


def _scribbled_pages(path: Path) -> None:
    data = bytearray(path.read_bytes())
    for off in range(4096, len(data), 4096):  # every page but the header page
        data[off : off + 200] = b"\xa5" * 200
    path.write_bytes(bytes(data))


def _text_file(path: Path) -> None:
    path.write_text("SQLite format 3? no, a shopping list\n")


@pytest.mark.parametrize(
    "damage", [_truncate, _garbage, _other_app, _scribbled_pages, _text_file]
)
def test_damaged_file_is_moved_aside_and_a_fresh_database_started(
    sqlite_path: Path, damage: object
) -> None:
    if damage in (_truncate, _scribbled_pages):
        _good_database(sqlite_path)
        for side in ("-wal", "-shm"):
            assert not sqlite_path.with_name(sqlite_path.name + side).exists()
    assert callable(damage)
    damage(sqlite_path)
    original = sqlite_path.read_bytes()
    store = Store.open(sqlite_path)
    try:
        assert store.notice is not None and str(sqlite_path) in store.notice
        moved = [p for p in sqlite_path.parent.iterdir() if ".corrupt-" in p.name]
        assert len(moved) == 1
        assert re.fullmatch(r"bezique\.sqlite3\.corrupt-\d{8}-\d{6}", moved[0].name)
        assert moved[0].name in store.notice
        assert moved[0].read_bytes() == original, "the damaged file is kept as it was"
        # What the pages that remain hold comes back (a file cut in half keeps its match,
        # with the entries on the first half); the new database works.
        kept = 1 if damage is _truncate else 0
        assert len(store.list_matches()) == kept
        mid = store.create_match("two-hand", ["Anna", "Boris"])
        store.start_deal(mid, "Anna", "9H")
        store.record(mid, SAMPLE_EVENTS[0])
    finally:
        store.close()
    again = Store.open(sqlite_path)
    try:
        assert again.notice is None
        assert len(again.list_matches()) == kept + 1
    finally:
        again.close()


def test_healthy_and_empty_files_are_not_moved(sqlite_path: Path) -> None:
    sqlite_path.write_bytes(b"")
    s = Store.open(sqlite_path)
    assert s.notice is None
    s.close()
    _good_database(sqlite_path, events=3)
    s = Store.open(sqlite_path)
    assert s.notice is None and len(s.list_matches()) == 1
    s.close()
    assert not [p for p in sqlite_path.parent.iterdir() if ".corrupt-" in p.name]


def test_two_damaged_files_in_one_second_get_distinct_names(sqlite_path: Path) -> None:
    _garbage(sqlite_path)
    first = db.move_aside(sqlite_path)
    _garbage(sqlite_path)
    second = db.move_aside(sqlite_path)
    assert first != second and first.exists() and second.exists()


def test_without_repair_a_foreign_file_is_left_alone(sqlite_path: Path) -> None:
    _other_app(sqlite_path)
    before = sqlite_path.read_bytes()
    with pytest.raises(StorageError, match="not a usable Bezique database"):
        Store.open(sqlite_path, repair=False)
    assert sqlite_path.read_bytes() == before
    assert not [p for p in sqlite_path.parent.iterdir() if ".corrupt-" in p.name]


def test_database_from_a_newer_version_is_refused_untouched(sqlite_path: Path) -> None:
    _good_database(sqlite_path, events=2)
    conn = sqlite3.connect(sqlite_path)
    conn.execute("UPDATE alembic_version SET version_num = '9999'")
    conn.commit()
    conn.close()
    before = sqlite_path.read_bytes()
    with pytest.raises(NewerDatabaseError, match="newer version"):
        Store.open(sqlite_path)
    assert sqlite_path.read_bytes() == before
    assert not [p for p in sqlite_path.parent.iterdir() if ".corrupt-" in p.name]


def test_every_sqlite_connection_is_set_up_for_safe_writes(sqlite_path: Path) -> None:
    store = Store.open(sqlite_path)
    try:
        conns = [store.engine.raw_connection() for _ in range(3)]  # distinct pool members
        for c in conns:
            cur = c.cursor()
            assert cur.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert cur.execute("PRAGMA foreign_keys").fetchone()[0] == 1
            assert cur.execute("PRAGMA busy_timeout").fetchone()[0] == db.BUSY_TIMEOUT_MS
            assert cur.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
            cur.close()
        for c in conns:
            c.close()
    finally:
        store.close()


def test_foreign_keys_are_enforced(sqlite_path: Path) -> None:
    from sqlalchemy import text
    from sqlalchemy.exc import IntegrityError

    store = Store.open(sqlite_path)
    try:
        with pytest.raises(IntegrityError), store.engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO log_entry (match_id, seq, kind, created_at)"
                    " VALUES (999, 1, 'event', '2026-01-01')"
                )
            )
    finally:
        store.close()


def test_big_file_damage_found_later_is_handled_on_the_next_open(
    sqlite_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Above FULL_CHECK_MAX_BYTES the page-by-page check is skipped at open; damage met while
    reading then says so, and the next open checks the whole file, keeps it aside and salvages
    what it still holds."""
    _good_database(sqlite_path)
    data = bytearray(sqlite_path.read_bytes())
    half = (len(data) // 2 // 4096) * 4096
    for off in range(half, len(data), 4096):
        data[off : off + 300] = b"\x5a" * 300
    sqlite_path.write_bytes(bytes(data))
    monkeypatch.setattr(db, "FULL_CHECK_MAX_BYTES", 0)
    store = Store.open(sqlite_path)
    if store.notice is None:
        with pytest.raises(StorageError, match="damaged"):
            store.load_match(1)
        store.close()
        assert db.check_marker(sqlite_path).exists()
        store = Store.open(sqlite_path)
    try:
        assert store.notice is not None and "corrupt-" in store.notice
        assert "Recovered" in store.notice
        for m in store.list_matches():  # what came back replays
            store.load_match(m.id)
        assert not db.check_marker(sqlite_path).exists()
    finally:
        store.close()


def test_truncation_is_seen_without_the_full_check(
    sqlite_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _good_database(sqlite_path)
    _truncate(sqlite_path)
    monkeypatch.setattr(db, "FULL_CHECK_MAX_BYTES", 0)
    with pytest.raises(db.Damaged, match="truncated"):
        db.probe_sqlite_file(sqlite_path)


def test_file_behind_its_header_with_a_wal_is_healthy_not_truncated(tmp_path: Path) -> None:
    """A process killed mid-checkpoint can leave page 1 (with the new page count) written
    before the file grew; the WAL still holds the rest and SQLite recovers. Not damage."""
    live = tmp_path / "live.sqlite3"
    Store.open(live).close()
    conn = sqlite3.connect(live)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    for i in range(300):
        conn.execute(
            "INSERT INTO player (name, created_at) VALUES (?, '2026-01-01 00:00:00')",
            (f"player {i} " + "x" * 400,),
        )
        conn.commit()
    snap = tmp_path / "snap.sqlite3"  # the files as a kill would leave them
    snap.write_bytes(live.read_bytes())
    snap.with_name("snap.sqlite3-wal").write_bytes(live.with_name("live.sqlite3-wal").read_bytes())
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.close()
    header = bytearray(snap.read_bytes())
    assert pages * 4096 > len(header), "the WAL must hold pages beyond the file"
    header[28:32] = pages.to_bytes(4, "big")  # page 1 checkpointed ahead of the rest
    header[92:96] = header[24:28]
    snap.write_bytes(bytes(header))
    store = Store.open(snap)
    try:
        assert store.notice is None
        assert len(store.players()) == 300
    finally:
        store.close()
    assert not [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
