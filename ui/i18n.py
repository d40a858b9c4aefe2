"""UI text from data/i18n/ui.<lang>.toml, so no user-facing string lives in code.

A missing key falls back to English, then to the key itself: a forgotten translation shows up
as a visible key in a screenshot instead of crashing the table app mid-game. A text that
counts something is a table of plural forms chosen by the language's CLDR rules
(referee/plurals.py, Babel): ``t("deal.stock_left", n=2)`` → «осталось 2 взятки».
"""

from __future__ import annotations

import contextlib
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from referee import glossary, plurals

LANGUAGES: tuple[str, ...] = ("en", "ru")
DEFAULT_LANGUAGE = "en"


def _data_dir() -> Path:
    """data/i18n in a checkout, or the copy the wheel ships as referee/_data/i18n."""
    here = Path(__file__).resolve().parent
    candidates = [here.parent / "data" / "i18n"]
    try:
        import referee

        candidates.append(Path(referee.__file__).resolve().parent / "_data" / "i18n")
    except ImportError:  # pragma: no cover - referee is always installed with ui
        pass
    for c in candidates:
        if (c / "ui.en.toml").exists():
            return c
    return candidates[0]


def _flatten(
    prefix: str,
    node: dict[str, Any],
    out: dict[str, str],
    forms: dict[str, dict[str, str]] | None = None,
) -> None:
    """Dotted keys → texts; a plural table is one key (its "other" form in ``out``, every
    form in ``forms``)."""
    for key, value in node.items():
        full = f"{prefix}.{key}" if prefix else key
        if plurals.is_table(value):
            out[full] = plurals.template(value)
            if forms is not None:
                forms[full] = {str(k): str(v) for k, v in value.items()}
        elif isinstance(value, dict):
            _flatten(full, value, out, forms)
        else:
            out[full] = str(value)


def catalog_files(lang: str) -> list[Path]:
    """``ui.<lang>.toml`` first, then one ``ui-<feature>.<lang>.toml`` per feature, sorted.

    A feature's texts live in a file named after it, so a reader finds them by name and two
    features never edit the same file.
    """
    base = _data_dir()
    return [base / f"ui.{lang}.toml", *sorted(base.glob(f"ui-*.{lang}.toml"))]


class DuplicateTextKeyError(ValueError):
    """Two catalogue files of one language define the same key: which one wins is a guess."""


@cache
def _load(lang: str) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    out: dict[str, str] = {}
    forms: dict[str, dict[str, str]] = {}
    for path in catalog_files(lang):
        if not path.exists():
            continue
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        part: dict[str, str] = {}
        _flatten("", data, part, forms)
        clash = sorted(set(part) & set(out))
        if clash:
            raise DuplicateTextKeyError(f"{path}: key {clash[0]!r} is already defined")
        out.update(part)
    return out, forms


def load_catalog(lang: str) -> dict[str, str]:
    """All keys of one language, flattened to dotted names (``home.title``); a counted
    phrase appears with its "other" form."""
    return _load(lang)[0]


def load_plurals(lang: str) -> dict[str, dict[str, str]]:
    """The counted phrases of one language: key → {category: text} (and ``count``)."""
    return _load(lang)[1]


def clear_cache() -> None:
    """Forget the loaded catalogues (tests that write catalogue files)."""
    _load.cache_clear()


def pick_language(locale_codes: list[str]) -> str:
    """The first supported language among the system's preferred locales (``ru-RU`` → ru)."""
    for code in locale_codes:
        base = code.replace("_", "-").split("-")[0].lower()
        if base in LANGUAGES:
            return base
    return DEFAULT_LANGUAGE


class Translator:
    """Looks up and formats UI strings for one language."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
        self._cat = load_catalog(self.lang)
        self._forms = load_plurals(self.lang)
        self._fallback = load_catalog(DEFAULT_LANGUAGE)
        self._fallback_forms = load_plurals(DEFAULT_LANGUAGE)

    def has(self, key: str) -> bool:
        return key in self._cat or key in self._fallback

    def __call__(self, key: str, **kw: object) -> str:
        text = self._cat.get(key) or self._fallback.get(key)
        if text is None:
            return key
        if key in self._forms:
            text = plurals.choose(self._forms[key], self.lang, kw)
        elif key not in self._cat and key in self._fallback_forms:
            text = plurals.choose(self._fallback_forms[key], DEFAULT_LANGUAGE, kw)
        if kw:
            with contextlib.suppress(KeyError, IndexError, ValueError):  # leave the template
                text = text.format(**kw)
        return glossary.shown_cards(text, self.lang)  # Д♠ В♦ in Russian

    def get(self, key: str, default: str, **kw: object) -> str:
        """Like calling, but with a caller-chosen default for optional keys (rule names)."""
        return self(key, **kw) if self.has(key) else default
