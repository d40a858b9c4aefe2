"""The carte blanche and cut bonus buttons (Rubicon, six-pack) and the note that the deal ends
the match keep their places (QA P17): a button keeps its width when another player's goes,
an emptied row keeps its place while a row under it has buttons, the amount is a text of its
own that never yields, and the compact note sits under the header, never above it.

Views without a page."""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest
from ui_helpers import find, new_match, order, walk

from ui.state import rubicon_entries as rs
from ui.state.app import AppState
from ui.views import deal, last_deal_note, rubicon_entries
from ui.views.common import ViewContext


def act(fn: Any) -> Any:
    return lambda _e: fn()


def ctx(app: AppState) -> ViewContext:
    return ViewContext(app=app, page=None)  # type: ignore[arg-type]


def _deal(app: AppState, variant: str, games: str | None = None) -> Any:
    if games is None:
        ds = new_match(app, variant=variant)
    else:
        app.start_new_match()
        form = app.new_form
        assert form is not None
        form.set_variant(variant)
        form.set_name(0, "Anna")
        form.set_name(1, "Maximilian")
        form.set_games(games)
        assert app.submit_new_match(), form.errors
        ds = app.deal
    ds.set_dealer(0)
    assert ds.start_deal(), ds.setup_errors
    return ds


def rows(app: AppState) -> list[Any]:
    return rubicon_entries.entry_rows(ctx(app), app.deal, act)


def slots(row: Any) -> list[Any]:
    assert isinstance(row, ft.Row), row
    return list(row.controls)


def test_a_carte_blanche_keeps_its_width_and_place_when_the_others_goes(app: AppState) -> None:
    ds = _deal(app, "rubicon")
    before = slots(rows(app)[0])
    assert [getattr(s, "identifier", None) for s in before] == [
        "carte-blanche-0",
        "carte-blanche-1",
    ]
    boris = next(e for e in rs.entries(ds.match) if e.seat == 1)
    assert rs.record(ds, boris) is not None
    after = slots(rows(app)[0])
    # still one slot per player, each the same share of the row: Anna's neither widens
    # nor moves; Boris's slot is an empty box of the button's height
    assert len(after) == len(before) == 2
    assert after[0].identifier == "carte-blanche-0"
    assert [s.expand for s in after] == [s.expand for s in before]
    assert getattr(after[1], "identifier", None) is None
    assert isinstance(after[1], ft.Container) and after[1].height == rubicon_entries.BUTTON_HEIGHT


def test_an_emptied_row_keeps_its_place_while_a_row_under_it_has_buttons(app: AppState) -> None:
    ds = _deal(app, "six-pack")
    first = rows(app)
    assert len(first) == 2  # carte blanches, then the cut bonuses
    for e in [e for e in rs.entries(ds.match) if e.kind == "carte_blanche"]:
        assert rs.record(ds, e) is not None
    now = rows(app)
    assert len(now) == 2
    assert isinstance(now[0], ft.Container) and now[0].height == rubicon_entries.BUTTON_HEIGHT
    assert [s.identifier for s in slots(now[1])] == ["cut-bonus-0", "cut-bonus-1"]
    for e in [e for e in rs.entries(ds.match) if e.kind == "cut_bonus"]:
        assert rs.record(ds, e) is not None
    assert rows(app) == []  # nothing left to offer: no empty rows either


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_each_button_names_the_player_and_shows_its_amount_whole(app: AppState, lang: str) -> None:
    ds = _deal(app, "six-pack")
    app.set_language(lang)
    for e in rs.entries(ds.match):
        button = find(rows(app)[0 if e.kind == "carte_blanche" else 1], e.identifier)
        texts = [x for x in walk(button) if isinstance(x, ft.Text)]
        values = [t.value for t in texts]
        assert ds.players[e.seat] in values  # the name on a line of its own
        amount = next(t for t in texts if t.value == f"+{e.points}")
        assert amount.no_wrap and not amount.expand  # never cut, never squeezed
        words = next(t for t in texts if t.value not in (ds.players[e.seat], amount.value))
        assert words.expand and words.overflow == ft.TextOverflow.ELLIPSIS  # these yield
        # the whole sentence is the button's label (read aloud, found by the tests)
        assert ds.players[e.seat] in button.label and f"+{e.points}" in button.label


def _ends_with_deal(app: AppState) -> Any:
    ds = _deal(app, "six-pack", games="1")
    note = last_deal_note.notes(ctx(app), ds.match)
    assert [n.identifier for n in note] == ["verdict-ends-with-deal"]
    return ds


def test_the_last_deal_note_is_compact_and_says_it_all(app: AppState) -> None:
    ds = _ends_with_deal(app)
    note = last_deal_note.notes(ctx(app), ds.match)[0]
    text = next(x for x in walk(note) if isinstance(x, ft.Text))
    assert text.size is not None and text.size <= 14
    assert text.max_lines == last_deal_note.MAX_LINES <= 2  # was a 17-pt banner, ~100 px
    assert note.label == text.value and text.value  # the whole sentence, if cut on screen


def test_the_last_deal_note_comes_after_the_header_in_play_and_on_the_end_form(
    app: AppState,
) -> None:
    ds = _ends_with_deal(app)
    ids = order(deal.build(ctx(app)).body)
    assert ids.index("deal-header") < ids.index("verdict-ends-with-deal")
    ds.open_end()
    assert ds.mode == "end"
    ids = order(deal.build(ctx(app)).body)
    # the end form's header first (it stayed in place), the note under it
    assert ids.index("deal-header") < ids.index("verdict-ends-with-deal")
