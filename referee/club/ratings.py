"""The club's ratings: every finished match, in the order it finished, fed to openskill's
PlackettLuce model with the library's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300,
sigma not limited).

A library rather than hand-written Elo: it is kept and tested by others, and one model rates
the three forms the club plays, 1v1, partnerships 2v2 (a team's skill is its players' sum) and
the three-hand free-for-all (a full ranking of three), which Elo only does by inventions of our
own. Only the places count, never the margin: in Bezique the winner is named by rules (R-TIE's
last trick), not by the larger total.

The ratings are always recomputed from the whole ordered list, so a corrected or removed
match changes every rating after it and none before it; the same list gives the same ratings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType

from openskill.models import PlackettLuce, PlackettLuceRating

from referee.club.errors import ResultError
from referee.club.results import ClubResult

MODEL = "PlackettLuce"


def model() -> PlackettLuce:
    """The one model the club uses, with the library's default parameters."""
    return PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill as the model holds it: the mean ``mu``, the uncertainty ``sigma``,
    and ``ordinal`` (the library's mu − 3·sigma: a newcomer starts at 0 and rises as the
    club grows sure of them), the one number a leaderboard shows."""

    mu: float
    sigma: float
    ordinal: float

    @classmethod
    def of(cls, r: PlackettLuceRating) -> Rating:
        return cls(r.mu, r.sigma, r.ordinal())

    @property
    def shown(self) -> float:
        """The ordinal as the screen shows it, to one decimal."""
        return round(self.ordinal, 1)


@dataclass(frozen=True, slots=True)
class RatingStep:
    """One match in a player's history: the rating before and after it, and the place."""

    match_id: str
    finished_at: datetime
    before: Rating
    after: Rating
    rank: int

    @property
    def change(self) -> float:
        return self.after.ordinal - self.before.ordinal


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    place: int
    player: str
    rating: Rating
    matches: int


@dataclass(frozen=True, slots=True)
class Ratings:
    """The outcome of :func:`compute`: each player's rating now, their history match by
    match, and the order the matches were counted in."""

    current: Mapping[str, Rating]
    history: Mapping[str, tuple[RatingStep, ...]]
    order: tuple[str, ...]

    def leaderboard(self) -> tuple[LeaderboardRow, ...]:
        """Every rated player, best first: by ordinal, then mu, then more matches played,
        then player id. Players equal in ordinal and mu share a place."""
        rows = sorted(
            self.current.items(),
            key=lambda kv: (-kv[1].ordinal, -kv[1].mu, -len(self.history[kv[0]]), kv[0]),
        )
        out: list[LeaderboardRow] = []
        for i, (player, r) in enumerate(rows):
            prev = out[-1] if out else None
            same = prev is not None and (prev.rating.ordinal, prev.rating.mu) == (r.ordinal, r.mu)
            place = prev.place if same and prev is not None else i + 1
            out.append(LeaderboardRow(place, player, r, len(self.history[player])))
        return tuple(out)

    def curve(self, player: str) -> tuple[tuple[datetime, float], ...]:
        """The player's rating curve: the ordinal after each of their matches."""
        return tuple((s.finished_at, s.after.ordinal) for s in self.history.get(player, ()))


def ordered(results: Iterable[ClubResult]) -> list[ClubResult]:
    """The results in the order they count: by finish time, then match id (so two matches
    finished in the same second still count in one fixed order). A match id given twice is
    an error: a correction replaces the match, it does not add one."""
    out = sorted(results, key=lambda r: (r.finished_at, r.match_id))
    seen: set[str] = set()
    for r in out:
        if r.match_id in seen:
            raise ResultError(f"match {r.match_id} is given twice")
        seen.add(r.match_id)
    return out


def compute(results: Iterable[ClubResult]) -> Ratings:
    """Every player's rating after the finished matches, recomputed from the first."""
    pl = model()
    now: dict[str, PlackettLuceRating] = {}
    history: dict[str, list[RatingStep]] = {}
    matches = ordered(results)
    for res in matches:
        teams = [[now.get(p) or pl.rating() for p in side.players] for side in res.sides]
        rated = pl.rate(teams, ranks=[float(side.rank) for side in res.sides])
        for side, before_team, after_team in zip(res.sides, teams, rated, strict=True):
            for p, before, after in zip(side.players, before_team, after_team, strict=True):
                now[p] = after
                step = RatingStep(
                    res.match_id, res.finished_at, Rating.of(before), Rating.of(after), side.rank
                )
                history.setdefault(p, []).append(step)
    return Ratings(
        MappingProxyType({p: Rating.of(r) for p, r in now.items()}),
        MappingProxyType({p: tuple(h) for p, h in history.items()}),
        tuple(r.match_id for r in matches),
    )
