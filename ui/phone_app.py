"""The phone build's entry point (scripts/build_phone.py packs it as the archive's main.py):
the same app as ui.main, in the phone's browser, on the database kept in its IndexedDB."""

from __future__ import annotations


def run() -> None:
    """Install the browser's storage, then hand Flet the app's ``main`` (Flet's Pyodide
    connection: no server, no threads)."""
    from ui import browser_storage

    browser_storage.install()
    url = browser_storage.database_url()
    import flet as ft

    from ui.shell import make_main

    ft.run(make_main(db_url=url))
