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
    i18n.load_catalog.cache_clear()
    try:
        assert i18n.load_catalog("en") == {"home.title": "Home", "table.join": "Join"}
        (tmp_path / "ui-other.en.toml").write_text('[home]\ntitle = "Again"\n', encoding="utf-8")
        i18n.load_catalog.cache_clear()
        with pytest.raises(i18n.DuplicateTextKeyError, match=r"ui-other\.en\.toml"):
            i18n.load_catalog("en")
    finally:
        i18n.load_catalog.cache_clear()
