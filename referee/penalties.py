"""Penalties (RULES.md §5): what a penalty does to each side's score, when it can have
happened, and the deal's check of a recorded penalty (``PenaltyRules``).

The amount is computed here once, from the variant's table, the house rules in force and the
deal's points so far, so the deal that applies a penalty and the app that previews it ("−320")
always agree. Nothing here changes a deal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.deal_core import DealCore, _Outcome
from referee.errors import InconsistentEventError
from referee.events import Declare, Penalty
from referee.rulings import accept

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


# ------------------------------------------------------------ when a penalty can have happened
# The moments of RULES.md §5 (the variant files say which offence has which, [penalty_when]):
# "phase1": only while the stock lasts (declaring early, drawing, playing before the draw);
# "phase2": only in the last tricks (a revoke, playing the deal out with nine cards);
# "declared": once the player has declared something in the deal (a false declaration);
# "any": at any moment.
WHEN = ("phase1", "phase2", "declared", "any")

# A penalty this big (or any wipe of points) asks the table to confirm before it is applied.
HEAVY = 100


def can_have_happened(when: str, *, phase: int, declared: bool) -> bool:
    """Whether an offence with this moment (``WHEN``) can have happened by now: ``phase`` is
    the deal's phase (2 once the stock is exhausted or the deal is over), ``declared`` whether
    the player has declared (accepted or not) in this deal."""
    if when == "phase1":
        return phase == 1
    if when == "phase2":
        return phase == 2
    if when == "declared":
        return declared
    return True


@dataclass(frozen=True, slots=True)
class PenaltyOption:
    """A penalty the app may offer for a player now, with what it would do.

    ``proposed_at``: events of the current deal whose ruling proposed it for this player (a
    declaration the referee refused, a revoke the cards prove); those come first. ``heavy``:
    ask the table to confirm (a wipe of points, or ``HEAVY`` or more), and, when it was
    proposed by a refused declaration, offer to correct the cards first.
    """

    offence: str
    effect: PenaltyEffect
    proposed_at: tuple[int, ...] = ()

    @property
    def heavy(self) -> bool:
        return (self.effect.wipes and self.effect.amount > 0) or self.effect.amount >= HEAVY


def deal_phase(deal: DealCore) -> int:
    """The phase for penalties: 2 once the stock is exhausted (or the deal's closing facts,
    which come after it, are recorded), else 1."""
    over = deal.brisques_scored or deal.play_closed or (
        deal.last_trick_scored and not deal.setup.has("H-LAST-TRICK-24")
    )
    return 2 if deal.stock_exhausted or over else 1


def penalty_options(deal: PenaltyRules, player: int) -> list[PenaltyOption]:
    """The penalties that can have happened by now for this player, each with its effect;
    those the referee proposed in this deal first. Changes nothing."""
    phase = deal_phase(deal)
    declared = any(isinstance(e, Declare) and e.player == player for e in deal.events)
    proposed: dict[str, list[int]] = {}
    for index, (event, ruling) in enumerate(deal.log):
        if ruling.proposes and getattr(event, "player", None) == player:
            proposed.setdefault(ruling.proposes, []).append(index)
        for p in ruling.proposals:
            if p.player == player:
                proposed.setdefault(p.penalty, []).append(index)
    when = deal.setup.variant.penalty_when
    out = [
        PenaltyOption(offence, deal.penalty_effect(offence, player),
                      tuple(proposed.get(offence, ())))
        for offence in deal.setup.variant.penalties
        if offence in proposed
        or can_have_happened(when.get(offence, "any"), phase=phase, declared=declared)
    ]
    out.sort(key=lambda o: not o.proposed_at)
    return out


class PenaltyRules(DealCore):
    """A penalty the table records: applied as recorded, in either phase (RULES.md §5)."""

    def penalty_effect(self, offence: str, player: int) -> PenaltyEffect:
        """What a penalty would do now (RULES.md §5), without applying it."""
        s = self.setup
        side = s.side_of[player]
        return penalty_effect(
            penalties=s.variant.penalties,
            house_rules=s.house_rules,
            offence=offence,
            player=player,
            side=side,
            sides=len(s.side_names),
            deal_points=self._wipeable(side),
            match_total_before=self._match_total_before(side),
            deal_total=self.scores()[side],
        )

    def _check_penalty(self, ev: Penalty) -> _Outcome:
        effect = self.penalty_effect(ev.offence, ev.player)

        def commit() -> None:
            for side, change in enumerate(effect.changes):
                if change or (side == effect.side and not effect.to_opponents):
                    self._score(side, change, ev.offence)

        return _Outcome(
            accept(ev.offence, effect.key,
                   {"player": self.name(ev.player), "points": effect.amount,
                    "offence": ev.offence},
                   points=effect.offender_change if not effect.to_opponents or effect.wipes
                   else effect.amount),
            commit,
        )

    def _wipeable(self, side: int) -> int:
        """P-FALSE-DECLARATION's "all points" (referee.penalties.wipeable)."""
        return wipeable([(e.side, e.points, e.reason) for e in self.ledger], side)
