"""The pure-Python misspelling match (referee.fuzzy) against rapidfuzz, which it stands in for
in the phone's browser: the same ratios to the last bit, the same words in the same order, so
the rules search answers a table the same on a phone as on the server."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz, process

from referee import fuzzy, reference_search
from referee.reference_search import Setting, search

# Few letters, so random words share many and the ratios land on every value, ties included.
LETTERS = "abekmoрстуебзик"
words = st.text(alphabet=LETTERS, max_size=12)
any_text = st.text(max_size=20)  # any code points, Latin, Cyrillic, suits, astral


def _rapidfuzz_extract(
    query: str, choices: list[str] | tuple[str, ...], cutoff: float, limit: int
) -> list[tuple[str, float, int]]:
    return process.extract(query, choices, scorer=fuzz.ratio, score_cutoff=cutoff, limit=limit)


@settings(max_examples=400)
@given(words, words)
def test_ratio_is_rapidfuzz_ratio_on_latin_and_cyrillic_words(a: str, b: str) -> None:
    assert fuzzy.ratio(a, b) == fuzz.ratio(a, b)


@settings(max_examples=200)
@given(any_text, any_text)
def test_ratio_is_rapidfuzz_ratio_on_any_text(a: str, b: str) -> None:
    assert fuzzy.ratio(a, b) == fuzz.ratio(a, b)


def test_two_empty_strings_are_alike_as_rapidfuzz_has_them() -> None:
    assert fuzzy.ratio("", "") == fuzz.ratio("", "") == 100.0
    assert fuzzy.ratio("безик", "") == fuzz.ratio("безик", "") == 0.0


@settings(max_examples=300)
@given(
    words,
    st.lists(words, max_size=30),
    st.sampled_from([0.0, 80.0]),
    st.integers(min_value=1, max_value=20),
)
def test_extract_keeps_rapidfuzz_words_and_order_ties_by_position(
    query: str, choices: list[str], cutoff: float, limit: int
) -> None:
    """Equal ratios come in the choices' order, cut at the limit as rapidfuzz cuts them."""
    assert fuzzy.extract(query, choices, cutoff, limit) == _rapidfuzz_extract(
        query, choices, cutoff, limit
    )


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("query", ["bezik", "безик", "marrige", "четыре туза", "chetyre", "tuza"])
def test_extract_finds_rapidfuzz_words_in_the_search_vocabulary(query: str, lang: str) -> None:
    vocabulary = reference_search._vocabulary(lang)
    for q in (query, *reference_search.keys(query)):  # as typed, and as the search asks
        expected = _rapidfuzz_extract(q, vocabulary, 80.0, 20)
        assert fuzzy.extract(q, vocabulary, 80.0, 20) == expected, q


def test_the_vocabulary_checks_meet_close_words_and_a_ratio_of_exactly_the_cutoff() -> None:
    """The agreement above is not an empty one: "bezik" has close Russian words, one of them
    ("bezig") at exactly 80, where a cutoff compared the other way would drop it."""
    vocabulary = reference_search._vocabulary("ru")
    found = {w: r for w, r, _ in fuzzy.extract("bezik", vocabulary, 80.0, 20)}
    assert found["bezika"] > 80.0
    assert found["bezig"] == 80.0


QUERIES = [
    "bezik",
    "безик",
    "bezeek",
    "marrige",
    "royal mariage",
    "четыре туза",
    "four aces",
    "сорок бейзик",
    "sequense",
    "what does a seven of trumps score",
    "последняя взятка",
    "brisque",
    "двойной безик",
    "carte blanche",
    "pentalty",
    "рубикон",
]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_search_ranks_the_same_with_the_pure_fallback(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    setting = Setting("two-hand")

    def ranked() -> list[list[tuple[str, str, float]]]:
        return [
            [(h.entry.id, h.standing.value, h.score) for h in search(q, lang, setting)]
            for q in QUERIES
        ]

    with_rapidfuzz = ranked()
    monkeypatch.setattr(reference_search, "_extract", fuzzy.extract)
    assert ranked() == with_rapidfuzz
    assert all(with_rapidfuzz), "every query finds something"


def test_without_rapidfuzz_the_search_picks_the_pure_extract(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "rapidfuzz", None)  # import rapidfuzz now fails
    assert reference_search._pick_extract() is fuzzy.extract


def test_with_rapidfuzz_the_search_uses_it() -> None:
    assert reference_search._pick_extract() is not fuzzy.extract
    assert reference_search._extract is not fuzzy.extract


def test_the_search_imports_and_answers_where_rapidfuzz_is_missing() -> None:
    """As in the phone's browser: a fresh interpreter where ``import rapidfuzz`` fails."""
    code = (
        "import sys; sys.modules['rapidfuzz'] = None\n"
        "from referee import fuzzy, reference_search as rs\n"
        "assert rs._extract is fuzzy.extract\n"
        "print(rs.search('marrige', 'en')[0].entry.id)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == search("marrige", "en")[0].entry.id
