"""Issue 22, "every phone at the table tells the same truth", without a browser: a correction
made on one phone is said on the others with the same what-changed lines, each in its own
language; a phone's own undo is "You undid …"; the host's tabs are one device; a viewer is
offered nothing it may not do, is asked for no name, and its Home says it follows the match;
the news strip keeps whole lines and opens in full. (The browser test of the same is
tests/server/test_server_table_same_truth_browser.py.)"""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest
from test_ui_table import Hub, declare
from ui_helpers import a_moment_later, new_match, start_deal, walk

from ui.i18n import Translator
from ui.live import LiveNotice, Move
from ui.state import correction as corr
from ui.state.app import AppState
from ui.state.join_codes import JoinCodes
from ui.views import correction, history, home, live_strip, score
from ui.views.common import ViewContext
from ui.views.ruling_toast import STRIP_HEIGHT


def ctx(app: AppState) -> ViewContext:
    return ViewContext(app=app, page=None)  # type: ignore[arg-type]


def ids(control: Any) -> set[str]:
    return {str(c.identifier) for c in walk(control) if getattr(c, "identifier", None)}


def texts(control: Any) -> str:
    return " ".join(str(c.value) for c in walk(control) if isinstance(c, ft.Text) and c.value)


def one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def table(store: Any) -> tuple[Hub, AppState, AppState, AppState, int]:
    """Anna's phone (English) records; Boris's phone (Russian) and a viewer (English) show
    the match."""
    hub = Hub()
    anna = AppState(store, lang="en")
    hub.join(anna, "Anna's phone")
    start_deal(new_match(anna))
    assert anna.session is not None
    mid = anna.session.match_id
    boris = AppState(store, lang="ru")
    hub.join(boris, "Телефон Бориса")
    assert boris.open_route(f"/match/{mid}")
    viewer = AppState(store, lang="en")
    hub.join(viewer, "")
    assert viewer.open_route(f"/view/{mid}")
    hub.deliver(anna, boris, viewer)
    return hub, anna, boris, viewer, mid


def correct_kings_to_anna(anna: AppState) -> corr.CorrectionScreen:
    """On Anna's phone, as its screens do it: the entries, the first one, Anna's, Confirm."""
    corr.open_entries(anna, anna.session)
    assert anna.entries_session is not None
    line = corr.entry_lines(anna.entries_session, "en")[0][0]
    assert corr.open_correction(anna, line)
    cs = anna.correction
    assert isinstance(cs, corr.CorrectionScreen)
    cs.set_player(0)
    assert corr.confirm(anna)
    return cs


def test_a_correction_is_said_on_every_phone_with_the_correcting_phones_lines_in_its_language(
    table: tuple[Hub, AppState, AppState, AppState, int],
) -> None:
    hub, anna, boris, viewer, _mid = table
    declare(anna, 1, "KS KH KD KC")  # four kings for Boris, but they were Anna's
    hub.deliver(anna, boris, viewer)
    a_moment_later(anna)
    cs = correct_kings_to_anna(anna)
    hub.deliver(anna, boris, viewer)
    assert cs.done is not None
    en, ru = Translator("en"), Translator("ru")
    shown_en = [  # Anna's screen, each line's parts ("Was: …", "Now: …")
        one_line(part) for line in cs.done for part in str(en(line.key, **line.args)).splitlines()
    ]
    assert any("→" in line for line in shown_en)  # the totals moved: said with numbers
    assert viewer.live_notice is not None
    said = viewer.live_notice.text(viewer.t, "en")
    assert said.startswith("Anna's phone corrected an earlier entry: ")
    for line in shown_en:
        assert line in said  # the very lines the correcting phone shows
    assert boris.live_notice is not None
    said_ru = boris.live_notice.text(boris.t, "ru")
    assert said_ru.startswith("Anna's phone: исправлена прежняя запись — ")
    for line in cs.done:
        if line.kind == "total":  # numbers and names are no language's: same in Russian
            assert one_line(ru(line.key, **line.args)) in said_ru
    assert "in all" not in said_ru and "Was:" not in said_ru  # nothing left in English
    assert anna.live_notice is None  # her own screen lists the lines itself


