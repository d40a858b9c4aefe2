"""Declaring in one tap (issue 21): the screen's side of referee.offers.

Each player's zone shows the combinations the engine would accept from them now; a tap
records the proposal the engine made (a plain marriage first asks its suit: one more tap);
"change cards" takes the entry back and opens the declare layer on the same proposal, so
the cards are one tap away, as Undo is. Which kinds are offered, and in which order, is the
engine's choice; this class only remembers the taps between two screens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee import offers as engine_offers
from referee import proposal as engine_proposal
from referee.cards import Suit


@dataclass(frozen=True)
class QuickEntry:
    """The last declaration made in one tap: who, what and the cards proposed."""

    player: int
    proposal: engine_proposal.MeldProposal


class QuickActions:
    """The deal screen's one-tap declarations (a mixin of ui.state.deal.DealScreen, which
    provides the deal, ``record``, ``undo``, ``open_picker`` and the picker)."""

    deal: Any
    picker: Any
    suit_choice: tuple[int, str] | None
    quick_last: QuickEntry | None
    declarer: int | None  # three or four players: whose offers the bar shows (None: default)
    _chosen_at: int | None = None  # tricks played when the declarer was chosen
    _offers_cache: dict[int, tuple[Any, int, Any, tuple[engine_offers.Offer, ...]]]

    def record(self, event: Any) -> Any: ...  # provided by DealScreen

    def undo(self) -> bool: ...  # provided by DealScreen

    def open_picker(self, seat: int, tab: Any = None) -> None: ...  # provided by DealScreen

    def sits_out(self, seat: int) -> bool: ...  # provided by DealScreen

    @property
    def players(self) -> tuple[str, ...]: ...  # provided by DealScreen

    def leader(self) -> int | None: ...  # provided by DealScreen

    def offers(self, seat: int) -> tuple[engine_offers.Offer, ...]:
        """The engine's one-tap declarations for this player now (kept until the log moves)."""
        deal = self.deal
        if deal is None or self.sits_out(seat):
            return ()
        # kept while the deal and its log are the very same objects (held here, so their
        # identity cannot be reused): an undo then another entry of the same length is new
        log = deal.log
        last = log[-1] if log else None
        cached = self._offers_cache.get(seat)
        if cached is not None and cached[0] is deal and cached[1] == len(log) and cached[2] is last:
            return cached[3]  # type: ignore[no-any-return]
        found = engine_offers.offers(deal, seat)
        self._offers_cache[seat] = (deal, len(log), last, found)
        return found

    def offers_in_zones(self) -> bool:
        """Whether this match's zones offer one-tap declarations at all: the trick variants
        with two players (three or four zones of offers do not fit a phone over the bar:
        they declare through the layer). The action bar keeps one layout for the whole deal
        on this, so no button moves when the offers end with the stock."""
        deal = self.deal
        return deal is not None and len(self.players) == 2 and engine_proposal.supports(deal)

    def offers_for_one(self) -> bool:
        """Three or four players (the trick variants): three or four zones of offers do not
        fit a phone over the bar, so the bar offers one player's declarations at a time, the
        player chosen by a tap on their zone (who declares, then what: as on paper, the
        column, then the number). The bar keeps this layout for the whole deal."""
        deal = self.deal
        return deal is not None and 3 <= len(self.players) <= 4 and engine_proposal.supports(deal)

    def offers_shown(self) -> bool:
        """Whether one-tap declarations are offered now: phase 1 of a deal in play (the
        engine offers nothing after the stock)."""
        deal = self.deal
        if not (self.offers_in_zones() or self.offers_for_one()):
            return False
        return int(deal.phase) == 1 and not deal.complete

    def chosen_declarer(self) -> int | None:
        """Whose offers the bar shows (three or four players): the player last chosen, else
        who leads the next trick (with ``tricks`` tracking the last trick's winner, the one
        player the engine lets declare; with ``melds`` the first lead)."""
        if not self.offers_for_one():
            return None
        seat = self.declarer
        deal = self.deal
        if str(deal.setup.tracking) != "melds" and self._chosen_at != deal.tricks_played:
            seat = None  # a trick (tapped or in the trick form) since: its winner declares
        if seat is None or not 0 <= seat < len(self.players) or self.sits_out(seat):
            seat = self.leader()
        if seat is None or self.sits_out(seat):
            seat = next((s for s in range(len(self.players)) if not self.sits_out(s)), None)
        return seat

    def choose_declarer(self, seat: int) -> None:
        """A tap on a player's zone (three or four players): the bar offers their
        declarations; a suit being chosen for someone else is dropped."""
        if not self.offers_for_one() or not 0 <= seat < len(self.players):
            return
        if self.sits_out(seat):
            return
        self.declarer = seat
        self._chosen_at = int(self.deal.tricks_played)
        if self.suit_choice is not None and self.suit_choice[0] != seat:
            self.suit_choice = None

    def follow_trick(self) -> None:
        """``tricks`` tracking: after a trick the chosen declarer is its winner again."""
        self.declarer = None

    def quick_declare(self, seat: int, meld: str) -> Any:
        """One tap on an offer: record it, or ask the suit when the player must choose it."""
        offer = engine_offers.find(self.offers(seat), meld)
        if offer is None:
            return None
        if offer.needs_suit:
            self.suit_choice = (seat, meld)
            return None
        return self._record_quick(seat, offer.proposals[0])

    def quick_suit(self, suit: Suit) -> Any:
        """The suit of the offer being chosen: record it in that suit."""
        if self.suit_choice is None:
            return None
        seat, meld = self.suit_choice
        offer = engine_offers.find(self.offers(seat), meld)
        chosen = offer.in_suit(suit) if offer is not None else None
        self.suit_choice = None
        if chosen is None:
            return None
        return self._record_quick(seat, chosen)

    def cancel_suit_choice(self) -> None:
        self.suit_choice = None

    def suit_choice_of(self, seat: int) -> engine_offers.Offer | None:
        """The offer whose suit this player is choosing, if any."""
        if self.suit_choice is None or self.suit_choice[0] != seat:
            return None
        return engine_offers.find(self.offers(seat), self.suit_choice[1])

    def change_quick(self) -> bool:
        """ "Change cards" after a one-tap declaration: take it back and open the declare
        layer on the same proposal, each card one tap to change."""
        last = self.quick_last
        if last is None or not self.undo():
            return False
        self.open_picker(last.player, "name")
        named = self.picker.named if self.picker is not None else None
        if named is not None:
            prop = last.proposal
            named.meld = prop.meld
            named.proposal = (
                engine_proposal.evaluate(self.deal, last.player, prop.meld, prop.new, prop.table)
                or prop
            )
        return True

    def _record_quick(self, seat: int, chosen: engine_proposal.MeldProposal) -> Any:
        view = self.record(chosen.event())
        if view is not None:
            self.quick_last = QuickEntry(seat, chosen)
        return view
