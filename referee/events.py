"""The events of a deal: what happened at the table, as frozen values.

An event log is the source of truth; the score, undo, export and replay all come from
replaying it. Events name players by seat index (0-based, seating order) so that renaming a
player never changes a ruling; the match record spells them by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TypeAlias

from referee.cards import Card


def _frozen_map(m: Mapping[int, Card] | Mapping[int, int] | None) -> Mapping[int, object]:
    return MappingProxyType(dict(m or {}))


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick was won. With ``cards`` tracking, ``cards`` maps seat → card played and
    ``from_table`` lists the seats whose card came off their declared cards."""

    winner: int
    cards: Mapping[int, Card] | None = None
    from_table: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Declare:
    """A declaration: ``new`` cards laid from the hand, ``table`` cards already declared,
    ``meld`` the combination scored now (None: the one the cards form)."""

    player: int
    new: tuple[Card, ...]
    table: tuple[Card, ...] = ()
    meld: str | None = None


@dataclass(frozen=True, slots=True)
class Seven:
    """A seven of trumps declared (the first exchanged for the turn-up, later ones shown)."""

    player: int


@dataclass(frozen=True, slots=True)
class CarteBlanche:
    """A hand with no court card shown (Rubicon, six-pack: R-CARTE-BLANCHE)."""

    player: int


@dataclass(frozen=True, slots=True)
class CutBonus:
    """The six-pack cut bonus taken by a player: the dealer cut exactly 24 cards, or the
    non-dealer guessed the number cut (R-CUT-BONUS)."""

    player: int


@dataclass(frozen=True, slots=True)
class Penalty:
    """A penalty the table agreed on (``offence`` is a ``P-…`` id)."""

    player: int
    offence: str


@dataclass(frozen=True, slots=True)
class StockExhausted:
    """Phase 2 begins (needed only with ``melds`` tracking)."""


@dataclass(frozen=True, slots=True)
class LastTrick:
    """The last-trick bonus (needed only with ``melds`` tracking)."""

    winner: int


@dataclass(frozen=True, slots=True)
class Brisques:
    """End-of-deal brisques: seat → number of aces and tens won."""

    counts: Mapping[int, int] = field(default_factory=dict)


Event: TypeAlias = (
    Trick | Declare | Seven | Penalty | StockExhausted | LastTrick | Brisques | CarteBlanche
    | CutBonus
)

EVENT_TYPES: dict[str, type] = {
    "trick": Trick,
    "declare": Declare,
    "seven": Seven,
    "penalty": Penalty,
    "stock_exhausted": StockExhausted,
    "last_trick": LastTrick,
    "brisques": Brisques,
    "carte_blanche": CarteBlanche,
    "cut_bonus": CutBonus,
}
TYPE_NAMES: dict[type, str] = {v: k for k, v in EVENT_TYPES.items()}


def event_type_name(event: Event) -> str:
    return TYPE_NAMES[type(event)]
