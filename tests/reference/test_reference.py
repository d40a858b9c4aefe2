"""The rules reference: complete against RULES.md, bilingual, consistent with the variant files
and the referee's messages, and searchable the way players type."""

from __future__ import annotations

import re
import string
import tomllib
from pathlib import Path

import pytest

from referee import plurals, reference, reference_search
from referee.data import data_dir, load_toml
from referee.variants import load_variant, variant_ids

REPO = Path(__file__).resolve().parents[2]
RULES_MD = REPO.parent / "shared" / "RULES.md"
ID = re.compile(r"\b[RPH]-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")
DISPUTED = ("R-REUSE", "R-PENDING", "R-SEVEN", "R-PHASE2", "R-NEW-CARD", "R-DECLARE-AFTER-TRICK")
VARIANTS = {"all", "two-hand", "three-hand", "four-hand", "no-trump", "joker-multipack", "rubicon",
            "six-pack", "eight-pack"}


def _raw_entries() -> list[dict[str, object]]:
    with (data_dir() / "rules.toml").open("rb") as f:
        entries: list[dict[str, object]] = tomllib.load(f)["entry"]
    return entries


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


# ------------------------------------------------------------------------------ completeness
def test_every_id_in_rules_md_has_an_entry() -> None:
    if not RULES_MD.exists():
        pytest.skip(f"{RULES_MD} not found")
    ids = set(ID.findall(RULES_MD.read_text(encoding="utf-8")))
    assert ids, "no ids parsed from RULES.md"
    known = {e.id for e in reference.all_entries("en")}
    assert sorted(ids - known) == []


def test_ids_are_unique_and_kinds_known() -> None:
    ids = [str(e["id"]) for e in _raw_entries()]
    assert len(ids) == len(set(ids))
    for e in reference.all_entries():
        assert e.kind in reference.KINDS, e.id
        prefix = {"rule": ("R-", "J-"), "penalty": ("P-",), "house": ("H-",),
                  "combination": ("C-",), "variant": ("V-",)}[e.kind]
        assert e.id.startswith(prefix), e.id
        assert e.section, e.id


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_entry_has_both_languages(lang: str) -> None:
    for raw in _raw_entries():
        rid = raw["id"]
        for field in ("title", "text", "keywords"):
            assert raw.get(f"{field}_{lang}"), f"{rid}: {field}_{lang} missing"
        assert raw.get("source"), f"{rid}: source missing"
        assert raw.get("source_ru"), f"{rid}: source_ru missing"
        if raw["kind"] == "house":
            for field in ("summary", "default_reading"):
                assert raw.get(f"{field}_{lang}"), f"{rid}: {field}_{lang} missing"
            assert raw.get("replaces"), f"{rid}: replaces missing"
        keywords = raw[f"keywords_{lang}"]
        assert isinstance(keywords, list) and len(keywords) == len(set(keywords)), rid
        if rid in DISPUTED:
            assert raw.get(f"example_{lang}"), f"{rid}: example_{lang} missing"


def test_russian_texts_are_russian_and_english_texts_english() -> None:
    cyrillic = re.compile("[а-яё]", re.I)
    for raw in _raw_entries():
        for field in ("title", "text"):
            assert cyrillic.search(str(raw[f"{field}_ru"])), f"{raw['id']} {field}_ru"
        assert not cyrillic.search(str(raw["title_en"]).replace("«инфузорка»", "")), raw["id"]


def test_variants_are_known_and_house_rules_match_the_variant_files() -> None:
    for e in reference.all_entries():
        assert e.variants, e.id
        assert set(e.variants) <= VARIANTS, e.id
    for vid in variant_ids():
        for rule in load_variant(vid).house_rules_available:
            e = reference.entry(rule)
            assert e.kind == "house", rule
            assert e.applies_to(vid), f"{rule} is offered for {vid} but its entry says {e.variants}"


def test_replaced_and_mentioned_ids_exist() -> None:
    known = {e.id for e in reference.all_entries()}
    for e in reference.all_entries():
        assert set(e.replaces) <= known, e.id
        for lang in ("en", "ru"):
            le = reference.entry(e.id, lang)
            for text in (le.text, le.example or "", le.default_reading or ""):
                assert set(ID.findall(text)) <= known, e.id


def test_titles_agree_with_the_rulings_files() -> None:
    for lang in ("en", "ru"):
        titles = load_toml(f"i18n/rulings.{lang}.toml")["rules"]
        for rid, title in titles.items():
            assert reference.entry(rid, lang).title == title, (lang, rid)


# ------------------------------------------------------------------------------ combinations
def test_one_combination_entry_per_combination_kind() -> None:
    melds = {spec.id for vid in variant_ids() for spec in load_variant(vid).combinations}
    entries = {e.meld: e for e in reference.all_entries() if e.kind == "combination"}
    assert set(entries) == melds
    for meld, e in entries.items():
        table = dict(e.points)
        assert table, meld
        for vid in variant_ids():
            spec = load_variant(vid).combination(meld)
            if spec is None:
                assert vid not in table, (meld, vid)
            else:
                assert table[vid] == spec.points, (meld, vid)
        assert set(e.variants) == set(table)


def test_combination_names_agree_with_the_meld_names() -> None:
    for lang in ("en", "ru"):
        names = load_toml(f"i18n/rulings.{lang}.toml")["melds"]
        for e in reference.all_entries(lang):
            if e.meld:
                assert e.title.lower() == names[e.meld].lower(), (lang, e.meld)


