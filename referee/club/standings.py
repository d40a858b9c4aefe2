"""An evening's standings: a pure function of its results and byes, scored as the club
chooses, with every tie-break stated.

Scoring (``Scoring``): ``wins`` (1 a win, ½ a shared first place, 0 otherwise), ``match_points``
(2 / 1 / 0) or ``game_points`` (the side's final score). A bye counts as a win under the first
two and gives no game points (no card was played). In a three-hand match only the first place
wins; in partnerships each partner gets the side's outcome.

Ties, in order: head-to-head (the points won in the matches where every player belongs to the
tied group), then the game-point difference (in each match the side's score less the mean of
the other sides' scores), then the player id, so the order is always the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from referee.club.results import ClubResult, Side

Scoring = Literal["wins", "match_points", "game_points"]
SCORINGS: tuple[Scoring, ...] = ("wins", "match_points", "game_points")


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    player: str
    points: Fraction
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    game_points: int
    difference: Fraction
    head_to_head: Fraction


_WINS = {"win": Fraction(1), "draw": Fraction(1, 2), "loss": Fraction(0)}
_MATCH_POINTS = {"win": Fraction(2), "draw": Fraction(1), "loss": Fraction(0)}


def _outcome(res: ClubResult, side: Side) -> str:
    if side.rank != 1:
        return "loss"
    return "draw" if res.drawn else "win"


def _points(res: ClubResult, side: Side, scoring: Scoring) -> Fraction:
    if scoring == "game_points":
        return Fraction(side.score)
    per = _WINS if scoring == "wins" else _MATCH_POINTS
    return per[_outcome(res, side)]


def _bye_points(scoring: Scoring) -> Fraction:
    return Fraction({"wins": 1, "match_points": 2, "game_points": 0}[scoring])


def standings(
    results: Iterable[ClubResult],
    players: Iterable[str] = (),
    byes: Mapping[str, int] | None = None,
    scoring: Scoring = "wins",
) -> tuple[Standing, ...]:
    """The evening's table, first place first. ``players`` adds those with no match yet;
    ``byes`` counts each player's byes."""
    if scoring not in SCORINGS:
        raise ValueError(f'unknown scoring "{scoring}"; use one of {", ".join(SCORINGS)}')
    matches = list(results)
    bye_count = dict(byes or {})
    names = set(players) | set(bye_count) | {p for r in matches for p in r.players}
    pts = {p: _bye_points(scoring) * bye_count.get(p, 0) for p in names}
    diff = dict.fromkeys(names, Fraction(0))
    tally = {p: {"win": 0, "draw": 0, "loss": 0} for p in names}
    games = dict.fromkeys(names, 0)
    for res in matches:
        for side in res.sides:
            others = [s.score for s in res.sides if s is not side]
            for p in side.players:
                pts[p] += _points(res, side, scoring)
                diff[p] += side.score - Fraction(sum(others), len(others))
                tally[p][_outcome(res, side)] += 1
                games[p] += side.score
    h2h = dict.fromkeys(names, Fraction(0))
    groups: dict[Fraction, set[str]] = {}
    for p in names:
        groups.setdefault(pts[p], set()).add(p)
    for group in groups.values():
        if len(group) < 2:
            continue
        for res in matches:
            if set(res.players) <= group:
                for side in res.sides:
                    for p in side.players:
                        h2h[p] += _points(res, side, scoring)
    order = sorted(names, key=lambda p: (-pts[p], -h2h[p], -diff[p], p))
    return tuple(
        Standing(
            i + 1,
            p,
            pts[p],
            sum(tally[p].values()),
            tally[p]["win"],
            tally[p]["draw"],
            tally[p]["loss"],
            bye_count.get(p, 0),
            games[p],
            diff[p],
            h2h[p],
        )
        for i, p in enumerate(order)
    )


def ranking(table: Iterable[Standing]) -> list[str]:
    """The players in standing order: what Swiss pairing takes."""
    return [s.player for s in sorted(table, key=lambda s: s.place)]
