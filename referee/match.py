"""A partie: its deals in order, the score, and who won (RULES.md §6).

The match holds every event with its ruling; the score is always the replay of that log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.cards import Card, cards_text
from referee.combinations import contains
from referee.deal import TRACKING_LEVELS, DealState, Setup, Tracking
from referee.errors import BeziqueError, InconsistentEventError, UnknownVariantError
from referee.events import Declare, Event
from referee.rulings import Proposal, Ruling
from referee.variants import Variant, load_variant


@dataclass(frozen=True, slots=True)
class SideResult:
    name: str
    players: tuple[str, ...]
    deal_scores: tuple[int, ...]
    total: int


@dataclass(frozen=True, slots=True)
class RejectedEvent:
    deal: int
    event: int
    rule: str
    message: str
    proposes: str | None = None


@dataclass(frozen=True, slots=True)
class ProposedPenalty:
    deal: int
    event: int
    player: str
    penalty: str
    rule: str
    message: str


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The spec's replay result (``bezique replay --json``)."""

    sides: tuple[SideResult, ...]
    rejected: tuple[RejectedEvent, ...]
    proposals: tuple[ProposedPenalty, ...]
    finished: bool
    winner: str | None
    decided_by: str | None = None  # the rule that named the winner (R-TARGET, R-TIE, ...)
    target: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "sides": [
                {"name": s.name, "players": list(s.players),
                 "deal_scores": list(s.deal_scores), "total": s.total}
                for s in self.sides
            ],
            "rejected": [
                {"deal": r.deal, "event": r.event, "rule": r.rule, "message": r.message}
                | ({"proposes": r.proposes} if r.proposes else {})
                for r in self.rejected
            ],
            "proposed_penalties": [
                {"deal": p.deal, "event": p.event, "player": p.player, "penalty": p.penalty,
                 "rule": p.rule, "message": p.message}
                for p in self.proposals
            ],
            "finished": self.finished,
            "winner": self.winner,
            "decided_by": self.decided_by,
            "target": self.target,
        }


@dataclass(frozen=True, slots=True)
class Option:
    """What a set of cards could be declared as right now (for the app's picker)."""

    meld: str
    points: int
    ruling: Ruling


@dataclass(slots=True)
class _Partie:
    finished: bool = False
    winner: int | None = None
    decided_by: str | None = None
    after_deal: int | None = None
    totals_after: list[list[int]] = field(default_factory=list)


