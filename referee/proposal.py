"""Declaring by name: the player names a combination and the referee proposes its cards.

At a real table a player says "four kings", not "K♠, K♥, K♦, K♣". The proposal is the card
set the engine itself would accept for that name, chosen in this order:

1. reuse the cards already declared on that player's table where the rules allow it
   (R-REUSE, or H-REUSE-CLASSES; never under H-ALL-NEW), as many as allowed;
2. otherwise default suits: a suit combination in the first suit the player can build on
   (the one with most of its cards on their table), else in the order ♠ ♥ ♦ ♣; four of a kind
   in four different suits, copies still unseen first (R-PACK);
3. when no set is accepted (phase 2, a player who did not win the trick, no copy left ...),
   the first candidate with its rejection, so the table sees the ruling before recording.

Every candidate is judged by ``DealState.verify``: nothing here restates a rule the engine
checks. Each card of a proposal can then be changed with one tap (:func:`change`): a reused
card becomes a new one, a new card of a suit combination moves the whole combination to the
next suit, a card of four of a kind takes the next suit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement

from referee.cards import Card, Suit, card_of
from referee.combinations import bezique_pair
from referee.deal import DealState
from referee.errors import BeziqueError
from referee.events import Declare
from referee.rulings import Ruling
from referee.variants import CombinationSpec

SUIT_ORDER: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


@dataclass(frozen=True, slots=True)
class Slot:
    """One card of a proposal: its face, and whether it comes off the player's table."""

    card: Card
    reused: bool


@dataclass(frozen=True, slots=True)
class MeldProposal:
    """The cards proposed for a named combination and the engine's ruling on them."""

    player: int
    meld: str
    slots: tuple[Slot, ...]
    ruling: Ruling

    @property
    def new(self) -> tuple[Card, ...]:
        return tuple(s.card for s in self.slots if not s.reused)

    @property
    def table(self) -> tuple[Card, ...]:
        return tuple(s.card for s in self.slots if s.reused)

    @property
    def accepted(self) -> bool:
        return self.ruling.accepted

    def event(self) -> Declare:
        """The declaration to record (accepted or not: the table decides)."""
        return Declare(self.player, self.new, self.table, self.meld)


def supports(deal: DealState | None) -> bool:
    """Declaring by name works for the trick variants (the joker variant's showings are
    composed in the picker)."""
    return deal is not None and deal.setup.variant.engine != "showings"


def nameable(deal: DealState) -> tuple[str, ...]:
    """The combinations a player can name now, in the variant's order. Before trumps are
    fixed (no-trump) a plain marriage is the trump-fixing one, so only one is offered."""
    variant = deal.setup.variant
    out: list[str] = []
    trumps_open = variant.fix_trumps_by_marriage and deal.trumps is None
    for spec in variant.combinations:
        if trumps_open and spec.shape == "suit" and spec.suit == "plain":
            continue
        out.append(spec.id)
    return tuple(out)


def propose(
    deal: DealState, player: int, meld: str, *, budget: int | None = None
) -> MeldProposal | None:
    """The cards for ``meld`` the engine accepts from ``player`` now (reuse first, then
    default suits), or the first candidate with its rejection; None for an unknown name.
    ``budget``: judge at most that many candidates (the likeliest come first), for a quick
    "can this be declared now" (referee.offers)."""
    spec = deal.setup.variant.combination(meld)
    if spec is None:
        return None
    return _best(deal, player, spec, _card_sets(deal, player, spec), budget)


def propose_in_suit(deal: DealState, player: int, meld: str, suit: Suit) -> MeldProposal | None:
    """The cards for a suit combination in that suit (reuse first), or the first candidate
    with its rejection; None for an unknown name, another shape, or a suit the combination
    cannot be in (a plain marriage in trumps)."""
    spec = deal.setup.variant.combination(meld)
    if spec is None or spec.shape != "suit" or suit not in _suits(deal, spec):
        return None
    return _best(deal, player, spec, iter([[card_of(r, suit) for r in spec.ranks] * spec.copies]))


def evaluate(
    deal: DealState, player: int, meld: str, new: Sequence[Card], table: Sequence[Card]
) -> MeldProposal | None:
    """A given split judged by the engine (None when the cards contradict the facts)."""
    slots = tuple(Slot(c, True) for c in table) + tuple(Slot(c, False) for c in new)
    return _judge(deal, player, meld, slots)


