"""The deal screen's penalty taps (issue 15): the offences that can have happened, each with
the engine's amount, a confirmation for heavy ones, and "correct the cards" before the
penalty a likely mis-tap proposed. A mixin of ui.state.deal.DealScreen, which provides the
match, ``record``, ``undo``, ``open_picker`` and the screen's fields used here."""

from __future__ import annotations

from collections import Counter
from typing import Any

from referee.events import Declare, Penalty
from ui.state import penalty_choice


class PenaltyActions:
    """Penalties on the deal screen (see the module's docstring)."""

    match: Any
    ruling: Any
    penalty_for: int | None
    penalty_confirm: penalty_choice.PenaltyOption | None
    notice: Any
    picker: Any
    deal: Any
    players: tuple[str, ...]

    def record(self, event: Any) -> Any: ...  # provided by DealScreen
    def undo(self) -> bool: ...
    def open_picker(self, seat: int, tab: Any = None) -> None: ...
    def table(self, seat: int) -> list[Any]: ...
    def last_entry(self) -> tuple[Any, Any] | None: ...

    def penalty_options(self, seat: int) -> list[penalty_choice.PenaltyOption]:
        """The offences to offer this player now, each with the engine's amount."""
        if self.deal is None:
            return []
        return penalty_choice.options(self.match, seat)

    def proposed_penalty(self) -> penalty_choice.PenaltyOption | None:
        """The penalty the last rejection proposes, with its amount (None: none proposed)."""
        r = self.ruling
        if r is None or r.accepted or r.proposes is None or r.player is None:
            return None
        try:
            return penalty_choice.preview(self.match, r.player, r.proposes)
        except ValueError:
            return None

    def can_correct_last(self) -> bool:
        """A rejected declaration the table may have mis-tapped (a card with no copy left,
        cards forming nothing): offer to correct its cards before any penalty."""
        r = self.ruling
        last = self.last_entry()
        return (
            r is not None
            and not r.accepted
            and r.proposes == "P-FALSE-DECLARATION"
            and last is not None
            and isinstance(last[0], Declare)
            and bool(last[0].new)
            and not last[1].accepted
        )

    def correct_last(self) -> None:
        """Take the rejected declaration back and reopen its cards in the picker."""
        last = self.last_entry()
        if last is None or not isinstance(last[0], Declare) or not self.can_correct_last():
            return
        event = last[0]
        if not self.undo():
            return
        self.open_picker(event.player, tab="cards")
        p = self.picker
        if p is None:
            return
        p.new = list(event.new)
        table = self.table(event.player)
        want = Counter(event.table)
        for i, c in enumerate(table):
            if want[c]:
                want[c] -= 1
                p.table_idx.add(i)

    def open_penalty(self, seat: int) -> None:
        if 0 <= seat < len(self.players):
            self.penalty_for = seat
            self.penalty_confirm = None
            self.notice = None

    def close_penalty(self) -> None:
        self.penalty_for = None
        self.penalty_confirm = None

    def penalty(self, seat: int, offence: str, *, confirmed: bool = False) -> Any:
        """Record a penalty; a heavy one first asks to be confirmed (``confirmed``)."""
        try:
            option: penalty_choice.PenaltyOption | None = penalty_choice.preview(
                self.match, seat, offence
            )
        except ValueError:  # unknown offence or seat: the engine's refusal becomes a notice
            option = None
        if option is not None and option.heavy and not confirmed:
            self.penalty_for = seat
            self.penalty_confirm = option
            return None
        self.penalty_for = None
        self.penalty_confirm = None
        return self.record(Penalty(seat, offence))

    def confirm_penalty(self) -> Any:
        c, seat = self.penalty_confirm, self.penalty_for
        if c is None or seat is None:
            return None
        return self.penalty(seat, c.offence, confirmed=True)

    def accept_proposed(self, *, confirmed: bool = False) -> Any:
        """Apply the penalty the last rejection proposed, to the player who offended."""
        r = self.ruling
        if r is None or r.proposes is None or r.player is None:
            return None
        return self.penalty(r.player, r.proposes, confirmed=confirmed)
