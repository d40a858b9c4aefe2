"""What correcting one entry of a match changes: the table fixes a mistake where it happened
(that bezique was Anna's; that marriage was in trumps; that entry never happened) and the
rest of the match is replayed on top of it, so a later ruling may flip, a proposed penalty
appear or vanish, and the winner change. This module replays and compares; it stores nothing.

An :class:`Edit` names the entry by deal and position (0-based, as the engine's logs count)
and gives its replacement, or ``None`` to delete it. Entries after a deleted one in the same
deal move up by one; everything else keeps its place, which is how the two replays are lined
up for the comparison.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.errors import BeziqueError, InconsistentEventError
from referee.events import Declare, Event, LastTrick, Penalty, Seven, Trick
from referee.match import Match
from referee.rulings import Ruling


class CorrectionError(BeziqueError):
    """The correction cannot be made: the entry does not exist, or the match replayed with it
    contradicts a later entry (``deal``/``event`` name that entry, 0-based)."""

    def __init__(self, message: str, deal: int | None = None, event: int | None = None) -> None:
        self.deal = deal
        self.event = event
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace (or, with ``replacement`` None, delete) event ``event`` of deal ``deal``."""

    deal: int
    event: int
    replacement: Event | None = None

    @property
    def deletes(self) -> bool:
        return self.replacement is None


@dataclass(frozen=True, slots=True)
class DealTotal:
    """One side's points in one deal, before and after (only listed when they differ)."""

    deal: int
    side: str
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class SideTotal:
    """A side's match total before and after."""

    side: str
    before: int
    after: int

    @property
    def changed(self) -> bool:
        return self.before != self.after


@dataclass(frozen=True, slots=True)
class RulingChange:
    """A later entry the engine now rules differently (``flipped``: accepted ↔ rejected;
    otherwise its rule or points changed). ``event`` is its position after the correction."""

    deal: int
    event: int
    entry: Event
    before: Ruling
    after: Ruling

    @property
    def flipped(self) -> bool:
        return self.before.accepted != self.after.accepted


@dataclass(frozen=True, slots=True)
class PenaltyChange:
    """A penalty the referee proposes (``added``) or no longer proposes after the correction.
    ``event`` is the position of the entry that proves it, in the replay it belongs to."""

    deal: int
    event: int
    player: int
    penalty: str
    rule: str
    added: bool


@dataclass(frozen=True, slots=True)
class Verdict:
    """Who has won the partie, if anyone, and the rule that decided."""

    finished: bool
    winner: str | None
    decided_by: str | None


@dataclass(frozen=True, slots=True)
class CorrectionDiff:
    """Everything a correction changed, for the table to see before and after confirming."""

    edit: Edit
    original: Event
    ruling_before: Ruling
    ruling_after: Ruling | None  # None: the entry was deleted
    deal_totals: tuple[DealTotal, ...]
    totals: tuple[SideTotal, ...]
    rulings: tuple[RulingChange, ...]
    penalties: tuple[PenaltyChange, ...]
    verdict_before: Verdict
    verdict_after: Verdict

    @property
    def flips(self) -> tuple[RulingChange, ...]:
        return tuple(r for r in self.rulings if r.flipped)

    @property
    def winner_changed(self) -> bool:
        return self.verdict_before != self.verdict_after

    @property
    def changes_anything(self) -> bool:
        """Whether the score, a ruling, a proposal or the verdict differs at all."""
        own = self.ruling_after is None or _ruling_key(self.ruling_after) != _ruling_key(
            self.ruling_before
        )
        return bool(
            own or self.deal_totals or self.rulings or self.penalties or self.winner_changed
        )


def events_of(match: Match) -> list[list[Event]]:
    """Each deal's events in order (rejected ones included: they are what the table said)."""
    return [list(deal.events) for deal in match.deals]


def check_place(match: Match, deal: int, event: int) -> Event:
    """The entry at that place; CorrectionError if there is none."""
    if not 0 <= deal < len(match.deals):
        raise CorrectionError(f"there is no deal {deal + 1}", deal, event)
    log = match.deals[deal].log
    if not 0 <= event < len(log):
        raise CorrectionError(f"deal {deal + 1} has no entry {event + 1}", deal, event)
    return log[event][0]


def corrected_events(
    deals: Sequence[Sequence[Event]], edit: Edit
) -> list[list[Event]]:
    """The events of every deal with the edit made."""
    out = [list(events) for events in deals]
    if not 0 <= edit.deal < len(out) or not 0 <= edit.event < len(out[edit.deal]):
        raise CorrectionError(
            f"deal {edit.deal + 1} has no entry {edit.event + 1}", edit.deal, edit.event
        )
    if edit.replacement is None:
        del out[edit.deal][edit.event]
    else:
        out[edit.deal][edit.event] = edit.replacement
    return out


def replay_corrected(before: Match, edit: Edit) -> Match:
    """A fresh replay of the match with the edit made (same players, rules, target, dealers
    and turn-ups). Raises CorrectionError naming the first entry that no longer fits."""
    check_place(before, edit.deal, edit.event)
    deals = corrected_events(events_of(before), edit)
    after = Match(before.setup, before.target)
    for d, (old, events) in enumerate(zip(before.deals, deals, strict=True)):
        try:
            after.start_deal(old.dealer, old.original_turn_up)
        except BeziqueError as exc:
            raise CorrectionError(
                f"with this correction deal {d + 1} could not be played: {exc}", d, None
            ) from exc
        for i, event in enumerate(events):
            try:
                after.apply(event)
            except InconsistentEventError as exc:
                raise CorrectionError(
                    f"with this correction deal {d + 1}, entry {i + 1} no longer fits: {exc}", d, i
                ) from exc
    return after


