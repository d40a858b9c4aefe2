"""Why the partie ended as it did, as data the app can put in words (RULES.md §6).

``Match.result()`` names the winner and the rule that decided (R-TARGET, R-TIE,
H-TIE-HIGHER); a table in a dispute also wants the reason: "Anna took the last trick", "the
higher total", "the only side to reach 1000", "a triple bezique". And while a deal is still
in play, that a side has already reached the target, so the partie ends with this deal
(R-CLAIM-AT-END: it is won only at the end of a deal). This module reads those facts off the
match; it decides nothing that ``Match._partie`` has not already decided.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from referee.match import Match

Reason = Literal["target", "last_trick", "higher_total", "higher_total_last_out", "meld"]


@dataclass(frozen=True, slots=True)
class VerdictFacts:
    """The partie's outcome and its reason; names are side names (teams in four-hand)."""

    winner: str | None
    rule: str | None  # as in MatchResult.decided_by
    reason: Reason | None  # why ``winner`` won (None while nobody has)
    target: int
    winner_total: int = 0
    last_trick: str | None = None  # the player who took the deciding deal's last trick
    also_reached: tuple[str, ...] = ()  # the other sides at or past the target then
    reached_in_play: tuple[str, ...] = ()  # sides past the target in the deal in play
    goes_on: tuple[str, ...] = ()  # R-TIE: equal highest totals, another deal is played


def explain(match: Match) -> VerdictFacts:
    """The verdict of ``match`` with its reason, or what the deal in play already settles."""
    result = match.result()
    partie = match._partie()
    names = match.side_names
    target = int(match.target)
    totals = _totals_after(match)
    if partie.winner is not None and partie.after_deal is not None:
        index = partie.after_deal
        deal = match.deals[index]
        after = totals[index]
        reached = [s for s, t in enumerate(after) if t >= target]
        last = deal.last_trick_winner
        last_side = match.setup.side_of[last] if last is not None else None
        reason: Reason
        if deal.partie_won_by_meld is not None:
            reason = "meld"
        elif partie.decided_by == "H-TIE-HIGHER":
            reason = "higher_total"
        elif partie.decided_by == "R-TIE":
            reason = "last_trick" if last_side == partie.winner else "higher_total_last_out"
        else:
            reason = "target"
        return VerdictFacts(
            winner=names[partie.winner],
            rule=result.decided_by,
            reason=reason,
            target=target,
            winner_total=after[partie.winner],
            last_trick=match.players[last] if last is not None else None,
            also_reached=tuple(names[s] for s in reached if s != partie.winner),
        )
    in_play: tuple[str, ...] = ()
    goes_on: tuple[str, ...] = ()
    current = match.current
    if current is not None and totals:
        now = totals[-1]
        reached = [s for s, t in enumerate(now) if t >= target]
        if not current.complete:
            in_play = tuple(names[s] for s in reached)
        elif len(reached) > 1:  # the deal ended, several reached, nobody won: equal totals
            goes_on = tuple(names[s] for s in reached)
    return VerdictFacts(
        winner=None,
        rule=None,
        reason=None,
        target=target,
        reached_in_play=in_play,
        goes_on=goes_on,
    )


def _totals_after(match: Match) -> list[list[int]]:
    """Each side's running total after each deal (the last one as it stands now)."""
    out: list[list[int]] = []
    running = [0] * len(match.side_names)
    for deal in match.deals:
        for side, points in enumerate(deal.scores()):
            running[side] += points
        out.append(list(running))
    return out
