"""QA P20: in table mode the host's own Home offers "Phones at the table: show the join codes"
with the scorer and viewer links and their QR codes (the terminal's and /table-links' own
code, ui/server/qr.py), large enough to scan across the table, in the host's language. The
role comes from the server (the session store ui/server/roles.bind fills from the websocket's
scope): a scorer's or viewer's session gets no codes, and outside table mode nobody does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import flet as ft
import pytest

from ui import shell
from ui.i18n import load_catalog
from ui.server import host_codes, qr, table_mode
from ui.server.roles import STORE_KEY, Role
from ui.state.app import AppState
from ui.views import SCREENS
from ui.views.common import VIEWPORT_WIDTH, ViewContext
from ui.views.join_codes import code_size


class FakeStore:
    def __init__(self, values: dict[str, str]) -> None:
        self.values = values

    def get(self, key: str) -> str | None:
        return self.values.get(key)


def page_as(role: Role) -> Any:
    """A page whose session the server bound to ``role`` (what roles.bind stores)."""
    return SimpleNamespace(session=SimpleNamespace(store=FakeStore({STORE_KEY: role.value})))


@pytest.fixture
def table(tmp_path: Path) -> Iterator[table_mode.TableSession]:
    session = table_mode.start("192.168.1.20", 8551, new=True, path=tmp_path / "state.json")
    yield session
    table_mode._current = None


def walk(control: object) -> list[Any]:
    out: list[Any] = []
    stack: list[Any] = [control]
    while stack:
        c = stack.pop()
        if c is None or isinstance(c, str):
            continue
        out.append(c)
        for attr in ("content", "controls"):
            child = getattr(c, attr, None)
            if isinstance(child, list):
                stack.extend(reversed(child))
            elif child is not None:
                stack.append(child)
    return out


def home(app: AppState) -> list[Any]:
    view = SCREENS["home"](ViewContext(app=app, page=None))  # type: ignore[arg-type]
    return walk(view.body)


def texts(controls: list[Any]) -> list[str]:
    return [c.value for c in controls if isinstance(c, ft.Text) and isinstance(c.value, str)]


def images(controls: list[Any]) -> list[Any]:
    return [c for c in controls if isinstance(c, ft.Image)]


def test_the_host_session_gets_both_join_codes_made_by_the_terminals_qr_code(
    table: table_mode.TableSession,
) -> None:
    codes = host_codes.for_page(page_as(Role.HOST))
    assert codes is not None
    assert [c.role for c in codes.codes] == ["scorer", "viewer"]
    for code, role in zip(codes.codes, (Role.SCORER, Role.VIEWER), strict=True):
        assert code.url == table.join_url(role)
        assert code.png == qr.png_bytes(table.join_url(role))  # the same code, not a second one
    assert codes.links_url == table.links_url
    assert shell.host_join_codes(page_as(Role.HOST)) == codes


def test_a_scorer_or_viewer_session_never_gets_the_codes(table: table_mode.TableSession) -> None:
    for role in (Role.SCORER, Role.VIEWER):
        assert host_codes.for_page(page_as(role)) is None
        assert shell.host_join_codes(page_as(role)) is None


def test_outside_table_mode_nobody_gets_codes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_mode, "_current", None)  # other tests may have started one
    assert host_codes.for_page(page_as(Role.HOST)) is None


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_hosts_home_offers_the_codes_in_its_language_and_shows_them_large(
    store: Any, table: table_mode.TableSession, lang: str
) -> None:
    t = load_catalog(lang)
    app = AppState(store, lang=lang)
    app.join_codes = host_codes.for_page(page_as(Role.HOST))
    shown = home(app)
    assert t["hostlinks.show"] in texts(shown)
    assert images(shown) == []  # folded until asked for
    app.join_codes.toggle()  # what the entry's tap does
    shown = home(app)
    assert t["hostlinks.hide"] in texts(shown)
    words = texts(shown)
    assert t["server.links_scorer"] in words and t["server.links_viewer"] in words
    assert table.join_url(Role.SCORER) in words and table.join_url(Role.VIEWER) in words
    assert any(f"{table.links_url}?lang={lang}" in w for w in words)
    pngs = [i.src for i in images(shown)]
    assert pngs == [c.png for c in app.join_codes.codes]
    assert all(i.width >= 280 for i in images(shown))


def test_a_phones_home_has_no_entry_and_no_code(store: Any, table: table_mode.TableSession) -> None:
    for role in ("scorer", "viewer"):
        app = AppState(store, lang="en", role=role)  # type: ignore[arg-type]
        app.join_codes = shell.host_join_codes(page_as(Role(role)))
        shown = home(app)
        assert load_catalog("en")["hostlinks.show"] not in texts(shown)
        assert images(shown) == []
        assert not any("?k=" in w for w in texts(shown))


@pytest.mark.parametrize("width", [360.0, 390.0, 1280.0])
def test_the_codes_are_large_but_fit_the_screen(width: float) -> None:
    token = VIEWPORT_WIDTH.set(width)
    try:
        size = code_size()
    finally:
        VIEWPORT_WIDTH.reset(token)
    assert 280 <= size <= width - 60
