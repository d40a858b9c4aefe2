"""Words a player reads (issue 21): entries said by their kind, not a rule id; cards high to
low as players say them; the winner's headline in the reason's own word; no "led first"
before a card, no "0 to go" once it is won; card labels for screen readers in the screen's
ranks; the seven and Declare quiet (still in place) while the engine would accept neither."""

from __future__ import annotations

import re
from typing import Any

import flet as ft
from sheet_samples import PLAYERS, play_deal
from ui_helpers import children, new_match, start_deal, walk

from referee.cards import parse_card
from referee.events import Declare
from ui.state import correction as corr
from ui.state.app import AppState
from ui.state.deal import DealScreen
from ui.state.score import score_sheet
from ui.state.verdict import verdict_of
from ui.views import SCREENS
from ui.views.cards import LANGUAGE
from ui.views.common import ViewContext
from ui.views.plain_buttons import foreground

RULE_ID = re.compile(r"\b[CRHP]-[A-Z0-9-]+\b")


def declare(ds: DealScreen, seat: int, *codes: str) -> None:
    ds.record(Declare(seat, tuple(parse_card(c) for c in codes), ()))


def screen(app: AppState, name: str = "deal") -> Any:
    app.screen = name  # type: ignore[assignment]
    return SCREENS[name](ViewContext(app=app, page=None)).body  # type: ignore[arg-type]


def node(root: Any, identifier: str) -> Any:
    return next((c for c in walk(root) if getattr(c, "identifier", None) == identifier), None)


def test_the_correction_list_says_each_entry_by_its_kind_without_rule_ids(
    app: AppState,
) -> None:
    ds = new_match(app)
    start_deal(ds)
    declare(ds, 1, "QS", "KS")  # a marriage
    declare(ds, 0, "KC", "KD", "KH", "KS")  # four kings
    for lang, kinds in (("en", ("marriage", "four kings")), ("ru", ("марьяж", "четыре короля"))):
        lines = corr.entry_lines(app.session, lang)[0]  # type: ignore[arg-type]
        assert [RULE_ID.findall(line.text) for line in lines] == [[], []]
        for line, kind in zip(lines, kinds, strict=True):
            assert kind in line.text.lower(), line.text


def test_r_rank_a_marriage_and_a_sequence_read_high_to_low(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)  # hearts are trumps
    declare(ds, 1, "QS", "KS")
    declare(ds, 0, "JH", "QH", "KH", "10H", "AH")
    lines = corr.entry_lines(app.session, "en")[0]  # type: ignore[arg-type]
    assert "K♠ Q♠" in lines[0].text
    assert "A♥ 10♥ K♥ Q♥ J♥" in lines[1].text


def test_card_labels_for_screen_readers_use_the_screens_ranks(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    ds.open_picker(0)
    ds.set_picker_tab("cards")  # the 32-card grid
    labels = {}
    for lang in ("en", "ru"):
        app.set_language(lang)
        token = LANGUAGE.set(lang)  # the shell sets it before each render
        try:
            labels[lang] = node(screen(app), "pick-QS").label
        finally:
            LANGUAGE.reset(token)
    assert labels == {"en": "Q♠", "ru": "Д♠"}


def test_the_winner_headline_and_its_reason_say_the_same_partie(
    app: AppState, store: Any
) -> None:
    mid = int(store.create_match(variant="two-hand", players=["Anna", "Boris"], target=100,
                                 house_rules=["H-TARGET"]))
    play_deal(store, mid, PLAYERS[2], "two-hand", 0, last=1)
    v = verdict_of(store.load_match(mid), "en")
    assert v.headline == "Boris wins the partie" and "wins the partie" in v.reason


def test_nothing_to_go_once_the_partie_is_won(app: AppState, store: Any) -> None:
    mid = int(store.create_match(variant="two-hand", players=["Anna", "Boris"], target=100,
                                 house_rules=["H-TARGET"]))
    play_deal(store, mid, PLAYERS[2], "two-hand", 0, last=1)
    sheet = score_sheet(store.load_match(mid))
    assert sheet.finished and sheet.to_go() == []


def test_the_first_lead_is_not_said_in_the_past_before_a_card_is_played(app: AppState) -> None:
    ds = new_match(app)
    start_deal(ds)
    texts = [str(c.value) for c in walk(screen(app)) if isinstance(c, ft.Text) and c.value]
    assert not any("led first" in t for t in texts)
    assert any("Boris leads first" in t for t in texts)


def _filled(button: Any) -> bool:
    colours = {getattr(c, "color", None) for c in walk(button)}
    return foreground("filled", True) in colours


def _quiet(root: Any, identifier: str) -> bool:
    """The button is drawn faded (a wrapper with opacity below 1 around it)."""
    for c in walk(root):
        if any(getattr(k, "identifier", None) == identifier for k in children(c)):
            return (getattr(c, "opacity", 1.0) or 1.0) < 1.0
    return False


def test_r_pack_the_seven_is_quiet_once_both_sevens_of_trumps_are_accounted_for(
    app: AppState,
) -> None:
    ds = new_match(app)
    start_deal(ds)
    assert not _quiet(screen(app), "seven-0")
    ds.seven(0)  # exchanged for the turn-up
    assert not _quiet(screen(app), "seven-1")  # the second copy is still out there
    ds.seven(1)  # shown: both copies of a two-pack game accounted for
    built = screen(app)
    assert _quiet(built, "seven-0") and _quiet(built, "seven-1")
    assert node(built, "seven-0") is not None  # in its place: a false seven is still refused


def test_r_no_declare_after_stock_declare_is_reachable_but_quiet_in_phase_2(
    app: AppState,
) -> None:
    ds = new_match(app, ("Anna", "Boris", "Vera"), variant="three-hand")
    start_deal(ds)
    ds.choose_declarer(0)  # the bar shows the chosen player's buttons
    assert _filled(node(screen(app), "declare-0"))
    ds.stock_exhausted()
    declare_button = node(screen(app), "declare-0")
    assert declare_button is not None and not _filled(declare_button)
    assert children(declare_button)  # still there to tap (a penalty for a late one, say)
