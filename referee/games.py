"""Each deal is a game (Rubicon, six- and eight-pack; RULES.md §8): the game's bonus, the
rubicon, and how brisques and fractions of 100 count, from the deal's points.

R-GAME: the higher score adds the game bonus (500 in Rubicon). Brisques count only to break a
tie or to save the loser from the rubicon, and if one side counts them both do (Rubicon;
never in six-pack). Fractions of 100 are dropped (Rubicon) unless dropping them would turn a
won game into a draw; a game drawn before rounding drops them.
R-RUBICON: a loser under the rubicon line (1000, brisques included) is rubiconed: the winner
scores the rubicon bonus (1000) instead of the game bonus, plus the loser's points, plus the
brisques' value (320), and the loser scores nothing.

Every step is kept as data (``GameScore.lines``) so the score sheet shows the bonus and the
rubicon as lines of their own and a ruling can say why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from referee.rulings import Params, render
from referee.variants import GameSpec

if TYPE_CHECKING:
    from referee.deal_core import DealCore

# The kinds of line on a game's score sheet (rulings.<lang>.toml: game_line_<kind>).
POINTS = "points"  # the side's points of the deal as they count (rounded, brisques if counted)
BONUS = "bonus"  # the game bonus to the winner
RUBICON_BONUS = "rubicon_bonus"  # the rubicon bonus instead of the game bonus
RUBICON_LOSER = "rubicon_loser"  # the loser's points, moved to the winner
RUBICON_BRISQUES = "rubicon_brisques"  # all the brisques' value, to the winner


@dataclass(frozen=True, slots=True)
class GameLine:
    """One line of a game's score: ``points`` to ``side`` for ``kind``."""

    kind: str
    side: int
    points: int


@dataclass(frozen=True, slots=True)
class GameScore:
    """One deal scored as a game."""

    points: tuple[int, ...]  # each side's points of the deal, brisques left out
    brisques: tuple[int, ...]  # each side's brisque points
    brisques_counted: bool  # counted, to break a tie or to save the loser
    exact: tuple[int, ...]  # points (+ brisques when counted)
    kept: tuple[int, ...]  # after dropping fractions of 100 (or exact, when that decides)
    fractions_dropped: bool
    winner: int | None  # None: equal scores, the game is drawn
    rubicon: bool
    scores: tuple[int, ...]  # what each side scores for the game
    lines: tuple[GameLine, ...]
    rule: str  # R-RUBICON or R-GAME: the rule that set the scores
    rubicon_under: int = 0  # the rubicon line (a loser under it is rubiconed)
    brisques_save: bool = True  # a loser's brisques count toward the line (not six-pack)

    @property
    def key(self) -> str:
        if self.winner is None:
            return "game_drawn"
        if self.rubicon:
            brisques = any(ln.kind == RUBICON_BRISQUES for ln in self.lines)
            return "game_rubicon" if brisques else "game_rubicon_no_brisques"
        return "game_won"

    def params(self, side_names: Sequence[str]) -> Params:
        p: dict[str, str | int] = {"scores": ", ".join(
            f"{name} {score}" for name, score in zip(side_names, self.scores, strict=True))}
        if self.winner is not None:
            p["winner"] = side_names[self.winner]
            p["loser"] = ", ".join(n for s, n in enumerate(side_names) if s != self.winner)
            p["total"] = self.scores[self.winner]
            bonus = [ln.points for ln in self.lines if ln.kind in (BONUS, RUBICON_BONUS)]
            p["bonus"] = bonus[0] if bonus else 0
            p["loser_points"] = sum(self.scores) - self.scores[self.winner]
        return MappingProxyType(p)

    @property
    def brisques_in_points(self) -> bool:
        """The brisques are part of each side's points of this game: counted (a tie, a
        loser saved) and not taken whole by a rubicon's winner (``rubicon_brisques``)."""
        return self.brisques_counted and not self.rubicon

    def counted(self, side: int) -> tuple[int, int]:
        """A side's points of the deal as the game counts them, before and after the
        fractions of 100 are dropped (290, 200); equal when nothing was dropped."""
        after = sum(ln.points for ln in self.lines if ln.kind == POINTS and ln.side == side)
        before = self.exact[side] if self.brisques_in_points else self.points[side]
        return (before if self.fractions_dropped else after), after

    def render(self, side_names: Sequence[str], lang: str = "en") -> str:
        """The game in words ("Anna wins the game: 500 for the game …"), with the rubicon
        check itself for each loser, as a player adding by hand would write it ("Boris: 350
        + 160 brisques = 510 < 1000")."""
        text = render(self.key, self.params(side_names), lang)
        checks = self.rubicon_checks(side_names, lang)
        return f"{text} ({'; '.join(checks)})" if checks else text

    def rubicon_checks(self, side_names: Sequence[str], lang: str = "en") -> list[str]:
        """Each loser's sum against the rubicon line (R-RUBICON): none for a drawn game."""
        if self.winner is None or self.rubicon_under <= 0:
            return []
        out = []
        for s, name in enumerate(side_names):
            if s == self.winner:
                continue
            own = self.points[s] + (self.brisques[s] if self.brisques_save else 0)
            params: dict[str, str | int] = {
                "player": name,
                "points": self.points[s],
                "brisques": self.brisques[s],
                "sum": own,
                "sign": "<" if own < self.rubicon_under else "≥",
                "line": self.rubicon_under,
            }
            key = "rubicon_check" if self.brisques_save else "rubicon_check_plain"
            out.append(render(key, MappingProxyType(params), lang))
        return out