def change(deal: DealState, proposal: MeldProposal, index: int) -> MeldProposal:
    """One tap on a proposed card: the next choice for it (see the module's docstring).
    An index out of range, or a card with no other choice, leaves the proposal as it is."""
    if not 0 <= index < len(proposal.slots):
        return proposal
    spec = deal.setup.variant.combination(proposal.meld)
    if spec is None:
        return proposal
    slot = proposal.slots[index]
    player = proposal.player
    if slot.reused:
        slots = list(proposal.slots)
        slots[index] = Slot(slot.card, False)
        return _judge(deal, player, proposal.meld, tuple(slots)) or proposal
    if spec.shape == "suit":
        suits = _suits(deal, spec)
        if slot.card.suit not in suits or len(suits) < 2:
            return proposal
        i = suits.index(slot.card.suit)
        for nxt in (*suits[i + 1:], *suits[:i]):
            sets = [[card_of(r, nxt) for r in spec.ranks] * spec.copies]
            found = _best(deal, player, spec, iter(sets))
            if found is not None:
                return found
        return proposal
    if spec.shape == "rank" and spec.suit == "trump":
        suits = _suits(deal, spec)  # all copies of the trump card: they move together
        if slot.card.suit not in suits or len(suits) < 2:
            return proposal
        i = suits.index(slot.card.suit)
        nxt_suit = suits[(i + 1) % len(suits)]
        sets = [[card_of(slot.card.rank, nxt_suit)] * spec.copies]
        return _best(deal, player, spec, iter(sets)) or proposal
    if spec.shape == "rank":
        i = SUIT_ORDER.index(slot.card.suit)
        nxt = SUIT_ORDER[(i + 1) % len(SUIT_ORDER)]
        slots = list(proposal.slots)
        slots[index] = Slot(card_of(slot.card.rank, nxt), False)
        return _judge(deal, player, proposal.meld, tuple(slots)) or proposal
    # A bezique's card: off the table if a copy lies there and is not used yet.
    used = Counter(s.card for s in proposal.slots if s.reused)
    if _pool(deal, player)[slot.card] > used[slot.card]:
        slots = list(proposal.slots)
        slots[index] = Slot(slot.card, True)
        return _judge(deal, player, proposal.meld, tuple(slots)) or proposal
    return proposal


# ----------------------------------------------------------------------------- internals
def _pool(deal: DealState, player: int) -> Counter[Card]:
    """The declared cards the player may build on: their own, and their partner's under
    H-PARTNER-BUILD (the engine's own choice of copies then decides which it uses)."""
    setup = deal.setup
    pool = Counter(deal.table(player))
    if setup.has("H-PARTNER-BUILD"):
        for seat in range(setup.n):
            if seat != player and setup.side_of[seat] == setup.side_of[player]:
                pool += Counter(deal.table(seat))
    return pool


def _suits(deal: DealState, spec: CombinationSpec) -> tuple[Suit, ...]:
    trumps = deal.trumps
    if spec.suit == "trump":
        if trumps is not None:
            return (trumps,)
        return SUIT_ORDER if deal.setup.variant.fix_trumps_by_marriage else ()
    if spec.suit == "plain":
        return tuple(s for s in SUIT_ORDER if s is not trumps)
    return SUIT_ORDER


