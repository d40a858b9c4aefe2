"""The score sheet's game lines where each deal is a game (Rubicon, six-pack, eight-pack):
under each deal, its points as they count, the game bonus, and the rubicon (bonus, the
loser's points moved, the brisques) each on a line of its own, like the paper sheet; and how
the match stands (over N games, or to a target). Every number is the engine's
(``Match.game``, ``GameScore.lines``); this only lays them out and names them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.verdict import GOES_ON
from ui.i18n import Translator
from ui.state.common import points_text, signed_text

STANDING = ("games_left", "games_tied", GOES_ON)


@dataclass(frozen=True)
class GameLineView:
    """One line under a deal: ``kind`` (points, bonus, rubicon_bonus, rubicon_loser,
    rubicon_brisques) and the text for each side's column ("" where it has nothing)."""

    kind: str
    cells: tuple[str, ...]
    # each cell as (label, number) for the phone sheet: the label may wrap on its own line,
    # the number never (QA P12: "очки проигравшего −200" wrapped and lost its number)
    parts: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class GamesInfo:
    games: int | None  # games agreed; None: a points target
    played: int  # games scored so far
    standing: str  # the engine's words while the match goes on ("Games played: 1 of 2")
    by_deal: dict[int, tuple[GameLineView, ...]]  # 1-based deal → its lines
    outcomes: dict[int, str]  # 1-based deal → the game in words

    def heading(self, t: Translator, target: int) -> str:
        if self.games is None:
            return t("score.target", target=target)
        return t("rubicon.sheet.over_games", n=self.games, played=self.played)


def games_info(match: Any, lang: str) -> GamesInfo | None:
    """None where deals are not games (the sheet then shows the target as before)."""
    if getattr(match.variant, "game", None) is None:
        return None
    t = Translator(lang)
    n_sides = len(match.side_names)
    by_deal: dict[int, tuple[GameLineView, ...]] = {}
    outcomes: dict[int, str] = {}
    played = 0
    for d in range(len(match.deals)):
        game = match.game(d)
        if game is None:
            continue
        played += 1
        kinds: list[str] = []
        cells: dict[str, list[str]] = {}
        parts: dict[str, list[tuple[str, str]]] = {}
        for line in game.lines:
            if line.kind != "points" and not line.points:
                continue  # nothing moved (a rubiconed loser with 0 points): no line
            if line.kind not in cells:
                kinds.append(line.kind)
                cells[line.kind] = [""] * n_sides
                parts[line.kind] = [("", "")] * n_sides
            cells[line.kind][line.side] = _cell(t, line.kind, int(line.points))
            number = _number(line.kind, int(line.points))
            if line.kind == "points":
                before, after = game.counted(line.side)
                if before != after:  # the fractions of 100 the game drops, said (QA P13)
                    number = f"{points_text(before)} → {points_text(after)}"
            parts[line.kind][line.side] = (t(f"game_line.{line.kind}"), number)
        by_deal[d + 1] = tuple(
            GameLineView(k, tuple(cells[k]), tuple(parts[k])) for k in kinds
        )
        outcomes[d + 1] = str(game.render(list(match.side_names), lang))
    v = match.verdict()
    standing = "" if v.finished or v.reason not in STANDING else _sentence(v.render(lang))
    games = getattr(match, "games", None)
    return GamesInfo(games if not match.target else None, played, standing, by_deal, outcomes)


def _cell(t: Translator, kind: str, points: int) -> str:
    if kind == "points":  # the deal's points as they count: no sign
        return t("rubicon.sheet.points", points=points)
    return t(f"rubicon.sheet.{kind}", points=signed_text(points))


def _number(kind: str, points: int) -> str:
    return points_text(points) if kind == "points" else signed_text(points)


def _sentence(text: str) -> str:
    text = text.strip()
    return (text[:1].upper() + text[1:]).rstrip(".") + "." if text else text
