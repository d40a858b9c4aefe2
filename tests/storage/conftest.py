"""Storage test fixtures: every ``store`` test runs on SQLite and, when
BEZIQUE_TEST_POSTGRES_URL is set (CI runs scripts/pg-test-server.sh), on a real PostgreSQL."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.storage import Store

# The shared samples module sits next to this file; make it importable in any import mode.
sys.path.insert(0, str(Path(__file__).resolve().parent))

PG_ENV = "BEZIQUE_TEST_POSTGRES_URL"

def wipe_postgres(url: str) -> None:
    """Start each PostgreSQL test from an empty schema, as a fresh SQLite file would."""
    import psycopg

    plain = url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute("DROP SCHEMA IF EXISTS public CASCADE")
        conn.execute("CREATE SCHEMA public")


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Never touch the developer's real database: no URL from the environment, and the
    platform data dir points into the test's temporary folder."""
    monkeypatch.delenv("BEZIQUE_DATABASE_URL", raising=False)
    monkeypatch.delenv("FLET_APP_STORAGE_DATA", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL for an empty database on each backend."""
    if request.param == "sqlite":
        return str(tmp_path / "bezique.sqlite3")
    url = os.environ.get(PG_ENV)
    if not url:
        pytest.skip(
            f"PostgreSQL not configured: set {PG_ENV} "
            '(e.g. export BEZIQUE_TEST_POSTGRES_URL="$(scripts/pg-test-server.sh)")'
        )
    wipe_postgres(url)
    return url


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = Store.open(db_url)
    try:
        yield s
    finally:
        s.close()


@pytest.fixture
def sqlite_path(tmp_path: Path) -> Path:
    return tmp_path / "bezique.sqlite3"
