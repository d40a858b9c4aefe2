"""The club modules are engine: they import no database and no UI (as the rest of
``referee`` outside ``referee.storage``), so the club server and the phone can both use them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MODULES = sorted(p.stem for p in (REPO / "referee" / "club").glob("*.py"))


@pytest.mark.parametrize("name", MODULES)
def test_club_module_imports_no_database_and_no_ui(name: str) -> None:
    module = "referee.club" if name == "__init__" else f"referee.club.{name}"
    code = f"import sys, {module}; print('\\n'.join(sorted(sys.modules)))"
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60
    )
    assert run.returncode == 0, run.stderr
    loaded = set(run.stdout.split())
    banned = {"sqlalchemy", "sqlmodel", "alembic", "referee.storage", "ui", "flet"}
    assert not {m for m in loaded if m.split(".")[0] in banned or m.startswith("referee.storage")}
