"""A database that is busy (locked by another process) or read-only is not damage: it is never
moved aside. Busy: wait, then say so. Read-only: open it for reading, show everything, refuse
writes with a clear message."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from storage_samples import sample_record

from referee.storage import Store, db
from referee.storage.errors import DatabaseBusyError, ReadOnlyStorageError

ROOT = os.geteuid() == 0


def _bezique(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    code = "import sys; from referee.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def _with_matches(path: Path, n: int = 2) -> None:
    s = Store.open(path)
    for _ in range(n):
        s.import_match(sample_record())
    s.close()


@pytest.fixture
def locked(sqlite_path: Path) -> Iterator[sqlite3.Connection]:
    """Another process's exclusive lock on a healthy database with two matches."""
    _with_matches(sqlite_path)
    conn = sqlite3.connect(sqlite_path, isolation_level=None)
    conn.execute("PRAGMA locking_mode=EXCLUSIVE")
    conn.execute("BEGIN EXCLUSIVE")
    conn.execute("UPDATE match SET tracking = tracking")
    yield conn
    conn.close()


def _kept_files(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir() if ".corrupt-" in p.name)


def test_a_locked_database_is_busy_and_never_moved_aside(
    sqlite_path: Path, locked: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db, "BUSY_TIMEOUT_MS", 300)
    with pytest.raises(DatabaseBusyError, match="in use by another program"):
        Store.open(sqlite_path)
    assert _kept_files(sqlite_path) == []
    locked.close()  # the other program ends: the same file opens with everything in it
    with Store.open(sqlite_path) as s:
        assert len(s.list_matches()) == 2


def test_cli_on_a_locked_database_exits_2_saying_it_is_busy(
    sqlite_path: Path, locked: sqlite3.Connection
) -> None:
    res = _bezique("matches", "--db", str(sqlite_path), env={"BEZIQUE_BUSY_TIMEOUT_MS": "300"})
    assert res.returncode == 2, res.stderr
    assert "in use by another program" in res.stderr
    assert "Traceback" not in res.stderr
    assert str(sqlite_path) in res.stderr
    assert _kept_files(sqlite_path) == []


def test_the_default_database_locked_is_not_moved_either(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "flet-data"
    path = data / db.DB_FILENAME
    data.mkdir()
    _with_matches(path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA locking_mode=EXCLUSIVE")
    conn.execute("BEGIN EXCLUSIVE")
    conn.execute("UPDATE match SET tracking = tracking")
    try:
        res = _bezique(
            "matches", env={"FLET_APP_STORAGE_DATA": str(data), "BEZIQUE_BUSY_TIMEOUT_MS": "300"}
        )
    finally:
        conn.execute("ROLLBACK")
        conn.close()
    assert res.returncode == 2, res.stderr
    assert "empty database" not in res.stderr
    assert _kept_files(path) == []
    with Store.open(path) as s:
        assert len(s.list_matches()) == 2


# --------------------------------------------------------------------------------- read-only
def _immutable(path: Path, on: bool) -> None:
    """Root ignores permission bits; the immutable attribute binds root too."""
    subprocess.run(["chattr", "+i" if on else "-i", str(path)], check=True)


def _read_only_folder(path: Path) -> None:
    for side in path.parent.glob(path.name + "-*"):
        side.unlink()  # a cleanly closed database leaves no -wal/-shm
    if ROOT:
        _immutable(path.parent, True)
    else:
        path.parent.chmod(stat.S_IRUSR | stat.S_IXUSR)


def _read_only_file(path: Path) -> None:
    if ROOT:
        _immutable(path, True)
    else:
        path.chmod(stat.S_IRUSR)


@pytest.fixture
def restore_modes(sqlite_path: Path) -> Iterator[None]:
    yield
    if ROOT:
        _immutable(sqlite_path.parent, False)
        if sqlite_path.exists():
            _immutable(sqlite_path, False)
    sqlite_path.parent.chmod(0o755)
    if sqlite_path.exists():
        sqlite_path.chmod(0o644)


@pytest.mark.parametrize("make_read_only", [_read_only_folder, _read_only_file])
def test_read_only_storage_is_opened_for_reading_and_refuses_writes(
    sqlite_path: Path, make_read_only: object, restore_modes: None
) -> None:
    _with_matches(sqlite_path)
    before = sqlite_path.read_bytes()
    make_read_only(sqlite_path)  # type: ignore[operator]
    with Store.open(sqlite_path) as s:
        assert s.read_only
        assert s.notice is not None and "read-only" in s.notice
        matches = s.list_matches()
        assert len(matches) == 2
        assert s.load_match(matches[0].id).deals
        assert s.player_stats()
        with pytest.raises(ReadOnlyStorageError, match="read-only"):
            s.create_match("two-hand", ["Anna", "Boris"])
    assert sqlite_path.read_bytes() == before
    assert _kept_files(sqlite_path) == []


@pytest.mark.parametrize("make_read_only", [_read_only_folder, _read_only_file])
def test_cli_on_read_only_storage_reads_and_refuses_writes_without_traceback(
    sqlite_path: Path, make_read_only: object, restore_modes: None, tmp_path: Path
) -> None:
    _with_matches(sqlite_path)
    rec = tmp_path / "rec.json"
    import json

    rec.write_text(json.dumps(sample_record(deals=3)))  # not stored yet
    make_read_only(sqlite_path)  # type: ignore[operator]
    res = _bezique("matches", "--db", str(sqlite_path))
    assert res.returncode == 0, res.stderr
    assert len(res.stdout.strip().splitlines()) == 2
    res = _bezique("import", str(rec), "--db", str(sqlite_path))
    assert res.returncode == 2
    assert "read-only" in res.stderr and "Traceback" not in res.stderr
    assert _kept_files(sqlite_path) == []


@pytest.mark.parametrize("make_read_only", [_read_only_folder, _read_only_file])
def test_the_app_on_read_only_storage_shows_matches_and_refuses_taps_with_a_message(
    sqlite_path: Path, make_read_only: object, restore_modes: None
) -> None:
    from referee.events import Seven
    from ui.state.app import AppState
    from ui.state.new_match import NewMatchForm

    with Store.open(sqlite_path) as s:
        mid = s.create_match("two-hand", ["Anna", "Boris"])
        s.start_deal(mid, "Anna", "9H")
        s.record(mid, {"type": "seven", "player": "Anna"})
    make_read_only(sqlite_path)  # type: ignore[operator]
    store = Store.open(sqlite_path)
    app = AppState(store)
    assert app.unfinished_match() is not None
    assert app.resume()
    ds = app.deal
    assert ds is not None and ds.deal_scores() == [10, 0]
    assert ds.record(Seven(1)) is None  # refused at once, not shown as accepted
    assert ds.notice is not None and "read-only" in str(ds.notice.args.get("why"))
    assert ds.deal_scores() == [10, 0]
    assert not ds.undo() and "read-only" in str(ds.notice.args.get("why"))
    form = app.new_form = NewMatchForm()
    form.names = ["Anna", "Boris"]
    assert app.submit_new_match() is False
    assert "read-only" in str(form.errors["form"].args["why"])
    app.close()
    store.close()
