"""The phone build's frozen tables (referee/storage/tables.py, scripts/build_phone.py): the
same schema as the SQLModel models, loaded with SQLAlchemy alone, and a store that works on
them as on the models."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from sqlalchemy import MetaData
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.schema import CreateIndex, CreateTable

from referee.storage.models import METADATA
from referee.storage.tables import freeze

ROOT = Path(__file__).resolve().parents[2]


def ddl(metadata: MetaData) -> dict[str, list[Any]]:
    """Every table's and index's DDL on SQLite and PostgreSQL, and its columns' defaults."""
    out: dict[str, list[Any]] = {}
    for table in metadata.sorted_tables:
        lines: list[Any] = []
        for dialect in (sqlite.dialect(), postgresql.dialect()):
            # its lines in a fixed order: a copy may list the same constraints in another
            create = str(CreateTable(table).compile(dialect=dialect))
            lines.append(sorted(line.strip().rstrip(",") for line in create.splitlines()))
            for index in sorted(table.indexes, key=lambda i: str(i.name)):
                lines.append(str(CreateIndex(index).compile(dialect=dialect)).strip())
        defaults = sorted(
            f"{c.name}={type(c.default).__name__}:{getattr(c.default, 'arg', None)!r}"
            for c in table.columns
            if c.default is not None and not callable(getattr(c.default, "arg", None))
        )
        calls = sorted(
            f"{c.name}={c.default.arg.__qualname__}"  # type: ignore[union-attr]
            for c in table.columns
            if c.default is not None and callable(getattr(c.default, "arg", None))
        )
        out[table.name] = lines + defaults + calls
    return out


# Run in a copy of the app with the frozen file beside tables.py, as the phone has it: the
# tables' DDL, what was imported, and a match written and read back through the store.
PROBE = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import referee.storage.tables as tables
assert tables.FROZEN.exists(), tables.FROZEN
from referee.storage.store import Store
out = {}
store = Store.open(f"sqlite:///{sys.argv[3]}")
mid = store.create_match(variant="two-hand", players=["Anna", "Boris"])
info = store.list_matches()[0]
out["match"] = [mid, list(info.players), info.created_at.utcoffset() is not None]
store.close()
leaks = ("sqlmodel", "pydantic", "pydantic_core")
out["imported"] = sorted(m for m in sys.modules if m.split(".")[0] in leaks)
out["models"] = "referee.storage.models" in sys.modules
sys.path.insert(0, sys.argv[2])
from test_storage_frozen_tables import ddl  # imports the models: only now
out["ddl"] = ddl(tables.METADATA)
print(json.dumps(out))
"""


def test_the_frozen_tables_make_the_models_schema_without_sqlmodel(tmp_path: Path) -> None:
    app = tmp_path / "app"
    skip = shutil.ignore_patterns("__pycache__", "tables.json")
    shutil.copytree(ROOT / "referee", app / "referee", ignore=skip)
    shutil.copytree(ROOT / "data", app / "data")
    (app / "referee" / "storage" / "tables.json").write_bytes(freeze(METADATA))
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(app), str(Path(__file__).parent), str(tmp_path / "m.db")],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["ddl"] == ddl(METADATA)
    assert got["imported"] == [] and got["models"] is False  # the phone has neither
    assert got["match"][1:] == [["Anna", "Boris"], True]  # written, read back, aware UTC


def test_the_frozen_tables_are_the_same_bytes_in_every_build() -> None:
    """A build whose schema did not change must not change the app archive (a phone would
    fetch it again): objects' hashes differ between processes, the frozen form must not."""
    code = (
        "import hashlib; from referee.storage.models import METADATA;"
        " from referee.storage.tables import freeze;"
        " print(hashlib.sha256(freeze(METADATA)).hexdigest())"
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
        ).stdout.strip()
        for _ in range(3)
    }
    assert len(runs) == 1, runs
