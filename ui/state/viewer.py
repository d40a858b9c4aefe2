"""The viewer screen's content: what someone across the table reads off a phone held up to
them — each side's total, how far to the target, the deal in play (trumps, phase and stock,
who dealt and who leads), the match's last ruling, and once it is decided who won and why.
Numbers, rulings and the verdict are the engine's, read from the session's match (which
ui/live.py keeps equal to storage)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.cards import Suit
from ui import backend
from ui.state import who_leads
from ui.state.deal_summary import summary_sides
from ui.state.rubicon_entries import no_trumps_key
from ui.state.verdict import Verdict, verdict_of


@dataclass(frozen=True)
class SideLine:
    name: str
    total: int
    deal: int  # this deal's points so far
    to_go: int


@dataclass(frozen=True)
class PlayLine:
    """The deal in play as the deal screen's header says it, for onlookers."""

    trumps: Suit | None
    no_trumps: str  # the words' key while no trumps are fixed ("" once they are)
    phase: int
    stock_left: int | None  # tricks still drawn from the stock (None: tricks not tracked)
    tricks_played: int
    dealer: str
    leader: str | None  # who leads the next trick (None once the tricks are played)
    first_lead_only: bool  # melds tracking: only the first lead is known


@dataclass(frozen=True)
class Reading:
    sides: tuple[SideLine, ...]
    target: int
    deal_number: int  # 0: no deal yet
    last_ruling: str | None
    last_accepted: bool
    winner: str | None
    games: int | None = None  # a match over a number of games (Rubicon …): no target
    play: PlayLine | None = None  # None: no deal in play (none yet, or the last one over)
    verdict: Verdict | None = None  # who won and why; or that this deal ends the partie


def reading(match: Any, lang: str) -> Reading:
    """The viewer's lines for a match (the engine's result and the current deal's log)."""
    result = match.result()
    target = int(getattr(result, "target", 0) or match.target)
    current = match.current
    # where each deal is a game, its points as the game counts them: no brisques that do
    # not count (QA P13; ui/state/deal_summary.py, the engine's GameScore.counted)
    deal_scores = (
        [s.points for s in summary_sides(match, len(match.deals) - 1)]
        if current is not None
        else [0] * len(result.sides)
    )
    sides = tuple(
        SideLine(s.name, int(s.total), int(deal_scores[i]), max(0, target - int(s.total)))
        for i, s in enumerate(result.sides)
    )
    last: str | None = None
    accepted = True
    if current is not None and current.log:
        _, ruling = current.log[-1]
        last = backend.ruling_words(ruling, lang)  # read across the table: words, no rule id
        accepted = bool(ruling.accepted)
    elif current is not None:
        seven = current.dealer_seven()  # the deal's first points: the turned-up seven
        if seven is not None:
            last = backend.ruling_words(seven, lang)
    verdict = verdict_of(match, lang)
    decided = verdict.winner is not None or bool(verdict.ends_with_deal or verdict.goes_on)
    return Reading(
        sides=sides,
        target=target,
        deal_number=len(match.deals),
        last_ruling=last,
        last_accepted=accepted,
        winner=result.winner if result.finished else None,
        games=getattr(match, "games", None) if target <= 0 else None,
        play=play_line(match),
        verdict=verdict if decided else None,
    )


def play_line(match: Any) -> PlayLine | None:
    """Trumps, phase, stock, dealer and leader of the deal in play (None when none is)."""
    deal = match.current
    if deal is None or deal.complete:
        return None
    leader = who_leads.leader(match)
    return PlayLine(
        trumps=deal.trumps,
        no_trumps=no_trumps_key(match) if deal.trumps is None else "",
        phase=int(deal.phase),
        stock_left=deal.stock_left,
        tricks_played=int(deal.tricks_played),
        dealer=str(match.players[int(deal.dealer)]),
        leader=None if leader is None else str(match.players[leader]),
        first_lead_only=str(match.tracking) == "melds",
    )