def _card_sets(deal: DealState, player: int, spec: CombinationSpec) -> Iterator[list[Card]]:
    """Candidate card multisets for the combination, the likeliest first."""
    pool = _pool(deal, player)
    if spec.shape == "suit":
        suits = list(_suits(deal, spec))
        # The suit with most of its cards on the player's table first (building on them).
        suits.sort(key=lambda s: -sum(min(pool[card_of(r, s)], spec.copies) for r in spec.ranks))
        for suit in suits:
            yield [card_of(r, suit) for r in spec.ranks] * spec.copies
        return
    if spec.shape == "bezique":
        queen, jack = bezique_pair(deal.trumps, deal.setup.has("H-BEZIQUE-PAIR"))
        yield [queen, jack] * spec.copies
        return
    rank = spec.ranks[0]
    if spec.suit == "trump":  # four (five) trump aces: copies of the one trump card
        for suit in _suits(deal, spec):  # _splits builds on the table's copies first
            yield [card_of(rank, suit)] * spec.copies
        return
    on_table = [c for c in sorted(pool.elements()) if c.rank is rank][:4]

    unseen = tuple(
        deal.setup.copies(card_of(rank, s)) - deal.known(card_of(rank, s)) for s in SUIT_ORDER
    )
    # Build on the table's cards, then fewer of them; fill up with suits, distinct ones and
    # unseen copies first.
    seen: set[tuple[Card, ...]] = set()
    for k in range(len(on_table), -1, -1):
        base = on_table[:k]
        for combo in _fills(4 - k, frozenset(c.suit for c in base), unseen):
            cards = base + [card_of(rank, s) for s in combo]
            key = tuple(sorted(cards))
            if key not in seen:
                seen.add(key)
                yield cards


@lru_cache(maxsize=512)
def _fills(
    n: int, there: frozenset[Suit], unseen: tuple[int, ...]
) -> tuple[tuple[Suit, ...], ...]:
    """The suits to fill ``n`` cards of four of a kind with, the likeliest first: the most
    distinct suits beside ``there`` (the table's), then unseen copies (by suit, in
    SUIT_ORDER), then the suits' order. Kept: a phone's zones ask it for every kind on every
    entry, and these few inputs repeat (sorting 35 fills each time was most of an offer)."""

    def order(combo: tuple[Suit, ...]) -> tuple[object, ...]:
        return (
            -len(set(combo) | there),
            -min((unseen[SUIT_ORDER.index(s)] for s in combo), default=0),
            [SUIT_ORDER.index(s) for s in combo],
        )

    return tuple(sorted(combinations_with_replacement(SUIT_ORDER, n), key=order))


def _splits(pool: Counter[Card], cards: Sequence[Card]) -> Iterator[tuple[Slot, ...]]:
    """The ways to take these cards partly off the table: the most reused first."""
    need = Counter(cards)
    reusable = [c for c in sorted(need) for _ in range(min(need[c], pool[c]))]
    seen: set[tuple[Card, ...]] = set()
    for k in range(len(reusable), -1, -1):
        for reuse in _sub_multisets(reusable, k):
            if reuse in seen:
                continue
            seen.add(reuse)
            rest = need - Counter(reuse)
            if not rest:  # R-NEW-CARD: a declaration lays at least one card from the hand
                continue
            order = sorted(cards, key=_display_order)
            slots: list[Slot] = []
            left = Counter(reuse)
            for c in order:
                if left[c]:
                    left[c] -= 1
                    slots.append(Slot(c, True))
                elif rest[c]:
                    rest[c] -= 1
                    slots.append(Slot(c, False))
            yield tuple(slots)


def _display_order(card: Card) -> tuple[int, int]:
    """Cards as a player holds them: by suit, high rank first (K Q, not Q K)."""
    return (SUIT_ORDER.index(card.suit), -int(card.rank))


def _sub_multisets(items: Sequence[Card], k: int) -> Iterator[tuple[Card, ...]]:
    if k == 0:
        yield ()
        return
    for i in range(len(items)):
        for tail in _sub_multisets(items[i + 1:], k - 1):
            yield (items[i], *tail)


def _best(
    deal: DealState,
    player: int,
    spec: CombinationSpec,
    sets: Iterator[list[Card]],
    budget: int | None = None,
) -> MeldProposal | None:
    pool = _pool(deal, player)
    first: MeldProposal | None = None
    judged = 0
    for cards in sets:
        for slots in _splits(pool, cards):
            if budget is not None and judged >= budget:
                return first
            judged += 1
            found = _judge(deal, player, spec.id, slots)
            if found is None:
                continue
            if found.accepted:
                return found
            first = first or found
    return first


def _judge(
    deal: DealState, player: int, meld: str, slots: tuple[Slot, ...]
) -> MeldProposal | None:
    new = tuple(s.card for s in slots if not s.reused)
    table = tuple(s.card for s in slots if s.reused)
    try:
        ruling = deal.verify(Declare(player, new, table, meld))
    except BeziqueError:
        return None
    return MeldProposal(player, meld, slots, ruling)
