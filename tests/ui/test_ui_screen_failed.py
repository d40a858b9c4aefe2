"""A screen whose build raises is replaced by one that says so, with the way Home
(ui/views/screen_failed.py): never a frozen page whose live buttons record twice."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import flet as ft
import pytest

from ui.state.app import AppState
from ui.views import SCREENS
from ui.views.common import View, ViewContext
from ui.views.screen_failed import draw


def controls(control: Any) -> Iterator[Any]:
    """The control and every control under it (content and controls), depth first."""
    yield control
    for name in ("content", "controls"):
        child = getattr(control, name, None)
        for x in child if isinstance(child, list) else [child]:
            if isinstance(x, ft.Control):
                yield from controls(x)


def texts(control: Any) -> list[str]:
    return [str(c.value) for c in controls(control) if isinstance(c, ft.Text) and c.value]


def identifiers(control: Any) -> list[str]:
    return [c.identifier for c in controls(control)
            if isinstance(c, ft.Semantics) and c.identifier]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_screen_that_raises_is_said_in_the_players_language_with_the_way_home(
    store: Any, lang: str
) -> None:
    app = AppState(store, lang=lang)

    def broken(_ctx: ViewContext) -> View:
        raise TypeError("unhashable type: 'mappingproxy'")

    view = draw(ViewContext(app=app, page=None), {**SCREENS, "home": broken})  # type: ignore[arg-type]
    shown = texts(view.body)
    assert shown[0] == app.t("error.screen_failed") and "error." not in shown[0]
    assert "unhashable type: 'mappingproxy'" in shown[1]
    assert "screen-failed-home" in identifiers(view.body)
    app.go("rules")
    press(view.body, "screen-failed-home")
    assert app.screen == "home"


def press(control: Any, identifier: str) -> None:
    """Tap the button under the semantics node of that identifier."""
    found = [c.content for c in controls(control)
             if isinstance(c, ft.Semantics) and c.identifier == identifier]
    assert found, identifier
    button = found[0]
    while getattr(button, "on_click", None) is None:
        button = button.content
    button.on_click(None)


def test_a_screen_that_draws_is_drawn_as_it_is(store: Any) -> None:
    app = AppState(store, lang="en")
    ctx = ViewContext(app=app, page=None)  # type: ignore[arg-type]
    assert identifiers(draw(ctx, SCREENS).body) == identifiers(SCREENS["home"](ctx).body)
