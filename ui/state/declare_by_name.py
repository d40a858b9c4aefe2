"""Declaring by naming the combination: the screen's side of referee.proposal.

The player taps "Four kings"; the engine proposes the cards (reusing their declared cards
where the rules allow, else default suits) with its ruling; each proposed card changes with
one tap; the declaration is recorded as proposed. No rule is decided here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee import proposal as engine_proposal
from referee.events import Declare


@dataclass
class NamedDeclaration:
    """The combination named so far and the engine's proposal for it."""

    player: int
    meld: str | None = None
    proposal: engine_proposal.MeldProposal | None = None

    def choose(self, deal: Any, meld: str) -> None:
        self.meld = meld
        self.proposal = engine_proposal.propose(deal, self.player, meld)

    def change(self, deal: Any, index: int) -> None:
        if self.proposal is not None:
            self.proposal = engine_proposal.change(deal, self.proposal, index)

    def event(self) -> Declare | None:
        return self.proposal.event() if self.proposal is not None else None


def names(deal: Any) -> tuple[str, ...]:
    """The combinations offered by name (none where the picker is the only way)."""
    if not engine_proposal.supports(deal):
        return ()
    return engine_proposal.nameable(deal)