@pytest.mark.parametrize(("lang", "said"), [("en", "You undid: "), ("ru", "Вы отменили: ")])
def test_a_phones_own_undo_at_a_table_is_you_undid_not_its_name(
    store: Any, lang: str, said: str
) -> None:
    hub = Hub()
    anna, boris = AppState(store, lang=lang), AppState(store, lang="en")
    hub.join(anna, "Device 6")
    start_deal(new_match(anna))
    assert anna.session is not None
    hub.join(boris, "Boris's phone")
    assert boris.open_route(f"/match/{anna.session.match_id}")
    hub.deliver(anna, boris)
    assert anna.others_at_table == 1
    declare(anna, 1, "KS KH KD KC")
    hub.deliver(anna, boris)
    a_moment_later(anna)
    assert anna.deal is not None and anna.deal.undo()
    hub.deliver(anna, boris)
    assert anna.live_notice is not None and boris.live_notice is not None
    mine = anna.live_notice.text(anna.t, lang)
    assert mine.startswith(said) and "Device 6" not in mine
    assert "Device 6 undid" in boris.live_notice.text(boris.t, "en")  # the others: its name


def host_tab(store: Any, hub: Hub) -> AppState:
    app = AppState(store, lang="en")
    app.join_codes = JoinCodes((), "http://127.0.0.1/table-links")  # the server's host only
    hub.join(app, "")  # unnamed: each reader says "The host's screen"
    return app


def test_the_hosts_browser_tabs_are_one_device_at_the_table(store: Any) -> None:
    hub = Hub()
    first, second = host_tab(store, hub), host_tab(store, hub)
    hub.deliver()
    assert first.others_at_table == second.others_at_table == 0  # one laptop, no table
    phone = AppState(store, lang="en")
    hub.join(phone, "Boris's phone")
    hub.deliver()
    assert phone.others_at_table == 1  # the laptop, once, however many tabs it has
    assert first.others_at_table == second.others_at_table == 1


def test_a_viewer_is_shown_no_correction_abandon_import_or_rematch(
    table: tuple[Hub, AppState, AppState, AppState, int], store: Any
) -> None:
    hub, anna, _boris, viewer, mid = table
    declare(anna, 1, "KS KH KD KC")
    hub.deliver(anna, viewer)
    viewer.go("history")
    listed = history.build(ctx(viewer)).body
    assert f"match-{mid}" in ids(listed)
    assert not {"import", f"abandon-{mid}"} & ids(listed)
    assert "Watch" in texts(listed) and "Resume" not in texts(listed)
    assert viewer.view_match(mid)
    for view in (history.build_match(ctx(viewer)), score.build(ctx(viewer))):
        assert not {"open-entries", "rematch"} & ids(view.body)
    # and the same screens on a scorer's phone have them (the test can fail)
    anna.go("history")
    assert {"import", f"abandon-{mid}"} <= ids(history.build(ctx(anna)).body)
    assert "open-entries" in ids(score.build(ctx(anna)).body)


def test_a_viewer_is_refused_before_any_confirmation_or_preview(
    table: tuple[Hub, AppState, AppState, AppState, int], store: Any
) -> None:
    hub, anna, _boris, viewer, mid = table
    declare(anna, 1, "KS KH KD KC")
    hub.deliver(anna, viewer)
    viewer.matches.ask_abandon(mid)
    assert viewer.matches.confirm_abandon is None  # never asked "Abandon?" to be refused
    assert viewer.notice is not None and viewer.notice.key == "table.viewer_cannot_write"
    corr.open_entries(viewer, viewer.session)
    assert viewer.screen != "entries" and viewer.correction is None
    viewer.entries_session = viewer.session  # even with the list open by another way
    viewer.screen = "entries"
    entries = correction.build_entries(ctx(viewer)).body
    assert not any(i.startswith("correct-") for i in ids(entries))
    line = corr.entry_lines(viewer.session, "en")[0][0]  # type: ignore[arg-type]
    assert not corr.open_correction(viewer, line) and viewer.correction is None
    store.abandon_match(mid)
    before = store.log_position(mid)
    viewer.matches.resume(mid)  # watching an abandoned match does not restore it
    assert store.match_info(mid).abandoned and store.log_position(mid) == before


