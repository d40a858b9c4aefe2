"""Counted phrases ("1 trick", «24 взятки», «5 взяток») chosen by the language's plural rules
(CLDR, through Babel) instead of hand-written endings.

A catalogue text that depends on a number is a table of plural forms, one per CLDR category
the language has (English: one, other; Russian: one, few, many, other):

    [deal.stock_left]
    one = "Stock: {n} trick with draws left"
    other = "Stock: {n} tricks with draws left"

The number is the argument named ``n`` unless the table says otherwise (``count = "won"``).
Used by the UI's catalogues (ui/i18n.py) and by the rulings' (referee/rulings.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from babel import Locale

CATEGORIES = ("zero", "one", "two", "few", "many", "other")
COUNT_KEY = "count"  # names the argument that decides, when it is not ``n``


def is_table(node: object) -> bool:
    """A TOML table of plural forms: an "other" form and nothing but categories (and count)."""
    if not isinstance(node, Mapping) or "other" not in node:
        return False
    return all(k in CATEGORIES or k == COUNT_KEY for k in node)


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


@cache
def categories(lang: str) -> frozenset[str]:
    """The plural categories a language's texts must give (always with "other")."""
    return frozenset(_locale(lang).plural_form.tags) | {"other"}


def category(lang: str, number: float) -> str:
    """The CLDR plural category of a number in a language (ru: 1 → one, 2 → few, 5 → many)."""
    return str(_locale(lang).plural_form(abs(number)))


def _number(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return value
    try:
        return float(str(value))
    except ValueError:
        return None


def choose(table: Mapping[str, Any], lang: str, args: Mapping[str, object]) -> str:
    """The form of a plural table for the arguments given ("other" if the number is missing)."""
    name = str(table.get(COUNT_KEY, "n"))
    number = _number(args.get(name)) if name in args else None
    if number is None:
        return str(table["other"])
    return str(table.get(category(lang, number)) or table["other"])


def template(node: object) -> str:
    """The text of a catalogue entry for checks and fallbacks: a plain text, or a plural
    table's "other" form."""
    if is_table(node):
        assert isinstance(node, Mapping)
        return str(node["other"])
    return str(node)
