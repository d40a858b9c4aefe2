"""Translation files: same keys and placeholders in both languages, every key the code uses
exists, and the language choice follows the system's preference."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from ui.i18n import Translator, load_catalog, pick_language

ROOT = Path(__file__).resolve().parents[2]


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_both_languages_have_the_same_keys_and_placeholders() -> None:
    en, ru = load_catalog("en"), load_catalog("ru")
    assert set(en) == set(ru)
    for key in en:
        assert _fields(en[key]) == _fields(ru[key]), key


def test_every_key_used_in_the_code_exists() -> None:
    en = load_catalog("en")
    used: set[str] = set()
    pattern = re.compile(r"""\bt\(\s*f?["']([a-z_]+\.[a-z_.{}0-9-]+)["']""")
    for path in (ROOT / "ui").rglob("*.py"):
        for key in pattern.findall(path.read_text(encoding="utf-8")):
            used.add(key)
    plain = {k for k in used if "{" not in k}
    assert plain, "the scan found no keys"
    missing = sorted(k for k in plain if k not in en)
    assert not missing
    # f-string keys: every variant / tracking / theme the code can produce
    for prefix, values in {
        "variant.": ["two-hand", "three-hand", "four-hand", "no-trump"],
        "tracking.": ["melds", "tricks", "cards", "melds_help", "tricks_help", "cards_help"],
        "nav.theme_": ["system", "light", "dark"],
    }.items():
        for v in values:
            assert prefix + v in en


def test_russian_is_actually_russian() -> None:
    ru = load_catalog("ru")
    words = {k: re.sub(r"\{[a-z_]+\}", "", v) for k, v in ru.items()}
    latin_only = [
        k
        for k, v in words.items()
        if re.search(r"[A-Za-z]{4,}", v) and not re.search(r"[а-яА-Я]", v)
    ]
    assert latin_only == []


@pytest.mark.parametrize(
    ("codes", "lang"),
    [(["ru-RU"], "ru"), (["de-DE", "ru"], "ru"), (["en_GB"], "en"), (["fr"], "en"), ([], "en")],
)
def test_system_language_is_the_default(codes: list[str], lang: str) -> None:
    assert pick_language(codes) == lang


def test_missing_key_and_bad_arguments_never_crash() -> None:
    t = Translator("ru")
    assert t("no.such.key") == "no.such.key"
    assert t("deal.title") == "Сдача {n}"  # a missing argument leaves the template
    assert t("deal.title", n=3) == "Сдача 3"
    assert Translator("xx").lang == "en"


def test_feature_catalogues_merge_and_a_key_defined_twice_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each feature keeps its texts in ``ui-<feature>.<lang>.toml``; a clash is an error."""
    import ui.i18n as i18n

    (tmp_path / "ui.en.toml").write_text('[home]\ntitle = "Home"\n', encoding="utf-8")
    (tmp_path / "ui-table.en.toml").write_text('[table]\njoin = "Join"\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "_data_dir", lambda: tmp_path)
    i18n.clear_cache()
    try:
        assert i18n.load_catalog("en") == {"home.title": "Home", "table.join": "Join"}
        (tmp_path / "ui-other.en.toml").write_text('[home]\ntitle = "Again"\n', encoding="utf-8")
        i18n.clear_cache()
        with pytest.raises(i18n.DuplicateTextKeyError, match=r"ui-other\.en\.toml"):
            i18n.load_catalog("en")
    finally:
        i18n.clear_cache()


# ------------------------------------------------------------------ counted phrases (plurals)
@pytest.mark.parametrize(
    ("n", "text"),
    [
        (24, "Найдено 24 статьи"),
        (2, "Найдено 2 статьи"),
        (1, "Найдена 1 статья"),
        (21, "Найдена 21 статья"),
        (5, "Найдено 5 статей"),
        (11, "Найдено 11 статей"),
        (112, "Найдено 112 статей"),
    ],
)
def test_russian_counted_phrases_follow_the_plural_rules(n: int, text: str) -> None:
    assert Translator("ru")("reference.results", n=n, q="безик").startswith(text)
    symbols = Translator("ru")("form.error.name_long", n=n)
    assert symbols.endswith("символа." if n % 10 == 1 and n % 100 != 11 else "символов.")


def test_english_counted_phrases_follow_the_plural_rules() -> None:
    t = Translator("en")
    assert t("reference.results", n=1, q="bezik") == "1 entry for “bezik”"
    assert t("reference.results", n=24, q="bezik") == "24 entries for “bezik”"
    assert t("form.error.name_long", n=1) == "At most 1 character."
    assert t("form.error.name_long", n=24) == "At most 24 characters."
    assert t("reference.results") == "{n} entries for “{q}”"  # no number: "other"


def _catalogue_trees(lang: str) -> list[tuple[str, dict[str, object]]]:
    import tomllib

    from ui.i18n import catalog_files

    files = [*catalog_files(lang), ROOT / "data" / "i18n" / f"rulings.{lang}.toml"]
    return [(p.name, tomllib.loads(p.read_text(encoding="utf-8"))) for p in files if p.exists()]


def _leaves(node: object, prefix: str = "") -> list[tuple[str, object]]:
    from referee import plurals

    if plurals.is_table(node) or not isinstance(node, dict):
        return [(prefix, node)]
    return [leaf for k, v in node.items() for leaf in _leaves(v, f"{prefix}.{k}".strip("."))]


def test_every_counted_phrase_has_the_forms_its_language_needs() -> None:
    from referee import plurals

    tables = 0
    for lang in ("en", "ru"):
        for name, tree in _catalogue_trees(lang):
            for key, node in _leaves(tree):
                if not plurals.is_table(node):
                    continue
                assert isinstance(node, dict)
                tables += 1
                forms = set(node) - {plurals.COUNT_KEY}
                assert forms == plurals.categories(lang), (name, key, forms)
                counted = str(node.get(plurals.COUNT_KEY, "n"))
                placeholders = {_fields(str(v)) == _fields(str(node["other"])) for v in
                                (node[f] for f in forms)}
                assert placeholders == {True}, (name, key)
                assert counted in _fields(str(node["other"])), (name, key)
    assert tables >= 6


# A number written before a counted noun must be a plural table, never one fixed ending.
COUNTED = re.compile(
    r"\{(n|count|won|seen|packs|sum|expected|total|points|nth)\}\s+"
    r"(tricks?|cards?|points?|characters?|deals?|matches|"
    r"взят\w*|карт\w*|очк\w*|символ\w*|сдач\w*|парти\w*)\b|\(s\)|\(а\)",
    re.IGNORECASE,
)


def test_no_counted_phrase_is_written_with_one_fixed_ending() -> None:
    from referee import plurals

    for lang in ("en", "ru"):
        for name, tree in _catalogue_trees(lang):
            for key, node in _leaves(tree):
                if plurals.is_table(node):
                    continue
                assert not COUNTED.search(str(node)), (name, key, node)


def test_russian_screens_show_russian_card_ranks_and_records_keep_codes() -> None:
    from referee.rulings import render

    t = Translator("ru")
    assert t("picker.remove", card="Q♠") == "Убрать Д♠"
    assert t("picker.remove", card="10♥") == "Убрать 10♥"
    assert Translator("en")("picker.remove", card="Q♠") == "Remove Q♠"
    text = render("declared", {"player": "Anna", "meld": "bezique", "cards": "Q♠ J♦",
                               "points": 40}, "ru")
    assert "Д♠ В♦" in text
    code = render("declared", {"player": "Anna", "meld": "bezique", "cards": "QS JD",
                               "points": 40}, "ru")
    assert "QS JD" in code
