"""Dependencies point one way (ui -> storage -> engine), and the log derivation refuses a log
that was tampered with."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from storage_samples import SAMPLE_EVENTS

from referee.storage import StorageError, Store
from referee.storage.log import Entry, LogCorrupt, derive

REPO = Path(__file__).resolve().parents[2]


def _imports(module: str) -> set[str]:
    code = f"import sys, {module}; print('\\n'.join(sorted(sys.modules)))"
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60
    )
    assert run.returncode == 0, run.stderr
    return set(run.stdout.split())


def test_engine_modules_import_no_database() -> None:
    engine = sorted(p.stem for p in (REPO / "referee").glob("*.py") if p.stem != "__init__")
    assert "match" in engine and "record" in engine
    for name in engine:
        loaded = _imports(f"referee.{name}")
        assert not {"sqlalchemy", "sqlmodel", "alembic", "referee.storage"} & loaded, name


def test_storage_imports_no_ui() -> None:
    loaded = _imports("referee.storage")
    assert not {m for m in loaded if m == "ui" or m.startswith(("ui.", "flet"))}


def test_derive_follows_the_undo_stack() -> None:
    log = [
        Entry(1, "deal"), Entry(2, "event"), Entry(3, "event"),
        Entry(4, "undo", 3), Entry(5, "undo", 2), Entry(6, "redo", 2), Entry(7, "event"),
    ]
    state = derive(log)
    assert state.effective == (1, 2, 7)
    assert state.redoable == ()
    assert derive(log[:6]).redoable == (3,)


@pytest.mark.parametrize(
    "log",
    [
        [Entry(1, "undo", 1)],
        [Entry(1, "event"), Entry(2, "event"), Entry(3, "undo", 1)],
        [Entry(1, "event"), Entry(2, "redo", 1)],
        [Entry(1, "teleport")],
    ],
)
def test_derive_refuses_a_tampered_log(log: list[Entry]) -> None:
    with pytest.raises(LogCorrupt):
        derive(log)


def test_tampered_log_is_reported_not_crashed(sqlite_path: Path) -> None:
    store = Store.open(sqlite_path)
    try:
        mid = store.create_match("two-hand", ["Anna", "Boris"])
        store.start_deal(mid, "Anna", "9H")
        store.record(mid, SAMPLE_EVENTS[0])
        from sqlalchemy import text

        with store.engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO log_entry (match_id, seq, kind, target_seq, created_at)"
                    " VALUES (:m, 3, 'undo', 1, '2026-01-01 00:00:00')"
                ),
                {"m": mid},
            )
        with pytest.raises(StorageError, match="log entry 3"):
            store.load_match(mid)
    finally:
        store.close()


def test_verify_records_nothing(sqlite_path: Path) -> None:
    store = Store.open(sqlite_path)
    try:
        mid = store.create_match("two-hand", ["Anna", "Boris"])
        store.start_deal(mid, "Anna", "9H")
        before = store.history(mid)
        ruling = store.verify(mid, SAMPLE_EVENTS[0])
        assert ruling.accepted == store.record(mid, SAMPLE_EVENTS[0]).accepted
        assert len(store.history(mid)) == len(before) + 1
        assert store.players() == ["Anna", "Boris"]
    finally:
        store.close()


def test_unreadable_log_payload_is_reported_not_crashed(sqlite_path: Path) -> None:
    store = Store.open(sqlite_path)
    try:
        mid = store.create_match("two-hand", ["Anna", "Boris"])
        store.start_deal(mid, "Anna", "9H")
        store.record(mid, SAMPLE_EVENTS[0])
        from sqlalchemy import text

        with store.engine.begin() as conn:
            conn.execute(text("UPDATE log_entry SET payload = '{oops' WHERE seq = 2"))
        with pytest.raises(StorageError, match="log entry 2 is unreadable"):
            store.load_match(mid)
    finally:
        store.close()


def _storage_imports() -> dict[str, set[str]]:
    """Each storage module's imports of other storage modules, wherever they are made (at the
    top, in a function, under TYPE_CHECKING)."""
    import ast

    pkg = REPO / "referee" / "storage"
    names = {p.stem for p in pkg.glob("*.py")}
    out: dict[str, set[str]] = {}
    for path in pkg.glob("*.py"):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith("referee.storage."):
                    found.add(node.module.split(".")[2])
                elif node.module == "referee.storage":
                    found |= {a.name for a in node.names if a.name in names}
        out[path.stem] = found - {path.stem}
    return out


def test_the_storage_package_has_no_import_circle() -> None:
    graph = _storage_imports()
    assert "store" in graph["__init__"] or graph["__init__"] <= set(graph)
    for low in ("matchlog", "corrections", "exchange", "salvage"):
        assert "store" not in graph[low], low
    assert not {"store", "corrections", "exchange", "salvage"} & graph["matchlog"]

    def reach(start: str, seen: set[str]) -> set[str]:
        for nxt in graph.get(start, set()) - seen:
            seen.add(nxt)
            reach(nxt, seen)
        return seen

    for module in graph:
        if module != "__init__":
            assert module not in reach(module, set()), f"{module} imports itself round a circle"


def test_no_storage_module_uses_another_ones_private_names() -> None:
    """No ``store._info`` or ``ml._x``: what modules share is public in the module below."""
    import ast

    for path in (REPO / "referee" / "storage").glob("*.py"):
        tree = ast.parse(path.read_text())
        own = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        ours = {"store"}  # a Store handed in
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "referee.storage"
            ):
                ours |= {a.asname or a.name for a in node.names}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and isinstance(node.value, ast.Name)
                and node.value.id in ours
                and node.attr not in own  # a class of this module using its own helper
            ):
                raise AssertionError(f"{path.name}:{node.lineno}: {node.value.id}.{node.attr}")
