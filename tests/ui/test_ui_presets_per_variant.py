"""QA P20: the new-match form offers a variant only the presets of its own sources (the old
Russian rulebook says nothing of Rubicon) and says where a §8 variant's defaults come from."""

from __future__ import annotations

import pytest

from ui import backend
from ui.state.new_match import NewMatchForm


@pytest.mark.parametrize("variant", ["rubicon", "six-pack", "eight-pack"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_section_8_variant_is_offered_no_russian_rulebook_preset(variant: str, lang: str) -> None:
    form = NewMatchForm()
    form.set_variant(variant)
    offered = form.presets()
    assert "old-rulebook" not in offered and "first-article" not in offered
    text = backend.preset_text("defaults", lang, variant)
    assert "Wikipedia" not in text and "Википеди" not in text
    assert backend.variant_source(variant, lang) in text


def test_rubicon_keeps_the_preset_of_a_book_that_describes_it() -> None:
    form = NewMatchForm()
    form.set_variant("rubicon")
    assert "foster" in form.presets()


def test_the_two_hand_game_keeps_the_russian_presets_and_defaults_words() -> None:
    form = NewMatchForm()
    form.set_variant("two-hand")
    assert "old-rulebook" in form.presets()
    assert "Russian Wikipedia" in backend.preset_text("defaults", "en", "two-hand")
