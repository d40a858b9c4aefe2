"""QA round on the deal screen (state, no page): a penalty with nothing to lose is said in
words, an applied penalty shows as a penalty with its amount, and the strip's quiet line says
the log's last entry (a turned-up seven, a rejected declaration)."""

from __future__ import annotations

from ui_helpers import new_match, start_deal

from referee.cards import Rank, Suit, parse_card
from ui.state.app import AppState
from ui.state.deal import DealScreen
from ui.views import ruling_toast
from ui.views.common import ViewContext
from ui.views.deal_header import header
from ui.views.penalty_sheet import amount_text


def ctx(app: AppState) -> ViewContext:
    return ViewContext(app=app, page=None)  # type: ignore[arg-type]


def false_declaration(ds: DealScreen, seat: int = 0) -> None:
    ds.open_picker(seat, tab="cards")
    for code in ("KS", "QD"):
        ds.add_new(parse_card(code))
    view = ds.declare("marriage")
    assert view is not None and not view.accepted


def texts(control: object) -> list[str]:
    """Every Text value under a control (the view as the user reads it)."""
    found: list[str] = []
    stack = [control]
    while stack:
        c = stack.pop()
        if c is None:
            continue
        value = getattr(c, "value", None)
        if type(c).__name__ == "Text" and isinstance(value, str):
            found.append(value)
        for attr in ("content", "controls"):
            child = getattr(c, attr, None)
            if isinstance(child, list):
                stack.extend(child)
            elif child is not None and not isinstance(child, str):
                stack.append(child)
    return found


def test_a_penalty_with_nothing_to_lose_is_said_in_words_not_zero(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    false_declaration(ds)
    proposed = ds.proposed_penalty()
    assert proposed is not None and proposed.points == 0  # the engine's preview: nothing yet
    for lang in ("en", "ru"):
        app.set_language(lang)
        words = amount_text(ctx(app), proposed)
        assert words == app.t("deal_messages.nothing_to_lose") and "0" not in words


def test_a_penalty_amount_uses_a_real_minus_sign(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    options = {o.offence: o for o in ds.penalty_options(0)}
    early = options["P-EARLY-DECLARE"]
    assert early.points < 0
    assert amount_text(ctx(app), early) == f"\u2212{-early.points}"


def test_an_applied_penalty_shows_in_the_strip_with_its_amount(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    before = ds.deal_scores()[0]
    view = ds.penalty(0, "P-EARLY-DECLARE")
    assert view is not None and view.penalty
    lost = before - ds.deal_scores()[0]
    assert lost > 0
    shown = texts(ruling_toast.strip(ctx(app), ds, lambda fn: (lambda _e: fn())))
    assert app.t("deal.penalty") in shown and app.t("ruling.accepted") not in shown
    assert f"\u2212{lost}" in [t.strip() for t in shown]


def test_the_strip_says_the_turned_up_seven_when_nothing_else_is_recorded(
    app: AppState,
) -> None:
    ds = new_match(app)
    start_deal(ds, rank=Rank.SEVEN, suit=Suit.CLUBS, dealer=1)
    seven = ds.dealer_seven()
    assert seven is not None
    shown = texts(ruling_toast.strip(ctx(app), ds, lambda fn: (lambda _e: fn())))
    assert app.t("deal_screen.no_entries") not in shown
    assert app.t("deal_messages.seven_last", player=ds.players[seven[0]], points=seven[1]) in shown


def test_the_strip_says_a_rejected_declaration_the_log_keeps(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    false_declaration(ds)
    assert len(ds.deal.log) == 1
    shown = texts(ruling_toast.strip(ctx(app), ds, lambda fn: (lambda _e: fn())))
    assert app.t("deal_screen.no_entries") not in shown
    ds.dismiss_ruling()
    shown = texts(ruling_toast.strip(ctx(app), ds, lambda fn: (lambda _e: fn())))
    assert app.t("deal_screen.no_entries") not in shown


def test_a_negative_score_in_the_header_has_a_real_minus_sign(app: AppState) -> None:
    """The header prints −10 as the sheet does, never "-10" (a dash at arm's length)."""
    ds = new_match(app)
    start_deal(ds)
    ds.penalty(0, "P-EARLY-DECLARE")
    score = ds.deal_scores()[0]
    assert score < 0
    shown = [t.strip() for t in texts(header(ctx(app), ds))]
    assert f"\u2212{-score}" in shown
    assert not any(t.startswith("-") or " -" in t for t in shown)
