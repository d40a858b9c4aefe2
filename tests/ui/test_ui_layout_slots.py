"""Views without a page: what comes and goes (news from another device, the penalty choice, a
setup error) has a place of its own of fixed height, so nothing else is covered or moves.

A control's *outline* is its tree with every fixed-height box (and every button) a leaf: two
screens with the same outline put every control in the same place."""

from __future__ import annotations

from typing import Any

import flet as ft
from ui_helpers import children, new_match, start_deal

from ui.live import LiveNotice, Move
from ui.state.app import AppState
from ui.views import deal, live_slot, score, viewer
from ui.views.common import ViewContext
from ui.views.ruling_toast import STRIP_HEIGHT


def ctx(app: AppState) -> ViewContext:
    return ViewContext(app=app, page=None)  # type: ignore[arg-type]


def outline(c: Any) -> Any:
    """The tree down to fixed-height boxes and buttons (what they hold moves nothing)."""
    name = type(c).__name__
    if isinstance(c, ft.Container) and c.height is not None:
        return (name, "h", c.height)
    inner = getattr(c, "content", None)
    if isinstance(c, ft.Semantics) and isinstance(inner, ft.Container) and inner.height:
        return outline(inner)  # a tagged fixed-height box is that box
    if isinstance(c, ft.Semantics) and c.button:
        return (name, "button")
    if isinstance(c, ft.Text):
        return name
    return (name, tuple(outline(k) for k in children(c)))


def find(c: Any, identifier: str) -> Any:
    stack = [c]
    while stack:
        x = stack.pop()
        if getattr(x, "identifier", None) == identifier:
            return x
        stack.extend(children(x))
    return None


def ids(c: Any) -> set[str]:
    out: set[str] = set()
    stack = [c]
    while stack:
        x = stack.pop()
        if getattr(x, "identifier", None):
            out.add(x.identifier)
        stack.extend(children(x))
    return out


def news(app: AppState, action: str = "record") -> None:
    ruling = app.deal.ruling if app.deal is not None else None
    app.live_notice = LiveNotice(Move(1, 2, action, "Anna's phone", ruling, 1), 1)


def body(app: AppState) -> Any:
    """The screen as the shell draws it: the view's body in its news frame."""
    screen = {"deal": deal.build, "score": score.build, "viewer": viewer.build}[app.screen]
    return live_slot.frame(ctx(app), screen(ctx(app)).body)


def test_news_from_another_device_takes_the_ruling_strips_place_on_the_deal_screen(
    app: AppState,
) -> None:
    ds = new_match(app)
    start_deal(ds)
    quiet = body(app)
    news(app)
    loud = body(app)
    assert "live-strip" in ids(loud) and "live-strip" not in ids(quiet)
    assert "ruling-strip" in ids(quiet) and "ruling-strip" not in ids(loud)
    assert outline(loud) == outline(quiet)  # nothing moved, nothing floats over the header
    strip = find(loud, "live-strip")
    assert strip.content.height == STRIP_HEIGHT


