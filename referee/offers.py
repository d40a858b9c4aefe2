"""The declarations a player can make now with one tap (issue 21).

Each player's zone offers the combinations the engine would accept from that player now,
each with the cards :mod:`referee.proposal` proposes (reusing their declared cards where the
rules allow, else default suits). What is offered, and in which order, is decided here:

1. only combinations whose proposal the engine *accepts* now: nothing in phase 2
   (R-NO-DECLARE-AFTER-STOCK), nothing for a player who did not win the last trick when
   tricks are tracked (R-DECLARE-AFTER-TRICK), no kind whose cards are all accounted for
   (R-PACK), no trump kind before trumps are fixed unless it fixes them (R-NT-TRUMPS);
2. the rare kinds stay one tap further, in the declare layer, so a phone's zone holds its
   offers: a double or triple marriage and a sequence outside trumps (a house rule's kind)
   are never offered; a double, triple ... bezique only when its proposal builds on a
   smaller bezique the player (or, under H-PARTNER-BUILD, the partner) declared in this
   deal (R-REUSE: after a bezique, the double bezique, the 500 that players wait for), not
   on a marriage's Q♠ alone (that pushed four aces behind "+2 more" in three-hand);
3. a kind this player has already scored in this deal, other than a marriage, stays in the
   declare layer too: another needs every card new (R-REUSE), which is rare, while a
   marriage is often declared again in another suit (the zone then keeps its two rows:
   without this a second bezique pushed four aces behind "more");
4. in the variant's order (its table of combinations), so a button keeps its place among
   the others from one declaration to the next;
5. a suit combination the engine can accept in more than one suit (a plain marriage; in
   no-trump the marriage that fixes trumps) carries one proposal per suit, in the order
   ♠ ♥ ♦ ♣: that suit is the player's one more tap, the engine cannot know it. Every other
   kind carries exactly one proposal and is recorded by its tap.

A pending combination to score is not an offer: the table shows it with its own button.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, fields

from referee.cards import Suit
from referee.deal import DealState
from referee.events import Declare
from referee.proposal import SUIT_ORDER, MeldProposal, nameable, propose, propose_in_suit, supports
from referee.variants import CombinationSpec, Variant

# Candidates judged per kind before it is left out: the likeliest come first, so an accepted
# set is found within the first few; a kind the pack no longer allows (R-PACK) would
# otherwise cost every candidate (191 for a second four kings) on every entry. A kind left
# out this way stays reachable in the declare layer.
BUDGET = 24


@dataclass(frozen=True, slots=True)
class Offer:
    """A combination offered to one player, with the proposal (or one per suit) to record."""

    player: int
    meld: str
    points: int
    proposals: tuple[MeldProposal, ...]

    @property
    def needs_suit(self) -> bool:
        """The suit is the player's choice (one more tap)."""
        return len(self.proposals) > 1

    @property
    def suits(self) -> tuple[Suit, ...]:
        return tuple(p.new[0].suit if p.new else p.table[0].suit for p in self.proposals)

    def in_suit(self, suit: Suit) -> MeldProposal | None:
        for p, s in zip(self.proposals, self.suits, strict=True):
            if s is suit:
                return p
        return None


def offers(deal: DealState | None, player: int) -> tuple[Offer, ...]:
    """The combinations ``player`` can declare now with one tap, in the variant's order.

    Kept for the deal as it stands (:class:`_Kept`): every phone of a table shows both
    players' offers and computes them after every entry, each from its own replay of the
    same match; the second phone, and an undo back to a deal already seen, take them kept."""
    if deal is None or not supports(deal) or not 0 <= player < deal.setup.n:
        return ()
    return _KEPT.get(deal, player)


