"""The score sheet, as players keep it on paper: one row per deal, totals, the target, the
race to the target, and the winner with the rule that decided it. All numbers are read off
the engine's ``Match.result()``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ui import backend
from ui.i18n import Translator
from ui.state.game_lines import GamesInfo, games_info


@dataclass(frozen=True)
class ScoreRow:
    deal: int  # 1-based
    scores: tuple[int, ...]
    in_play: bool


@dataclass(frozen=True)
class ScoreSheet:
    sides: tuple[str, ...]
    rows: tuple[ScoreRow, ...]
    totals: tuple[int, ...]
    target: int
    finished: bool
    winner: str | None
    decided_by: str | None
    decided_title: str | None
    rejected: tuple[str, ...]
    games: GamesInfo | None = None  # where each deal is a game (ui/state/game_lines.py)

    def race(self) -> list[list[tuple[int, int]]]:
        """Cumulative totals per side after each deal, starting at (0, 0): the chart's lines."""
        lines: list[list[tuple[int, int]]] = []
        for s in range(len(self.sides)):
            acc = 0
            points = [(0, 0)]
            for row in self.rows:
                acc += row.scores[s]
                points.append((row.deal, acc))
            lines.append(points)
        return lines

    def to_go(self) -> list[int]:
        """Points still to go (a match over a number of games has no target, a finished one
        nothing to go for: nothing, never "0 to go")."""
        if self.target <= 0 or self.finished:
            return []
        return [max(0, self.target - t) for t in self.totals]


def score_sheet(match: Any, lang: str = "en") -> ScoreSheet:
    """Build the sheet from the engine's result (no arithmetic beyond reading it)."""
    result = match.result()
    sides = tuple(s.name for s in result.sides)
    n_deals = len(match.deals)
    current = match.current
    rows = tuple(
        ScoreRow(
            deal=d + 1,
            scores=tuple(int(s.deal_scores[d]) for s in result.sides),
            in_play=(d == n_deals - 1 and current is not None and not current.complete),
        )
        for d in range(n_deals)
    )
    decided = getattr(result, "decided_by", None)
    t = Translator(lang)
    rejected = tuple(
        t(
            "sheet.rejected_line",
            deal=r.deal + 1,
            entry=r.event + 1,
            text=_ruling_text(match, r, lang),
            rule=r.rule,
        )
        for r in result.rejected
    )
    return ScoreSheet(
        sides=sides,
        rows=rows,
        totals=tuple(int(s.total) for s in result.sides),
        target=int(getattr(result, "target", 0) or match.target),
        finished=bool(result.finished),
        winner=result.winner,
        decided_by=decided,
        decided_title=backend.rule_title(decided, lang) if decided else None,
        rejected=rejected,
        games=games_info(match, lang),
    )


def _ruling_text(match: Any, rejected: Any, lang: str) -> str:
    """The rejection in the screen's language (the result carries English only)."""
    try:
        _, ruling = match.deals[rejected.deal].log[rejected.event]
    except (IndexError, AttributeError):
        return f"{rejected.rule}: {rejected.message}"
    text = getattr(ruling, "text", None)  # the words without the rule id (shown once)
    return str(text(lang)) if callable(text) else backend.ruling_text(ruling, lang)
