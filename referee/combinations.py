"""Recognising combinations (RULES.md §4) in a set of cards, given trumps.

Cards are handled as multisets (``Counter``) because two or more packs hold identical copies.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement

from referee.cards import Card, Rank, Suit
from referee.variants import CombinationSpec, Variant

CardCounts = Counter[Card]


@dataclass(frozen=True, slots=True)
class Instance:
    """One combination formed by particular cards."""

    spec: CombinationSpec
    cards: tuple[Card, ...]  # sorted, with repeats for copies

    @property
    def meld(self) -> str:
        return self.spec.id

    @property
    def points(self) -> int:
        return self.spec.points

    def counts(self) -> CardCounts:
        return Counter(self.cards)


def bezique_pair(trumps: Suit | None, bezique_pair_rule: bool) -> tuple[Card, Card]:
    """The bezique's queen and jack: Q♠ J♦, or under H-BEZIQUE-PAIR the queen of trumps with
    the jack of the other suit of the same colour."""
    if bezique_pair_rule and trumps is not None:
        return Card(Rank.QUEEN, trumps), Card(Rank.JACK, trumps.same_colour_partner)
    return Card(Rank.QUEEN, Suit.SPADES), Card(Rank.JACK, Suit.DIAMONDS)


def contains(big: CardCounts, small: CardCounts) -> bool:
    return all(big[c] >= n for c, n in small.items())


def _suits_for(spec: CombinationSpec, trumps: Suit | None, trumps_open: bool) -> Sequence[Suit]:
    if spec.suit == "trump":
        if trumps is not None:
            return (trumps,)
        return tuple(Suit) if trumps_open else ()
    if spec.suit == "plain":
        # Before trumps are fixed (no-trump) a marriage is the trump-fixing one, not plain.
        return () if trumps_open else tuple(s for s in Suit if s is not trumps)
    return tuple(Suit)


def instances(
    cards: CardCounts,
    variant: Variant,
    trumps: Suit | None,
    *,
    bezique_pair_rule: bool = False,
    trumps_open: bool = False,
    only: str | None = None,
) -> Iterator[Instance]:
    """Every combination instance the cards contain.

    ``trumps_open``: trumps are not fixed yet and a trump combination of any suit may fix them
    (no-trump variant); plain combinations are then not offered for marriages.
    """
    ranks_present = {c.rank for c in cards}
    for spec in variant.combinations:
        if only is not None and spec.id != only:
            continue
        if spec.shape == "suit":
            if not all(r in ranks_present for r in spec.ranks):
                continue
            for suit in _suits_for(spec, trumps, trumps_open):
                need = [Card(r, suit) for r in spec.ranks]
                if all(cards[c] >= spec.copies for c in need):
                    yield Instance(spec, tuple(sorted(need * spec.copies)))
        elif spec.shape == "bezique":
            queen, jack = bezique_pair(trumps, bezique_pair_rule)
            if cards[queen] >= spec.copies and cards[jack] >= spec.copies:
                yield Instance(spec, tuple(sorted([queen, jack] * spec.copies)))
        else:
            rank = spec.ranks[0]
            if rank not in ranks_present:
                continue
            available = [c for c in cards if c.rank is rank]
            if sum(cards[c] for c in available) < 4:
                continue
            seen: set[tuple[Card, ...]] = set()
            for pick in combinations_with_replacement(sorted(available), 4):
                chosen = Counter(pick)
                if contains(cards, chosen) and pick not in seen:
                    seen.add(pick)
                    yield Instance(spec, pick)
