"""The partie's verdict (RULES.md §6): who won, which rule decided and the facts behind it,
as data a screen says in words ("Anna took the last trick"), in either language.

A verdict is also given while nothing is decided: a side that passes the target mid-deal (or
scores a partie-winning combination) means the partie ends with this deal (R-CLAIM-AT-END);
equal highest totals mean it goes on with another deal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from referee.rulings import WHERE_ITEM, Params, render

# Why the partie stands as it does: the last part of the message key ``verdict_<reason>``.
REACHED = "reached"  # one side reached the target (R-TARGET)
LAST_TRICK = "last_trick"  # several reached; the last trick's winner is among them (R-TIE)
HIGHER_TOTAL = "higher_total"  # several reached; the highest total among them (R-TIE)
HIGHER_FIRST = "higher_first"  # several reached; H-TIE-HIGHER: the higher total first
MELD = "meld"  # a partie-winning combination (triple bezique) at the end of its deal
GOES_ON = "goes_on"  # several reached with equal highest totals: another deal (R-TIE)
ENDS_WITH_THIS_DEAL = "ends_with_this_deal"  # passed mid-deal: decided at its end
MELD_THIS_DEAL = "meld_this_deal"  # a partie-winning combination scored in this deal
IN_PROGRESS = "in_progress"  # nobody has reached the target
GAMES = "games"  # the agreed games are played: the higher total wins (R-GAME)
GAMES_TIED = "games_tied"  # ... with equal totals: another game
LAST_GAME = "last_game"  # this deal is the match's last game
GAMES_LEFT = "games_left"  # games still to play
REASONS = (REACHED, LAST_TRICK, HIGHER_TOTAL, HIGHER_FIRST, MELD, GOES_ON,
           ENDS_WITH_THIS_DEAL, MELD_THIS_DEAL, IN_PROGRESS, GAMES, GAMES_TIED, LAST_GAME,
           GAMES_LEFT)


@dataclass(frozen=True, slots=True)
class Verdict:
    """Where the partie stands and why.

    ``rule`` is the one rule that decided (R-TARGET, R-TIE, H-TIE-HIGHER, the combination's
    entry such as C-TRIPLE-BEZIQUE, R-CLAIM-AT-END while a deal is still being played);
    ``deal`` the deal it concerns (0-based); ``reached`` the sides at or over the target;
    ``last_trick`` the seat that took the deal's last trick (None when not known).
    """

    finished: bool
    reason: str
    rule: str | None
    winner: int | None = None
    deal: int | None = None
    totals: tuple[int, ...] = ()
    reached: tuple[int, ...] = ()
    last_trick: int | None = None
    meld: str | None = None
    target: int = 0
    params: Params = field(default_factory=lambda: MappingProxyType({}))

    @property
    def key(self) -> str:
        return f"verdict_{self.reason}"

    @property
    def ends_with_this_deal(self) -> bool:
        """True while the current deal is being played and its end decides the partie
        (a side passed the target, or scored a partie-winning combination)."""
        return self.reason in (ENDS_WITH_THIS_DEAL, MELD_THIS_DEAL, LAST_GAME)

    def render(self, lang: str = "en") -> str:
        """The verdict in plain words, without the rule id (shown beside it by the caller)."""
        return render(self.key, self.params, lang)


def _params(
    *, side_names: Sequence[str], players: Sequence[str], totals: Sequence[int], target: int,
    winner: int | None, reached: Sequence[int], last_trick: int | None, meld: str | None,
) -> Params:
    p: dict[str, str | int] = {"target": target}
    if winner is not None:
        p["winner"] = side_names[winner]
        p["total"] = totals[winner]
    if reached:
        p["sides"] = WHERE_ITEM.join(side_names[s] for s in reached)
        p["best"] = max(totals[s] for s in reached)
    if last_trick is not None:
        p["player"] = players[last_trick]
    if meld is not None:
        p["meld"] = meld
    return MappingProxyType(p)


def meld_rule(meld: str) -> str:
    """The reference id of a combination: ``triple_bezique`` → C-TRIPLE-BEZIQUE."""
    return "C-" + meld.upper().replace("_", "-")


def variant_rule(variant: str) -> str:
    """The reference id of a variant: ``rubicon`` → V-RUBICON (``joker-multipack`` is
    V-MULTI-PACK)."""
    return {"joker-multipack": "V-MULTI-PACK"}.get(variant, "V-" + variant.upper())


def settle(
    *,
    deal: int,
    totals: Sequence[int],
    target: int,
    side_of: Sequence[int],
    side_names: Sequence[str],
    players: Sequence[str],
    last_trick: int | None,
    tie_higher: bool,
    meld_side: int | None = None,
    meld: str | None = None,
) -> Verdict | None:
    """The verdict at the end of a deal (R-TARGET, R-TIE, H-TIE-HIGHER, a partie-winning
    combination); None when no side has reached the target."""

    def verdict(finished: bool, reason: str, rule: str, winner: int | None,
                reached: Sequence[int]) -> Verdict:
        shown_meld = meld if reason == MELD else None
        return Verdict(
            finished, reason, rule, winner, deal, tuple(totals), tuple(reached), last_trick,
            shown_meld, target,
            _params(side_names=side_names, players=players, totals=totals, target=target,
                    winner=winner, reached=reached, last_trick=last_trick, meld=shown_meld),
        )

    if meld_side is not None and meld is not None:
        return verdict(True, MELD, meld_rule(meld), meld_side, [meld_side])
    reached = [s for s, t in enumerate(totals) if t >= target]
    if not reached:
        return None
    if len(reached) == 1:
        return verdict(True, REACHED, "R-TARGET", reached[0], reached)
    last_side = side_of[last_trick] if last_trick is not None else None
    best = max(totals[s] for s in reached)
    leaders = [s for s in reached if totals[s] == best]
    if tie_higher:
        # The higher total first; equal highest totals: the last trick among them.
        if len(leaders) == 1:
            return verdict(True, HIGHER_FIRST, "H-TIE-HIGHER", leaders[0], reached)
        if last_side in leaders:
            return verdict(True, LAST_TRICK, "R-TIE", last_side, reached)
        return verdict(False, GOES_ON, "R-TIE", None, reached)
    if last_side in reached:
        return verdict(True, LAST_TRICK, "R-TIE", last_side, reached)
    if len(leaders) == 1:
        return verdict(True, HIGHER_TOTAL, "R-TIE", leaders[0], reached)
    return verdict(False, GOES_ON, "R-TIE", None, reached)


def unsettled(
    *,
    deal: int | None,
    totals: Sequence[int],
    target: int,
    side_names: Sequence[str],
    players: Sequence[str],
    meld_side: int | None = None,
    meld: str | None = None,
    deal_open: bool,
) -> Verdict:
    """The verdict while nothing is decided: ``deal_open`` says the deal ``deal`` is still
    being played; if a side has passed the target in it (or scored a partie-winning
    combination), the partie ends with this deal (R-CLAIM-AT-END)."""
    reached = [s for s, t in enumerate(totals) if t >= target]
    reason, rule, shown = IN_PROGRESS, None, None
    if deal_open and meld_side is not None and meld is not None:
        reason, rule, reached, shown = MELD_THIS_DEAL, "R-CLAIM-AT-END", [meld_side], meld
    elif deal_open and reached:
        reason, rule = ENDS_WITH_THIS_DEAL, "R-CLAIM-AT-END"
    else:
        reached = []
    return Verdict(
        False, reason, rule, None, deal, tuple(totals), tuple(reached), None, shown, target,
        _params(side_names=side_names, players=players, totals=totals, target=target,
                winner=None, reached=reached, last_trick=None, meld=shown),
    )


def after_games(
    *,
    deal: int,
    totals: Sequence[int],
    games: int,
    ended: bool,
    side_names: Sequence[str],
    players: Sequence[str],
) -> Verdict:
    """A match over a number of games (each deal a game, RULES.md §8): after the last game
    the higher total wins (R-GAME); equal totals play another game."""
    played = deal + 1 if ended else deal
    p: dict[str, str | int] = {"games": games, "played": played, "game": deal + 1}
    best = max(totals)
    leaders = [s for s, t in enumerate(totals) if t == best]
    if ended and played >= games:
        if len(leaders) == 1:
            others = sorted((t for s, t in enumerate(totals) if s != leaders[0]), reverse=True)
            p |= {"winner": side_names[leaders[0]], "total": best,
                  "others": ", ".join(str(t) for t in others)}  # "3320 to 2100": both totals
            return Verdict(True, GAMES, "R-GAME", leaders[0], deal, tuple(totals),
                           params=MappingProxyType(p))
        p |= {"sides": WHERE_ITEM.join(side_names[s] for s in leaders), "best": best}
        return Verdict(False, GAMES_TIED, "R-GAME", None, deal, tuple(totals),
                       tuple(leaders), params=MappingProxyType(p))
    reason = LAST_GAME if not ended and deal + 1 >= games else GAMES_LEFT
    return Verdict(False, reason, "R-GAME" if reason == LAST_GAME else None, None, deal,
                   tuple(totals), params=MappingProxyType(p))


def as_mapping(v: Verdict, lang: str = "en") -> Mapping[str, object]:
    """The verdict for ``bezique replay --json``."""
    return {
        "reason": v.reason, "rule": v.rule, "deal": v.deal,
        "reached": [str(n) for n in str(v.params.get("sides", "")).split(WHERE_ITEM) if n],
        "message": v.render(lang),
    }
