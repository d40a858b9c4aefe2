"""R-LEAD for the table's screen: who leads the next trick.

The player after the dealer leads the first trick; the winner of each trick leads the next.
With ``melds`` tracking no trick is recorded, so only the first lead is known.
"""

from __future__ import annotations

from referee.deal import DealState


def next_leader(deal: DealState) -> int:
    """The seat that leads the next trick (the first lead while no trick is recorded)."""
    if deal.last_winner is None:
        return (deal.dealer + 1) % deal.setup.n
    return deal.last_winner
