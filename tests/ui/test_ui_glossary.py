"""One glossary (data/i18n/glossary.toml) for the game's words: every Russian text of the app
uses its term for each concept (колода for the stock, бриски, фаза, сдатчик, партия) and never
a variant it rules out, and a player's name never needs a gendered ending."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from referee import plurals
from referee.glossary import terms
from ui.i18n import catalog_files

ROOT = Path(__file__).resolve().parents[2]
QUOTE = re.compile(r"«[^»]*»")  # quotations from the sources keep their own words


def _leaves(node: object, prefix: str = "") -> list[tuple[str, str]]:
    if plurals.is_table(node):
        assert isinstance(node, dict)
        return [(f"{prefix}.{k}", str(v)) for k, v in node.items() if k != plurals.COUNT_KEY]
    if isinstance(node, dict):
        return [leaf for k, v in node.items() for leaf in _leaves(v, f"{prefix}.{k}")]
    if isinstance(node, list):
        return []
    return [(prefix, str(node))]


def _russian_texts() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    files = [*catalog_files("ru"), ROOT / "data" / "i18n" / "rulings.ru.toml"]
    for path in files:
        if path.exists():
            tree = tomllib.loads(path.read_text(encoding="utf-8"))
            out += [(f"{path.name}:{k}", v) for k, v in _leaves(tree)]
    rules = tomllib.loads((ROOT / "data" / "rules.toml").read_text(encoding="utf-8"))
    for e in rules["entry"]:
        for field, value in e.items():
            shown = field.endswith("_ru") and not field.startswith("keywords")
            if shown and isinstance(value, str):
                out.append((f"rules.toml:{e['id']}.{field}", value))
    return out


TEXTS = _russian_texts()


def test_the_glossary_names_the_disputed_concepts() -> None:
    concepts = {t.concept for t in terms()}
    assert {"stock", "brisque", "phase", "dealer", "winner", "match"} <= concepts
    # issue 21's slips: «брисок», «Колода вышла», «Семёрка козырей», «у игрока Борис»
    assert {"stock_exhausted", "seven_of_trumps"} <= concepts
    ruled_out = {bad for t in terms() for bad in t.ru_not}
    assert {"брисок", "колода вышла", "семёрка козырей", "у игрока {"} <= ruled_out
    assert all(t.ru and t.en for t in terms())


@pytest.mark.parametrize("term", terms(), ids=lambda t: t.concept)
def test_russian_texts_use_only_the_glossary_term(term: object) -> None:
    from referee.glossary import Term

    assert isinstance(term, Term)
    wrong = [
        (where, text)
        for where, text in TEXTS
        for bad in term.ru_not
        if bad.lower() in QUOTE.sub("", text).lower()
    ]
    assert wrong == [], f"{term.concept}: say «{term.ru}», not {term.ru_not}"


@pytest.mark.parametrize(
    "concept", ["stock", "brisque", "phase", "dealer", "match", "stock_exhausted"]
)
def test_the_glossary_term_is_the_one_in_use(concept: str) -> None:
    term = next(t for t in terms() if t.concept == concept)
    assert any(term.ru.lower() in text.lower() for _, text in TEXTS), concept


def test_russian_texts_show_russian_card_ranks() -> None:
    latin_court = re.compile(r"(?<![A-Za-z0-9])[AKQJ][♠♥♦♣]")
    assert [(w, t) for w, t in TEXTS if latin_court.search(t)] == []