class Match:
    """A partie being refereed; build it with :meth:`new` or :meth:`from_record`."""

    def __init__(self, setup: Setup, target: int) -> None:
        self.setup = setup
        self.target = target
        self.deals: list[DealState] = []

    # --------------------------------------------------------------------------- creation
    @classmethod
    def new(
        cls,
        variant: str,
        players: Sequence[str],
        tracking: str = "melds",
        house_rules: Iterable[str] = (),
        target: int | None = None,
    ) -> Match:
        """A new partie; raises a BeziqueError naming the bad setting."""
        rules = frozenset(house_rules)
        v = load_variant(variant, rules)
        names = tuple(players)
        if len(names) not in v.player_counts:
            counts = " or ".join(str(n) for n in v.player_counts)
            raise BeziqueError(f"{variant} is played by {counts} players, not {len(names)}")
        if len(set(names)) != len(names) or any(not n.strip() for n in names):
            raise BeziqueError("player names must be unique and not empty")
        if tracking not in TRACKING_LEVELS:
            raise BeziqueError(
                f'unknown tracking "{tracking}"; use one of {", ".join(TRACKING_LEVELS)}'
            )
        if tracking not in v.tracking_levels:
            raise BeziqueError(
                f'{variant} is tracked with {" or ".join(v.tracking_levels)}, not "{tracking}"'
            )
        n = len(names)
        if v.partnerships(n):
            side_of = tuple(seat % 2 for seat in range(n))
            side_names = tuple(
                " & ".join(names[s] for s in range(n) if s % 2 == side) for side in (0, 1)
            )
        else:
            side_of = tuple(range(n))
            side_names = names
        goal = v.target(n) if target is None else target
        if isinstance(goal, bool) or not isinstance(goal, int) or goal <= 0:
            raise BeziqueError(f"target must be a whole number above 0, not {goal!r}")
        level = next(t for t in TRACKING_LEVELS if t == tracking)
        setup = Setup(v, names, level, rules, side_of, side_names)
        return cls(setup, goal)

    @property
    def variant(self) -> Variant:
        return self.setup.variant

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def tracking(self) -> Tracking:
        return self.setup.tracking

    @property
    def house_rules(self) -> frozenset[str]:
        return self.setup.house_rules

    @property
    def side_names(self) -> tuple[str, ...]:
        return self.setup.side_names

    def seat(self, name: str) -> int:
        try:
            return self.setup.players.index(name)
        except ValueError:
            raise BeziqueError(
                f'unknown player "{name}"; players: {", ".join(self.setup.players)}'
            ) from None

    # --------------------------------------------------------------------------- deals
    @property
    def current(self) -> DealState | None:
        return self.deals[-1] if self.deals else None

    def verify_start_deal(self, dealer: int, turn_up: Card | None) -> None:
        """Raise a BeziqueError if a deal cannot start so."""
        if not 0 <= dealer < len(self.players):
            raise BeziqueError(f"no player in seat {dealer}")
        if self.variant.turn_up and turn_up is None:
            raise BeziqueError(f"{self.variant.id} turns up a card for trumps: turn_up is needed")
        if turn_up is not None and turn_up.is_joker:
            raise BeziqueError("a joker cannot be turned up for trumps: turn the next card")
        if turn_up is not None and not self.variant.copies(turn_up, len(self.players)):
            raise BeziqueError(f"{turn_up} is not in the {self.variant.id} pack")
        if not self.variant.turn_up and turn_up is not None:
            raise BeziqueError(
                f"{self.variant.id} has no turn-up: trumps are fixed by the first marriage"
            )
        partie = self._partie()
        if partie.finished:
            assert partie.winner is not None and partie.after_deal is not None
            raise BeziqueError(
                f"the partie was won by {self.side_names[partie.winner]} at the end of deal "
                f"{partie.after_deal + 1} (R-CLAIM-AT-END); no further deal is played"
            )

    def start_deal(self, dealer: int, turn_up: Card | None) -> DealState:
        self.verify_start_deal(dealer, turn_up)
        deal_class = DealState
        if self.variant.engine == "showings":
            from referee.showings import ShowingsDeal

            deal_class = ShowingsDeal
        deal = deal_class(self.setup, len(self.deals), dealer, turn_up)
        deal.match_totals_before = self.totals()
        self.deals.append(deal)
        return deal

    def _deal(self) -> DealState:
        if not self.deals:
            raise BeziqueError("no deal has started: start a deal first")
        return self.deals[-1]

    def verify(self, event: Event) -> Ruling:
        """The ruling an event would get, without recording it."""
        return self._deal().verify(event)

    def can(self, event: Event) -> bool:
        try:
            return self.verify(event).accepted
        except BeziqueError:
            return False

    def apply(self, event: Event) -> Ruling:
        """Record an event (accepted or rejected) in the current deal and return the ruling.

        Raises InconsistentEventError (recording nothing) when the event contradicts the facts.
        """
        return self._deal().apply(event)

    def options(
        self, player: int, new: Sequence[Card], table: Sequence[Card] = ()
    ) -> list[Option]:
        """Each combination these cards could be declared as now, with its points and ruling,
        best first. Lets the app offer choices instead of only saying no."""
        deal = self._deal()
        combined = Counter(new) + Counter(table)
        melds = sorted(deal.candidate_melds(combined), key=lambda m: -deal.points_of(m))
        out: list[Option] = []
        if not new:
            for p in deal.pending_of(player):
                if Counter(p.cards) == Counter(table):
                    ruling = deal.verify(Declare(player, (), tuple(table), p.meld))
                    out.append(Option(p.meld, ruling.points or deal.points_of(p.meld), ruling))
            return out
        for meld in melds:
            try:
                ruling = deal.verify(Declare(player, tuple(new), tuple(table), meld))
            except BeziqueError:
                continue
            out.append(Option(meld, ruling.points or deal.points_of(meld), ruling))
        out.sort(key=lambda o: (not o.ruling.accepted, -o.points))
        return out

    def table_cards_for(self, player: int, cards: Sequence[Card]) -> tuple[Card, ...]:
        """Which of these cards lie on the player's table (for a picker that lets users tap
        both): the split the record wants into ``new`` and ``table`` is done by the caller."""
        on_table = Counter(self._deal().table(player))
        return tuple(c for c in cards if contains(on_table, Counter([c])))

    # --------------------------------------------------------------------------- results
    # Deals before the current one never change (events go to the newest deal), so the
    # partie's state after them is kept: starting each deal does not re-add the whole match.
    _closed: tuple[int, tuple[int, ...]] | None = None  # (deals closed with no winner, totals)

    def _closed_prefix(self) -> tuple[int, list[int]]:
        if self._closed is not None and self._closed[0] < len(self.deals):
            return self._closed[0], list(self._closed[1])
        return 0, [0] * len(self.side_names)

    def totals(self) -> list[int]:
        start, totals = self._closed_prefix()
        for deal in self.deals[start:]:
            for side, points in enumerate(deal.scores()):
                totals[side] += points
        return totals

    def _partie(self) -> _Partie:
        """R-TARGET, R-CLAIM-AT-END, R-TIE, H-TIE-HIGHER and partie-winning combinations."""
        state = _Partie()
        start, totals = self._closed_prefix()
        tie_higher = "H-TIE-HIGHER" in self.house_rules
        for index in range(start, len(self.deals)):
            deal = self.deals[index]
            if index > start:  # the deals before this one are closed and named no winner
                self._closed = (index, tuple(totals))
            for side, points in enumerate(deal.scores()):
                totals[side] += points
            ended = index < len(self.deals) - 1 or deal.complete
            if not ended:
                break
            if deal.partie_won_by_meld is not None:
                state.finished, state.winner = True, deal.partie_won_by_meld
                state.decided_by, state.after_deal = "R-TARGET", index
                break
            reached = [s for s, t in enumerate(totals) if t >= self.target]
            if not reached:
                continue
            last = deal.last_trick_winner
            last_side = self.setup.side_of[last] if last is not None else None
            winner: int | None = None
            rule = "R-TARGET"
            if len(reached) == 1:
                winner = reached[0]
            else:
                best = max(totals[s] for s in reached)
                leaders = [s for s in reached if totals[s] == best]
                if tie_higher:
                    # The higher total; equal highest totals: the last trick among them.
                    if len(leaders) == 1:
                        winner, rule = leaders[0], "H-TIE-HIGHER"
                    elif last_side in leaders:
                        winner, rule = last_side, "R-TIE"
                elif last_side in reached:
                    winner, rule = last_side, "R-TIE"
                elif len(leaders) == 1:
                    winner, rule = leaders[0], "R-TIE"
            if winner is not None:
                state.finished, state.winner, state.decided_by = True, winner, rule
                state.after_deal = index
                break
        return state

    def result(self) -> MatchResult:
        sides = []
        per_deal = [deal.scores() for deal in self.deals]
        for side, name in enumerate(self.side_names):
            seats = tuple(
                self.players[p] for p in range(len(self.players)) if self.setup.side_of[p] == side
            )
            scores = tuple(d[side] for d in per_deal)
            sides.append(SideResult(name, seats, scores, sum(scores)))
        rejected: list[RejectedEvent] = []
        proposals: list[ProposedPenalty] = []
        for d, deal in enumerate(self.deals):
            for e, (_, ruling) in enumerate(deal.log):
                if not ruling.accepted:
                    rejected.append(RejectedEvent(d, e, ruling.rule, ruling.message,
                                                  ruling.proposes))
                for p in ruling.proposals:
                    proposals.append(_proposed(d, e, p, self.players))
        partie = self._partie()
        return MatchResult(
            tuple(sides),
            tuple(rejected),
            tuple(proposals),
            partie.finished,
            self.side_names[partie.winner] if partie.winner is not None else None,
            partie.decided_by,
            self.target,
        )

    # --------------------------------------------------------------------------- records
    @classmethod
    def from_record(cls, record: Any) -> Match:
        """Replay a :class:`referee.record.MatchRecord`; raises RecordError naming the place."""
        from referee.record import replay_record

        return replay_record(record)

    def to_record(self) -> Any:
        from referee.record import record_of

        return record_of(self)


def _proposed(deal: int, event: int, p: Proposal, players: Sequence[str]) -> ProposedPenalty:
    return ProposedPenalty(deal, event, players[p.player], p.penalty, p.rule, p.message)


def describe_cards(cards: Sequence[Card]) -> str:
    return cards_text(cards)


__all__ = [
    "InconsistentEventError",
    "Match",
    "MatchResult",
    "Option",
    "UnknownVariantError",
]
