"""The end of a deal on the deal screen: who took the last trick and the brisques typed,
all checked before anything is recorded, so a deal is never half ended; with ``tricks``
tracking the last trick alone closes the play after the stock. A mixin of
ui.state.deal.DealScreen (which provides the match, ``record`` and the screen's fields)."""

from __future__ import annotations

from typing import Any

from referee.deal_end_entries import BRISQUES, LAST_TRICK, end_entries
from referee.events import Brisques, Event, LastTrick
from ui.state.brisques_entry import BrisquesEntry
from ui.state.common import Notice


class EndOfDeal:
    """The end-of-deal form (see the module's docstring)."""

    match: Any
    deal: Any
    players: tuple[str, ...]
    tracking: str
    brisques: BrisquesEntry
    ending: bool
    end_last: int | None
    end_errors: dict[str, str]
    notice: Any
    picker: Any
    penalty_for: int | None
    toast: Any

    def record(self, event: Any) -> Any: ...  # provided by DealScreen
    def play_over(self) -> bool: ...
    def _prefill_setup(self) -> None: ...

    def brisques_expected(self) -> int:
        return int(self.match.variant.brisques_total(len(self.players)))

    def last_trick_points(self) -> int:
        return int(self.match.variant.last_trick_points)

    def _end_entries(self) -> tuple[str, ...]:
        """What the engine says this deal's end still needs (referee/deal_end_entries.py):
        a last trick already recorded (an imported record, an older undo) is not asked
        again, and brisques that never count (six-pack) are not asked at all."""
        if self.deal is None:
            return ()
        return tuple(end_entries(self.deal))

    def needs_last_trick(self) -> bool:
        """The end form asks who took the last trick: with melds until it is recorded, and
        with tricks when the final trick was not tapped (the last trick then closes the play)."""
        return LAST_TRICK in self._end_entries()

    def needs_brisques(self) -> bool:
        return BRISQUES in self._end_entries()

    def needs_end_form(self) -> bool:
        """Something to ask at the end of the deal; otherwise it ends by itself ("stock
        exhausted" with melds, its last lead with tricks: the joker variant)."""
        return self.needs_last_trick() or self.needs_brisques()

    def open_end(self, last: int | None = None) -> None:
        """The end-of-deal form (``last``: who took the last trick, when the tap said so)."""
        if self.deal is None:
            return
        self.ending = True
        self.picker = None
        self.penalty_for = None
        self.notice = None
        self.toast.dismiss()
        if self.brisques.seats != len(self.players):
            self.brisques = BrisquesEntry(len(self.players), self.brisques_expected())
        known = self.deal.last_trick_winner
        if last is not None and 0 <= last < len(self.players):
            self.end_last = last
        elif known is not None:
            self.end_last = int(known)
        self.end_errors = {}

    def cancel_end(self) -> None:
        self.ending = False

    def set_last_trick(self, seat: int) -> None:
        if 0 <= seat < len(self.players):
            self.end_last = seat
            self.end_errors.pop("last_trick", None)

    def step_brisques(self, seat: int, delta: int) -> None:
        self.brisques.step(seat, delta)
        self.end_errors.pop("brisques", None)

    def set_brisques(self, seat: int, text: str) -> None:
        """Typed count: anything but a whole number ≥ 0 is a field error, never a crash; with
        every other field typed, the last one is derived from the pack's total."""
        self.brisques.type(seat, text)
        if seat in self.brisques.errors:
            self.end_errors["brisques"] = "end.brisques_mismatch"
        else:
            self.end_errors.pop("brisques", None)

    def brisques_sum(self) -> int:
        return sum(self.end_counts)

    def finish_deal(self) -> bool:
        """Record brisques and the last trick; the counts must add up first (R-BRISQUE)."""
        errors: dict[str, str] = {}
        if self.needs_last_trick() and self.end_last is None:
            errors["last_trick"] = "end.pick_last_trick"
        if self.needs_brisques() and self.brisques.total_error() is not None:
            errors["brisques"] = "end.brisques_mismatch"
        self.end_errors = errors
        if errors:
            return False
        events: list[Event] = []
        if self.needs_last_trick():
            assert self.end_last is not None
            events.append(LastTrick(self.end_last))
        if self.needs_brisques():
            events.append(Brisques(dict(enumerate(self.end_counts))))
        # Never half an end of deal: every event is checked before the first is recorded.
        for ev in events:
            try:
                self.match.verify(ev)
            except ValueError as exc:
                self.notice = Notice("error.engine", {"why": str(exc)}, error=True)
                return False
        for ev in events:
            if self.record(ev) is None:
                return False
        self.ending = False
        self.brisques = BrisquesEntry(len(self.players), self.brisques_expected())
        self.end_last = None
        self._prefill_setup()
        return True
