"""Fixtures for the app's state tests: a real storage layer on a fresh SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ui import backend
from ui.state.app import AppState


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Any]:
    s = backend.open_store(f"sqlite:///{tmp_path / 'ui.sqlite3'}")
    yield s
    s.close()


@pytest.fixture
def app(store: Any) -> AppState:
    return AppState(store, lang="en")
