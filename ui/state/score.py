"""The score sheet, as players keep it on paper: one row per deal, totals, the target, the
race to the target, and the winner with the rule that decided it. All numbers are read off
the engine's ``Match.result()``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ui import backend
from ui.i18n import Translator
from ui.state.common import signed_text
from ui.state.game_lines import GamesInfo, games_info


@dataclass(frozen=True)
class ScoreRow:
    deal: int  # 1-based
    scores: tuple[int, ...]
    in_play: bool


@dataclass(frozen=True)
class DealEntry:
    """One scoring entry of a deal as paper lists it: a declaration, a seven, a penalty,
    the last trick, the brisques (the engine's ledger, in words)."""

    deal: int  # 1-based
    side: int
    what: str
    points: int


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
    entries: tuple[DealEntry, ...] = ()  # every deal's declarations, penalties, brisques …

    def detail_lines(self, t: Translator) -> list[str]:
        """Deal by deal, each side's entries in one line ("Deal 2 — Anna: Bezique +40,
        Brisques +90; Boris: Revoke −50"), for the CSV's and the PDF's readers."""
        out: list[str] = []
        for row in self.rows:
            sides = []
            for i, name in enumerate(self.sides):
                mine = [e for e in self.entries if e.deal == row.deal and e.side == i]
                if mine:
                    items = ", ".join(f"{e.what} {signed_text(e.points)}" for e in mine)
                    sides.append(f"{name}: {items}")
            if sides:
                out.append(t("paper.deal_entries", n=row.deal, entries="; ".join(sides)))
        return out

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

    def running(self) -> list[tuple[int, ...]]:
        """Each side's total after each deal, as paper keeps it beside the deal's score (the
        last is the totals; the chart's lines are the same sums)."""
        acc = [0] * len(self.sides)
        out: list[tuple[int, ...]] = []
        for row in self.rows:
            acc = [a + v for a, v in zip(acc, row.scores, strict=True)]
            out.append(tuple(acc))
        return out

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
        entries=_entries(match, lang),
    )


def _entries(match: Any, lang: str) -> tuple[DealEntry, ...]:
    from ui.state.deal_summary import reason_words

    return tuple(
        DealEntry(d + 1, int(e.side), reason_words(str(e.reason), lang), int(e.points))
        for d, deal in enumerate(match.deals)
        for e in getattr(deal, "ledger", [])
        if e.points
    )


def _ruling_text(match: Any, rejected: Any, lang: str) -> str:
    """The rejection in the screen's language (the result carries English only)."""
    try:
        _, ruling = match.deals[rejected.deal].log[rejected.event]
    except (IndexError, AttributeError):
        return f"{rejected.rule}: {rejected.message}"
    text = getattr(ruling, "text", None)  # the words without the rule id (shown once)
    return str(text(lang)) if callable(text) else backend.ruling_text(ruling, lang)
