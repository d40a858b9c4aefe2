"""The verdict in words: who won the partie and why ("Boris took the last trick"), and, while a
deal is in play, that the partie ends with this deal because a side has passed the target; or
that equal totals play on.

Every fact and every word of the reason comes from the engine (``Match.verdict()`` and its
``render``); this module only picks the screen's texts around it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ui import backend
from ui.i18n import Translator

GOES_ON = "goes_on"


@dataclass(frozen=True)
class Verdict:
    winner: str | None
    headline: str  # "Anna wins the partie" (empty while nobody has won)
    reason: str  # why, in words (empty while nobody has won)
    rule: str | None  # the one rule that decided (R-TARGET, R-TIE, H-TIE-HIGHER, C-…)
    rule_title: str
    ends_with_deal: str  # "Anna passed the target …: the partie ends with this deal" or ""
    goes_on: str = ""  # equal highest totals past the target: another deal is played


def verdict_of(match: Any, lang: str) -> Verdict:
    t = Translator(lang)
    v = match.verdict()
    text = _sentence(v.render(lang))
    rule = v.rule
    title = backend.rule_title(rule, lang) if rule else ""
    if v.finished and v.winner is not None:
        winner = str(match.side_names[v.winner])
        return Verdict(winner, t(winner_key(match), name=winner), text, rule, title, "")
    return Verdict(
        winner=None,
        headline="",
        reason="",
        rule=rule,
        rule_title=title,
        ends_with_deal=text if v.ends_with_this_deal else "",
        goes_on=text if v.reason == GOES_ON else "",
    )


def winner_key(match: Any) -> str:
    """The headline says what the reason says: a partie played to a target is won ("wins the
    partie"); a match of a number of games (Rubicon, six-, eight-pack) is "wins the match"."""
    return "score.winner_match" if getattr(match, "games", None) and not match.target else (
        "score.winner"
    )


def _sentence(text: str) -> str:
    """The engine's words as a sentence: a capital first, a full stop last."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
