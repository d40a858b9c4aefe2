"""The reference search as a table uses it in a dispute: every kind of entry is found, what is
in force for the open match comes first, a house rule that is off is marked off, and the words
people type (transliterated, misspelt, as a question) find the entry they mean."""

from __future__ import annotations

import re

import pytest

from referee import reference
from referee.reference_search import Setting, Standing, entries_for, search, standing_of

TWO_HAND = Setting("two-hand")


def _first(query: str, lang: str, setting: Setting = TWO_HAND) -> str:
    hits = search(query, lang, setting)
    assert hits, query
    return hits[0].entry.id


def test_search_finds_every_kind_of_entry() -> None:
    kinds_found = set()
    for query in ("bezique", "double bezique", "penalty", "house rule", "four-hand", "joker"):
        for lang in ("en", "ru"):
            kinds_found |= {h.entry.kind for h in search(query, lang, TWO_HAND)}
    assert kinds_found >= set(reference.KINDS)


@pytest.mark.parametrize(
    ("query", "lang"),
    [
        ("безик", "ru"),
        ("безик", "en"),
        ("bezik", "ru"),
        ("bezik", "en"),
        ("what is a bezique", "en"),
        ("What is a bezique?", "ru"),
        ("что такое безик", "ru"),
        ("bezeek", "en"),
    ],
)
def test_bezique_questions_find_the_bezique_combination_first(query: str, lang: str) -> None:
    hits = search(query, lang, TWO_HAND)
    assert hits[0].entry.id == "C-BEZIQUE", [h.entry.id for h in hits[:4]]
    assert "♠" in hits[0].entry.text and "♦" in hits[0].entry.text  # the default definition


@pytest.mark.parametrize(
    ("query", "lang"),
    [("double bezique", "en"), ("двойной безик", "ru"), ("500", "en"), ("500", "ru")],
)
def test_double_bezique_and_its_points_find_the_combination(query: str, lang: str) -> None:
    assert _first(query, lang) == "C-DOUBLE-BEZIQUE"


def test_a_house_rule_that_is_off_is_marked_off_and_ranked_after_the_default() -> None:
    hits = search("bezique", "en", TWO_HAND)
    ids = [h.entry.id for h in hits]
    pair = next(h for h in hits if h.entry.id == "H-BEZIQUE-PAIR")
    assert pair.standing is Standing.OFF
    assert ids.index("C-BEZIQUE") < ids.index("H-BEZIQUE-PAIR")


def test_a_house_rule_that_is_on_comes_first_and_the_reading_it_replaces_is_marked() -> None:
    setting = Setting("two-hand", frozenset({"H-BEZIQUE-PAIR"}))
    hits = search("bezique by the trump suit", "en", setting)
    assert hits[0].entry.id == "H-BEZIQUE-PAIR"
    assert hits[0].standing is Standing.IN_FORCE
    by_id = {h.entry.id: h for h in search("bezique", "en", setting)}
    assert by_id["C-BEZIQUE"].standing is Standing.REPLACED


def test_a_combination_a_house_rule_removes_is_off() -> None:
    setting = Setting("two-hand", frozenset({"H-NO-PLAIN-SEQUENCE"}))
    assert standing_of("C-SEQUENCE", setting) is Standing.OFF
    assert standing_of("C-TRUMP-SEQUENCE", setting) is Standing.IN_FORCE
    assert standing_of("C-SEQUENCE", TWO_HAND) is Standing.IN_FORCE


def test_another_variants_entries_come_after_this_variants() -> None:
    hits = search("triple bezique", "en", TWO_HAND)
    triple = next(h for h in hits if h.entry.id == "C-TRIPLE-BEZIQUE")
    assert triple.standing is Standing.ELSEWHERE
    three = search("triple bezique", "en", Setting("three-hand"))
    assert three[0].entry.id == "C-TRIPLE-BEZIQUE"
    assert three[0].standing is Standing.IN_FORCE


@pytest.mark.parametrize(("query", "lang"), [("partly guessed", "en"), ("угадано", "ru")])
def test_the_joker_variants_partly_guessed_note_is_found(query: str, lang: str) -> None:
    hits = search(query, lang, Setting("joker-multipack"))
    assert hits[0].entry.id == "V-MULTI-PACK"
    assert "guess" in hits[0].entry.text or "угадан" in hits[0].entry.text


def test_the_whole_reference_lists_combinations_and_variants_with_their_standing() -> None:
    listed = entries_for("en", Setting("two-hand", frozenset({"H-MUST-WIN"})))
    kinds = {e.kind for e, _ in listed}
    assert {"rule", "penalty", "house", "combination", "variant"} <= kinds
    standing = {e.id: s for e, s in listed}
    assert standing["H-MUST-WIN"] is Standing.IN_FORCE
    assert standing["R-PHASE2"] is Standing.REPLACED
    assert standing["H-TIE-HIGHER"] is Standing.OFF
    assert "C-TRIPLE-BEZIQUE" not in standing


FILE_NAMES = re.compile(r"seed|док\.|RULES\.md|\.md\b|\.txt|\b00[0-9]\b", re.IGNORECASE)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_sources_are_cited_by_their_titles_never_by_file_names(lang: str) -> None:
    for e in reference.all_entries(lang):
        for text in (e.source, e.text, e.summary or "", e.example or ""):
            assert not FILE_NAMES.search(text), (e.id, text)


def test_the_table_lights_up_only_the_combinations_a_search_is_about() -> None:
    from referee.reference_search import melds_answering

    assert melds_answering("what is a bezique", "en", TWO_HAND)[0] == "bezique"
    assert melds_answering("four tricks", "en", TWO_HAND) == []
    assert "double_bezique" in melds_answering("500", "ru", TWO_HAND)


def test_a_floor_drops_the_long_tail_but_keeps_what_the_query_is_about() -> None:
    every = search("bezik", "ru", TWO_HAND)
    kept = search("bezik", "ru", TWO_HAND, floor=0.2)
    assert len(kept) < len(every)
    ids = [h.entry.id for h in kept]
    assert ids[0] == "C-BEZIQUE" and "C-DOUBLE-BEZIQUE" in ids and "H-BEZIQUE-PAIR" in ids
