"""The app's words for the game (``data/i18n/glossary.toml``): one Russian term per concept,
and card ranks as each language's players read them (Т К Д В in Russian).

Card codes and records never change (``QS`` stays ``QS``); only what is shown does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from referee.cards import JOKER_SYMBOL, Card, Rank
from referee.data import load_toml

_SUITS = "♠♥♦♣"
# A Latin court-card letter right before a suit symbol: "Q♠", "K♥" (not "QS", a code).
_SHOWN_RANK = re.compile(rf"(?<![A-Za-z0-9])([AKQJ])(?=[{_SUITS}])")


@dataclass(frozen=True, slots=True)
class Term:
    """One concept: its English word, its Russian term and the Russian variants not to use."""

    concept: str
    en: str
    ru: str
    ru_not: tuple[str, ...]
    note: str


@cache
def _raw() -> dict[str, object]:
    return load_toml("i18n/glossary.toml")


@cache
def terms() -> tuple[Term, ...]:
    raw = _raw().get("terms", {})
    assert isinstance(raw, dict)
    return tuple(
        Term(
            concept=str(concept),
            en=str(t.get("en", "")),
            ru=str(t.get("ru", "")),
            ru_not=tuple(str(x) for x in t.get("ru_not", [])),
            note=str(t.get("note", "")),
        )
        for concept, t in raw.items()
    )


@cache
def _ranks(lang: str) -> dict[str, str]:
    ranks = _raw().get("ranks", {})
    assert isinstance(ranks, dict)
    table = ranks.get(lang) or ranks.get("en") or {}
    return {str(k): str(v) for k, v in table.items()}


def rank_label(rank: Rank, lang: str = "en") -> str:
    """A rank as shown to players of this language (ru: Q → Д)."""
    return _ranks(lang).get(rank.label, rank.label)


def card_label(card: Card, lang: str = "en") -> str:
    """A card as shown: rank in the language, suit symbol (ru: Д♠)."""
    if card.is_joker:
        return JOKER_SYMBOL
    return f"{rank_label(card.rank, lang)}{card.suit.symbol}"


def cards_label(cards: Iterable[Card], lang: str = "en") -> str:
    return " ".join(card_label(c, lang) for c in cards)


def shown_cards(text: str, lang: str = "en") -> str:
    """A text with its shown cards ("Q♠ J♦") in the language's ranks ("Д♠ В♦")."""
    ranks = _ranks(lang)
    if lang == "en" or not ranks:
        return text
    return _SHOWN_RANK.sub(lambda m: ranks.get(m.group(1), m.group(1)), text)
