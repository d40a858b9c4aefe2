"""The phone build's entry point (scripts/build_phone.py packs it as the archive's main.py):
the same app as ui.main, in the phone's browser, on the database kept in its IndexedDB.

It logs the moments of its start to the browser's console ("bezique-mark NAME EPOCH_MS"), so
benchmarks/bench_offline.py can tell where a launch spends its time."""

from __future__ import annotations

import importlib
import sys
from typing import Any

# What every start imports and loads that Pyodide's memory image can hold: pure Python only
# (an image cannot carry a compiled extension: msgpack, Flet's bridge). The storage layer is
# among them: its tables come frozen with the build (referee/storage/tables.py), so it needs
# neither SQLModel nor pydantic and its compiled core. scripts/phone/python-image.js makes the
# image on the phone once per build; a later start restores it instead of importing these.
IMAGE_IMPORTS = (
    "flet",
    "ui.shell",
    "ui.browser_storage",
    "sqlalchemy",
    "sqlalchemy.orm",
    "sqlalchemy.dialects.sqlite",
    "referee.storage.db",
    "referee.storage.store",
    "pyodide.http",
    # Flet's own machinery for a session, which its lazy names do not reach before the first
    # screen (Flet's messaging imports msgpack, a compiled extension: not here).
    "flet.components.component",
    "flet.components.hooks.use_effect",
    "flet.components.hooks.use_state",
    "flet.controls.object_patch",
    "flet.pubsub",
)
# Modules whose presence means the image would restore a broken interpreter.
NOT_IN_AN_IMAGE = ("flet_js", "msgpack", "pydantic", "pydantic_core")


def prepare_image() -> list[str]:
    """Import and load what a start needs, for the memory image (``python-image.js``);
    returns what makes an image unsafe (a compiled extension loaded, Flet's bridge): an
    empty list means the image may be taken."""
    from ui import backend, flet_preload
    from ui.i18n import LANGUAGES, Translator

    for name in IMAGE_IMPORTS:
        importlib.import_module(name)
    backend.warm_up()  # variant data, rules reference, search indexes, both languages
    for lang in LANGUAGES:
        Translator(lang)("app.title")  # the screens' texts, read from their files once
    flet_preload.preload()  # the Flet controls the screens name (Flet imports them lazily)
    import flet as ft

    # Flet's icon table: read on the first icon named, through importlib.resources from the
    # packages zip (its whole directory scanned), a quarter of a second of Home's build.
    ft.Icons.HOME  # noqa: B018
    loaded = [
        name
        for name, module in sys.modules.items()
        if (getattr(module, "__file__", None) or "").endswith(".so")
    ]
    return sorted(loaded + [name for name in NOT_IN_AN_IMAGE if name in sys.modules])


def after_image() -> None:
    """What a start restored from an image must renew: its own randomness (the image holds
    the generator's state when it was taken), and sys.path without the entries the worker
    added again. Local time needs nothing: Emscripten asks the browser at every call."""
    import random

    random.seed()
    sys.path[:] = list(dict.fromkeys(sys.path))


def mark(name: str) -> None:
    """One moment of the start, on the browser's console."""
    import js  # type: ignore[import-not-found]  # Pyodide's bridge to the worker's globals

    js.console.log(f"bezique-mark {name} {js.Date.now()}")


def run() -> None:
    """Install the browser's storage, then hand Flet the app's ``main`` (Flet's Pyodide
    connection: no server, no threads)."""
    mark("python-app-start")
    after_image()
    from ui import start_marks

    start_marks.use(mark)  # the first screen's moments too (ui/shell.py)
    from ui import browser_storage

    browser_storage.install()
    url = browser_storage.database_url()
    import flet as ft

    from ui.shell import make_main

    mark("imports-done")
    import referee.storage.store  # noqa: F401  (the storage layer: in the image when there is one)

    mark("storage-imported")
    app_main = make_main(db_url=url)  # opens the store at once (one thread: inline)
    mark("store-open")

    async def main(page: Any) -> None:
        mark("session-start")  # Flutter's engine is up and asked for the first screen
        await app_main(page)
        mark("first-screen-sent")

    ft.run(main)