class _Kept:
    """Offers by what decides them: the match's setup, the deal's start and its log of
    events, and the player. A variant is named by identity (it holds tables, not hashable)
    and kept alive by its entries, so an identity is never another variant's. The least
    recently used go first; a lock, since a server's sessions may ask from several threads."""

    SIZE = 256

    def __init__(self) -> None:
        self._entries: OrderedDict[tuple[object, ...], tuple[Variant, tuple[Offer, ...]]] = (
            OrderedDict()
        )
        self._lock = threading.Lock()

    def get(self, deal: DealState, player: int) -> tuple[Offer, ...]:
        setup = deal.setup
        key = (
            id(setup.variant), setup.players, setup.tracking, setup.house_rules,
            setup.side_of, deal.index, deal.dealer, deal.original_turn_up,
            tuple(_key_of(event) for event, _ in deal.log), player,
        )
        with self._lock:
            kept = self._entries.get(key)
            if kept is not None and kept[0] is setup.variant:
                self._entries.move_to_end(key)
                return kept[1]
        found = _offers_now(deal, player)
        with self._lock:
            self._entries[key] = (setup.variant, found)
            self._entries.move_to_end(key)
            while len(self._entries) > self.SIZE:
                self._entries.popitem(last=False)
        return found


_KEPT = _Kept()


def _key_of(event: object) -> object:
    """An event as a key: itself, or (a trick's cards, the brisques' counts: mappings) its
    kind and fields with each mapping as its sorted items."""
    try:
        hash(event)
    except TypeError:
        values = (getattr(event, f.name) for f in fields(event))  # type: ignore[arg-type]
        return (type(event).__name__, tuple(
            tuple(sorted(v.items())) if isinstance(v, Mapping) else v for v in values
        ))
    return event


def _offers_now(deal: DealState, player: int) -> tuple[Offer, ...]:
    """The offers computed: every candidate judged by the engine."""
    out: list[Offer] = []
    builds = bool(deal.table(player)) or deal.setup.has("H-PARTNER-BUILD")
    scored = _scored(deal, player)
    for meld in nameable(deal):
        spec = deal.setup.variant.combination(meld)
        if spec is None or (rare(spec) and (spec.shape != "bezique" or not builds)):
            continue  # judged before any proposal: the rare kinds cost nothing
        if meld in scored and not _marriage(spec):
            continue
        proposals: tuple[MeldProposal, ...]
        if spec.shape == "suit":  # one proposal per suit the engine accepts
            in_suits = [propose_in_suit(deal, player, meld, s) for s in SUIT_ORDER]
            proposals = tuple(p for p in in_suits if p is not None and p.accepted)
        else:
            first = propose(deal, player, meld, budget=BUDGET)
            proposals = (first,) if first is not None and first.accepted else ()
        if not proposals:
            continue
        if rare(spec) and (not proposals[0].table or not _bezique_below(deal, player, spec)):
            continue
        out.append(Offer(player, meld, int(proposals[0].ruling.points or 0), proposals))
    return tuple(out)


def rare(spec: CombinationSpec) -> bool:
    """A kind left to the declare layer, or offered only when it builds (see above)."""
    if spec.shape == "rank":  # four (five) trump aces: ``copies`` counts the cards
        return False
    plain_run = spec.shape == "suit" and spec.suit == "plain" and len(spec.ranks) > 2
    return spec.copies > 1 or plain_run


def _marriage(spec: CombinationSpec) -> bool:
    return spec.shape == "suit" and len(spec.ranks) == 2


def _scored(deal: DealState, player: int) -> set[str]:
    """The kinds this player has scored in this deal (accepted declarations)."""
    out: set[str] = set()
    for event, ruling in deal.log:
        if isinstance(event, Declare) and event.player == player and ruling.accepted:
            meld = ruling.meld or event.meld
            if meld:
                out.add(meld)
    return out


def _bezique_below(deal: DealState, player: int, spec: CombinationSpec) -> bool:
    """Whether the player (or a partner the player builds on, H-PARTNER-BUILD) scored a
    bezique of fewer copies in this deal: the one a multiple bezique builds on."""
    setup = deal.setup
    partners = {player}
    if setup.has("H-PARTNER-BUILD"):
        partners |= {s for s in range(setup.n) if setup.side_of[s] == setup.side_of[player]}
    for event, ruling in deal.log:
        if not (isinstance(event, Declare) and event.player in partners and ruling.accepted):
            continue
        below = setup.variant.combination(ruling.meld or event.meld or "")
        if below is not None and below.shape == "bezique" and below.copies < spec.copies:
            return True
    return False


def find(offered: tuple[Offer, ...], meld: str) -> Offer | None:
    """The offer of that combination, if it is offered."""
    return next((o for o in offered if o.meld == meld), None)
