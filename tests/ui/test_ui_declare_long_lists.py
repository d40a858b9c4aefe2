"""Declaring by name with a long list of combinations (six- and eight-pack, three-hand) on a
phone: the proposal (confirm, the proposed cards, their hand/table captions) keeps a share of
the screen of its own above the names, which scroll in theirs (QA P15: at 360×780 the
proposed cards were hidden behind the names; "Four trump jacks" was below the screen).

Views without a page, at a phone's width (``VIEWPORT_WIDTH``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import flet as ft
import pytest
from ui_helpers import find, new_match, order, start_deal, walk

from ui.state.app import AppState
from ui.views import declare_by_name, declare_split, plain_buttons
from ui.views.common import VIEWPORT_WIDTH, ViewContext


def act(fn: Any) -> Any:
    return lambda _e: fn()


@pytest.fixture
def phone() -> Iterator[None]:
    token = VIEWPORT_WIDTH.set(360.0)
    yield
    VIEWPORT_WIDTH.reset(token)


def layer(app: AppState) -> Any:
    assert app.deal is not None
    return declare_by_name.layer(ViewContext(app=app, page=None), app.deal, act)  # type: ignore[arg-type]


def _open(app: AppState, variant: str, names: tuple[str, ...] = ("Anna", "Boris")) -> Any:
    ds = new_match(app, names, variant=variant)
    if ds.turn_up_variant:
        start_deal(ds)
    else:
        ds.set_dealer(0)
        assert ds.start_deal(), ds.setup_errors
    ds.open_picker(1)
    assert ds.picker is not None and ds.picker.tab == "name"
    return ds


def _body_column(view: Any) -> Any:
    """The layer's column: title, tabs, the proposal's share, the names' share."""
    return next(
        x
        for x in walk(view)
        if isinstance(x, ft.Column) and any(find(k, "declare-pinned") for k in x.controls)
    )


def _names_list(view: Any) -> Any:
    pinned = find(view, "declare-pinned")
    return next(x for x in walk(pinned) if isinstance(x, ft.Column) and x.scroll is not None)


LONG = [
    pytest.param("six-pack", ("Anna", "Boris"), id="six-pack"),
    pytest.param("eight-pack", ("Anna", "Boris"), id="eight-pack"),
    pytest.param("three-hand", ("Anna", "Boris", "Clara"), id="three-hand"),
]


@pytest.mark.parametrize(("variant", "players"), LONG)
def test_a_long_list_of_names_scrolls_in_its_own_share_under_the_proposal(
    app: AppState, phone: None, variant: str, players: tuple[str, ...]
) -> None:
    ds = _open(app, variant, players)
    names = ds.names_offered()
    assert declare_split.many(len(names)), (variant, len(names))
    view = layer(app)
    column = _body_column(view)
    shares = [k.expand for k in column.controls if k.expand]
    # the proposal and the names: fixed shares of the screen's height, whatever is chosen
    assert shares == [declare_split.CHOICE_SHARE, declare_split.NAMES_SHARE]
    names_list = _names_list(view)
    assert names_list.scroll == ft.ScrollMode.ALWAYS  # a scrollbar says there is more
    assert names_list.height is None and names_list.expand  # its share, not 490 fixed px
    for m in names:  # every name reachable in the list
        assert find(names_list, f"name-{m}") is not None, m
    # the confirm button sits in the proposal's share, never in the names'
    assert find(column.controls[-1], "declare-confirm") is None
    assert find(view, "declare-confirm") is not None


def test_choosing_a_name_keeps_the_lists_key_and_its_place(app: AppState, phone: None) -> None:
    """The list is rebuilt with the chosen name's rows under the same key (Flet patches the
    list on screen, whose scroll position Flutter keeps), in the same share of the screen."""
    ds = _open(app, "six-pack")
    names = ds.names_offered()
    before = _names_list(layer(app))
    ds.choose_meld(names[-1])  # the last name, reached by scrolling the list
    after_view = layer(app)
    after = _names_list(after_view)
    assert after.key == before.key == declare_split.LIST_KEY
    shape = (before.expand, before.height, before.scroll)
    assert (after.expand, after.height, after.scroll) == shape
    chosen = find(after, f"name-{names[-1]}").content
    assert plain_buttons.is_filled(chosen)  # the chosen name shows as chosen
    assert find(after_view, "proposal") is not None  # its cards shown above the names
    ds.choose_meld(names[0])
    again = _names_list(layer(app))
    assert plain_buttons.is_filled(find(again, f"name-{names[0]}").content)
    assert not plain_buttons.is_filled(find(again, f"name-{names[-1]}").content)


def test_a_short_list_keeps_its_whole_height(app: AppState, phone: None) -> None:
    ds = _open(app, "two-hand")
    assert not declare_split.many(len(ds.names_offered()))
    view = layer(app)
    pinned = find(view, "declare-pinned")
    assert all(
        not (isinstance(x, ft.Column) and x.scroll is not None) for x in walk(pinned)
    )  # nothing to scroll: every name in sight
    for m in ds.names_offered():
        assert find(pinned, f"name-{m}") is not None


@pytest.mark.parametrize(("variant", "players"), LONG)
def test_the_proposed_cards_come_right_under_the_confirm_button(
    app: AppState, phone: None, variant: str, players: tuple[str, ...]
) -> None:
    """The cards before any why: a long refusal scrolls in the proposal's share, the cards
    and their captions stay in sight (two-hand RU: a 4-line why pushed them under the grid)."""
    ds = _open(app, variant, players)
    for m in ds.names_offered():
        ds.choose_meld(m)
        prop = ds.picker.named.proposal
        if prop is None:
            continue
        ids = order(layer(app))
        assert ids.index("declare-confirm") < ids.index("proposal"), m
        if "proposal-ruling" in ids:
            assert ids.index("proposal") < ids.index("proposal-ruling"), m


def test_long_name_buttons_are_denser_but_still_a_finger_high(app: AppState, phone: None) -> None:
    ds = _open(app, "eight-pack")
    names_list = _names_list(layer(app))
    first = find(names_list, f"name-{ds.names_offered()[0]}")
    button = first.content
    assert button.height == declare_split.NAME_HEIGHT >= 48
