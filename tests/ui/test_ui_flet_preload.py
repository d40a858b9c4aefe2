"""Flet's controls imported ahead of the first screen (ui/flet_preload.py): the names come
from the app's own bytecode, and after ``preload`` the first screens import none of Flet."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import flet

from ui import flet_preload

ROOT = Path(__file__).resolve().parents[2]


def test_the_names_are_flets_public_ones_that_the_apps_code_mentions() -> None:
    import ui.shell  # noqa: F401  (every screen's module loaded)

    names = flet_preload.names_used()
    assert {"Column", "Row", "Text", "Container", "Semantics"} <= names
    assert names <= set(flet.__all__)
    assert all(n[:1].isupper() for n in names)
    assert flet_preload.names_used(prefix="ui.runtime") == set()  # it names no control


def test_after_preload_home_and_the_deal_screen_import_no_flet_module(tmp_path: Path) -> None:
    """In a fresh interpreter, as the server or the phone's image would have it."""
    script = textwrap.dedent(
        f"""
        import sys
        sys.path[:0] = [{str(ROOT)!r}, {str(ROOT / "tests" / "ui")!r}]
        import ui.shell
        from ui import backend, flet_preload
        from ui.state.app import AppState
        from ui.views import SCREENS
        from ui.views.common import ViewContext
        from ui_helpers import new_match, start_deal
        flet_preload.preload()
        before = {{m for m in sys.modules if m.startswith("flet")}}
        app = AppState(backend.open_store("sqlite:///{tmp_path / 'p.db'}"), lang="ru")
        SCREENS[app.screen](ViewContext(app=app, page=None))
        ds = new_match(app)
        start_deal(ds)
        SCREENS[app.screen](ViewContext(app=app, page=None))
        after = {{m for m in sys.modules if m.startswith("flet")}}
        print(sorted(after - before))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[]"