def test_home_says_the_role_a_phone_joined_with_and_asks_only_a_scorer_for_a_name(
    store: Any,
) -> None:
    scorer, viewer, host = (AppState(store, lang=lang) for lang in ("en", "ru", "en"))
    scorer.joined_as = "scorer"
    viewer.role = viewer.joined_as = "viewer"
    shown = {app.joined_as: home.build(ctx(app)).body for app in (scorer, viewer)}
    assert "You keep the score" in texts(shown["scorer"]) and "joined-scorer" in ids(
        shown["scorer"]
    )
    assert "Вы следите за партией" in texts(shown["viewer"])
    assert "device-name" in ids(shown["scorer"]) and "device-name" not in ids(shown["viewer"])
    hosted = home.build(ctx(host)).body  # the host joined by no link: says no role
    assert not {"joined-scorer", "joined-viewer"} & ids(hosted)


def strip_text(strip: Any) -> ft.Text:
    return next(c for c in walk(strip) if isinstance(c, ft.Text))


def test_the_news_strip_keeps_whole_lines_and_a_tap_opens_it_in_full(app: AppState) -> None:
    app.live_notice = LiveNotice(Move(1, 3, "record", "Anna's phone", None, 1), 7)
    shown = live_strip.build(ctx(app), STRIP_HEIGHT)
    assert shown is not None and shown.identifier == "live-strip"
    text = strip_text(shown)
    assert text.style is not None and text.style.height is not None and text.size is not None
    lines = text.max_lines or 0
    room = STRIP_HEIGHT - 2 * 2  # the strip's vertical padding
    assert lines * text.size * text.style.height <= room  # no line cut mid-glyph
    shown.content.on_click(None)  # a tap: the whole news
    assert app.live_open == 7 and app.live_notice is not None
    full = live_strip.build(ctx(app), STRIP_HEIGHT)
    assert full is not None and full.identifier == "live-strip-full"
    assert strip_text(full).max_lines is None and full.content.height is None
    full.content.on_click(None)  # read: a second tap hides it
    assert app.live_notice is None


def test_a_correction_refused_to_a_viewer_says_so_in_words_not_a_role_name(
    table: tuple[Hub, AppState, AppState, AppState, int],
) -> None:
    hub, anna, _boris, viewer, _mid = table
    declare(anna, 1, "KS KH KD KC")
    hub.deliver(anna, viewer)
    assert viewer.session is not None
    line = corr.entry_lines(viewer.session, "ru")[0][0]
    cs = corr.CorrectionScreen(viewer.session, "ru", 0, 0, line.seq)  # however it got here
    cs.set_player(0)
    assert not cs.confirm()
    assert cs.notice is not None and cs.notice.key == "table.viewer_cannot_write"


def test_an_undo_on_one_host_tab_is_you_undid_on_its_other_tab_too(store: Any) -> None:
    hub = Hub()
    first, second = host_tab(store, hub), host_tab(store, hub)
    phone = AppState(store, lang="en")
    hub.join(phone, "Boris's phone")
    start_deal(new_match(first))
    assert first.session is not None
    mid = first.session.match_id
    assert second.open_route(f"/match/{mid}") and phone.open_route(f"/view/{mid}")
    hub.deliver(first, second, phone)
    declare(first, 1, "KS KH KD KC")
    hub.deliver(first, second, phone)
    a_moment_later(first)
    assert first.deal is not None and first.deal.undo()
    hub.deliver(first, second, phone)
    for tab in (first, second):  # one laptop: whichever tab tapped it, "You undid"
        assert tab.live_notice is not None
        assert tab.live_notice.text(tab.t, "en").startswith("You undid: ")
    assert phone.live_notice is not None
    assert phone.live_notice.text(phone.t, "en").startswith("The host's screen undid: ")


def test_an_unnamed_phone_is_device_n_in_each_readers_language(store: Any) -> None:
    hub = Hub()
    anna, boris = AppState(store, lang="ru"), AppState(store, lang="en")
    hub.join(anna, "")  # never named: the shell numbered it
    anna.device_number = 2
    anna.joined_as = "scorer"
    start_deal(new_match(anna))
    assert anna.session is not None
    hub.join(boris, "Boris's phone")
    assert boris.open_route(f"/match/{anna.session.match_id}")
    hub.deliver(anna, boris)
    declare(anna, 1, "KS KH KD KC")
    hub.deliver(anna, boris)
    assert boris.live_notice is not None
    assert boris.live_notice.text(boris.t, "en").startswith("Device 2 recorded: ")
    assert "Устройство" not in boris.live_notice.text(boris.t, "en")
    anna.go("home")
    unnamed = texts(home.build(ctx(anna)).body)
    assert "остальные видят «Устройство 2»" in unnamed  # its own Home says what they read
