"""Rubicon, six-pack and eight-pack in the app: the new-match form agrees a number of games
(or a points target) and offers each variant's house rules; what the deal screen offers and
what the sheet shows come from the engine."""

from __future__ import annotations

from typing import Any

import pytest

from referee.cards import parse_card
from referee.events import Declare
from ui import i18n
from ui.state.app import AppState
from ui.state.new_match import NewMatchForm

MULTI_PACK = ("rubicon", "six-pack", "eight-pack")


@pytest.mark.parametrize("variant", MULTI_PACK)
def test_the_form_offers_each_multi_pack_variant_in_games(variant: str) -> None:
    form = NewMatchForm()
    assert variant in form.variants
    form.set_variant(variant)
    assert form.in_games and form.by_games
    assert form.games_text == str(form.info.games)
    assert form.target_text == ""  # no points target unless the table agrees one
    from referee.variants import load_variant

    # the variant's own house rules are the switches (eight-pack has no carte blanche)
    has_blanche = load_variant(variant).carte_blanche_points > 0
    assert ("H-CARTE-BLANCHE-REPEAT" in form.switches) == has_blanche
    assert "H-TARGET" not in form.switches


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_multi_pack_variants_have_names_and_form_texts_in_both_languages(lang: str) -> None:
    from ui import backend

    for v in MULTI_PACK:
        assert backend.variant_name(v, lang).strip()
    cat = i18n.load_catalog(lang)
    for key in ("games", "games_help", "by_games", "by_target", "error_games"):
        assert f"rubicon.form.{key}" in cat


def test_a_bad_number_of_games_names_the_games_field() -> None:
    form = NewMatchForm()
    form.set_variant("rubicon")
    form.set_name(0, "Anna")
    form.set_name(1, "Boris")
    for text in ("", "0", "x", "2.5", "100000"):
        form.set_games(text)
        assert form.validate()["games"].key == "rubicon.form.error_games"
    form.set_games("3")
    assert form.validate() == {}
    assert form.games() == 3 and form.target() is None


def test_a_rubicon_match_over_games_is_created_with_its_number(app: AppState, store: Any) -> None:
    app.start_new_match()
    form = app.new_form
    assert form is not None
    form.set_variant("rubicon")
    form.set_name(0, "Anna")
    form.set_name(1, "Boris")
    form.set_games("4")
    form.toggle_house_rule("H-CARTE-BLANCHE-REPEAT")
    assert app.submit_new_match()
    assert app.session is not None
    m = store.load_match(app.session.match_id)
    assert m.variant.id == "rubicon" and m.games == 4
    assert "H-CARTE-BLANCHE-REPEAT" in m.house_rules


def test_a_six_pack_match_to_a_points_target(app: AppState, store: Any) -> None:
    app.start_new_match()
    form = app.new_form
    assert form is not None
    form.set_variant("six-pack")
    form.set_name(0, "Anna")
    form.set_name(1, "Boris")
    form.set_match_by("target")
    assert form.validate()["target"].key == "form.error.target"  # the table types it
    form.set_target("10000")
    assert app.submit_new_match()
    assert app.session is not None
    m = store.load_match(app.session.match_id)
    assert m.target == 10000 and store.match_info(app.session.match_id).games is None


# ------------------------------------------------------------------ the deal screen
def _deal(app: AppState, variant: str, rules: tuple[str, ...] = ()) -> Any:
    from ui_helpers import new_match

    ds = new_match(app, variant=variant, rules=rules)
    assert not ds.turn_up_variant  # no turn-up: the first marriage or sequence fixes trumps
    ds.set_dealer(0)
    assert ds.start_deal(), ds.setup_errors
    return ds


def _build(app: AppState) -> None:
    from ui.views import SCREENS
    from ui.views.common import ViewContext

    SCREENS[app.screen](ViewContext(app=app, page=None))  # type: ignore[arg-type]


def _offered(ds: Any) -> list[tuple[str, int, int]]:
    from ui.state.rubicon_entries import entries

    return [(e.kind, e.seat, e.points) for e in entries(ds.match)]


def test_rubicon_offers_carte_blanche_before_play_and_no_seven(app: AppState) -> None:
    from ui.state.rubicon_entries import no_trumps_key

    ds = _deal(app, "rubicon")
    points = ds.match.variant.carte_blanche_points
    assert _offered(ds) == [("carte_blanche", 0, points), ("carte_blanche", 1, points)]
    assert not ds.has_sevens()
    assert no_trumps_key(ds.match) == "rubicon.deal.no_trumps_yet"
    _build(app)
    from ui.state.rubicon_entries import entries, record

    boris = next(e for e in entries(ds.match) if e.seat == 1)
    view = record(ds, boris)
    assert view is not None and view.accepted and view.points == points
    assert ds.deal_scores()[1] == points
    assert _offered(ds) == [("carte_blanche", 0, points)]  # once, without the house rule
    view = ds.record(Declare(0, (parse_card("KS"), parse_card("QS")), (), "trump_marriage"))
    assert view is not None and view.accepted
    assert ds.trumps() is not None  # fixed by the first marriage
    assert _offered(ds) == []  # Anna showed a court card
    _build(app)


def test_carte_blanche_again_under_the_repeat_house_rule(app: AppState) -> None:
    from ui.state.rubicon_entries import entries, record

    ds = _deal(app, "rubicon", ("H-CARTE-BLANCHE-REPEAT",))
    first = next(e for e in entries(ds.match) if e.seat == 0)
    assert not first.again
    assert record(ds, first) is not None
    again = next(e for e in entries(ds.match) if e.seat == 0)
    assert again.again and again.points == first.points


