"""The deal's entries of the multi-pack forms (Rubicon, six-pack): a carte blanche shown
(R-CARTE-BLANCHE, again under H-CARTE-BLANCHE-REPEAT) and the six-pack cut bonus
(R-CUT-BONUS). The screen decides nothing: an entry is offered exactly when the engine would
accept it now (``Match.can``), with the points the engine's ruling gives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.events import CarteBlanche, CutBonus, Event

KINDS = ("carte_blanche", "cut_bonus")


@dataclass(frozen=True)
class Entry:
    """One button: what it records, for whom, and the points it will score."""

    kind: str  # carte_blanche | cut_bonus
    seat: int
    points: int
    again: bool  # a further carte blanche (H-CARTE-BLANCHE-REPEAT)
    dealer: bool  # the cut bonus: the dealer's (cut exactly 24) or the guess

    @property
    def identifier(self) -> str:
        return f"{self.kind.replace('_', '-')}-{self.seat}"

    def event(self) -> Event:
        return CarteBlanche(self.seat) if self.kind == "carte_blanche" else CutBonus(self.seat)


def entries(match: Any) -> list[Entry]:
    """The entries the engine accepts now, carte blanches first, in seat order."""
    if match.current is None:
        return []
    dealer = int(match.current.dealer)
    found: list[Entry] = []
    for kind in KINDS:
        for seat in range(len(match.players)):
            ev: Event = CarteBlanche(seat) if kind == "carte_blanche" else CutBonus(seat)
            ruling = match.verify(ev)
            if not ruling.accepted:
                continue
            found.append(
                Entry(
                    kind,
                    seat,
                    int(ruling.points or 0),
                    again=str(ruling.rule) == "H-CARTE-BLANCHE-REPEAT",
                    dealer=seat == dealer,
                )
            )
    return found


def record(ds: Any, entry: Entry) -> Any:
    """Record the entry through the deal screen (its ruling shows like any other)."""
    return ds.record(entry.event())


def no_trumps_key(match: Any) -> str:
    """The header's words while no trumps are fixed: where the first sequence fixes them too
    (R-TRUMPS-BY-MELD), say so."""
    if bool(getattr(match.variant, "fix_trumps_by_sequence", False)):
        return "rubicon.deal.no_trumps_yet"
    return "deal.no_trumps_yet"
