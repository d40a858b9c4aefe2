"""The state of one deal that every rule family shares: the tables of declared cards, the
copies the table has seen (R-PACK), the ledger of points and the change to the last tricks.

The rules themselves live in one module per family, each a mixin over this core:
``declarations`` (declaring, reuse, pending combinations), ``sevens``, ``tricks`` (tricks and
phase 2), ``penalties`` and ``deal_end`` (the last trick and brisques); ``deal.DealState``
puts them together. Each ``_check_*`` method verifies an event *without changing* the state and
returns the ruling with a ``commit`` closure (verify/apply).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from referee.cards import Card, Rank, Suit
from referee.combinations import CardCounts
from referee.events import (
    Event,
)
from referee.rulings import WHERE_FIELD, WHERE_ITEM, Ruling, reject
from referee.variants import Variant

Tracking = Literal["melds", "tricks", "cards"]
TRACKING_LEVELS: tuple[Tracking, ...] = ("melds", "tricks", "cards")


@dataclass(frozen=True, slots=True)
class Setup:
    """What stays the same for every deal of a match."""

    variant: Variant
    players: tuple[str, ...]
    tracking: Tracking
    house_rules: frozenset[str]
    side_of: tuple[int, ...]
    side_names: tuple[str, ...]

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def packs(self) -> int:
        return self.variant.packs(self.n)

    def copies(self, card: Card) -> int:
        return self.variant.copies(card, self.n)

    @property
    def stock_tricks(self) -> int:
        return self.variant.stock_tricks(self.n)

    @property
    def total_tricks(self) -> int:
        return self.variant.total_tricks(self.n)

    def has(self, house_rule: str) -> bool:
        return house_rule in self.house_rules


@dataclass(slots=True)
class TableCard:
    """A declared card lying face up: which combinations it has scored in (meld → points)."""

    card: Card
    scored: dict[str, int] = field(default_factory=dict)
    # R-REFORM: the combination (meld → its number) each scoring was part of, and the kinds
    # this card may score again because a card of that combination was played.
    groups: dict[str, int] = field(default_factory=dict)
    reformable: set[str] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class PendingCombination:
    """A combination laid but not yet scored (R-PENDING)."""

    meld: str
    cards: tuple[Card, ...]
    # The very table cards it was laid with: it scores only while they are still on the table,
    # not with an identical copy laid later (R-PENDING). Empty: checked by card faces.
    held: tuple[TableCard, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class Entry:
    """Points to a side, and why; a deal's score is the sum of its entries."""

    event: int | None  # index in the deal's events; None for the deal itself (dealer's seven)
    side: int
    points: int
    reason: str


@dataclass(slots=True)
class _Outcome:
    ruling: Ruling
    commit: Callable[[], None] | None = None


@dataclass(slots=True)
class _PhaseTwoDuty:
    """What a player showed they did not hold when playing in phase 2 (for revokes)."""

    trick: int
    player: int
    forbidden: frozenset[Card]
    led: Suit
    played: Card


