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
from ui.state.common import Notice


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


class NamingActions:
    """The deal screen's taps for declaring by name (a mixin of ui.state.deal.DealScreen,
    which provides the deal, the picker, ``record`` and the notice)."""

    deal: Any
    picker: Any
    notice: Any

    def record(self, event: Any) -> Any: ...  # provided by DealScreen

    def names_offered(self) -> tuple[str, ...]:
        """The combinations a player can name (empty: the picker only)."""
        return names(self.deal) if self.deal is not None else ()

    def set_picker_tab(self, tab: str) -> None:
        if self.picker is not None and (tab == "cards" or self.names_offered()):
            self.picker.tab = tab

    def choose_meld(self, meld: str) -> None:
        """Name the combination: the engine proposes its cards."""
        p = self.picker
        if p is None or self.deal is None or p.named is None:
            return
        p.named.choose(self.deal, meld)

    def change_proposed(self, index: int) -> None:
        """One tap on a proposed card: the engine's next choice for it."""
        p = self.picker
        if p is not None and p.named is not None and self.deal is not None:
            p.named.change(self.deal, index)

    def declare_named(self) -> Any:
        """Record the named combination with the proposed cards (accepted or not)."""
        p = self.picker
        event = p.named.event() if p is not None and p.named is not None else None
        if event is None:
            self.notice = Notice("declare.name_first", error=True)
            return None
        view = self.record(event)
        if view is not None:
            self.picker = None
        return view
