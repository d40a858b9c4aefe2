"""Progress of a long storage task (salvaging a damaged file), so that a user who waits many
seconds sees it move instead of a blank screen or a silent terminal.

The task reports every step it likes; :class:`Every` passes on at most one report per
interval (and each phase's first and last), so a sink may print or redraw each report.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

READ = "read"  # reading every row the damaged file still holds
WRITE = "write"  # checking each match's log and copying it to the new file
REPLAY = "replay"  # replaying each recovered match to rebuild its caches


@dataclass(frozen=True)
class Progress:
    """Where a salvage is: ``done`` of ``total`` rows read (``pages``: the file's size in
    pages; ``total`` is an estimate from the highest row ids), matches checked and copied, or
    matches replayed."""

    phase: str
    done: int
    total: int
    pages: int = 0

    def sentence(self) -> str:
        """One line for the terminal (the app words it from its own catalogue)."""
        if self.phase == READ:
            of = f" of about {self.total:,}" if self.done < self.total else ""
            return f"salvage: {self.done:,}{of} rows read ({self.pages:,} pages in the file)"
        if self.phase == WRITE:
            return f"salvage: {self.done:,} of {self.total:,} matches checked and copied"
        return f"salvage: {self.done:,} of {self.total:,} matches replayed and rebuilt"


ProgressSink = Callable[[Progress], None]


class Every:
    """A sink that passes a report on only when ``seconds`` have passed since the last one it
    passed, or when the phase changes, or when the phase is complete."""

    def __init__(
        self,
        sink: ProgressSink,
        seconds: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.sink, self.seconds, self.clock = sink, seconds, clock
        self._last_time: float | None = None
        self._last_phase: str | None = None
        self._finished: str | None = None

    def __call__(self, report: Progress) -> None:
        now = self.clock()
        new_phase = report.phase != self._last_phase
        finished = report.done >= report.total and self._finished != report.phase
        due = self._last_time is None or now - self._last_time >= self.seconds
        if new_phase or finished or due:
            self._last_time, self._last_phase = now, report.phase
            if finished:
                self._finished = report.phase
            self.sink(report)


def to_stream(stream: TextIO | None = None, seconds: float = 1.0) -> ProgressSink:
    """Progress lines on ``stream`` (stderr by default), about one a second."""

    def write(report: Progress) -> None:
        out = stream or sys.stderr
        print(report.sentence(), file=out, flush=True)

    return Every(write, seconds)
