"""Rubicon, six-pack and eight-pack in the app: the new-match form agrees a number of games
(or a points target) and offers each variant's house rules; what the deal screen offers and
what the sheet shows come from the engine."""

from __future__ import annotations

from typing import Any

import pytest

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
