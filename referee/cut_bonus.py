"""The six-pack cut bonus (RULES.md §8, optional, R-CUT-BONUS): before the deal the dealer who
lifts exactly 24 cards scores 250, the non-dealer who guesses the number lifted scores 150.
The record states it (``cut_bonus`` for a player); the referee checks the variant has it,
that it comes before the first trick and that each player takes it once."""

from __future__ import annotations

from referee.deal_core import DealCore, _Outcome
from referee.events import CutBonus, Declare
from referee.rulings import accept, reject


class CutBonusRules(DealCore):
    """The cut bonus entry."""

    def _check_cut_bonus(self, ev: CutBonus) -> _Outcome:
        s = self.setup
        player = ev.player
        kind = "dealer" if player == self.dealer else "guess"
        points = s.variant.cut_bonus.get(kind, 0)
        params: dict[str, str | int] = {"player": self.name(player), "points": points,
                                        "variant": s.variant.id}
        if not points:
            return _Outcome(reject("R-CUT-BONUS", "no_cut_bonus", params))
        started = self.tricks_played > 0 or any(isinstance(e, Declare) for e in self.events)
        if started:
            return _Outcome(reject("R-CUT-BONUS", "cut_bonus_late", params))
        if player in self.cut_bonuses:
            return _Outcome(reject("R-CUT-BONUS", "cut_bonus_once", params))

        def commit() -> None:
            self.cut_bonuses.add(player)
            self._score(s.side_of[player], points, "R-CUT-BONUS")

        return _Outcome(accept("R-CUT-BONUS", f"cut_bonus_{kind}", params, points=points),
                        commit)
