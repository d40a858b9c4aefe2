"""Where the database lives: explicit URL, then $BEZIQUE_DATABASE_URL, then Flet's app storage,
then the platform's user data dir."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.storage import StorageInputError, Store, db


def test_default_is_the_platform_user_data_dir(tmp_path: Path) -> None:
    loc = db.resolve()
    assert loc.is_sqlite and loc.path is not None
    assert loc.path.name == db.DB_FILENAME
    assert str(tmp_path) in str(loc.path), "platformdirs follows XDG_DATA_HOME/HOME"
    assert db.APP_NAME in str(loc.path)


def test_flet_app_storage_wins_over_the_platform_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FLET_APP_STORAGE_DATA", str(tmp_path / "flet-data"))
    assert db.resolve().path == tmp_path / "flet-data" / db.DB_FILENAME
    assert db.resolve(app_storage_dir=tmp_path / "given").path == (
        tmp_path / "given" / db.DB_FILENAME
    )


def test_environment_url_wins_over_the_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BEZIQUE_DATABASE_URL", "postgresql://u:secret@club.example/bz")
    loc = db.resolve(app_storage_dir=tmp_path)
    assert not loc.is_sqlite
    assert loc.url.drivername == "postgresql+psycopg"
    assert "secret" not in loc.describe()
    assert db.resolve(tmp_path / "x.db").path == (tmp_path / "x.db").resolve()


def test_bad_urls_are_refused_with_the_reason() -> None:
    with pytest.raises(StorageInputError, match="unsupported"):
        db.resolve("mysql://u@h/db")
    with pytest.raises(StorageInputError, match="in-memory"):
        db.resolve("sqlite://")


def test_open_creates_the_folder_and_file(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "er"
    s = Store.open(app_storage_dir=target)
    try:
        assert (target / db.DB_FILENAME).exists()
        assert s.notice is None
    finally:
        s.close()