class DealCore:
    """The state of one deal and the log of its events with their rulings."""

    def __init__(self, setup: Setup, index: int, dealer: int, turn_up: Card | None) -> None:
        self.setup = setup
        self.index = index
        self.dealer = dealer
        self.turn_up = turn_up
        self.original_turn_up = turn_up
        self.trumps: Suit | None = turn_up.suit if turn_up is not None else None
        self.log: list[tuple[Event, Ruling]] = []
        self.ledger: list[Entry] = []
        n = setup.n
        self.tables: list[list[TableCard]] = [[] for _ in range(n)]
        self.pending: list[list[PendingCombination]] = [[] for _ in range(n)]
        self.known_in_hand: list[CardCounts] = [Counter() for _ in range(n)]
        self.played: CardCounts = Counter()
        self.sevens_declared = 0
        self.seven_exchanged = False
        self.tricks_played = 0
        self.tricks_won = [0] * n
        self.last_winner: int | None = None
        self.declared_this_trick = False
        self.stock_exhausted = False
        self.last_trick_winner: int | None = None
        self.last_trick_scored = False
        # tricks tracking: a last_trick event after the stock closed the play (phase-2 tricks
        # left out, spec "tracking"); no further trick is recorded then.
        self.play_closed = False
        self.brisques_scored = False
        self.brisques_won = [0] * n
        self.duties: list[_PhaseTwoDuty] = []
        # R-CARTE-BLANCHE: the tricks played when each player showed one; whether a court
        # card of theirs has been seen (declared or played), which ends the showings.
        self.carte_blanches: list[list[int]] = [[] for _ in range(n)]
        self.court_seen = [False] * n
        self.combinations_scored = 0  # numbers the combinations for R-REFORM
        self.cut_bonuses: set[int] = set()  # players who took the cut bonus (R-CUT-BONUS)
        self.partie_won_by_meld: int | None = None  # side that scored a partie-winning meld
        self.partie_meld: str | None = None  # which one (triple_bezique)
        if (
            turn_up is not None
            and turn_up.rank is Rank.SEVEN
            and setup.variant.dealer_seven_points
        ):
            points = setup.variant.dealer_seven_points
            self.ledger.append(Entry(None, setup.side_of[dealer], points, "R-DEALER-SEVEN"))

    @property
    def events(self) -> list[Event]:
        return [e for e, _ in self.log]

    @property
    def phase(self) -> int:
        return 2 if self.stock_exhausted else 1

    @property
    def stock_left(self) -> int | None:
        """Tricks still to be played with draws; None when tricks are not tracked."""
        if self.setup.tracking == "melds":
            return None
        return max(0, self.setup.stock_tricks - self.tricks_played)

    _summed: int = 0  # ledger entries already added into _sums (the ledger only grows)

    _sums: tuple[int, ...] = ()

    def scores(self) -> list[int]:
        """Each side's points in this deal: the sum of the ledger, kept as a running sum so
        that a match of many deals does not re-add every ledger at each deal start."""
        if not self._sums or self._summed > len(self.ledger):
            self._sums, self._summed = (0,) * len(self.setup.side_names), 0
        if self._summed < len(self.ledger):
            totals = list(self._sums)
            for entry in self.ledger[self._summed:]:
                totals[entry.side] += entry.points
            self._sums, self._summed = tuple(totals), len(self.ledger)
        return list(self._sums)

    def table(self, player: int) -> list[Card]:
        return [tc.card for tc in self.tables[player]]

    def table_cards(self, player: int) -> list[TableCard]:
        return list(self.tables[player])

    def name(self, seat: int) -> str:
        return self.setup.players[seat]

    def known(self, card: Card) -> int:
        """Copies of a card the table can see or has seen (R-PACK)."""
        total = sum(1 for t in self.tables for tc in t if tc.card == card)
        total += sum(k[card] for k in self.known_in_hand)
        total += self.played[card]
        if self.turn_up == card:
            total += 1
        return total

    def points_of(self, meld: str) -> int:
        spec = self.setup.variant.combination(meld)
        return spec.points if spec else 0

    def _score(self, side: int, points: int, reason: str) -> None:
        self.ledger.append(Entry(self._event_index, side, points, reason))

    _event_index: int = 0

    def _copies_problem(self, player: int, cards: CardCounts) -> Ruling | None:
        """R-PACK: laying these cards must not need more copies than the packs hold."""
        for card, count in cards.items():
            extra = max(0, count - self.known_in_hand[player][card])
            seen = self.known(card)
            copies = self.setup.copies(card)
            if seen + extra > copies:
                return reject(
                    "R-PACK",
                    "no_copy_left",
                    {
                        "player": self.name(player),
                        "card": str(card),
                        "packs": copies,
                        "seen": seen,
                        "where": self._where(card),
                    },
                    proposes="P-FALSE-DECLARATION",
                )
        return None

    def _where(self, card: Card) -> str:
        """Where the known copies of a card are, as data (rendered into words in the ruling's
        language by rulings.where_text)."""
        places: list[str] = []
        for seat, table in enumerate(self.tables):
            k = sum(1 for tc in table if tc.card == card)
            if k:
                places.append(_place("table", self.name(seat), k))
        for seat, hand in enumerate(self.known_in_hand):
            if hand[card]:
                places.append(_place("hand", self.name(seat), hand[card]))
        if self.played[card]:
            places.append(_place("played", "", self.played[card]))
        if self.turn_up == card:
            places.append(_place("turn_up", "", 1))
        return WHERE_ITEM.join(places)

    def _begin_phase_two(self) -> None:
        """R-PHASE2: declared cards go back into the hands; the turn-up goes to the last drawer."""
        self.stock_exhausted = True
        for seat, table in enumerate(self.tables):
            for tc in table:
                self.known_in_hand[seat][tc.card] += 1
            table.clear()
        taker = self._turn_up_taker()
        if self.turn_up is not None and taker is not None:
            self.known_in_hand[taker][self.turn_up] += 1
            self.turn_up = None

    def _turn_up_taker(self) -> int | None:
        """R-DRAW: the last to draw from the stock (the player before the winner of the last
        trick with draws) takes the turn-up."""
        if self.last_winner is None:
            return None
        return (self.last_winner - 1) % self.setup.n

    match_totals_before: Sequence[int] = ()

    def _match_total_before(self, side: int) -> int:
        return self.match_totals_before[side] if self.match_totals_before else 0


def _place(place: str, player: str, count: int) -> str:
    return WHERE_FIELD.join((place, player, str(count)))
