"""What the deal's summary says per side, where each deal is a game (Rubicon, six- and
eight-pack) as well as in the classic variants: the deal's points as they count, where they
came from, and — so a player adding by hand sees why — the fractions of 100 the game drops
("290 → 200") and the brisques that do not count. Every number is the engine's
(``Match.game``, ``GameScore.counted``, the deal's ledger); this only sorts them (QA P13)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SummarySide:
    points: int  # this deal's points as they count (before fractions are dropped)
    parts: tuple[tuple[str, int], ...]  # (reason, points): a meld, rule or penalty id
    dropped: tuple[int, int] | None  # (before, after) when the game drops fractions of 100
    uncounted_brisques: int  # brisque points recorded that do not count (0: none)
    rule: str  # the rule that set the game's score (R-GAME, R-RUBICON), "" without a game


def _parts(deal: Any, side: int, brisques: bool) -> tuple[tuple[str, int], ...]:
    totals: dict[str, int] = {}
    for entry in getattr(deal, "ledger", []):
        reason = str(entry.reason)
        if entry.side != side or not entry.points or (reason == "R-BRISQUE" and not brisques):
            continue
        totals[reason] = totals.get(reason, 0) + int(entry.points)
    return tuple(totals.items())


def summary_sides(match: Any, index: int) -> list[SummarySide]:
    """One entry per side for deal ``index`` (0-based)."""
    deal = match.deals[index]
    game = match.game(index) if getattr(match.variant, "game", None) is not None else None
    sides = range(len(match.side_names))
    if game is None:
        scores = list(deal.scores())
        return [SummarySide(int(scores[s]), _parts(deal, s, True), None, 0, "") for s in sides]
    counted = bool(game.brisques_in_points)
    out: list[SummarySide] = []
    for s in sides:
        before, after = game.counted(s)
        out.append(
            SummarySide(
                int(before),
                _parts(deal, s, counted),
                (int(before), int(after)) if before != after else None,
                0 if counted else int(game.brisques[s]),
                "R-GAME",
            )
        )
    return out


def reason_words(reason: str, lang: str) -> str:
    """A ledger entry's reason in words: a rule or penalty by its title ("Last trick"), a
    combination by its name ("Trump marriage")."""
    from ui import backend

    if reason[:2] in ("R-", "P-", "H-", "C-", "V-", "J-"):
        return backend.rule_title(reason, lang)
    name = backend.meld_name(reason, lang)
    return name[:1].upper() + name[1:]
