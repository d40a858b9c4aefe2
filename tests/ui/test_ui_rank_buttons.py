"""The rank buttons of the deal's setup speak the screen's language: a Russian table reads
Т К Д В (RULES glossary), while the identifiers the tests and records use stay A K Q J."""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest
from ui_helpers import new_match

from ui.state.app import AppState
from ui.views import deal as deal_view
from ui.views.cards import LANGUAGE as CARD_LANGUAGE
from ui.views.common import ViewContext


def _texts(control: Any) -> list[str]:
    """Every string a control tree shows (Text values and button contents)."""
    out: list[str] = []
    stack = [control]
    seen: set[int] = set()
    while stack:
        c = stack.pop()
        if c is None or id(c) in seen:
            continue
        seen.add(id(c))
        if isinstance(c, ft.Text) and isinstance(c.value, str):
            out.append(c.value)
        for name in ("content", "controls", "body", "title", "actions", "leading"):
            v = getattr(c, name, None)
            if isinstance(v, list):
                stack.extend(v)
            elif isinstance(v, ft.Control):
                stack.append(v)
            elif isinstance(v, str) and name == "content":
                out.append(v)
    return out


@pytest.mark.parametrize(("lang", "shown", "hidden"), [("ru", "Д", "Q"), ("en", "Q", "Д")])
def test_turn_up_rank_buttons_in_the_screens_language(
    store: Any, lang: str, shown: str, hidden: str
) -> None:
    app = AppState(store, lang=lang)
    new_match(app)
    # the turn-up is a grid of card faces (issue 21), drawn in the card language the shell
    # sets for every screen (ui/shell.py)
    token = CARD_LANGUAGE.set(lang)
    try:
        view = deal_view.build(ViewContext(app=app, page=None))  # type: ignore[arg-type]
    finally:
        CARD_LANGUAGE.reset(token)
    texts = _texts(view.body)
    assert shown in texts
    assert hidden not in texts
