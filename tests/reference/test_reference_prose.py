"""Rule ids inside reference prose become the cited rules' titles for players; the stored data
keeps its ids (the reference's own checks rely on them)."""

from __future__ import annotations

import pytest

from referee import reference
from referee.reference_prose import RULE_ID, titles_for_ids


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_an_id_inside_prose_becomes_the_rules_quoted_title(lang: str) -> None:
    bezique = reference.entry("C-BEZIQUE", lang)
    assert "H-BEZIQUE-PAIR" in bezique.text, "the stored text cross-refers by id"
    shown = titles_for_ids(bezique.text, lang)
    assert "H-BEZIQUE-PAIR" not in shown
    assert reference.entry("H-BEZIQUE-PAIR", lang).title in shown


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_known_id_is_left_in_any_entrys_prose(lang: str) -> None:
    known = {e.id for e in reference.all_entries(lang)}
    for e in reference.all_entries(lang):
        for text in (e.text, e.example or "", e.summary or ""):
            left = set(RULE_ID.findall(titles_for_ids(text, lang))) & known
            assert not left, f"{e.id} ({lang}) still names {sorted(left)}"


def test_an_unknown_id_and_plain_words_stay_as_written() -> None:
    assert titles_for_ids("see H-NO-SUCH-RULE, R-U-OK? no", "en") == (
        "see H-NO-SUCH-RULE, R-U-OK? no"
    )
    assert titles_for_ids("", "ru") == ""
