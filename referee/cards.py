"""Cards, suits and ranks (R-PACK, R-RANK).

Cards are interned: parsing returns the one shared instance per card, so comparisons and
hashing are cheap and identical copies from different packs are, as at the table,
indistinguishable (the engine counts copies instead).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum, IntEnum

from referee.errors import InvalidCardError


class Suit(Enum):
    """The four suits; the value is the record's letter."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    # Members are singletons compared by identity: hash them the cheap way too.
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def same_colour_partner(self) -> Suit:
        """The other suit of the same colour (H-BEZIQUE-PAIR)."""
        return _PARTNER[self]


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_PARTNER = {
    Suit.SPADES: Suit.CLUBS,
    Suit.CLUBS: Suit.SPADES,
    Suit.HEARTS: Suit.DIAMONDS,
    Suit.DIAMONDS: Suit.HEARTS,
}


class Rank(IntEnum):
    """Ranks in trick order (R-RANK): a higher value beats a lower one."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    JACK = 3
    QUEEN = 4
    KING = 5
    TEN = 6
    ACE = 7

    __hash__ = int.__hash__

    @property
    def label(self) -> str:
        return _RANK_LABELS[self]


_RANK_LABELS = {
    Rank.SEVEN: "7",
    Rank.EIGHT: "8",
    Rank.NINE: "9",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.TEN: "10",
    Rank.ACE: "A",
}
_RANK_BY_TEXT = {label: rank for rank, label in _RANK_LABELS.items()} | {"T": Rank.TEN}
_SUIT_BY_TEXT = {s.value: s for s in Suit} | {sym: s for s, sym in _SUIT_SYMBOLS.items()}
# Variation selectors and the white suit symbols people paste from phones.
_SUIT_BY_TEXT |= {"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}

BRISQUE_RANKS = frozenset({Rank.ACE, Rank.TEN})
_SUIT_ORDER = {s: i for i, s in enumerate(Suit)}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card face; the pack it came from is not known and does not matter."""

    rank: Rank
    suit: Suit
    is_joker: bool = False
    _key: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Cards are hashed constantly (multisets of copies): a small int keeps that cheap.
        key = 32 if self.is_joker else int(self.rank) * 4 + _SUIT_ORDER[self.suit]
        object.__setattr__(self, "_key", key)

    def __hash__(self) -> int:
        return self._key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and self._key == other._key

    def __str__(self) -> str:
        if self.is_joker:
            return JOKER_SYMBOL
        return f"{self.rank.label}{self.suit.symbol}"

    def __lt__(self, other: Card) -> bool:
        # Sorted by suit, then rank: K♠ Q♠ J♦ read as a player holds them.
        return (self._key & 3, self._key) < (other._key & 3, other._key)

    @property
    def code(self) -> str:
        """The record's spelling: ``QS``, ``10D``, ``JOKER``."""
        if self.is_joker:
            return "JOKER"
        return f"{self.rank.label}{self.suit.value}"

    @property
    def is_brisque(self) -> bool:
        return self.rank in BRISQUE_RANKS and not self.is_joker

    @staticmethod
    def parse(text: str) -> Card:
        """Read ``QS``, ``10D``, ``TD``, ``J♦`` (any case); raise InvalidCardError otherwise."""
        return parse_card(text)


ALL_CARDS: tuple[Card, ...] = tuple(Card(r, s) for s in Suit for r in sorted(Rank, reverse=True))
_BY_RANK_SUIT: dict[tuple[Rank, Suit], Card] = {(c.rank, c.suit): c for c in ALL_CARDS}


# The joker ("инфузорка") of the multi-pack variant: no suit, no rank of its own; it stands for
# any card of a combination. Its rank and suit fields are placeholders that no rule reads.
JOKER_SYMBOL = "★"
JOKER = Card(Rank.SEVEN, Suit.SPADES, is_joker=True)


def card_of(rank: Rank, suit: Suit) -> Card:
    """The shared instance of a card (cheaper than building a new one)."""
    return _BY_RANK_SUIT[rank, suit]
_INTERNED: dict[str, Card] = {}
for _card in ALL_CARDS:
    for _r, _rank in _RANK_BY_TEXT.items():
        if _rank is not _card.rank:
            continue
        for _s, _suit in _SUIT_BY_TEXT.items():
            if _suit is _card.suit:
                _INTERNED[(_r + _s).upper()] = _card


_JOKER_NAMES = frozenset({"JOKER", "JKR", "★", "🃏", "ДЖОКЕР", "ИНФУЗОРКА"})


def parse_card(text: object) -> Card:
    """The card a text names; InvalidCardError names the text when it is no card."""
    if not isinstance(text, str):
        raise InvalidCardError(repr(text), "a card is written as text such as QS or 10D")
    key = text.strip().replace("\ufe0f", "").upper()
    if key in _JOKER_NAMES:
        return JOKER
    card = _INTERNED.get(key)
    if card is None:
        raise InvalidCardError(text, _why_not_a_card(key))
    return card


def _why_not_a_card(key: str) -> str:
    if not key:
        return "empty"
    suit = key[-1]
    rank = key[:-1]
    if suit not in {k.upper() for k in _SUIT_BY_TEXT}:
        return f'"{suit}" is not a suit; use S H D C or ♠ ♥ ♦ ♣'
    if rank not in _RANK_BY_TEXT:
        return f'"{rank}" is not a rank; use A 10 K Q J 9 8 7'
    return "not a card"


def parse_cards(texts: Iterable[object]) -> list[Card]:
    return [parse_card(t) for t in texts]


def parse_suit(text: str) -> Suit:
    try:
        return _SUIT_BY_TEXT[text.strip().upper()]
    except KeyError:
        raise InvalidCardError(text, "not a suit") from None


def spoken_order(cards: Iterable[Card]) -> list[Card]:
    """Cards as players say them: a suit's cards together, high to low (K♠ Q♠, A♥ 10♥ K♥ Q♥
    J♥), suits in their usual order, a joker last."""
    return sorted(cards, key=lambda c: (c.is_joker, _SUIT_ORDER[c.suit], -int(c.rank)))


def cards_text(cards: Iterable[Card]) -> str:
    """Cards for a message, as players say them: ``K♠ Q♠``, ``A♥ 10♥ K♥ Q♥ J♥``."""
    return " ".join(str(c) for c in spoken_order(cards))
