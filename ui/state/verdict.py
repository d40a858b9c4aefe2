"""The verdict in words: who won the partie and why ("Anna took the last trick"), and, while a
deal is in play, that the partie ends with this deal because a side has reached the target.

Every fact comes from the engine (``referee.verdict``); this module only puts it in the
screen's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.verdict import explain
from ui import backend
from ui.i18n import Translator


@dataclass(frozen=True)
class Verdict:
    winner: str | None
    headline: str  # "Anna wins the match" (empty while nobody has won)
    reason: str  # why, in words (empty while nobody has won)
    rule: str | None  # the rule that decided (R-TARGET, R-TIE, H-TIE-HIGHER)
    rule_title: str
    ends_with_deal: str  # "Anna has reached 1000: the partie ends with this deal" or ""
    goes_on: str = ""  # equal highest totals past the target: another deal is played


def verdict_of(match: Any, lang: str) -> Verdict:
    t = Translator(lang)
    facts = explain(match)
    headline = reason = ""
    if facts.winner is not None:
        headline = t("score.winner", name=facts.winner)
        reason = t(f"sheet.reason.{facts.reason}", **_args(facts))
    ends = ""
    if facts.reached_in_play:
        ends = t(
            "sheet.ends_with_deal",
            names=", ".join(facts.reached_in_play),
            target=facts.target,
        )
    goes_on = ""
    if facts.goes_on:
        goes_on = t("sheet.goes_on", names=", ".join(facts.goes_on), target=facts.target)
    rule = facts.rule
    return Verdict(
        winner=facts.winner,
        headline=headline,
        reason=reason,
        rule=rule,
        rule_title=backend.rule_title(rule, lang) if rule else "",
        ends_with_deal=ends,
        goes_on=goes_on,
    )


def _args(facts: Any) -> dict[str, object]:
    return {
        "name": facts.winner or "",
        "last": facts.last_trick or "",
        "total": facts.winner_total,
        "target": facts.target,
        "others": ", ".join(facts.also_reached),
    }