def test_combination_text_shows_its_points() -> None:
    e = reference.entry("C-DOUBLE-BEZIQUE", "en")
    assert "500" in e.text
    ru = reference.entry("C-TRIPLE-BEZIQUE", "ru")
    assert "1500" in ru.text and "втроём" in ru.text


# ---------------------------------------------------------------------------- rulings.ru.toml
def test_rulings_ru_has_exactly_the_keys_and_placeholders_of_english() -> None:
    en = load_toml("i18n/rulings.en.toml")
    ru = load_toml("i18n/rulings.ru.toml")
    assert set(ru) == set(en)
    for section, texts in en.items():
        assert set(ru[section]) == set(texts), section
        for key, node in texts.items():
            template, ru_text = plurals.template(node), plurals.template(ru[section][key])
            assert _placeholders(ru_text) == _placeholders(template), (section, key)
            assert re.search("[а-яё]", ru_text, re.I), (section, key)


def test_russian_rulings_render() -> None:
    from referee.rulings import render

    text = render("declared", {"player": "Anna", "meld": "double_bezique", "cards": "QS QS JD JD",
                               "points": 500}, "ru")
    assert text == "Anna объявляет: двойной безик (QS QS JD JD) — 500"


# ------------------------------------------------------------------------------------ lookup
def test_entry_and_languages() -> None:
    e = reference.entry("r-reuse", "ru")
    assert e.id == "R-REUSE" and e.lang == "ru" and e.example
    assert reference.entry("R-REUSE", "xx").lang == "en"
    with pytest.raises(KeyError):
        reference.entry("R-NOPE")
    assert reference.explanation("P-REVOKE", "ru").startswith("В последних 8 взятках")
    assert reference.explanation("R-NOPE") == ""


def test_house_rules_for_two_hand_lists_the_variant_file() -> None:
    with (data_dir() / "variants" / "two-hand.toml").open("rb") as f:
        wanted = tomllib.load(f)["house_rules"]
    for lang in ("en", "ru"):
        got = reference.house_rules_for("two-hand", lang)
        assert [e.id for e in got] == wanted
        for e in got:
            assert e.summary and e.default_reading and e.source and e.text


def test_house_rules_for_other_variants() -> None:
    assert "H-PARTNER-BUILD" in [e.id for e in reference.house_rules_for("four-hand")]
    nt = [e.id for e in reference.house_rules_for("no-trump")]
    assert "H-NT-SEQUENCE-300" in nt and "H-SEVEN-EXTRA" not in nt
    assert all(e.kind == "house" for e in reference.house_rules_for("rubicon"))


# ------------------------------------------------------------------------------------ search
@pytest.mark.parametrize(
    ("query", "lang", "wanted"),
    [
        ("двойной безик", "ru", "C-DOUBLE-BEZIQUE"),
        ("бeзик", "ru", "C-BEZIQUE"),  # a Latin e inside the Russian word
        ("бЕЗИК", "ru", "C-BEZIQUE"),
        ("double bezique", "en", "C-DOUBLE-BEZIQUE"),
        ("what does a double bezique score?", "en", "C-DOUBLE-BEZIQUE"),
        ("сколько стоит двойной безик?", "ru", "C-DOUBLE-BEZIQUE"),
        ("R-REUSE", "en", "R-REUSE"),
        ("r-reuse", "ru", "R-REUSE"),
        ("bezik", "en", "C-BEZIQUE"),
        ("марьяж", "ru", "C-MARRIAGE"),
        ("мaрьяж", "ru", "C-MARRIAGE"),  # Latin a
        ("семерка козырей", "ru", "R-SEVEN"),
        ("семёрка козырей", "ru", "R-SEVEN"),
        ("брыски", "ru", "R-BRISQUE"),
        ("four aces", "en", "C-FOUR-ACES"),
        ("четыре туза", "ru", "C-FOUR-ACES"),
        ("500", "en", "C-DOUBLE-BEZIQUE"),
        ("trump sequence", "en", "C-TRUMP-SEQUENCE"),
        ("bezique", "ru", "C-BEZIQUE"),  # English word in the Russian reference
        ("лишняя карта", "ru", "P-EXTRA-CARD"),
        ("кто ходит первым", "ru", "R-LEAD"),
    ],
)
def test_search_finds(query: str, lang: str, wanted: str) -> None:
    results = [h.entry for h in reference_search.search(query, lang)]
    assert results, query
    assert results[0].id == wanted, [e.id for e in results[:5]]
    assert all(e.lang == lang for e in results)


def test_search_latin_lookalikes_are_folded() -> None:
    assert reference_search.normalize("бeзик") == reference_search.normalize("безик")
    assert reference_search.normalize("Сёмерка") == reference_search.normalize("семерка")
    assert reference_search.normalize("bеzique") == ["bezique"]  # a Cyrillic е inside a Latin word


def _ids(query: str, lang: str, variant: str) -> list[str]:
    setting = reference_search.Setting(variant)
    return [h.entry.id for h in reference_search.search(query, lang, setting, only_variant=True)]


def test_search_by_variant_and_nothing() -> None:
    no_trump = reference_search.Setting("no-trump")
    found = reference_search.search("seven", "en", no_trump, only_variant=True)
    assert all(h.entry.applies_to("no-trump") for h in found)
    assert "R-SEVEN" not in _ids("seven", "en", "no-trump")
    assert "C-TRIPLE-BEZIQUE" not in _ids("bezique", "en", "two-hand")
    assert reference_search.search("", "en") == []
    assert reference_search.search("zzzzqqq", "ru") == []
