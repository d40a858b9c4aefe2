"""Helpers for the app's state tests: drive the forms as a user would."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import flet as ft

from referee.cards import Rank, Suit
from ui.state.app import AppState
from ui.state.deal import DealScreen


def new_match(
    app: AppState,
    names: tuple[str, ...] = ("Anna", "Boris"),
    *,
    tracking: str = "melds",
    variant: str = "two-hand",
    target: str | None = None,
    rules: tuple[str, ...] = (),
) -> DealScreen:
    """Create a match through the form, as a user would, and return its deal screen."""
    app.start_new_match()
    form = app.new_form
    assert form is not None
    form.set_variant(variant)
    form.set_player_count(len(names))
    for seat, name in enumerate(names):
        form.set_name(seat, name)
    form.set_tracking(tracking)
    if target is not None:
        form.set_target(target)
    for r in rules:
        form.toggle_house_rule(r)
    assert app.submit_new_match(), form.errors
    assert app.deal is not None
    return app.deal


def start_deal(
    ds: DealScreen, rank: Rank = Rank.NINE, suit: Suit = Suit.HEARTS, dealer: int = 0
) -> None:
    ds.set_dealer(dealer)
    ds.set_turn_up_rank(rank)
    ds.set_turn_up_suit(suit)
    assert ds.start_deal(), ds.setup_errors


def a_moment_later(app: AppState) -> None:
    """The phone's screen has drawn what its session shows now, and says so with every tap
    from now on (ui/server/painted.py; issue 22): a write from it is judged against this."""
    showed = app.shown_now()
    app.screen_showed = lambda: showed


# A view's control tree, walked without a page (the state-level layout tests).
def children(c: Any) -> list[Any]:
    """A control's direct children (its ``content`` and ``controls``)."""
    out: list[Any] = []
    for attr in ("content", "controls"):
        child = getattr(c, attr, None)
        if isinstance(child, list):
            out.extend(child)
        elif isinstance(child, ft.Control):
            out.append(child)
    return out


def walk(c: Any) -> Iterator[Any]:
    """Every control under ``c``, in the order they are drawn."""
    stack = [c]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(reversed(children(x)))


def find(c: Any, identifier: str) -> Any:
    return next((x for x in walk(c) if getattr(x, "identifier", None) == identifier), None)


def order(c: Any) -> list[str]:
    """The identifiers in the order they are drawn (top to bottom, left to right)."""
    return [x.identifier for x in walk(c) if getattr(x, "identifier", None)]
