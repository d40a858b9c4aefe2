"""A real app server (``python -m ui.main --web``) on a free port of 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import server_helpers  # noqa: F401  (puts the browser harness on sys.path)


@pytest.fixture
def app_server(tmp_path: Path) -> Iterator[Any]:
    from ui_e2e_harness import AppServer, free_port

    srv = AppServer(f"sqlite:///{tmp_path / 'server.sqlite3'}", free_port(), lang="en")
    srv.start()
    yield srv
    srv.stop()
