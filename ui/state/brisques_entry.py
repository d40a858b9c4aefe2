"""Brisques typed as numbers, one field per player, checked on the field.

Counting aces and tens is done on paper in one go; the app takes the numbers as typed (a
number pad on phones). When every field but one is typed, the last one is the rest of the
pack's total (with two players: type one count, the other follows). A wrong entry says what
is wrong on the field it belongs to; nothing is recorded until the counts add up.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class FieldError:
    """A message for one field: a translation key and its arguments."""

    key: str
    args: dict[str, object] = field(default_factory=dict)


class BrisquesEntry:
    """The brisque counts being entered at the end of a deal."""

    def __init__(self, seats: int, total: int) -> None:
        self.total = total
        self.texts: list[str] = [""] * seats
        self.typed: list[bool] = [False] * seats  # typed by the table (not derived)
        self.errors: dict[int, FieldError] = {}

    @property
    def seats(self) -> int:
        return len(self.texts)

    def type(self, seat: int, text: str) -> None:
        """A field's new text: checked, and the one field left untyped derived."""
        if not 0 <= seat < self.seats:
            return
        self.texts[seat] = text.strip()
        self.typed[seat] = bool(self.texts[seat])
        self._check(seat)
        self._derive()

    def step(self, seat: int, delta: int) -> None:
        """A +/− tap (kept for keyboards without digits): clamped to 0 … total."""
        if not 0 <= seat < self.seats:
            return
        base = self.value(seat) if self.typed[seat] else 0  # a derived count is not typed
        value = max(0, min(self.total, base + delta))
        self.type(seat, str(value))

    def value(self, seat: int) -> int:
        t = self.texts[seat]
        return int(t) if t.isdigit() else 0

    def derived(self, seat: int) -> bool:
        return bool(self.texts[seat]) and not self.typed[seat]

    def counts(self) -> list[int]:
        return [self.value(s) for s in range(self.seats)]

    def _check(self, seat: int) -> None:
        t = self.texts[seat]
        self.errors.pop(seat, None)
        if t and not t.isdigit():
            self.errors[seat] = FieldError("deal_screen.brisques_not_number", {"max": self.total})
        elif t and int(t) > self.total:
            self.errors[seat] = FieldError("deal_screen.brisques_too_many", {"max": self.total})

    def _derive(self) -> None:
        """Every field but one typed (and correct): the last is what the pack's total leaves."""
        untyped = [s for s in range(self.seats) if not self.typed[s]]
        for s in untyped:
            self.texts[s] = ""
            self.errors.pop(s, None)
        if len(untyped) != 1 or any(s in self.errors for s in range(self.seats)):
            return
        rest = self.total - sum(self.value(s) for s in range(self.seats) if self.typed[s])
        if rest >= 0:
            self.texts[untyped[0]] = str(rest)

    def total_error(self) -> FieldError | None:
        """Why the counts cannot be recorded yet (None: they can)."""
        if self.errors:
            return next(iter(self.errors.values()))
        if any(not t for t in self.texts):
            return FieldError("deal_screen.brisques_missing", {"expected": self.total})
        got = sum(self.counts())
        if got != self.total:
            parts = " + ".join(str(c) for c in self.counts())
            args: dict[str, object] = {"sum": got, "parts": parts, "expected": self.total}
            return FieldError("deal_screen.brisques_wrong_total", args)
        return None

    def field_error(self, seat: int) -> FieldError | None:
        """The message under one field (what is wrong with that number itself; a total that
        does not add up is said once, under all the fields: ``total_error``)."""
        return self.errors.get(seat)
