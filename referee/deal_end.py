"""The end of a deal (RULES.md §2 R-LAST-TRICK, R-BRISQUE): the last trick's bonus, the
brisques counted at the end, and when a deal holds its closing facts (``complete``)."""

from __future__ import annotations

from collections.abc import Mapping

from referee.deal_core import DealCore, Setup, _Outcome
from referee.deal_end_entries import brisques_count
from referee.errors import InconsistentEventError
from referee.events import (
    Brisques,
    LastTrick,
)
from referee.rulings import accept


class DealEndRules(DealCore):
    """The deal's closing facts."""

    @property
    def complete(self) -> bool:
        """Whether the deal's closing facts are recorded (brisques, or the final trick).
        Where brisques never count (six- and eight-pack) the last trick closes the deal:
        nobody counts 48 aces and tens for nothing (referee/deal_end_entries.py)."""
        counted = brisques_count(self.setup.variant)
        if self.setup.tracking == "cards":
            return self.tricks_played >= self.setup.total_tricks
        if self.setup.tracking == "tricks":
            played_out = self.tricks_played >= self.setup.total_tricks or self.play_closed
            return played_out and (self.brisques_scored or not counted)
        return self.brisques_scored or (not counted and self.last_trick_scored)

    def _check_last_trick(self, ev: LastTrick) -> _Outcome:
        s = self.setup
        who = self.name(ev.winner)
        if s.tracking == "tricks" and s.stock_tricks <= self.tricks_played < s.total_tricks:
            return self._close_play(ev)
        if s.tracking != "melds":
            if not self.last_trick_scored or self.last_trick_winner != ev.winner:
                holder = self.last_trick_winner
                given = self.name(holder) if holder is not None else "nobody yet"
                raise InconsistentEventError(
                    f"last_trick names {who}, but the tricks recorded give the last-trick "
                    f"bonus to {given} (R-LAST-TRICK)"
                )
            return _Outcome(accept("R-LAST-TRICK", "last_trick_known", {"player": who}))
        if self.last_trick_scored:
            raise InconsistentEventError("the last trick is already recorded in this deal")
        points = s.variant.last_trick_points

        def commit() -> None:
            self.last_trick_scored = True
            self.last_trick_winner = ev.winner
            self._score(s.side_of[ev.winner], points, "R-LAST-TRICK")

        return _Outcome(
            accept("R-LAST-TRICK", "last_trick", {"player": who, "points": points},
                   points=points),
            commit,
        )

    def _close_play(self, ev: LastTrick) -> _Outcome:
        """``tricks`` tracking: after the stock, ``last_trick`` alone names the winner of the
        final trick and closes the play (the phase-2 tricks carry no declarations and may be
        left out, spec "tracking"). Under H-LAST-TRICK-24 the bonus was given at trick 24."""
        s = self.setup
        who = self.name(ev.winner)
        if self.play_closed:
            raise InconsistentEventError("the last trick is already recorded in this deal")
        bonus = 0 if s.has("H-LAST-TRICK-24") else s.variant.last_trick_points

        def commit() -> None:
            if not self.stock_exhausted:
                self._begin_phase_two()
            self.play_closed = True
            self.last_winner = ev.winner
            self.last_trick_winner = ev.winner
            if bonus:
                self.last_trick_scored = True
                self._score(s.side_of[ev.winner], bonus, "R-LAST-TRICK")

        if bonus:
            return _Outcome(
                accept("R-LAST-TRICK", "last_trick", {"player": who, "points": bonus},
                       points=bonus),
                commit,
            )
        return _Outcome(accept("R-LAST-TRICK", "last_trick_known", {"player": who}), commit)

    def _check_brisques(self, ev: Brisques) -> _Outcome:
        s = self.setup
        counts = dict(ev.counts)
        check_brisque_counts(counts, s)
        if self.brisques_scored and s.tracking != "cards":
            raise InconsistentEventError("brisques are already recorded in this deal")
        if s.tracking == "cards":
            won = {seat: self.brisques_won[seat] for seat in range(s.n)}
            given = {seat: counts.get(seat, 0) for seat in range(s.n)}
            if self.tricks_played < s.total_tricks or won != given:
                raise InconsistentEventError(
                    "brisques given ("
                    + ", ".join(f"{self.name(p)} {given[p]}" for p in range(s.n))
                    + ") disagree with the tricks ("
                    + ", ".join(f"{self.name(p)} {won[p]}" for p in range(s.n))
                    + f" after {self.tricks_played} tricks) (R-BRISQUE)"
                )
            return _Outcome(accept("R-BRISQUE", "brisques_known", {}))
        v = s.variant

        def commit() -> None:
            for seat in range(s.n):
                if counts.get(seat, 0):
                    self._score(s.side_of[seat], counts[seat] * v.brisque_points, "R-BRISQUE")
                self.brisques_won[seat] = counts.get(seat, 0)
            self.brisques_scored = True

        total = sum(counts.values()) * v.brisque_points
        each = ", ".join(
            f"{self.name(seat)} {counts.get(seat, 0)} → {counts.get(seat, 0) * v.brisque_points}"
            for seat in range(s.n)
        )
        return _Outcome(accept("R-BRISQUE", "brisques",
                               {"points": total, "each": each, "value": v.brisque_points}),
                        commit)


def check_brisque_counts(counts: Mapping[int, int], setup: Setup) -> None:
    """R-BRISQUE: the counts must add up to the brisques the packs hold."""
    want = setup.variant.brisques_total(setup.n)
    for seat, count in counts.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise InconsistentEventError(
                f"{setup.players[seat]}: a brisque count is a whole number ≥ 0, not {count!r}"
            )
    got = sum(counts.values())
    if got != want:
        raise InconsistentEventError(
            f"brisque counts add up to {got}, but {setup.packs} packs hold {want} aces and tens "
            "(R-BRISQUE)",
            "R-BRISQUE",
        )