def test_six_pack_offers_the_cut_bonus_once_to_each_player(app: AppState) -> None:
    from ui.state.rubicon_entries import entries, record

    ds = _deal(app, "six-pack")
    cuts = [e for e in entries(ds.match) if e.kind == "cut_bonus"]
    bonus = ds.match.variant.cut_bonus
    assert [(e.seat, e.dealer, e.points) for e in cuts] == [
        (0, True, bonus["dealer"]), (1, False, bonus["guess"])]
    assert record(ds, cuts[1]) is not None
    assert [e.seat for e in entries(ds.match) if e.kind == "cut_bonus"] == [0]
    _build(app)


def test_eight_pack_has_neither_carte_blanche_nor_a_seven(app: AppState) -> None:
    ds = _deal(app, "eight-pack")
    assert [k for k, _, _ in _offered(ds) if k == "carte_blanche"] == []
    assert not ds.has_sevens()


# ------------------------------------------------------------------ the score sheet
def _rubicon_record_match(store: Any) -> Any:
    from pathlib import Path

    record = Path(__file__).resolve().parents[1] / "variants" / "records" / "rubicon.json"
    mid = store.import_match(str(record))
    return mid, store.load_match(mid)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_sheet_shows_each_games_bonus_and_rubicon_on_its_own_line(
    store: Any, lang: str
) -> None:
    from ui.state.score import score_sheet

    _, m = _rubicon_record_match(store)
    sheet = score_sheet(m, lang)
    assert sheet.games is not None and sheet.games.games == m.games == 2
    assert sheet.games.played == 2
    for d in (1, 2):
        game = m.game(d - 1)
        lines = sheet.games.by_deal[d]
        moved = [g for g in game.lines if g.kind == "points" or g.points]  # 0 moves: no line
        assert [ln.kind for ln in lines] == list(dict.fromkeys(g.kind for g in moved))
        for g in moved:  # every number of the engine's game stands in its side's column
            cell = next(ln for ln in lines if ln.kind == g.kind).cells[g.side]
            assert str(abs(g.points)) in cell
        assert sheet.rows[d - 1].scores == game.scores
        assert sheet.games.outcomes[d] == game.render(list(m.side_names), lang)
    kinds = {ln.kind for lines in sheet.games.by_deal.values() for ln in lines}
    assert {"bonus", "rubicon_bonus", "rubicon_brisques"} <= kinds  # the record has both
    assert sheet.games.standing == ""  # finished: the verdict panel says who won
    assert sheet.to_go() == []
    assert i18n.Translator(lang)("rubicon.sheet.rubicon_bonus", points="+1000").endswith("+1000")


def test_the_sheet_says_how_many_games_are_left_while_the_match_goes_on(store: Any) -> None:
    from ui.state.score import score_sheet

    mid, _ = _rubicon_record_match(store)
    rec = store.export_match(mid)
    rec["deals"] = rec["deals"][:1]
    m = store.load_match(store.import_match(rec))
    sheet = score_sheet(m, "en")
    assert sheet.games is not None and sheet.games.played == 1
    assert sheet.games.standing.rstrip(".") == m.verdict().render("en").rstrip(".")
    assert sheet.games.standing
    assert sheet.games.heading(i18n.Translator("en"), sheet.target).endswith("played: 1")


def test_the_sheet_view_builds_with_game_lines(app: AppState, store: Any) -> None:
    mid, _ = _rubicon_record_match(store)
    app.open_match(mid, remember=False)
    app.show_score()
    assert str(app.screen) == "score"
    _build(app)


def test_the_sheet_files_say_the_games_agreed_not_a_target_of_0(store: Any) -> None:
    from ui import sheet_files
    from ui.state.score import score_sheet

    _, m = _rubicon_record_match(store)
    sheet = score_sheet(m, "en")
    rows = sheet_files.sheet_csv(sheet, i18n.Translator("en")).decode("utf-8-sig").splitlines()
    assert f"Games,{m.games}" in rows
    assert not any(r.startswith("Target") for r in rows)
    pdf = sheet_files.sheet_pdf(sheet, i18n.Translator("ru"), "Anna — Boris", "Рубикон", [])
    assert pdf.startswith(b"%PDF")


def test_a_rematch_keeps_the_number_of_games(app: AppState, store: Any) -> None:
    mid, m = _rubicon_record_match(store)
    assert app.matches.rematch(mid, rotate=False)
    assert app.session is not None and app.session.match_id != mid
    again = store.load_match(app.session.match_id)
    assert again.variant.id == "rubicon" and again.games == m.games == 2


def test_home_says_which_game_of_how_many_not_a_target_of_0(app: AppState, store: Any) -> None:
    from ui import backend
    from ui.views.common import ViewContext
    from ui.views.home import detail

    mid = store.create_match("rubicon", ["Anna", "Boris"], games=3)
    s = backend.summarize(store, mid)
    assert s.games == 3
    text = detail(ViewContext(app=app, page=None), s)  # type: ignore[arg-type]
    assert "game 1 of 3" in text and "to 0" not in text


def test_the_table_viewer_counts_games_not_a_target_of_0(store: Any) -> None:
    from ui.state.viewer import reading

    mid = store.create_match("rubicon", ["Anna", "Boris"], games=3)
    r = reading(store.load_match(mid), "en")
    assert r.games == 3 and r.target == 0
    two = reading(store.load_match(store.create_match("two-hand", ["Anna", "Boris"])), "en")
    assert two.games is None and two.target > 0
