"""The phone build's entry point (scripts/build_phone.py packs it as the archive's main.py):
the same app as ui.main, in the phone's browser, on the database kept in its IndexedDB.

It logs the moments of its start to the browser's console ("bezique-mark NAME EPOCH_MS"), so
benchmarks/bench_offline.py can tell where a launch spends its time."""

from __future__ import annotations

from typing import Any


def mark(name: str) -> None:
    """One moment of the start, on the browser's console."""
    import js  # type: ignore[import-not-found]  # Pyodide's bridge to the worker's globals

    js.console.log(f"bezique-mark {name} {js.Date.now()}")


def run() -> None:
    """Install the browser's storage, then hand Flet the app's ``main`` (Flet's Pyodide
    connection: no server, no threads)."""
    mark("python-app-start")
    from ui import browser_storage

    browser_storage.install()
    url = browser_storage.database_url()
    import flet as ft

    from ui.shell import make_main

    mark("imports-done")
    import referee.storage  # noqa: F401  (SQLModel, SQLAlchemy, pydantic: timed on their own)

    mark("storage-imported")
    app_main = make_main(db_url=url)  # opens the store at once (one thread: inline)
    mark("store-open")

    async def main(page: Any) -> None:
        mark("session-start")  # Flutter's engine is up and asked for the first screen
        await app_main(page)
        mark("first-screen-sent")

    ft.run(main)
