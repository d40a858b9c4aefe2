"""Tricks and phase 2 (RULES.md §1–§2): who wins a trick (R-RANK, R-LEAD), the cards played
(R-PACK, R-ON-TABLE), the stock running out (R-PHASE1, R-PHASE2), revokes the cards prove
(P-REVOKE proposed), H-SEVEN-EXTRA, the last-trick bonus of trick 24 (H-LAST-TRICK-24) and
the brisques counted from the tricks with ``cards`` tracking."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from referee.cards import Card, Rank, Suit
from referee.combinations import CardCounts
from referee.deal_core import DealCore, _Outcome, _PhaseTwoDuty
from referee.errors import InconsistentEventError
from referee.events import (
    Trick,
)
from referee.rulings import Proposal, accept, where_text


class TrickRules(DealCore):
    """Recording tricks and the end of the stock."""

    def _check_trick(self, ev: Trick) -> _Outcome:
        s = self.setup
        if s.tracking == "melds":
            raise InconsistentEventError(
                'tricks are not recorded with "melds" tracking; use "tricks" or "cards"'
            )
        if self.play_closed:
            raise InconsistentEventError(
                "the last trick is already recorded: the play of this deal is over",
                "R-LAST-TRICK",
            )
        if self.tricks_played >= s.total_tricks:
            raise InconsistentEventError(
                f"a deal of {s.variant.id} has {s.total_tricks} tricks; this would be trick "
                f"{self.tricks_played + 1}",
                "R-DEAL",
            )
        number = self.tricks_played + 1
        final = number == s.total_tricks
        in_phase2 = number > s.stock_tricks
        proposals: list[Proposal] = []
        done: list[_PhaseTwoDuty] = []
        new_duties: list[_PhaseTwoDuty] = []
        played: list[tuple[int, Card, bool]] = []
        if s.tracking == "cards":
            played = self._verify_trick_cards(ev, number, in_phase2)
            if in_phase2:
                proposals, done, new_duties = self._phase_two_duties(number, played)
        elif ev.cards:
            raise InconsistentEventError('cards are recorded only with "cards" tracking')
        winner = ev.winner
        params: dict[str, str | int] = {"player": self.name(winner), "trick": number}
        v = s.variant
        side = s.side_of[winner]
        last_bonus_here = (
            number == s.stock_tricks if s.has("H-LAST-TRICK-24") else final
        )
        seven_extra = (
            s.has("H-SEVEN-EXTRA")
            and self.trumps is not None
            and any(p == winner and c == Card(Rank.SEVEN, self.trumps) for p, c, _ in played)
        )

        def commit() -> None:
            if in_phase2 and not self.stock_exhausted:
                self._begin_phase_two()
            self.tricks_played = number
            self.tricks_won[winner] += 1
            self.last_winner = winner
            self.declared_this_trick = False
            for seat, card, off_table in played:
                self._play(seat, card, off_table)
            for duty in done:
                self.duties.remove(duty)
            self.duties.extend(new_duties)
            if s.tracking == "cards":
                self.brisques_won[winner] += sum(1 for _, c, _ in played if c.is_brisque)
            if seven_extra:
                self._score(side, v.seven_points, "H-SEVEN-EXTRA")
            if last_bonus_here:
                self.last_trick_winner = winner
                self.last_trick_scored = True
                self._score(side, v.last_trick_points, "R-LAST-TRICK")
            if final and s.tracking == "cards":
                self._score_brisques_from_tricks()
            if final:
                self.last_trick_winner = winner

        key = "trick_last" if last_bonus_here else "trick"
        return _Outcome(
            accept("R-RANK" if s.tracking == "cards" else "R-LEAD", key, params,
                   points=v.last_trick_points if last_bonus_here else 0,
                   proposals=tuple(proposals)),
            commit,
        )

    def _play(self, seat: int, card: Card, off_table: bool) -> None:
        if card.rank in (Rank.KING, Rank.QUEEN, Rank.JACK):
            self.court_seen[seat] = True  # no more carte blanche (H-CARTE-BLANCHE-REPEAT)
        if off_table:
            copies = [tc for tc in self.tables[seat] if tc.card == card]
            copies.sort(key=lambda tc: -len(tc.scored))
            gone = copies[0]
            self.tables[seat].remove(gone)
            # R-REFORM: the rest of each combination it was part of may form that kind again.
            for meld, group in gone.groups.items():
                for tc in self.tables[seat]:
                    if tc.groups.get(meld) == group:
                        tc.reformable.add(meld)
        elif self.known_in_hand[seat][card]:
            self.known_in_hand[seat][card] -= 1
        self.played[card] += 1

    def _verify_trick_cards(
        self, ev: Trick, number: int, in_phase2: bool
    ) -> list[tuple[int, Card, bool]]:
        s = self.setup
        entering = in_phase2 and not self.stock_exhausted
        cards = dict(ev.cards or {})
        missing = [self.name(p) for p in range(s.n) if p not in cards]
        if missing:
            raise InconsistentEventError(
                f"trick {number}: no card given for {', '.join(missing)}"
            )
        if in_phase2 and ev.from_table:
            raise InconsistentEventError(
                f"trick {number}: from_table is for phase 1 only; the declared cards went "
                "back into the hands when the stock ran out (R-PHASE2)"
            )
        leader = (self.dealer + 1) % s.n if self.last_winner is None else self.last_winner
        order = [(leader + k) % s.n for k in range(s.n)]
        played: list[tuple[int, Card, bool]] = []
        extra: CardCounts = Counter()
        for seat in order:
            card = cards[seat]
            on_table = 0 if in_phase2 else sum(1 for tc in self.tables[seat] if tc.card == card)
            off_table = seat in ev.from_table
            if off_table and on_table == 0:
                raise InconsistentEventError(
                    f"trick {number}: {self.name(seat)} plays {card} from the table, but it is "
                    "not among their declared cards (R-ON-TABLE)"
                )
            if not off_table and not self._hand_known(seat, card, entering):
                extra[card] += 1
                if self.known(card) + extra[card] > s.copies(card):
                    if on_table > 0 and not in_phase2:
                        off_table = True  # the only copy it can be is the declared one
                        extra[card] -= 1
                    else:
                        raise InconsistentEventError(
                            f"trick {number}: {self.name(seat)} plays {card}, but the "
                            f"game holds {s.copies(card)} and no other copy is left "
                            f"({where_text(self._where(card))})",
                            "R-PACK",
                        )
            played.append((seat, card, off_table))
        winner_seat = self._trick_winner([(seat, card) for seat, card, _ in played])
        if winner_seat != ev.winner:
            in_play_order = " ".join(str(c) for _, c, _ in played)  # seat by seat, as played
            raise InconsistentEventError(
                f"trick {number}: {in_play_order} led by "
                f"{self.name(leader)} is won by {self.name(winner_seat)}, not "
                f"{self.name(ev.winner)} (R-RANK)",
                "R-RANK",
            )
        return played

    def _hand_known(self, seat: int, card: Card, entering_phase2: bool) -> int:
        """Copies of a card known to be in a player's hand (counting, when phase 2 is about to
        begin, the declared cards and the turn-up that go back into the hands)."""
        known = self.known_in_hand[seat][card]
        if entering_phase2:
            known += sum(1 for tc in self.tables[seat] if tc.card == card)
            if self.turn_up == card and self._turn_up_taker() == seat:
                known += 1
        return known

    def _beats(self, card: Card, best: Card, led: Suit) -> bool:
        trumps = self.trumps
        if card.suit == best.suit:
            return card.rank > best.rank
        return trumps is not None and card.suit == trumps

    def _trick_winner(self, played: Sequence[tuple[int, Card]]) -> int:
        """R-RANK: trumps beat the rest; else the highest card of the suit led; ties → first."""
        best_seat, best = played[0]
        led = best.suit
        for seat, card in played[1:]:
            if self._beats(card, best, led):
                best_seat, best = seat, card
        return best_seat

    def _phase_two_duties(
        self, number: int, played: Sequence[tuple[int, Card, bool]]
    ) -> tuple[list[Proposal], list[_PhaseTwoDuty], list[_PhaseTwoDuty]]:
        """R-PHASE2: what each follower showed they lacked; a later play of such a card proves
        a revoke, reported as a proposal of P-REVOKE. Returns (proposals, duties fulfilled,
        new duties) without changing the state."""
        proposals: list[Proposal] = []
        done: list[_PhaseTwoDuty] = []
        for seat, card, _ in played:
            for duty in self.duties:
                if duty.player == seat and card in duty.forbidden and duty not in done:
                    done.append(duty)
                    proposals.append(
                        Proposal(
                            "R-PHASE2",
                            "P-REVOKE",
                            seat,
                            "revoke",
                            {"player": self.name(seat), "trick": duty.trick,
                             "played": str(duty.played), "led": duty.led.symbol,
                             "card": str(card), "now": number},
                        )
                    )
        trumps = self.trumps
        lead = played[0][1]
        best = lead
        new: list[_PhaseTwoDuty] = []
        for seat, card, _ in played[1:]:
            forbidden: set[Card] = set()
            all_of = {Card(r, lead.suit) for r in Rank}
            if card.suit != lead.suit:
                forbidden |= all_of
                if trumps is not None and card.suit != trumps:
                    forbidden |= {Card(r, trumps) for r in Rank}
            if self.setup.has("H-MUST-WIN") and not self._beats(card, best, lead.suit):
                if card.suit == lead.suit and best.suit == lead.suit:
                    forbidden |= {c for c in all_of if c.rank > best.rank}
                elif trumps is not None and best.suit == trumps and card.suit == trumps:
                    forbidden |= {Card(r, trumps) for r in Rank if r > best.rank}
            if forbidden:
                new.append(_PhaseTwoDuty(number, seat, frozenset(forbidden), lead.suit, card))
            if self._beats(card, best, lead.suit):
                best = card
        return proposals, done, new

    def _score_brisques_from_tricks(self) -> None:
        v = self.setup.variant
        for seat, count in enumerate(self.brisques_won):
            if count:
                self._score(self.setup.side_of[seat], count * v.brisque_points, "R-BRISQUE")
        self.brisques_scored = True

    def _check_stock_exhausted(self) -> _Outcome:
        s = self.setup
        if s.tracking != "melds" and self.tricks_played < s.stock_tricks:
            raise InconsistentEventError(
                f"the stock lasts {s.stock_tricks} tricks in {s.variant.id}; only "
                f"{self.tricks_played} have been played (R-PHASE1)"
            )
        if self.stock_exhausted and s.tracking == "melds":
            raise InconsistentEventError("the stock is already exhausted in this deal")

        def commit() -> None:
            # With tricks recorded phase 2 also begins at trick 25; a stock_exhausted given
            # after trick 24 begins it here, so no declaration follows it (R-PHASE1).
            if not self.stock_exhausted:
                self._begin_phase_two()

        return _Outcome(accept("R-PHASE2", "stock_exhausted", {}), commit)
