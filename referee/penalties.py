"""Penalties (RULES.md §5): what a penalty does to each side's score, and when it can have
happened.

The amount is computed here once, from the variant's table, the house rules in force and the
deal's points so far, so the deal that applies a penalty and the app that previews it ("−320")
always agree. Nothing here changes a deal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.errors import InconsistentEventError

WIPE = "all"  # the table's amount for "all points" (P-FALSE-DECLARATION)

# Ledger reasons that a false declaration leaves standing: scored at the end of the deal.
NOT_WIPED = ("R-BRISQUE", "R-LAST-TRICK")


@dataclass(frozen=True, slots=True)
class PenaltyEffect:
    """What one penalty does: the change to each side's score in the deal, and the facts
    behind it so a screen can say it in words before it is applied."""

    offence: str
    player: int
    side: int
    changes: tuple[int, ...]  # points added to each side (negative: taken off)
    amount: int  # the penalty's size: the fixed amount, or the points wiped
    wipes: bool  # "all points": the side's points are wiped (P-FALSE-DECLARATION)
    to_opponents: bool  # H-PENALTY-TO-OPPONENT: the opposing sides receive the amount
    rules: tuple[str, ...]  # what set the amount: the offence, then house rules that changed it

    @property
    def offender_change(self) -> int:
        return self.changes[self.side]

    @property
    def key(self) -> str:
        """The rulings message for this effect (data/i18n/rulings.<lang>.toml)."""
        if self.wipes:
            key = "penalty_wiped_match" if "H-FALSE-ALL-MATCH" in self.rules else "penalty_wiped"
            return key + ("_to_opponents" if self.to_opponents else "")
        return "penalty_to_opponents" if self.to_opponents else "penalty"


def penalty_effect(
    *,
    penalties: Mapping[str, int | str],
    house_rules: frozenset[str],
    offence: str,
    player: int,
    side: int,
    sides: int,
    deal_points: int,
    match_total_before: int,
    deal_total: int | None = None,
) -> PenaltyEffect:
    """The effect of ``offence`` by the player in seat ``player`` (on ``side``).

    ``deal_points``: the side's points so far in this deal that a false declaration wipes
    (everything but brisques and the last trick); ``match_total_before`` and ``deal_total``
    (all its points in this deal, by default ``deal_points``): the side's match total at
    this moment, which H-FALSE-ALL-MATCH sets to 0. A balance at or below zero is never
    raised.
    """
    amount_raw = penalties.get(offence)
    if amount_raw is None:
        raise InconsistentEventError(
            f'unknown offence "{offence}"; known: {", ".join(penalties)}'
        )
    to_opponents = "H-PENALTY-TO-OPPONENT" in house_rules
    rules: list[str] = [offence]
    wipes = amount_raw == WIPE
    if wipes:
        if "H-FALSE-ALL-MATCH" in house_rules:
            whole = deal_points if deal_total is None else deal_total
            amount = max(0, match_total_before + whole)
            rules.append("H-FALSE-ALL-MATCH")
        else:
            amount = max(0, deal_points)
    else:
        amount = int(amount_raw)
        if offence == "P-EXTRA-CARD" and "H-EXTRA-CARD-50" in house_rules:
            rules.append("H-EXTRA-CARD-50")
    changes = [0] * sides
    if wipes or not to_opponents:
        changes[side] = -amount  # the offender's points are wiped / the penalty deducted
    if to_opponents:
        rules.append("H-PENALTY-TO-OPPONENT")
        for other in range(sides):
            if other != side:
                changes[other] = amount
    return PenaltyEffect(offence, player, side, tuple(changes), amount, wipes, to_opponents,
                         tuple(rules))


def wipeable(entries: Sequence[tuple[int, int, str]], side: int) -> int:
    """P-FALSE-DECLARATION's "all points": the side's points so far in this deal (``(side,
    points, reason)`` entries), except brisques and the last trick, which still count
    (RULES.md §5), even when the table records the penalty after them."""
    return sum(points for s, points, reason in entries if s == side and reason not in NOT_WIPED)
