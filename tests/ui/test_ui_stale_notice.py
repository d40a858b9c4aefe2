"""QA P18: a write refused because another device changed the match first says WHAT was not
recorded (the entry in words, in the screen's language), so nobody has to remember it."""

from __future__ import annotations

from typing import Any

from test_ui_deal import pick
from ui_helpers import new_match, start_deal

from ui import backend
from ui.i18n import Translator
from ui.live import write_notice
from ui.state.app import AppState


def race(app: AppState, store: Any, lang: str) -> tuple[Any, Any]:
    """Device A records Anna's marriage; device B, not yet aware of it, records Boris's."""
    ds_a = new_match(app)
    start_deal(ds_a)
    other = AppState(store, lang=lang)
    assert other.resume()
    ds_b = other.deal
    assert ds_b is not None
    pick(ds_a, 0, "KC QC")
    assert ds_a.declare(None) is not None
    assert app.session is not None
    app.session.flush()
    pick(ds_b, 1, "KD QD")
    shown = ds_b.declare(None)  # B's screen shows it; storage will refuse it
    assert shown is not None
    assert other.session is not None
    try:
        other.session.flush()
    except backend.Stale as exc:
        return ds_b, exc
    raise AssertionError("B's entry was stored on a stale view")


def test_a_stale_refusal_names_the_entry_that_was_not_recorded(app: AppState, store: Any) -> None:
    ds_b, exc = race(app, store, "en")
    notice = write_notice(exc, "en")
    assert notice is not None and notice.error
    said = Translator("en")(notice.key, **notice.args)
    assert "Boris" in said and "marriage" in said.lower() and "20" in said
    assert "not recorded" in said.lower()
    assert ds_b.deal_scores() == [20, 0]  # B now shows what storage holds: Anna's only


def test_the_refusal_names_the_entry_in_the_screens_language(app: AppState, store: Any) -> None:
    _, exc = race(app, store, "ru")
    notice = write_notice(exc, "ru")
    assert notice is not None
    said = Translator("ru")(notice.key, **notice.args)
    assert "Boris" in said and "Не записано" in said and "марьяж" in said.lower()


def test_a_refusal_without_an_entry_keeps_the_general_words() -> None:
    notice = write_notice(backend.Stale("moved"), "en")
    assert notice is not None and notice.key == "table.stale"
