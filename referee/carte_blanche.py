"""Carte blanche (RULES.md §8, Rubicon 50, six-pack 250): a hand with no court card (K, Q, J)
shown before the first trick. By default (Foster) once; H-CARTE-BLANCHE-REPEAT (Parlett,
Bicycle): each further non-court card drawn may be shown again for the same, until a court
card is drawn. The referee cannot see a hand; it checks what the record can show: the
moment (before the first trick, one showing per draw), and that no court card of the player
has been seen (declared, or played with ``cards`` tracking)."""

from __future__ import annotations

from referee.deal_core import DealCore, _Outcome
from referee.events import CarteBlanche, Declare
from referee.rulings import accept, reject


class CarteBlancheRules(DealCore):
    """Showing a carte blanche."""

    def _check_carte_blanche(self, ev: CarteBlanche) -> _Outcome:
        s = self.setup
        player, who = ev.player, self.name(ev.player)
        points = s.variant.carte_blanche_points
        params: dict[str, str | int] = {"player": who, "points": points,
                                        "variant": s.variant.id}
        if not points:
            return _Outcome(reject("R-CARTE-BLANCHE", "no_carte_blanche", params))
        shown = self.carte_blanches[player]
        tracked = s.tracking != "melds"
        if self.court_seen[player]:
            return _Outcome(reject("R-CARTE-BLANCHE", "carte_blanche_court_seen", params))
        if self.stock_exhausted or (tracked and self.tricks_played >= s.stock_tricks):
            return _Outcome(reject("R-CARTE-BLANCHE", "carte_blanche_no_draw", params))
        if not shown:
            declared = any(isinstance(e, Declare) and e.player == player for e in self.events)
            if (tracked and self.tricks_played > 0) or declared:
                return _Outcome(reject("R-CARTE-BLANCHE", "carte_blanche_late", params))
        else:
            if not s.has("H-CARTE-BLANCHE-REPEAT"):
                return _Outcome(reject("R-CARTE-BLANCHE", "carte_blanche_once", params))
            if tracked and shown[-1] >= self.tricks_played:
                # one further showing per card drawn, i.e. per trick
                return _Outcome(reject("H-CARTE-BLANCHE-REPEAT", "carte_blanche_one_per_draw",
                                       params | {"trick": self.tricks_played}))
        again = bool(shown)

        def commit() -> None:
            self.carte_blanches[player].append(self.tricks_played)
            self._score(s.side_of[player], points, "R-CARTE-BLANCHE")

        params["nth"] = len(shown) + 1
        return _Outcome(
            accept("H-CARTE-BLANCHE-REPEAT" if again else "R-CARTE-BLANCHE",
                   "carte_blanche_again" if again else "carte_blanche", params, points=points),
            commit,
        )