def match_before(match: Match, deal: int, event: int) -> Match:
    """The match as it stood just before that entry (a fresh replay): what the table knew
    when it was made, so a corrected declaration is composed against the right tables."""
    check_place(match, deal, event)
    out = Match(match.setup, match.target)
    for d, old in enumerate(match.deals[: deal + 1]):
        out.start_deal(old.dealer, old.original_turn_up)
        for e in old.events[: event if d == deal else None]:
            out.apply(e)
    return out


def _ruling_key(r: Ruling) -> tuple[bool, str, int, str | None]:
    return (r.accepted, r.rule, int(r.points or 0), r.meld)


def _after_index(edit: Edit, deal: int, event: int) -> int | None:
    """Where an entry of the match before the correction sits after it (None: the edited
    entry itself)."""
    if deal != edit.deal:
        return event
    if event == edit.event:
        return None
    if edit.deletes and event > edit.event:
        return event - 1
    return event


def _verdict(match: Match) -> Verdict:
    r = match.result()
    return Verdict(r.finished, r.winner, r.decided_by)


def correction_diff(before: Match, after: Match, edit: Edit) -> CorrectionDiff:
    """Compare the replay before the correction with the replay after it."""
    original = check_place(before, edit.deal, edit.event)
    ruling_before = before.deals[edit.deal].log[edit.event][1]
    ruling_after = None
    if not edit.deletes:
        ruling_after = after.deals[edit.deal].log[edit.event][1]
    names = before.side_names
    deal_totals: list[DealTotal] = []
    for d, (old, new) in enumerate(zip(before.deals, after.deals, strict=True)):
        for side, (a, b) in enumerate(zip(old.scores(), new.scores(), strict=True)):
            if a != b:
                deal_totals.append(DealTotal(d, names[side], int(a), int(b)))
    totals = tuple(
        SideTotal(names[s], int(a), int(b))
        for s, (a, b) in enumerate(zip(before.totals(), after.totals(), strict=True))
    )
    rulings: list[RulingChange] = []
    moved: dict[tuple[int, int], tuple[int, int]] = {}
    for d, deal in enumerate(before.deals):
        for i, (event, old_ruling) in enumerate(deal.log):
            j = _after_index(edit, d, i)
            if j is None:
                continue
            moved[(d, i)] = (d, j)
            new_ruling = after.deals[d].log[j][1]
            if _ruling_key(old_ruling) != _ruling_key(new_ruling):
                rulings.append(RulingChange(d, j, event, old_ruling, new_ruling))
    penalties = _penalty_changes(before, after, moved)
    return CorrectionDiff(
        edit,
        original,
        ruling_before,
        ruling_after,
        tuple(deal_totals),
        totals,
        tuple(rulings),
        tuple(penalties),
        _verdict(before),
        _verdict(after),
    )


def _penalty_changes(
    before: Match, after: Match, moved: dict[tuple[int, int], tuple[int, int]]
) -> list[PenaltyChange]:
    """Penalties proposed on one side only: a proof of a revoke (``proposals``) or the
    penalty a rejection suggests (``proposes``); places are compared after the move."""

    def proposals(m: Match, place: dict[tuple[int, int], tuple[int, int]] | None) -> dict[
        tuple[int, int, int, str], tuple[int, int, str]
    ]:
        out: dict[tuple[int, int, int, str], tuple[int, int, str]] = {}
        for d, deal in enumerate(m.deals):
            for i, (event, ruling) in enumerate(deal.log):
                where = (d, i) if place is None else place.get((d, i), (d, -1 - i))
                for p in ruling.proposals:
                    out[(*where, p.player, p.penalty)] = (d, i, p.rule)
                offender = _player_of(event)
                if not ruling.accepted and ruling.proposes and offender is not None:
                    out[(*where, offender, ruling.proposes)] = (d, i, ruling.rule)
        return out

    old = proposals(before, moved)
    new = proposals(after, None)
    changes: list[PenaltyChange] = []
    for key in old.keys() - new.keys():
        d, i, rule = old[key]
        changes.append(PenaltyChange(d, i, key[2], key[3], rule, added=False))
    for key in new.keys() - old.keys():
        d, i, rule = new[key]
        changes.append(PenaltyChange(d, i, key[2], key[3], rule, added=True))
    changes.sort(key=lambda c: (c.deal, c.event, not c.added))
    return changes


def _player_of(event: Event) -> int | None:
    """The player an entry is about (the offender when its rejection proposes a penalty)."""
    if isinstance(event, Declare | Seven | Penalty):
        return event.player
    if isinstance(event, Trick | LastTrick):
        return event.winner
    return None


def preview(before: Match, edit: Edit) -> tuple[Match, CorrectionDiff]:
    """The corrected replay and what it changes (CorrectionError if it cannot be made)."""
    after = replay_corrected(before, edit)
    return after, correction_diff(before, after, edit)
