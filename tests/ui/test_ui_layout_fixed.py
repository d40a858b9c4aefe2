"""QA round on layout at 390x844 (views, no page): what a tap or a score changes stays inside
its zone. The header says the turned-up seven as a badge (no extra line), the stock button
stays in its place, done, after the stock, and the brisques hint is not red until wrong."""

from __future__ import annotations

from typing import Any

import flet as ft
from ui_helpers import find, new_match, start_deal

from referee.cards import Rank, Suit
from ui.state.app import AppState
from ui.views.action_bar import action_bar
from ui.views.brisques_entry import brisques_fields
from ui.views.common import ViewContext
from ui.views.deal_header import header


def ctx(app: AppState) -> ViewContext:
    return ViewContext(app=app, page=None)  # type: ignore[arg-type]


def walk(control: object) -> list[Any]:
    """Every control under ``control``, in reading order."""
    out: list[Any] = []
    stack: list[Any] = [control]
    while stack:
        c = stack.pop()
        if c is None or isinstance(c, str):
            continue
        out.append(c)
        children: list[Any] = []
        for attr in ("content", "controls"):
            child = getattr(c, attr, None)
            if isinstance(child, list):
                children.extend(child)
            elif child is not None:
                children.append(child)
        stack.extend(reversed(children))
    return out


def texts(control: object) -> list[str]:
    return [c.value for c in walk(control) if isinstance(c, ft.Text) and isinstance(c.value, str)]


def ids(control: object) -> list[str]:
    return [c.identifier for c in walk(control) if getattr(c, "identifier", None)]


def test_the_turned_up_seven_is_a_badge_not_an_extra_header_line(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds, rank=Rank.SEVEN, suit=Suit.HEARTS, dealer=1)
    seven = ds.dealer_seven()
    assert seven is not None
    view = header(ctx(app), ds)
    sentence = ctx(app).t("deal.seven_turned", player=ds.players[1], points=seven[1])
    assert sentence not in texts(view)
    assert f"7♥ +{seven[1]}" in texts(view)
    assert "seven-turned" in ids(view)


def test_a_side_box_never_wraps_its_numbers(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    view = header(ctx(app), ds)
    for c in walk(view):
        if isinstance(c, ft.Row):
            assert not c.wrap, "a wrapping row in the header grows it when a score grows"
    totals = [c for c in walk(view) if isinstance(c, ft.Text) and c.value and "0" in c.value]
    assert totals and all(t.no_wrap for t in totals)


def test_after_the_stock_its_button_stays_in_place_done(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    before = ids(action_bar(ctx(app), ds, lambda fn: fn))
    ds.stock_exhausted()
    after = ids(action_bar(ctx(app), ds, lambda fn: fn))
    assert before.index("stock-exhausted") < before.index("end-deal")
    assert after.index("stock-done") < after.index("last-trick-0") < after.index("last-trick-1")
    done = find(action_bar(ctx(app), ds, lambda fn: fn), "stock-done").content
    assert done.disabled and done.on_click is None  # a second tap on the same spot does nothing


def test_the_brisques_hint_is_plain_until_a_count_is_wrong(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    ds.stock_exhausted()
    ds.open_end(0)

    def total_colour() -> Any:
        form = walk(brisques_fields(ctx(app), ds))
        line = [c for c in form if getattr(c, "identifier", None) == "brisque-total"]
        assert isinstance(line[0].content, ft.Text)
        return line[0].content.color

    assert total_colour() != ft.Colors.ERROR
    ds.set_brisques(0, "9")
    ds.set_brisques(1, "9")
    assert total_colour() == ft.Colors.ERROR