def test_news_has_a_slot_of_its_own_on_the_score_and_viewer_screens(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    app.others_at_table = 1  # another device is connected
    for go in (app.show_score, app.show_viewer):
        go()
        quiet = body(app)
        news(app, "undo")
        loud = body(app)
        assert "live-slot" in ids(quiet) and "live-strip" in ids(loud), app.screen
        assert outline(loud) == outline(quiet), app.screen
        app.live_notice = None


def test_the_news_slot_holds_three_lines_of_russian(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    app.set_language("ru")
    news(app, "undo")
    strip = find(body(app), "live-strip")
    text = next(k for k in children(strip.content.content) if isinstance(k, ft.Text))
    assert text.max_lines == 3 and text.size is not None
    assert 3 * text.size * 1.2 <= STRIP_HEIGHT  # three lines fit the slot's height


def test_the_penalty_choice_leaves_the_header_in_place(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    before = deal.build(ctx(app)).body
    ds.open_penalty(0)
    during = deal.build(ctx(app)).body
    assert "penalty-panel" in ids(during)
    for view in (before, during):
        header = find(view, "deal-header")
        assert header is not None and find(view, "deal-score-0") is not None
    column_before = _play_column(before)
    column_during = _play_column(during)
    # the header is the column's first child in both, and the penalty choice is inside the
    # zone under it (the column's second child), never a layer over the whole screen
    assert outline(column_before.controls[0]) == outline(column_during.controls[0])
    assert find(column_during.controls[0], "penalty-panel") is None
    assert find(column_during.controls[1], "penalty-panel") is not None
    assert len(column_before.controls) == len(column_during.controls)


def _play_column(view: Any) -> Any:
    """The deal screen's column whose first child holds the header."""
    stack = [view]
    while stack:
        x = stack.pop()
        first = x.controls[0] if isinstance(x, ft.Column) and x.controls else None
        if first is not None and find(first, "deal-header") and not find(first, "declare-0"):
            return x
        stack.extend(children(x))
    raise AssertionError("no column starts with the header")


def _setup_outline(app: AppState) -> Any:
    view = deal.build(ctx(app)).body
    column = next(
        x
        for x in _all(view)
        if isinstance(x, ft.Column) and any(find(k, "start-deal") for k in x.controls)
    )
    return outline(column)


def _all(c: Any) -> list[Any]:
    out, stack = [], [c]
    while stack:
        x = stack.pop()
        out.append(x)
        stack.extend(children(x))
    return out


def test_pick_the_dealer_shows_above_start_without_moving_it(app: AppState) -> None:
    ds = new_match(app)
    ds.setup_dealer = None  # nobody picked (the error the start button gives)
    quiet = _setup_outline(app)
    assert not ds.start_deal()
    assert "dealer" in ds.setup_errors
    view = deal.build(ctx(app)).body
    assert "error-dealer" in ids(view)
    assert _setup_outline(app) == quiet


def test_pick_the_dealer_moves_nothing_without_a_turn_up_either(app: AppState) -> None:
    ds = new_match(app, variant="rubicon")
    ds.setup_dealer = None
    quiet = _setup_outline(app)
    assert not ds.start_deal()
    assert "error-dealer" in ids(deal.build(ctx(app)).body)
    assert _setup_outline(app) == quiet


def test_the_viewer_paints_only_the_side_ahead_green() -> None:
    from ui.state.viewer import Reading, SideLine

    def reading(totals: tuple[int, int], winner: str | None = None) -> Reading:
        sides = tuple(
            SideLine(n, t, 0, 1000 - t) for n, t in zip(("Anna", "Boris"), totals, strict=True)
        )
        return Reading(sides, 1000, 1, None, True, winner)

    assert viewer.leader(reading((100, 140))) == 1  # Boris ahead: his box, not side 0's
    assert viewer.leader(reading((140, 100))) == 0
    assert viewer.leader(reading((100, 100))) is None  # level: neither
    assert viewer.leader(reading((1000, 1000), winner="Boris")) == 1  # R-TIE's winner


def test_a_big_total_is_sized_to_stay_on_one_line() -> None:
    from ui.views.fit_text import GLYPH_EM, fitting_size

    box = 143.0  # a viewer box at 360 px
    size = fitting_size(["1100", "0"], box, 64)
    assert size < 64 and 4 * size * GLYPH_EM <= box
    assert fitting_size(["40", "0"], box, 64) == 64  # short totals keep the design size


def test_a_long_button_label_gets_the_height_of_its_lines() -> None:
    from ui.views.common import TAP, big_button

    short = big_button("Two-hand", None)
    long = big_button("Многоколодный с «инфузорками»", None)
    assert short.height == TAP  # one line: every chip of a row as high
    assert long.height is None  # may wrap at 360 px: as high as its two lines, never cut


def test_fixing_trumps_in_rubicon_keeps_the_headers_height(app: AppState) -> None:
    """Before trumps: the badge's place and "no trumps yet" in a two-line box; after the first
    marriage: the badge and "Trumps ♠" in the same places (before, the header shrank 40 px
    and the strip and tables jumped up)."""
    from referee.cards import parse_card
    from referee.events import Declare

    ds = new_match(app, variant="rubicon")
    ds.start_deal()
    before = outline(find(deal.build(ctx(app)).body, "deal-header"))
    view = ds.record(Declare(0, (parse_card("KS"), parse_card("QS")), (), "trump_marriage"))
    assert view is not None and view.accepted and ds.trumps() is not None
    assert outline(find(deal.build(ctx(app)).body, "deal-header")) == before


def test_a_lone_device_keeps_no_slot_for_news_from_other_devices(app: AppState) -> None:
    """One phone is not a table: no 64 px box "What the other devices at the table record
    shows here" on the setup, summary, sheet or viewer screens while no other device is
    connected; it comes when one connects."""
    ds = new_match(app)
    assert app.others_at_table == 0
    screens = []
    app.screen = "deal"  # the deal's setup
    screens.append(body(app))
    start_deal(ds)
    for go in (app.show_score, app.show_viewer):
        go()
        screens.append(body(app))
    for shown in screens:
        assert "live-slot" not in ids(shown) and "live-strip" not in ids(shown)
        assert not any(
            isinstance(t, ft.Text) and t.value == app.t("live_slot.quiet") for t in walk(shown)
        )
    app.others_at_table = 1
    assert "live-slot" in ids(body(app))


def walk(c: Any) -> list[Any]:
    out, stack = [], [c]
    while stack:
        x = stack.pop()
        out.append(x)
        stack.extend(children(x))
    return out
