"""The seven of trumps (RULES.md §4 R-SEVEN, H-SEVEN-FREE, H-SEVEN-TWENTY): exchanged for the
turn-up (the first) or shown (the second); either is a declaration."""

from __future__ import annotations

from referee.cards import Card, Rank
from referee.deal_core import _Outcome
from referee.declarations import DeclarationRules
from referee.events import (
    Seven,
)
from referee.rulings import Ruling, accept, reject
from referee.verdict import variant_rule


class SevenRules(DeclarationRules):
    """Declaring a seven of trumps."""

    def dealer_seven(self) -> Ruling | None:
        """The dealer's turned-up seven (R-DEALER-SEVEN) as a ruling, though no entry made
        it: the deal's first points, credited at the deal's start, which a screen says in
        the same words as any other ruling. None when the turn-up is no seven or the
        variant gives it nothing."""
        card = self.original_turn_up
        points = self.setup.variant.dealer_seven_points
        if card is None or card.rank is not Rank.SEVEN or not points:
            return None
        return accept(
            "R-DEALER-SEVEN",
            "dealer_seven",
            {"player": self.name(self.dealer), "card": str(card), "points": points},
            points=points,
        )

    def seven_open(self) -> bool:
        """Whether a seven of trumps can still be accepted in this deal, from whoever may
        declare next: the variant counts it (R-SEVEN), trumps are known, declarations are
        open (R-NO-DECLARE-AFTER-STOCK) and a copy is not yet accounted for on the tables,
        in the hands, played or turned up (R-PACK). A screen offers the seven only then."""
        v = self.setup.variant
        if not v.seven_points or self.trumps is None or not self.declarations_open():
            return False
        seven = Card(Rank.SEVEN, self.trumps)
        return self.known(seven) < self.setup.copies(seven)

    def _check_seven(self, ev: Seven) -> _Outcome:
        player = ev.player
        who = self.name(player)
        v = self.setup.variant
        if not v.seven_points and v.game is not None:
            # Rubicon and the multi-pack forms: no count for the seven of trumps.
            return _Outcome(reject(variant_rule(v.id), "no_seven_count",
                                   {"player": who, "variant": v.id}))
        if self.trumps is None or not v.seven_points:
            return _Outcome(reject("R-NT-TRUMPS", "nt_seven", {"player": who}))
        seven = Card(Rank.SEVEN, self.trumps)
        exchange = (
            not self.seven_exchanged
            and self.turn_up is not None
            and self.turn_up != seven
        )
        free = exchange and self.setup.has("H-SEVEN-FREE")
        problem = self._timing(player, free=free)
        if problem is not None:
            return _Outcome(problem)
        seen = self.known(seven)
        if seen + 1 > self.setup.copies(seven):
            return _Outcome(
                reject(
                    "R-PACK",
                    "no_seven_left",
                    {"player": who, "card": str(seven), "packs": self.setup.copies(seven),
                     "where": self._where(seven)},
                    proposes="P-FALSE-DECLARATION",
                )
            )
        points = v.seven_value(exchange=exchange)
        old_turn_up = self.turn_up

        def commit() -> None:
            self.sevens_declared += 1
            if exchange:
                assert old_turn_up is not None
                self.seven_exchanged = True
                self.known_in_hand[player][old_turn_up] += 1
                self.turn_up = seven
            else:
                self.known_in_hand[player][seven] += 1
            if free:
                self._score(self.setup.side_of[player], points, "R-SEVEN")
            else:
                self._declared(player, points, None)

        key = "seven_exchanged" if exchange else "seven_shown"
        params: dict[str, str | int] = {"player": who, "card": str(seven), "points": points}
        if exchange and old_turn_up is not None:
            params["turn_up"] = str(old_turn_up)
        rule = "R-SEVEN"
        if exchange and v.exchanged_seven_points is not None:
            rule = "H-SEVEN-TWENTY"  # the house rule set the amount
        return _Outcome(accept(rule, key, params, points=points), commit)
