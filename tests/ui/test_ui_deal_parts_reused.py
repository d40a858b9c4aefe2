"""A one-tap declaration redraws only what it changed (ui/views/view_cache.py): the other
side's header box, the offers that stay the same and the bar's fixed buttons are the very
controls of the drawing before, which Flet's diff skips whole; what changed is new and shows
the new state. On the phone build every control diffed is Python time on Pyodide between the
tap and the new score (issue #20)."""

from __future__ import annotations

from typing import Any

from ui_helpers import find, new_match, start_deal

from ui.state.app import AppState
from ui.views import SCREENS
from ui.views.common import ViewContext


def draw(app: AppState) -> Any:
    view = SCREENS[app.screen](ViewContext(app=app, page=None))  # type: ignore[arg-type]
    return view


def text_of(control: Any) -> str:
    """The text inside a tagged control (a Semantics around a Text)."""
    inner = control.content
    return str(inner.value)


def test_a_declaration_redraws_its_sides_box_and_offers_and_keeps_the_rest(
    app: AppState,
) -> None:
    ds = new_match(app)
    start_deal(ds)
    before = draw(app)
    kept = {
        name: find(before.body, name)
        for name in ("deal-score-0", "total-0", "offer-1-four_kings", "offer-0-marriage")
    }
    old_box = find(before.body, "deal-score-1")
    old_bezique = find(before.body, "offer-1-bezique")
    old_bar = {a.identifier: a for a in before.appbar.actions}

    view = ds.quick_declare(1, "bezique")
    assert view is not None and view.accepted
    after = draw(app)

    for name, control in kept.items():  # unchanged: the same object, skipped by the diff
        assert find(after.body, name) is control, name
    assert text_of(find(after.body, "deal-score-1")) == "40"  # the new score, drawn anew
    assert find(after.body, "deal-score-1") is not old_box
    bezique_now = find(after.body, "offer-1-bezique")
    assert bezique_now is None or bezique_now is not old_bezique  # bezique is on the table now
    for identifier in ("to-score", "to-rules"):
        (now,) = [a for a in after.appbar.actions if a.identifier == identifier]
        assert now is old_bar[identifier]
    assert after.appbar.leading is before.appbar.leading  # Home

    ds.undo()  # and back: the first drawing's score, drawn as it was
    again = draw(app)
    assert text_of(find(again.body, "deal-score-1")) == "0"


def test_a_reused_header_box_follows_the_language(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    english = find(draw(app).body, "total-0")
    app.toggle_language()
    russian = find(draw(app).body, "total-0")
    assert russian is not english


def offer_places(view: Any, seat: int) -> dict[int, Any]:
    """Each of a player's offer controls by its place in the zone's grid, read row by row."""
    zone = find(view.body, f"offers-{seat}")
    cells = [c for row in zone.content.controls for c in row.controls]
    return {id(c): i for i, c in enumerate(cells) if getattr(c, "identifier", None)}


def test_a_kept_offer_never_moves_to_another_place(app: AppState) -> None:
    """Flet diffs a list's controls by position: a kept control drawn in another cell would
    take over that cell's identity and a tap there would reach the wrong offer (seen: Boris's
    four kings tapped, four queens recorded). Entries that move offers along the grid keep
    a control only where it was."""
    ds = new_match(app)
    start_deal(ds)
    before = {seat: offer_places(draw(app), seat) for seat in (0, 1)}
    for seat, meld in [(1, "bezique"), (0, "trump_marriage"), (1, "four_kings")]:
        view = ds.quick_declare(seat, meld)
        assert view is not None and view.accepted, meld
        now = {s: offer_places(draw(app), s) for s in (0, 1)}
        for s in (0, 1):
            for control, place in now[s].items():
                if control in before[s]:
                    assert before[s][control] == place, (meld, s)
        before = now
