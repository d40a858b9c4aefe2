"""Recognising combinations (RULES.md §4) in a set of cards, given trumps.

Cards are handled as multisets (``Counter``) because two or more packs hold identical copies.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from referee.cards import Card, Rank, Suit, card_of
from referee.variants import CombinationSpec, Variant

CardCounts = Counter[Card]


@dataclass(frozen=True, slots=True)
class Instance:
    """One combination formed by particular cards."""

    spec: CombinationSpec
    cards: tuple[Card, ...]  # sorted, with repeats for copies
    _counts: CardCounts = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_counts", Counter(self.cards))

    @property
    def meld(self) -> str:
        return self.spec.id

    @property
    def points(self) -> int:
        return self.spec.points

    def counts(self) -> CardCounts:
        """The cards as a multiset (shared: do not change it)."""
        return self._counts


# H-BEZIQUE-BY-TRUMPS (six-pack): the queen of trumps with the jack of this suit.
BY_TRUMPS_JACK = {Suit.SPADES: Suit.DIAMONDS, Suit.DIAMONDS: Suit.SPADES,
                  Suit.HEARTS: Suit.CLUBS, Suit.CLUBS: Suit.HEARTS}


def bezique_by_trumps(trumps: Suit | None) -> tuple[Card, Card] | None:
    """H-BEZIQUE-BY-TRUMPS: ♠ Q♠ J♦, ♦ Q♦ J♠, ♥ Q♥ J♣, ♣ Q♣ J♥; None before trumps are
    fixed (the pair is not known yet, so no bezique can be declared)."""
    if trumps is None:
        return None
    return card_of(Rank.QUEEN, trumps), card_of(Rank.JACK, BY_TRUMPS_JACK[trumps])


def bezique_pair(trumps: Suit | None, bezique_pair_rule: bool) -> tuple[Card, Card]:
    """The bezique's queen and jack: Q♠ J♦, or under H-BEZIQUE-PAIR the queen of trumps with
    the jack of the other suit of the same colour."""
    if bezique_pair_rule and trumps is not None:
        return card_of(Rank.QUEEN, trumps), card_of(Rank.JACK, trumps.same_colour_partner)
    return card_of(Rank.QUEEN, Suit.SPADES), card_of(Rank.JACK, Suit.DIAMONDS)


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
    by_trumps: bool = False,
) -> tuple[Instance, ...]:
    """Every combination instance the cards contain.

    ``trumps_open``: trumps are not fixed yet and a trump combination of any suit may fix them
    (no-trump variant); plain combinations are then not offered for marriages.
    The answer depends only on its arguments, so it is memoised: the same few multisets of
    cards are asked about again and again while a deal is refereed.
    """
    key = (frozenset(cards.items()), id(variant), trumps, bezique_pair_rule, trumps_open, only,
           by_trumps)
    found = _MEMO.get(key)
    if found is None:
        if len(_MEMO) > 20_000:
            _MEMO.clear()
        found = _MEMO[key] = tuple(
            _instances(cards, variant, trumps, bezique_pair_rule, trumps_open, only, by_trumps)
        )
        _VARIANTS_SEEN[id(variant)] = variant  # keeps id(variant) from being reused
    return found


_MEMO: dict[tuple[object, ...], tuple[Instance, ...]] = {}
_VARIANTS_SEEN: dict[int, Variant] = {}


def _instances(
    cards: CardCounts,
    variant: Variant,
    trumps: Suit | None,
    bezique_pair_rule: bool,
    trumps_open: bool,
    only: str | None,
    by_trumps: bool = False,
) -> Iterator[Instance]:
    ranks_present = {c.rank for c in cards}
    for spec in variant.combinations:
        if only is not None and spec.id != only:
            continue
        if spec.shape == "suit":
            if not all(r in ranks_present for r in spec.ranks):
                continue
            for suit in _suits_for(spec, trumps, trumps_open):
                need = [card_of(r, suit) for r in spec.ranks]
                if all(cards[c] >= spec.copies for c in need):
                    yield Instance(spec, tuple(sorted(need * spec.copies)))
        elif spec.shape == "bezique":
            pair = bezique_by_trumps(trumps) if by_trumps else bezique_pair(
                trumps, bezique_pair_rule)
            if pair is None:
                continue
            queen, jack = pair
            if cards[queen] >= spec.copies and cards[jack] >= spec.copies:
                yield Instance(spec, tuple(sorted([queen, jack] * spec.copies)))
        elif spec.suit == "trump":  # four (five) trump aces …: copies of the trump card
            if trumps is None:
                continue
            card = card_of(spec.ranks[0], trumps)
            if cards[card] >= spec.copies:
                yield Instance(spec, (card,) * spec.copies)
        else:
            rank = spec.ranks[0]
            if rank not in ranks_present:
                continue
            available = sorted(c for c in cards if c.rank is rank)
            total = sum(cards[c] for c in available)
            if total < 4:
                continue
            if total == 4:
                yield Instance(spec, tuple(c for c in available for _ in range(cards[c])))
                continue
            for pick in _picks(available, [cards[c] for c in available], 4):
                yield Instance(spec, pick)


def _picks(cards: Sequence[Card], limits: Sequence[int], size: int) -> Iterator[tuple[Card, ...]]:
    """Every multiset of `size` cards taking at most limits[i] copies of cards[i]."""
    if size == 0:
        yield ()
        return
    if not cards:
        return
    first, rest = cards[0], cards[1:]
    for k in range(min(limits[0], size), -1, -1):
        for tail in _picks(rest, limits[1:], size - k):
            yield (first,) * k + tail
