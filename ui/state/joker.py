"""What the screens offer, read from the variant's data rather than from its name: the cards a
pack holds (the joker variant: A K Q J 10, three nines per suit and two jokers), the turn-ups
that can be turned, whether sevens, brisques and the last trick count, who sits a deal out, and
the escalation tables of the variants scored by showings.

Nothing here decides a rule: each answer is a number or a query of the engine's variant or
deal objects.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from referee.cards import JOKER, Card, Rank, Suit
from ui import backend

RANKS: tuple[Rank, ...] = tuple(sorted(Rank, reverse=True))
SUITS: tuple[Suit, ...] = backend.SUITS


def in_pack(variant: Any, players: int, card: Card) -> bool:
    """The game holds at least one copy of this card (R-PACK, the variant's own pack)."""
    return int(variant.copies(card, players)) > 0


def turn_up_ranks(variant: Any, players: int) -> tuple[Rank, ...]:
    """Ranks a turn-up can have: cards of the pack, never a joker (it has no suit)."""
    return tuple(r for r in RANKS if any(in_pack(variant, players, Card(r, s)) for s in SUITS))


def turn_up_suits(variant: Any, players: int) -> tuple[Suit, ...]:
    return tuple(s for s in SUITS if any(in_pack(variant, players, Card(r, s)) for r in RANKS))


def pick_rows(variant: Any, players: int) -> list[list[Card]]:
    """The card picker's faces: a row per suit with the ranks the pack holds, then the jokers'
    row when the pack has jokers."""
    rows = [[Card(r, s) for r in RANKS if in_pack(variant, players, Card(r, s))] for s in SUITS]
    rows = [row for row in rows if row]
    if in_pack(variant, players, JOKER):
        rows.append([JOKER])
    return rows


def max_copies(variant: Any, players: int, card: Card) -> int:
    """How many of this card the game holds (packs, extra nines, jokers)."""
    return int(variant.copies(card, players))


def has_sevens(variant: Any) -> bool:
    """The seven of trumps scores in this variant (none in the joker variant)."""
    return int(variant.seven_points) > 0


def counts_brisques(variant: Any) -> bool:
    return int(variant.brisque_points) > 0


def counts_last_trick(variant: Any) -> bool:
    return int(variant.last_trick_points) > 0


def sits_out(deal: Any, seat: int) -> bool:
    """The engine's answer whether this player sits the deal out (the joker variant's dealer
    with four at the table); deals without the notion have nobody sitting out."""
    ask = getattr(deal, "sits_out", None)
    return bool(ask(seat)) if deal is not None and callable(ask) else False


# ------------------------------------------------------------------------ showings table
@dataclass(frozen=True)
class ShowingRow:
    """One line of the showings table: the combination's name and its values in words."""

    meld: str
    name: str
    kind: str
    cells: tuple[str, ...]


def showing_rows(
    t: Callable[..., str], variant: str, house_rules: frozenset[str], lang: str
) -> list[ShowingRow]:
    """The variant's showings with their escalating values, as its data gives them: series
    (showing 1, 2, 3 … then doubling), repeat (showing n: n × value), set (four cards, then
    each further card)."""
    out: list[ShowingRow] = []
    for line in backend.showing_table(variant, house_rules):
        if line.kind == "series":
            cells = [t("showings.nth", n=i + 1, points=v) for i, v in enumerate(line.values)]
            cells.append(t("showings.then_doubling"))
        elif line.kind == "repeat":
            cells = [t("showings.n_times", points=line.values[0])]
        else:
            cells = [t("showings.set_four", points=line.values[0])]
            cells += [
                t("showings.set_card", n=i + 5, points=v) for i, v in enumerate(line.values[1:])
            ]
        name = backend.meld_name(line.meld, lang)
        out.append(ShowingRow(line.meld, name[:1].upper() + name[1:], line.kind, tuple(cells)))
    return out
