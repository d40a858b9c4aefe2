"""A match is announced to the table when it is created (issue 22), not at its first deal:
the other phones' Home said "No match in progress" and offered a big New match button (a
duplicate match waiting to happen). Sessions linked as ui/live.py links them (the hub of
test_ui_table.py stands in for Flet's pubsub)."""

from __future__ import annotations

from typing import Any

import pytest
from test_ui_layout_fixed import ctx, ids, texts
from test_ui_table import Hub
from ui_helpers import new_match, start_deal

from ui.state.app import AppState
from ui.views import SCREENS


def at_table(store: Any, hub: Hub, device: str, lang: str = "en", route: str = "/") -> AppState:
    app = AppState(store, lang=lang)
    hub.join(app, device)
    app.open_route(route)
    return app


def screen_texts(app: AppState) -> str:
    return " ".join(texts(SCREENS[app.screen](ctx(app)).body))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_new_match_is_on_every_home_before_its_first_deal(store: Any, lang: str) -> None:
    hub = Hub()
    anna = at_table(store, hub, "Anna's phone")
    boris = at_table(store, hub, "Boris's phone", lang)
    assert boris.matches.unfinished() == []
    new_match(anna)  # created: no deal yet
    assert anna.session is not None and anna.session.match.deals == []
    hub.deliver(anna, boris)
    assert boris.screen == "home" and boris.notice is not None
    said = boris.t(boris.notice.key, **boris.notice.args)
    assert "Anna's phone" in said and "Anna — Boris" in said
    home = SCREENS["home"](ctx(boris))
    assert said in texts(home.body)
    assert "resume-card" in ids(home.body)  # the match to resume, first
    assert boris.live_notice is not None
    assert "Anna — Boris" in boris.live_notice.text(boris.t, lang)


def test_a_viewer_with_nothing_to_watch_opens_the_new_match(store: Any) -> None:
    hub = Hub()
    anna = at_table(store, hub, "Anna's phone")
    vera = at_table(store, hub, "Vera's phone", "ru")
    vera.role = "viewer"
    new_match(anna)
    hub.deliver(anna, vera)
    assert anna.session is not None
    assert vera.screen == "viewer" and vera.session is not None
    assert vera.session.match_id == anna.session.match_id
    assert "Anna" in screen_texts(vera) and "Boris" in screen_texts(vera)


def test_the_new_match_form_says_a_match_was_just_started(store: Any) -> None:
    hub = Hub()
    anna = at_table(store, hub, "Anna's phone")
    boris = at_table(store, hub, "Boris's phone")
    boris.matches.request_new()  # nothing unfinished: straight to the form
    assert boris.screen == "new_match"
    new_match(anna)
    hub.deliver(anna, boris)
    assert boris.screen == "new_match"  # what he typed stays
    view = SCREENS["new_match"](ctx(boris))
    assert "new-match-news" in ids(view.body)
    assert any("Anna's phone" in t and "Anna — Boris" in t for t in texts(view.body))


def test_a_rematch_takes_the_viewer_of_the_finished_match_along(store: Any) -> None:
    hub = Hub()
    anna = at_table(store, hub, "Anna's phone")
    ds = new_match(anna, target="80")
    start_deal(ds)
    assert anna.session is not None
    old = anna.session.match_id
    vera = at_table(store, hub, "Vera's phone", route=f"/view/{old}")
    ds.stock_exhausted()
    ds.open_end(last=0)
    ds.set_brisques(0, "8")
    ds.set_brisques(1, "8")
    assert ds.finish_deal(), ds.end_errors  # 80 each: Anna took the last trick (R-TIE)
    hub.deliver(anna, vera)
    assert anna.session.match.result().finished
    assert anna.matches.rematch(old, rotate=True)
    hub.deliver(anna, vera)
    assert vera.session is not None and vera.session.match_id != old
    assert vera.session.match_id == anna.session.match_id
    assert vera.screen == "viewer"


def test_a_viewer_watching_a_match_in_play_stays_on_it(store: Any) -> None:
    hub = Hub()
    anna = at_table(store, hub, "Anna's phone")
    start_deal(new_match(anna))
    assert anna.session is not None
    first = anna.session.match_id
    vera = at_table(store, hub, "Vera's phone", route=f"/view/{first}")
    boris = at_table(store, hub, "Boris's phone")
    new_match(boris, ("Clara", "Dmitri"))
    hub.deliver(anna, boris, vera)
    assert vera.session is not None and vera.session.match_id == first  # not yanked away
    assert vera.live_notice is not None
    assert "Clara — Dmitri" in vera.live_notice.text(vera.t, "en")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_news_of_a_match_whose_names_storage_did_not_give_still_reads(lang: str) -> None:
    from ui.i18n import Translator
    from ui.live import LiveNotice, Move

    t = Translator(lang)
    said = LiveNotice(Move(7, 0, "new", "Anna's phone"), 1).text(t, lang)
    assert said.startswith("Anna's phone") and not said.rstrip().endswith(":")
    assert "new_match_news" not in said  # a text, not a key
