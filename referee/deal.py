"""One deal: the table's state and the referee's checks on every event.

``DealState`` puts the rule families together, one module each: ``declarations`` (and reuse,
re-forming, pending combinations, trumps fixed by a declaration), ``sevens``,
``carte_blanche``, ``cut_bonus``, ``tricks`` (and phase 2), ``penalties`` and ``deal_end``,
over the shared state of ``deal_core``. Each family's ``_check_*`` method verifies an event
against the state *without changing it* and returns the ruling with a ``commit`` closure;
``apply`` runs the closure only for an accepted event, so a rejected event changes nothing
(pokerkit's verify/apply split).
"""

from __future__ import annotations

from referee.carte_blanche import CarteBlancheRules
from referee.cut_bonus import CutBonusRules
from referee.deal_core import (
    TRACKING_LEVELS,
    DealCore,
    Entry,
    PendingCombination,
    Setup,
    TableCard,
    Tracking,
    _Outcome,
    _PhaseTwoDuty,
)
from referee.deal_end import DealEndRules, check_brisque_counts
from referee.declarations import DeclarationRules
from referee.errors import InconsistentEventError
from referee.events import (
    CarteBlanche,
    CutBonus,
    Declare,
    Event,
    LastTrick,
    Penalty,
    Seven,
    StockExhausted,
    Trick,
)
from referee.penalties import PenaltyRules
from referee.rulings import Ruling
from referee.sevens import SevenRules
from referee.tricks import TrickRules


class DealState(
    SevenRules, CarteBlancheRules, CutBonusRules, TrickRules, PenaltyRules, DealEndRules
):
    """The state of one deal and the log of its events with their rulings."""

    def verify(self, event: Event) -> Ruling:
        return self._check(event).ruling

    def apply(self, event: Event) -> Ruling:
        outcome = self._check(event)
        index = len(self.log)
        self.log.append((event, outcome.ruling))
        if outcome.ruling.accepted and outcome.commit is not None:
            self._event_index = index
            outcome.commit()
        return outcome.ruling

    def _check(self, event: Event) -> _Outcome:
        self._check_player_indexes(event)
        if isinstance(event, Declare):
            return self._check_declare(event)
        if isinstance(event, CutBonus):
            return self._check_cut_bonus(event)
        if isinstance(event, CarteBlanche):
            return self._check_carte_blanche(event)
        if isinstance(event, Seven):
            return self._check_seven(event)
        if isinstance(event, Trick):
            return self._check_trick(event)
        if isinstance(event, Penalty):
            return self._check_penalty(event)
        if isinstance(event, StockExhausted):
            return self._check_stock_exhausted()
        if isinstance(event, LastTrick):
            return self._check_last_trick(event)
        return self._check_brisques(event)

    def _check_player_indexes(self, event: Event) -> None:
        seats: list[int] = []
        if isinstance(event, Declare | Seven | Penalty | CarteBlanche | CutBonus):
            seats.append(event.player)
        elif isinstance(event, Trick | LastTrick):
            seats.append(event.winner)
        for seat in seats:
            if not 0 <= seat < self.setup.n:
                raise InconsistentEventError(f"no player in seat {seat}")


__all__ = [
    "TRACKING_LEVELS",
    "DealCore",
    "DealState",
    "DeclarationRules",
    "Entry",
    "PendingCombination",
    "Setup",
    "TableCard",
    "Tracking",
    "_Outcome",
    "_PhaseTwoDuty",
    "check_brisque_counts",
]
