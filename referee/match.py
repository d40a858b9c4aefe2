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
from referee.games import GameScore, game_of
from referee.penalties import PenaltyEffect, PenaltyOption, penalty_options
from referee.rulings import Proposal, Ruling
from referee.variants import Variant, load_variant
from referee.verdict import Verdict, after_games, as_mapping, settle, unsettled


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
    verdict: Verdict | None = None  # why: the rule that decided and its facts
    games: tuple[GameScore | None, ...] = ()  # each deal as a game (Rubicon …), if ended
    games_in_match: int | None = None

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
        } | ({"verdict": as_mapping(self.verdict)} if self.verdict is not None else {}) | (
            {"games": [_game_json(g, [s.name for s in self.sides]) for g in self.games],
             "games_in_match": self.games_in_match}
            if self.games else {}
        )


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
    verdict: Verdict | None = None


class Match:
    """A partie being refereed; build it with :meth:`new` or :meth:`from_record`."""

    def __init__(self, setup: Setup, target: int, games: int | None = None) -> None:
        self.setup = setup
        self.target = target  # 0: none (a match over a number of games)
        self.games = games  # games in the match (variants where each deal is a game)
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
        games: int | None = None,
    ) -> Match:
        """A new partie; raises a BeziqueError naming the bad setting. ``games``: the number
        of games of the match where each deal is a game (Rubicon); by default the variant's,
        unless a points ``target`` is given."""
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
        if v.game is None and games is not None:
            raise BeziqueError(f"{variant} is not played in games: give a target instead")
        if v.game is not None and target is None and games is None:
            games = v.games
        if v.game is not None and target is None:
            goal = 0
        elif isinstance(goal, bool) or not isinstance(goal, int) or goal <= 0:
            raise BeziqueError(f"target must be a whole number above 0, not {goal!r}")
        if games is not None and (isinstance(games, bool) or not isinstance(games, int)
                                  or games <= 0):
            raise BeziqueError(f"games must be a whole number above 0, not {games!r}")
        level = next(t for t in TRACKING_LEVELS if t == tracking)
        setup = Setup(v, names, level, rules, side_of, side_names)
        return cls(setup, goal, games)

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
            if out:
                return out
            # Table cards alone that were never pending together (K♠ of four kings, Q♠ of a
            # bezique): still a marriage, refused with its rule (R-NEW-CARD), so the player
            # reads why instead of "no combination".
        for meld in melds:
            try:
                ruling = deal.verify(Declare(player, tuple(new), tuple(table), meld))
            except BeziqueError:
                continue
            out.append(Option(meld, ruling.points or deal.points_of(meld), ruling))
        out.sort(key=lambda o: (not o.ruling.accepted, -o.points))
        return out

    def penalty_preview(self, player: int, offence: str) -> PenaltyEffect:
        """What recording ``offence`` for the player in seat ``player`` would do now, before
        it is applied (verify/can/act: changes nothing): the points each side gains or
        loses (``changes``), the amount, whether it wipes points. The app shows it ("−320")
        and the engine applies exactly this when the penalty is recorded. Raises a
        BeziqueError for an unknown seat or offence."""
        deal = self._deal()
        if not 0 <= player < len(self.players):
            raise BeziqueError(f"no player in seat {player}")
        return deal.penalty_effect(offence, player)

    def penalty_options(self, player: int) -> list[PenaltyOption]:
        """The penalties that can have happened by now for this player (RULES.md §5: a
        revoke only in the last tricks, declaring early only while the stock lasts, a false
        declaration once the player declared), each with its preview, the ones the referee
        proposed in this deal first; ``heavy`` ones should be confirmed. Only what the app
        offers: a penalty a record states is accepted whenever it is recorded. Changes
        nothing."""
        if not 0 <= player < len(self.players):
            raise BeziqueError(f"no player in seat {player}")
        return penalty_options(self._deal(), player)

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

    def game(self, index: int) -> GameScore | None:
        """Deal ``index`` scored as a game (variants where each deal is a game, RULES.md §8)
        once it has ended; None otherwise."""
        spec = self.variant.game
        deal = self.deals[index]
        if spec is None or not (index < len(self.deals) - 1 or deal.complete):
            return None
        return game_of(spec, deal)

    def deal_points(self, index: int) -> list[int]:
        """What deal ``index`` adds to each side's total: its points, or, where each deal
        is a game, the game's score once the deal has ended (its live points until then)."""
        game = self.game(index)
        return list(game.scores) if game is not None else self.deals[index].scores()

    def totals(self) -> list[int]:
        start, totals = self._closed_prefix()
        for index in range(start, len(self.deals)):
            for side, points in enumerate(self.deal_points(index)):
                totals[side] += points
        return totals

    def _partie(self) -> _Partie:
        """R-TARGET, R-CLAIM-AT-END, R-TIE, H-TIE-HIGHER and partie-winning combinations."""
        state = _Partie()
        start, totals = self._closed_prefix()
        tie_higher = "H-TIE-HIGHER" in self.house_rules
        s = self.setup
        for index in range(start, len(self.deals)):
            deal = self.deals[index]
            if index > start:  # the deals before this one are closed and named no winner
                self._closed = (index, tuple(totals))
            for side, points in enumerate(self.deal_points(index)):
                totals[side] += points
            ended = index < len(self.deals) - 1 or deal.complete
            if self.variant.game is not None and self.games is not None:
                state.verdict = after_games(
                    deal=index, totals=totals, games=self.games, ended=ended,
                    side_names=s.side_names, players=s.players,
                )
                if state.verdict.finished:
                    state.finished, state.winner = True, state.verdict.winner
                    state.decided_by, state.after_deal = state.verdict.rule, index
                    break
                if not ended:
                    break
                continue
            if not ended:
                state.verdict = unsettled(
                    deal=index, totals=totals, target=self.target, side_names=s.side_names,
                    players=s.players, meld_side=deal.partie_won_by_meld,
                    meld=deal.partie_meld,
                    # where each deal is a game its live points are not yet the game score
                    deal_open=self.variant.game is None,
                )
                break
            verdict = settle(
                deal=index, totals=totals, target=self.target, side_of=s.side_of,
                side_names=s.side_names, players=s.players,
                last_trick=deal.last_trick_winner, tie_higher=tie_higher,
                meld_side=deal.partie_won_by_meld, meld=deal.partie_meld,
            )
            state.verdict = verdict
            if verdict is not None and verdict.finished:
                state.finished, state.winner = True, verdict.winner
                state.decided_by, state.after_deal = verdict.rule, index
                break
        if state.verdict is None:
            state.verdict = unsettled(
                deal=len(self.deals) - 1 if self.deals else None, totals=totals,
                target=self.target, side_names=s.side_names, players=s.players,
                deal_open=False,
            )
        return state

    def verdict(self) -> Verdict:
        """Where the partie stands and why, in data a screen can say in words: the winner and
        the one rule that decided (with its facts: who took the last trick, the totals), a
        tie that goes on, or, mid-deal, that a side has passed the target so the partie ends
        with this deal (``Verdict.ends_with_this_deal``). Changes nothing."""
        verdict = self._partie().verdict
        assert verdict is not None
        return verdict

    def result(self) -> MatchResult:
        sides = []
        per_deal = [self.deal_points(d) for d in range(len(self.deals))]
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
            partie.verdict,
            tuple(self.game(d) for d in range(len(self.deals))) if self.variant.game else (),
            self.games,
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


def _game_json(game: GameScore | None, names: Sequence[str]) -> dict[str, Any] | None:
    if game is None:
        return None
    return {
        "winner": names[game.winner] if game.winner is not None else None,
        "rubicon": game.rubicon,
        "rule": game.rule,
        "brisques_counted": game.brisques_counted,
        "fractions_dropped": game.fractions_dropped,
        "scores": list(game.scores),
        "lines": [{"kind": ln.kind, "side": names[ln.side], "points": ln.points}
                  for ln in game.lines],
        "message": game.render(names),
    }


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