def drop_fraction(points: int) -> int:
    """1280 → 1200, −30 → 0: the fraction of 100 is dropped (toward zero)."""
    return points // 100 * 100 if points >= 0 else -((-points) // 100 * 100)


def ahead(values: Sequence[int]) -> int | None:
    """The one side with the highest value; None when two share it (or there are none)."""
    if not values:
        return None
    best = max(values)
    leaders = [s for s, v in enumerate(values) if v == best]
    return leaders[0] if len(leaders) == 1 else None


def game_score(spec: GameSpec, points: Sequence[int], brisques: Sequence[int]) -> GameScore:
    """The game of one deal from each side's points (brisques left out) and brisque points."""
    n = len(points)
    brisques_counted = spec.brisques == "always"
    if spec.brisques == "tie_or_save":
        leader = ahead(points)
        tie = leader is None
        save = any(
            points[s] < spec.rubicon_under <= points[s] + brisques[s]
            for s in range(n) if s != leader
        )
        brisques_counted = tie or save
    exact = tuple(p + (brisques[s] if brisques_counted else 0) for s, p in enumerate(points))
    winner = ahead(exact)
    kept, dropped = exact, False
    if spec.drop_fractions:
        rounded = tuple(drop_fraction(x) for x in exact)
        # RULES.md §8, read exactly: kept only when dropping them would turn a won game into
        # a draw; a game drawn before rounding drops them, since they decide nothing.
        # (Dropping toward zero keeps the order, so a rounded leader is the winner.)
        if winner is None or ahead(rounded) is not None:
            kept, dropped = rounded, True
    lines: list[GameLine] = []
    rubicon = False
    if winner is None:
        lines = [GameLine(POINTS, s, kept[s]) for s in range(n)]
        return GameScore(tuple(points), tuple(brisques), brisques_counted, exact, kept,
                         dropped, None, False, kept, tuple(lines), "R-GAME",
                         spec.rubicon_under, spec.brisques != "never")
    losers = [s for s in range(n) if s != winner]
    counts = spec.brisques != "never"  # six-pack: brisques never count, not even here
    rubicon = any(points[s] + (brisques[s] if counts else 0) < spec.rubicon_under
                  for s in losers)
    if rubicon:
        # The brisques are all the winner's (rubicon_brisques), so the sides' own points are
        # taken without them.
        own = tuple(drop_fraction(p) if dropped else p for p in points)
        lines = [GameLine(POINTS, s, own[s]) for s in range(n)]
        if spec.rubicon_adds_loser:
            for s in losers:
                lines.append(GameLine(RUBICON_LOSER, s, -own[s]))
                lines.append(GameLine(RUBICON_LOSER, winner, own[s]))
        else:
            lines += [GameLine(RUBICON_LOSER, s, -own[s]) for s in losers]
        lines.append(GameLine(RUBICON_BONUS, winner, spec.rubicon_bonus))
        if spec.rubicon_brisques:
            lines.append(GameLine(RUBICON_BRISQUES, winner, spec.rubicon_brisques))
    else:
        lines = [GameLine(POINTS, s, kept[s]) for s in range(n)]
        lines.append(GameLine(BONUS, winner, spec.bonus))
    scores = [0] * n
    for line in lines:
        scores[line.side] += line.points
    return GameScore(tuple(points), tuple(brisques), brisques_counted, exact, kept, dropped,
                     winner, rubicon, tuple(scores), tuple(lines),
                     "R-RUBICON" if rubicon else "R-GAME", spec.rubicon_under, counts)


def game_of(spec: GameSpec, deal: DealCore) -> GameScore:
    """A deal's game: its ledger split into brisques and everything else."""
    sides = len(deal.setup.side_names)
    points, brisques = [0] * sides, [0] * sides
    for entry in deal.ledger:
        (brisques if entry.reason == "R-BRISQUE" else points)[entry.side] += entry.points
    return game_score(spec, points, brisques)
