"""Table mode's messages name their entry (QA P18, P25): a write refused as stale says what
was not recorded, an undo or redo says which entry it took back or restored, and the end of a
deal recorded on another phone is said with its last trick, not only the brisques."""

from __future__ import annotations

from typing import Any

import pytest
from test_ui_table import Hub, declare
from ui_helpers import a_moment_later, new_match, start_deal

from ui import backend
from ui.state.app import AppState


@pytest.fixture
def phones(store: Any) -> tuple[Hub, AppState, AppState, int]:
    hub = Hub()
    anna = AppState(store, lang="en")
    hub.join(anna, "Anna's phone")
    start_deal(new_match(anna))
    assert anna.session is not None
    mid = anna.session.match_id
    boris = AppState(store, lang="ru")
    hub.join(boris, "Телефон Бориса")
    assert boris.open_route(f"/match/{mid}")
    hub.deliver(anna, boris)
    return hub, anna, boris, mid


def test_a_stale_write_names_the_entry_that_was_not_recorded(
    phones: tuple[Hub, AppState, AppState, int], store: Any
) -> None:
    hub, _anna, boris, mid = phones
    store.record(mid, {"type": "penalty", "player": "Anna", "offence": "P-REVOKE"})  # elsewhere
    ruling = declare(boris, 1, "AS AH AD AC")  # Boris's four aces, on the stale view
    assert ruling is not None
    hub.deliver(boris)
    notice = boris.deal.notice if boris.deal is not None else None
    assert notice is not None and notice.key == "table_words.stale"
    text = boris.t(notice.key, **notice.args)
    what = backend.ruling_words(ruling, "ru") if hasattr(backend, "ruling_words") else ""
    assert "100" in text and (not what or what.split(":")[0] in text)
    assert text.startswith("Не записано")


def test_an_undo_and_a_redo_name_the_entry_on_every_screen(
    phones: tuple[Hub, AppState, AppState, int],
) -> None:
    hub, anna, boris, _mid = phones
    assert declare(anna, 1, "KS KH KD KC") is not None  # Boris's four kings: 80
    hub.deliver(anna, boris)
    assert boris.deal is not None
    a_moment_later(boris)
    assert boris.deal.undo()
    hub.deliver(anna, boris)
    for app, lang in ((anna, "en"), (boris, "ru")):
        assert app.live_notice is not None
        text = app.live_notice.text(app.t, lang)
        assert "80" in text, text
    assert "undid" in anna.live_notice.text(anna.t, "en")  # type: ignore[union-attr]
    assert anna.deal is not None
    a_moment_later(anna)
    assert anna.deal.redo()
    hub.deliver(anna, boris)
    assert boris.live_notice is not None
    assert "возвращено" in boris.live_notice.text(boris.t, "ru")
    assert "80" in boris.live_notice.text(boris.t, "ru")


def test_the_end_of_a_deal_from_another_phone_is_said_with_its_last_trick(
    phones: tuple[Hub, AppState, AppState, int],
) -> None:
    hub, anna, boris, _mid = phones
    ds = anna.deal
    assert ds is not None
    ds.stock_exhausted()
    ds.open_end(last=0)
    ds.set_brisques(0, "10")
    assert ds.finish_deal()
    hub.deliver(anna, boris)
    assert boris.live_notice is not None
    text = boris.live_notice.text(boris.t, "ru")
    assert "Anna" in text and "последн" in text.lower(), text  # the last trick, named
    assert "100" in text  # and the brisques
    # one undo takes the whole end back, and says both entries
    assert boris.deal is not None
    a_moment_later(boris)
    assert boris.deal.undo()
    hub.deliver(anna, boris)
    said = anna.live_notice.text(anna.t, "en")  # type: ignore[union-attr]
    assert "last trick" in said.lower() and "100" in said, said
