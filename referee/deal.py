"""One deal: the table's state and the referee's checks on every event.

Each ``_check_*`` method verifies an event against the state *without changing it* and
returns the ruling with a ``commit`` closure; ``apply`` runs the closure only for an accepted
event, so a rejected event changes nothing (pokerkit's verify/apply split).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from referee.cards import Card, Rank, Suit, cards_text
from referee.combinations import CardCounts, Instance, contains, instances
from referee.errors import InconsistentEventError
from referee.events import (
    Brisques,
    Declare,
    Event,
    LastTrick,
    Penalty,
    Seven,
    StockExhausted,
    Trick,
)
from referee.penalties import PenaltyEffect, penalty_effect, wipeable
from referee.rulings import WHERE_FIELD, WHERE_ITEM, Proposal, Ruling, accept, reject, where_text
from referee.variants import CombinationSpec, Variant
from referee.verdict import meld_rule

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


class DealState:
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
        self.partie_won_by_meld: int | None = None  # side that scored a partie-winning meld
        self.partie_meld: str | None = None  # which one (triple_bezique)
        if (
            turn_up is not None
            and turn_up.rank is Rank.SEVEN
            and setup.variant.dealer_seven_points
        ):
            points = setup.variant.dealer_seven_points
            self.ledger.append(Entry(None, setup.side_of[dealer], points, "R-DEALER-SEVEN"))

    # ----------------------------------------------------------------------------- queries
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

    def pending_of(self, player: int) -> list[PendingCombination]:
        """Pending combinations whose cards are still on the table."""
        return [p for p in self.pending[player] if self._left_table(player, p) is None]

    def _left_table(self, player: int, p: PendingCombination) -> Card | None:
        """A card of a pending combination that is no longer on the table (None: all are)."""
        pool = self._pool(player)
        if p.held:
            for tc in p.held:
                if not any(tc is x for x in pool):
                    return tc.card
            return None
        on_table = Counter(tc.card for tc in pool)
        for card, count in Counter(p.cards).items():
            if on_table[card] < count:
                return card
        return None

    @property
    def complete(self) -> bool:
        """Whether the deal's closing facts are recorded (brisques, or the final trick)."""
        if self.setup.tracking == "cards":
            return self.tricks_played >= self.setup.total_tricks
        if self.setup.tracking == "tricks":
            played_out = self.tricks_played >= self.setup.total_tricks or self.play_closed
            return played_out and self.brisques_scored
        return self.brisques_scored

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

    def candidate_melds(self, cards: CardCounts) -> list[str]:
        """The kinds of combination these cards form (for the app's picker)."""
        return sorted({i.meld for i in self._instances(cards)})

    def points_of(self, meld: str) -> int:
        spec = self.setup.variant.combination(meld)
        return spec.points if spec else 0

    # ----------------------------------------------------------------------------- API
    def verify(self, event: Event) -> Ruling:
        return self._check(event).ruling

    def apply(self, event: Event) -> Ruling:
        outcome = self._check(event)
        index = len(self.log)
        self.log.append((event, outcome.ruling))
        if outcome.ruling.accepted and outcome.commit is not None:
            self._event_index = index
            outcome.commit()
        return outcome.ruling

    def _score(self, side: int, points: int, reason: str) -> None:
        self.ledger.append(Entry(self._event_index, side, points, reason))

    _event_index: int = 0

    def _check(self, event: Event) -> _Outcome:
        self._check_player_indexes(event)
        if isinstance(event, Declare):
            return self._check_declare(event)
        if isinstance(event, Seven):
            return self._check_seven(event)
        if isinstance(event, Trick):
            return self._check_trick(event)
        if isinstance(event, Penalty):
            return self._check_penalty(event)
        if isinstance(event, StockExhausted):
            return self._check_stock_exhausted()
        if isinstance(event, LastTrick):
            return self._check_last_trick(event)
        return self._check_brisques(event)

    def _check_player_indexes(self, event: Event) -> None:
        seats: list[int] = []
        if isinstance(event, Declare | Seven | Penalty):
            seats.append(event.player)
        elif isinstance(event, Trick | LastTrick):
            seats.append(event.winner)
        for seat in seats:
            if not 0 <= seat < self.setup.n:
                raise InconsistentEventError(f"no player in seat {seat}")

    # ----------------------------------------------------------------------------- timing
    def _timing(self, player: int, *, free: bool = False) -> Ruling | None:
        """R-NO-DECLARE-AFTER-STOCK, R-DECLARE-AFTER-TRICK, R-ONE-PER-TRICK, H-FOUR-TRICKS."""
        who = {"player": self.name(player)}
        # The last trick (unless H-LAST-TRICK-24 moves its bonus to trick 24) and the brisques
        # come after the stock ran out, even in a record that leaves stock_exhausted out.
        deal_over = self.brisques_scored or (
            self.last_trick_scored and not self.setup.has("H-LAST-TRICK-24")
        )
        if self.stock_exhausted or deal_over:
            return reject("R-NO-DECLARE-AFTER-STOCK", "after_stock", who)
        if self.setup.tracking == "melds":
            return None
        if self.last_winner is None:
            return reject(
                "R-DECLARE-AFTER-TRICK", "no_trick_yet", who, proposes="P-EARLY-DECLARE"
            )
        if self.last_winner != player:
            return reject(
                "R-DECLARE-AFTER-TRICK",
                "not_trick_winner",
                who | {"winner": self.name(self.last_winner), "trick": self.tricks_played},
                proposes="P-EARLY-DECLARE",
            )
        if self.declared_this_trick and not free:
            return reject("R-ONE-PER-TRICK", "one_per_trick", who | {"trick": self.tricks_played})
        if self.setup.has("H-FOUR-TRICKS") and self.tricks_won[player] < 4:
            return reject(
                "H-FOUR-TRICKS", "four_tricks", who | {"won": self.tricks_won[player]}
            )
        return None

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

    # ----------------------------------------------------------------------------- declare
    def _trumps_open(self) -> bool:
        return self.setup.variant.fix_trumps_by_marriage and self.trumps is None

    def _instances(self, cards: CardCounts, only: str | None = None) -> list[Instance]:
        return list(
            instances(
                cards,
                self.setup.variant,
                self.trumps,
                bezique_pair_rule=self.setup.has("H-BEZIQUE-PAIR"),
                trumps_open=self._trumps_open(),
                only=only,
            )
        )

    def _meld_spec(self, meld: str) -> CombinationSpec | None:
        return self.setup.variant.combination(meld)

    def _counterpart(self, meld: str, suit: str) -> str:
        """The same suit combination in trumps or in a plain suit (marriage ↔ trump marriage)."""
        spec = self._meld_spec(meld)
        if spec is None or spec.shape != "suit" or spec.suit == suit:
            return meld
        for other in self.setup.variant.combinations:
            if (other.shape == "suit" and other.suit == suit and other.ranks == spec.ranks
                    and other.copies == spec.copies):
                return other.id
        return meld

    def _as_trump_kind(self, meld: str | None) -> str | None:
        """R-NT-TRUMPS: before trumps are fixed, a plain marriage or sequence named in a
        declaration is read as its trump kind (the first marriage fixes trumps)."""
        if meld is None or not self._trumps_open():
            return meld
        return self._counterpart(meld, "trump")

    def _kind_now(self, meld: str, cards: Sequence[Card]) -> str:
        """A pending suit combination's kind as it scores now: trumps may have been fixed
        since it was laid (no-trump)."""
        if not self.setup.variant.fix_trumps_by_marriage:
            return meld
        in_trumps = self.trumps is None or cards[0].suit == self.trumps
        return self._counterpart(meld, "trump" if in_trumps else "plain")

    def _check_declare(self, ev: Declare) -> _Outcome:
        player = ev.player
        who = self.name(player)
        if not ev.new:
            return self._check_pending_score(ev)
        meld = self._as_trump_kind(ev.meld)
        if meld != ev.meld:
            ev = Declare(ev.player, ev.new, ev.table, meld)
        problem = self._timing(player)
        if problem is not None:
            return _Outcome(problem)
        if ev.meld is not None and self._meld_spec(ev.meld) is None:
            removed_by = self.setup.variant.removed.get(ev.meld)
            if removed_by:
                return _Outcome(reject(removed_by, "meld_removed", {"meld": ev.meld}))
            return _Outcome(
                reject(
                    "P-FALSE-DECLARATION",
                    "meld_not_in_variant",
                    {"meld": ev.meld, "variant": self.setup.variant.id},
                )
            )
        if ev.table and self.setup.has("H-ALL-NEW"):
            return _Outcome(
                reject("H-ALL-NEW", "all_new", {"player": who, "cards": cards_text(ev.table)})
            )
        new = Counter(ev.new)
        table = Counter(ev.table)
        on_table = Counter(tc.card for tc in self._pool(player))
        for card, count in table.items():
            if on_table[card] < count:
                return _Outcome(
                    reject("R-ON-TABLE", "not_on_table", {"player": who, "card": str(card)})
                )
        problem = self._copies_problem(player, new)
        if problem is not None:
            return _Outcome(problem)
        combined = new + table
        candidates = self._instances(combined, ev.meld)
        if not candidates and ev.meld is not None:
            # "marriage" said of K and Q of trumps is the trump marriage they form.
            trump_kind = self._counterpart(ev.meld, "trump")
            if trump_kind != ev.meld:
                candidates = self._instances(combined, trump_kind)
        if ev.meld is None:
            maximal = _maximal(candidates)
            kinds = sorted({i.meld for i in maximal})
            if not kinds:
                return _Outcome(
                    reject(
                        "P-FALSE-DECLARATION",
                        "no_combination",
                        {"player": who, "cards": cards_text(sorted(combined.elements()))},
                        proposes="P-FALSE-DECLARATION",
                    )
                )
            if len(kinds) > 1:
                return _Outcome(
                    reject(
                        "R-PENDING",
                        "ambiguous",
                        {
                            "cards": cards_text(sorted(combined.elements())),
                            "options": WHERE_ITEM.join(
                                WHERE_FIELD.join((k, str(self.points_of(k)))) for k in kinds
                            ),
                        },
                    )
                )
            candidates = [i for i in candidates if i.meld == kinds[0]]
        if not candidates:
            assert ev.meld is not None
            return _Outcome(
                reject(
                    "P-FALSE-DECLARATION",
                    "not_that_combination",
                    {"player": who, "cards": cards_text(sorted(combined.elements())),
                     "meld": ev.meld},
                    proposes="P-FALSE-DECLARATION",
                )
            )
        first: _Outcome | None = None
        # Prefer the reading that lays the most new cards into the scored combination.
        candidates.sort(key=lambda i: -sum(min(i.counts()[c], new[c]) for c in new))
        for instance in candidates:
            outcome = self._check_instance(ev, instance, new, table)
            if outcome.ruling.accepted:
                return outcome
            first = first or outcome
        assert first is not None
        return first

    def _pool(self, player: int) -> list[TableCard]:
        """The declared cards a player may build on: their own, and under H-PARTNER-BUILD
        their partner's too (four-hand; by default only one's own)."""
        pool = list(self.tables[player])
        if self.setup.has("H-PARTNER-BUILD"):
            side = self.setup.side_of[player]
            for seat, table in enumerate(self.tables):
                if seat != player and self.setup.side_of[seat] == side:
                    pool.extend(table)
        return pool

    def _choose_copies(
        self, player: int, need: CardCounts, meld: str, points: int
    ) -> list[TableCard] | None:
        """The table copies a declaration uses: those that have not scored this kind, least
        used first (one's own before a partner's); None when the table lacks them."""
        chosen: list[TableCard] = []
        pool = self._pool(player)
        classes = self.setup.has("H-REUSE-CLASSES")
        spec = self._meld_spec(meld)

        def against(tc: TableCard) -> int:
            """The best score of this copy a reuse must beat: any kind (R-REUSE), or only the
            kinds of the same class (H-REUSE-CLASSES), so a copy that allows it comes first."""
            return max(
                (p for m, p in tc.scored.items()
                 if not classes or spec is None
                 or getattr(self._meld_spec(m), "family", None) == spec.family),
                default=0,
            )

        for card, count in need.items():
            copies = [tc for tc in pool if tc.card == card]
            copies.sort(key=lambda tc: (meld in tc.scored, against(tc),
                                        max(tc.scored.values(), default=0)))
            if len(copies) < count:
                return None
            chosen.extend(copies[:count])
        return chosen

    def _reuse_problem(self, player: int, copies: Sequence[TableCard], spec: CombinationSpec
                       ) -> Ruling | None:
        """R-REUSE (default) or H-REUSE-CLASSES for the table cards a new combination uses."""
        classes = self.setup.has("H-REUSE-CLASSES")
        for tc in copies:
            for meld, points in sorted(tc.scored.items(), key=lambda kv: -kv[1]):
                params: dict[str, str | int] = {
                    "card": str(tc.card),
                    "old_meld": meld,
                    "old_points": points,
                    "meld": spec.id,
                    "points": spec.points,
                }
                if meld == spec.id:
                    rule = "H-REUSE-CLASSES" if classes else "R-REUSE"
                    return reject(rule, "same_kind", params)
                if classes:
                    old = self._meld_spec(meld)
                    same_family = old is not None and old.family == spec.family
                    if same_family and spec.points <= points:
                        return reject("H-REUSE-CLASSES", "not_greater_in_class", params)
                elif spec.points <= points:
                    return reject("R-REUSE", "not_more", params)
        return None

    def _check_instance(
        self, ev: Declare, instance: Instance, new: CardCounts, table: CardCounts
    ) -> _Outcome:
        player = ev.player
        who = self.name(player)
        spec = instance.spec
        need = instance.counts()
        from_new = Counter({c: min(k, new[c]) for c, k in need.items() if new[c]})
        from_table = need - from_new
        nt = self._nt_problem(instance)
        if nt is not None:
            return _Outcome(nt)
        if not from_new:
            # R-NEW-CARD: the combination scored now needs a card from the hand; a new card
            # that only forms a pending combination does not let old cards score again.
            return _Outcome(
                reject("R-NEW-CARD", "no_new_card",
                       {"player": who, "cards": cards_text(instance.cards)})
            )
        copies = self._choose_copies(player, from_table, spec.id, spec.points)
        if copies is None:  # pragma: no cover - table multiset was checked by the caller
            return _Outcome(reject("R-ON-TABLE", "not_on_table", {"player": who, "card": "?"}))
        problem = self._reuse_problem(player, copies, spec)
        if problem is not None:
            return _Outcome(problem)
        points = self._points_for(instance)
        # Other combinations laid at the same time become pending (R-PENDING).
        combined = new + table
        pendings: list[Instance] = []
        pending_parts: list[tuple[list[TableCard], CardCounts]] = []  # (table copies, new)
        for other in self._instances(combined):
            other_counts = other.counts()
            if contains(need, other_counts) or contains(table, other_counts):
                continue
            if self._nt_problem(other) is not None:
                continue
            other_new = Counter({c: min(k, new[c]) for c, k in other_counts.items() if new[c]})
            other_copies = self._choose_copies(
                player, other_counts - other_new, other.meld, other.points
            )
            if other_copies is None or any(other.meld in tc.scored for tc in other_copies):
                continue
            if any(p.meld == other.meld and p.cards == other.cards for p in pendings):
                continue
            pendings.append(other)
            pending_parts.append((other_copies, other_new))
        for card, count in combined.items():
            cover = max([need[card], *(p.counts()[card] for p in pendings)])
            if count > cover:
                key = "idle_new_card" if new[card] else "idle_table_card"
                return _Outcome(
                    reject(
                        "R-NEW-CARD",
                        key,
                        {"player": who, "card": str(card), "meld": spec.id},
                    )
                )
        fixes = self._trumps_open() and spec.shape == "suit" and spec.suit == "trump"
        params: dict[str, str | int] = {
            "player": who,
            "meld": spec.id,
            "points": points,
            "cards": cards_text(instance.cards),
        }
        key = "declared"
        if copies:
            key = "declared_reuse"
            params["reused"] = cards_text(tc.card for tc in copies)
        if pendings:
            key += "_pending"
            params["pending"] = WHERE_ITEM.join(
                WHERE_FIELD.join((p.meld, cards_text(p.cards))) for p in pendings
            )
        if fixes:
            key = "fixes_trumps"
            params["suit"] = instance.cards[0].suit.symbol

        def commit() -> None:
            if fixes:
                self.trumps = instance.cards[0].suit
            laid = [TableCard(c) for c in sorted(new.elements())]
            for tc in laid:
                if self.known_in_hand[player][tc.card]:
                    self.known_in_hand[player][tc.card] -= 1
            self.tables[player].extend(laid)
            # The combination's cards: the reused copies plus new copies it takes.
            taken = list(copies)
            remaining = Counter(from_new)
            for tc in laid:
                if remaining[tc.card]:
                    remaining[tc.card] -= 1
                    taken.append(tc)
            for tc in taken:
                tc.scored[spec.id] = points
            for p, (held_copies, p_new) in zip(pendings, pending_parts, strict=True):
                held = list(held_copies)
                wanted_new = Counter(p_new)
                for tc in laid:
                    if wanted_new[tc.card]:
                        wanted_new[tc.card] -= 1
                        held.append(tc)
                self.pending[player].append(PendingCombination(p.meld, p.cards, tuple(held)))
            self._declared(player, points, spec)

        # The one rule that decided: fixing trumps, a reuse allowed, else the combination's
        # own entry (its points); never a timing rule the tracking level does not check.
        rule = "R-REUSE" if copies else meld_rule(spec.id)
        if fixes:
            rule = "R-NT-TRUMPS"
        return _Outcome(
            accept(
                rule,
                key,
                params,
                points=points,
                meld=spec.id,
                pending=tuple((p.meld, p.cards) for p in pendings),
            ),
            commit,
        )

    def _declared(self, player: int, points: int, spec: CombinationSpec | None) -> None:
        self.declared_this_trick = True
        side = self.setup.side_of[player]
        self._score(side, points, spec.id if spec else "R-SEVEN")
        if spec is not None and spec.wins_partie and self.partie_won_by_meld is None:
            self.partie_won_by_meld = side
            self.partie_meld = spec.id

    def _points_for(self, instance: Instance) -> int:
        """A combination's value; a marriage fixing trumps in no-trump scores as a trump one."""
        if self._trumps_open() and instance.spec.suit == "trump":
            return self.setup.variant.fixing_marriage_points.get(
                instance.meld, instance.points
            )
        return instance.points

    def _nt_problem(self, instance: Instance) -> Ruling | None:
        """R-NT-TRUMPS: before trumps are fixed, no sequence can be declared."""
        if not self._trumps_open() or instance.spec.shape != "suit":
            return None
        if len(instance.spec.ranks) > 2:
            return reject(
                "R-NT-TRUMPS",
                "nt_sequence_before_trumps",
                {"meld": instance.meld, "cards": cards_text(instance.cards)},
            )
        return None

    def _check_pending_score(self, ev: Declare) -> _Outcome:
        """R-PENDING: a declaration with no new card scores a pending combination."""
        player = ev.player
        who = self.name(player)
        wanted = Counter(ev.table)
        named = {ev.meld, self._as_trump_kind(ev.meld)}
        matches = [
            p for p in self.pending[player]
            if Counter(p.cards) == wanted
            and (ev.meld is None or p.meld in named or self._kind_now(p.meld, p.cards) in named)
        ]
        if not matches:
            return _Outcome(
                reject(
                    "R-NEW-CARD",
                    "no_new_card",
                    {"player": who, "cards": cards_text(ev.table) or "—"},
                )
            )
        problem = self._timing(player)
        if problem is not None:
            return _Outcome(problem)
        matches.sort(key=lambda q: self._left_table(player, q) is not None)
        p = matches[0]
        meld = self._kind_now(p.meld, p.cards)
        gone = self._left_table(player, p)
        if gone is not None:
            return _Outcome(
                reject("R-ON-TABLE", "pending_left_table",
                       {"player": who, "card": str(gone), "meld": p.meld})
            )
        spec = self._meld_spec(meld)
        if spec is None:  # pragma: no cover - pendings come from the variant's table
            return _Outcome(reject("R-PENDING", "no_new_card", {"player": who, "cards": ""}))
        copies = list(p.held) or self._choose_copies(player, wanted, meld, spec.points)
        assert copies is not None
        for tc in copies:
            if meld in tc.scored:
                return _Outcome(
                    reject(
                        "R-REUSE",
                        "same_kind",
                        {"card": str(tc.card), "old_meld": meld,
                         "old_points": tc.scored[meld], "meld": meld,
                         "points": spec.points},
                    )
                )
        instance = Instance(spec, p.cards)
        nt = self._nt_problem(instance)
        if nt is not None:
            return _Outcome(nt)
        points = self._points_for(instance)
        fixes = self._trumps_open() and spec.shape == "suit" and spec.suit == "trump"

        def commit() -> None:
            if fixes:
                self.trumps = p.cards[0].suit
            for tc in copies:
                tc.scored[meld] = points
            mine = self.pending[player]
            del mine[next(k for k, q in enumerate(mine) if q is p)]
            self._declared(player, points, spec)

        return _Outcome(
            accept(
                "R-NT-TRUMPS" if fixes else "R-PENDING",
                "pending_scored",
                {"player": who, "meld": meld, "points": points, "cards": cards_text(p.cards)},
                points=points,
                meld=meld,
            ),
            commit,
        )

    # ----------------------------------------------------------------------------- sevens
    def _check_seven(self, ev: Seven) -> _Outcome:
        player = ev.player
        who = self.name(player)
        v = self.setup.variant
        if self.trumps is None or not v.seven_points:
            return _Outcome(reject("R-NT-TRUMPS", "nt_seven", {"player": who}))
        seven = Card(Rank.SEVEN, self.trumps)
        exchange = (
            not self.seven_exchanged
            and self.turn_up is not None
            and self.turn_up != seven
        )
        free = exchange and self.setup.has("H-SEVEN-FREE")
        problem = self._timing(player, free=free)
        if problem is not None:
            return _Outcome(problem)
        seen = self.known(seven)
        if seen + 1 > self.setup.copies(seven):
            return _Outcome(
                reject(
                    "R-PACK",
                    "no_seven_left",
                    {"player": who, "card": str(seven), "packs": self.setup.copies(seven),
                     "where": self._where(seven)},
                    proposes="P-FALSE-DECLARATION",
                )
            )
        points = v.seven_value(exchange=exchange)
        old_turn_up = self.turn_up

        def commit() -> None:
            self.sevens_declared += 1
            if exchange:
                assert old_turn_up is not None
                self.seven_exchanged = True
                self.known_in_hand[player][old_turn_up] += 1
                self.turn_up = seven
            else:
                self.known_in_hand[player][seven] += 1
            if free:
                self._score(self.setup.side_of[player], points, "R-SEVEN")
            else:
                self._declared(player, points, None)

        key = "seven_exchanged" if exchange else "seven_shown"
        params: dict[str, str | int] = {"player": who, "card": str(seven), "points": points}
        if exchange and old_turn_up is not None:
            params["turn_up"] = str(old_turn_up)
        rule = "R-SEVEN"
        if exchange and v.exchanged_seven_points is not None:
            rule = "H-SEVEN-TWENTY"  # the house rule set the amount
        return _Outcome(accept(rule, key, params, points=points), commit)

    # ----------------------------------------------------------------------------- tricks
    def _check_trick(self, ev: Trick) -> _Outcome:
        s = self.setup
        if s.tracking == "melds":
            raise InconsistentEventError(
                'tricks are not recorded with "melds" tracking; use "tricks" or "cards"'
            )
        if self.play_closed:
            raise InconsistentEventError(
                "the last trick is already recorded: the play of this deal is over",
                "R-LAST-TRICK",
            )
        if self.tricks_played >= s.total_tricks:
            raise InconsistentEventError(
                f"a deal of {s.variant.id} has {s.total_tricks} tricks; this would be trick "
                f"{self.tricks_played + 1}",
                "R-DEAL",
            )
        number = self.tricks_played + 1
        final = number == s.total_tricks
        in_phase2 = number > s.stock_tricks
        proposals: list[Proposal] = []
        done: list[_PhaseTwoDuty] = []
        new_duties: list[_PhaseTwoDuty] = []
        played: list[tuple[int, Card, bool]] = []
        if s.tracking == "cards":
            played = self._verify_trick_cards(ev, number, in_phase2)
            if in_phase2:
                proposals, done, new_duties = self._phase_two_duties(number, played)
        elif ev.cards:
            raise InconsistentEventError('cards are recorded only with "cards" tracking')
        winner = ev.winner
        params: dict[str, str | int] = {"player": self.name(winner), "trick": number}
        v = s.variant
        side = s.side_of[winner]
        last_bonus_here = (
            number == s.stock_tricks if s.has("H-LAST-TRICK-24") else final
        )
        seven_extra = (
            s.has("H-SEVEN-EXTRA")
            and self.trumps is not None
            and any(p == winner and c == Card(Rank.SEVEN, self.trumps) for p, c, _ in played)
        )

        def commit() -> None:
            if in_phase2 and not self.stock_exhausted:
                self._begin_phase_two()
            self.tricks_played = number
            self.tricks_won[winner] += 1
            self.last_winner = winner
            self.declared_this_trick = False
            for seat, card, off_table in played:
                self._play(seat, card, off_table)
            for duty in done:
                self.duties.remove(duty)
            self.duties.extend(new_duties)
            if s.tracking == "cards":
                self.brisques_won[winner] += sum(1 for _, c, _ in played if c.is_brisque)
            if seven_extra:
                self._score(side, v.seven_points, "H-SEVEN-EXTRA")
            if last_bonus_here:
                self.last_trick_winner = winner
                self.last_trick_scored = True
                self._score(side, v.last_trick_points, "R-LAST-TRICK")
            if final and s.tracking == "cards":
                self._score_brisques_from_tricks()
            if final:
                self.last_trick_winner = winner

        key = "trick_last" if last_bonus_here else "trick"
        return _Outcome(
            accept("R-RANK" if s.tracking == "cards" else "R-LEAD", key, params,
                   points=v.last_trick_points if last_bonus_here else 0,
                   proposals=tuple(proposals)),
            commit,
        )

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

    def _play(self, seat: int, card: Card, off_table: bool) -> None:
        if off_table:
            copies = [tc for tc in self.tables[seat] if tc.card == card]
            copies.sort(key=lambda tc: -len(tc.scored))
            self.tables[seat].remove(copies[0])
        elif self.known_in_hand[seat][card]:
            self.known_in_hand[seat][card] -= 1
        self.played[card] += 1

    def _verify_trick_cards(
        self, ev: Trick, number: int, in_phase2: bool
    ) -> list[tuple[int, Card, bool]]:
        s = self.setup
        entering = in_phase2 and not self.stock_exhausted
        cards = dict(ev.cards or {})
        missing = [self.name(p) for p in range(s.n) if p not in cards]
        if missing:
            raise InconsistentEventError(
                f"trick {number}: no card given for {', '.join(missing)}"
            )
        if in_phase2 and ev.from_table:
            raise InconsistentEventError(
                f"trick {number}: from_table is for phase 1 only; the declared cards went "
                "back into the hands when the stock ran out (R-PHASE2)"
            )
        leader = (self.dealer + 1) % s.n if self.last_winner is None else self.last_winner
        order = [(leader + k) % s.n for k in range(s.n)]
        played: list[tuple[int, Card, bool]] = []
        extra: CardCounts = Counter()
        for seat in order:
            card = cards[seat]
            on_table = 0 if in_phase2 else sum(1 for tc in self.tables[seat] if tc.card == card)
            off_table = seat in ev.from_table
            if off_table and on_table == 0:
                raise InconsistentEventError(
                    f"trick {number}: {self.name(seat)} plays {card} from the table, but it is "
                    "not among their declared cards (R-ON-TABLE)"
                )
            if not off_table and not self._hand_known(seat, card, entering):
                extra[card] += 1
                if self.known(card) + extra[card] > s.copies(card):
                    if on_table > 0 and not in_phase2:
                        off_table = True  # the only copy it can be is the declared one
                        extra[card] -= 1
                    else:
                        raise InconsistentEventError(
                            f"trick {number}: {self.name(seat)} plays {card}, but the "
                            f"game holds {s.copies(card)} and no other copy is left "
                            f"({where_text(self._where(card))})",
                            "R-PACK",
                        )
            played.append((seat, card, off_table))
        winner_seat = self._trick_winner([(seat, card) for seat, card, _ in played])
        if winner_seat != ev.winner:
            raise InconsistentEventError(
                f"trick {number}: {cards_text(c for _, c, _ in played)} led by "
                f"{self.name(leader)} is won by {self.name(winner_seat)}, not "
                f"{self.name(ev.winner)} (R-RANK)",
                "R-RANK",
            )
        return played

    def _hand_known(self, seat: int, card: Card, entering_phase2: bool) -> int:
        """Copies of a card known to be in a player's hand (counting, when phase 2 is about to
        begin, the declared cards and the turn-up that go back into the hands)."""
        known = self.known_in_hand[seat][card]
        if entering_phase2:
            known += sum(1 for tc in self.tables[seat] if tc.card == card)
            if self.turn_up == card and self._turn_up_taker() == seat:
                known += 1
        return known

    def _beats(self, card: Card, best: Card, led: Suit) -> bool:
        trumps = self.trumps
        if card.suit == best.suit:
            return card.rank > best.rank
        return trumps is not None and card.suit == trumps

    def _trick_winner(self, played: Sequence[tuple[int, Card]]) -> int:
        """R-RANK: trumps beat the rest; else the highest card of the suit led; ties → first."""
        best_seat, best = played[0]
        led = best.suit
        for seat, card in played[1:]:
            if self._beats(card, best, led):
                best_seat, best = seat, card
        return best_seat

    def _phase_two_duties(
        self, number: int, played: Sequence[tuple[int, Card, bool]]
    ) -> tuple[list[Proposal], list[_PhaseTwoDuty], list[_PhaseTwoDuty]]:
        """R-PHASE2: what each follower showed they lacked; a later play of such a card proves
        a revoke, reported as a proposal of P-REVOKE. Returns (proposals, duties fulfilled,
        new duties) without changing the state."""
        proposals: list[Proposal] = []
        done: list[_PhaseTwoDuty] = []
        for seat, card, _ in played:
            for duty in self.duties:
                if duty.player == seat and card in duty.forbidden and duty not in done:
                    done.append(duty)
                    proposals.append(
                        Proposal(
                            "R-PHASE2",
                            "P-REVOKE",
                            seat,
                            "revoke",
                            {"player": self.name(seat), "trick": duty.trick,
                             "played": str(duty.played), "led": duty.led.symbol,
                             "card": str(card), "now": number},
                        )
                    )
        trumps = self.trumps
        lead = played[0][1]
        best = lead
        new: list[_PhaseTwoDuty] = []
        for seat, card, _ in played[1:]:
            forbidden: set[Card] = set()
            all_of = {Card(r, lead.suit) for r in Rank}
            if card.suit != lead.suit:
                forbidden |= all_of
                if trumps is not None and card.suit != trumps:
                    forbidden |= {Card(r, trumps) for r in Rank}
            if self.setup.has("H-MUST-WIN") and not self._beats(card, best, lead.suit):
                if card.suit == lead.suit and best.suit == lead.suit:
                    forbidden |= {c for c in all_of if c.rank > best.rank}
                elif trumps is not None and best.suit == trumps and card.suit == trumps:
                    forbidden |= {Card(r, trumps) for r in Rank if r > best.rank}
            if forbidden:
                new.append(_PhaseTwoDuty(number, seat, frozenset(forbidden), lead.suit, card))
            if self._beats(card, best, lead.suit):
                best = card
        return proposals, done, new

    def _score_brisques_from_tricks(self) -> None:
        v = self.setup.variant
        for seat, count in enumerate(self.brisques_won):
            if count:
                self._score(self.setup.side_of[seat], count * v.brisque_points, "R-BRISQUE")
        self.brisques_scored = True

    # ----------------------------------------------------------------------------- the rest
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

    match_totals_before: Sequence[int] = ()

    def _match_total_before(self, side: int) -> int:
        return self.match_totals_before[side] if self.match_totals_before else 0

    def _check_stock_exhausted(self) -> _Outcome:
        s = self.setup
        if s.tracking != "melds" and self.tricks_played < s.stock_tricks:
            raise InconsistentEventError(
                f"the stock lasts {s.stock_tricks} tricks in {s.variant.id}; only "
                f"{self.tricks_played} have been played (R-PHASE1)"
            )
        if self.stock_exhausted and s.tracking == "melds":
            raise InconsistentEventError("the stock is already exhausted in this deal")

        def commit() -> None:
            # With tricks recorded phase 2 also begins at trick 25; a stock_exhausted given
            # after trick 24 begins it here, so no declaration follows it (R-PHASE1).
            if not self.stock_exhausted:
                self._begin_phase_two()

        return _Outcome(accept("R-PHASE2", "stock_exhausted", {}), commit)

    def _check_last_trick(self, ev: LastTrick) -> _Outcome:
        s = self.setup
        who = self.name(ev.winner)
        if s.tracking == "tricks" and s.stock_tricks <= self.tricks_played < s.total_tricks:
            return self._close_play(ev)
        if s.tracking != "melds":
            if not self.last_trick_scored or self.last_trick_winner != ev.winner:
                holder = self.last_trick_winner
                given = self.name(holder) if holder is not None else "nobody yet"
                raise InconsistentEventError(
                    f"last_trick names {who}, but the tricks recorded give the last-trick "
                    f"bonus to {given} (R-LAST-TRICK)"
                )
            return _Outcome(accept("R-LAST-TRICK", "last_trick_known", {"player": who}))
        if self.last_trick_scored:
            raise InconsistentEventError("the last trick is already recorded in this deal")
        points = s.variant.last_trick_points

        def commit() -> None:
            self.last_trick_scored = True
            self.last_trick_winner = ev.winner
            self._score(s.side_of[ev.winner], points, "R-LAST-TRICK")

        return _Outcome(
            accept("R-LAST-TRICK", "last_trick", {"player": who, "points": points},
                   points=points),
            commit,
        )

    def _close_play(self, ev: LastTrick) -> _Outcome:
        """``tricks`` tracking: after the stock, ``last_trick`` alone names the winner of the
        final trick and closes the play (the phase-2 tricks carry no declarations and may be
        left out, spec "tracking"). Under H-LAST-TRICK-24 the bonus was given at trick 24."""
        s = self.setup
        who = self.name(ev.winner)
        if self.play_closed:
            raise InconsistentEventError("the last trick is already recorded in this deal")
        bonus = 0 if s.has("H-LAST-TRICK-24") else s.variant.last_trick_points

        def commit() -> None:
            if not self.stock_exhausted:
                self._begin_phase_two()
            self.play_closed = True
            self.last_winner = ev.winner
            self.last_trick_winner = ev.winner
            if bonus:
                self.last_trick_scored = True
                self._score(s.side_of[ev.winner], bonus, "R-LAST-TRICK")

        if bonus:
            return _Outcome(
                accept("R-LAST-TRICK", "last_trick", {"player": who, "points": bonus},
                       points=bonus),
                commit,
            )
        return _Outcome(accept("R-LAST-TRICK", "last_trick_known", {"player": who}), commit)

    def _check_brisques(self, ev: Brisques) -> _Outcome:
        s = self.setup
        counts = dict(ev.counts)
        check_brisque_counts(counts, s)
        if self.brisques_scored and s.tracking != "cards":
            raise InconsistentEventError("brisques are already recorded in this deal")
        if s.tracking == "cards":
            won = {seat: self.brisques_won[seat] for seat in range(s.n)}
            given = {seat: counts.get(seat, 0) for seat in range(s.n)}
            if self.tricks_played < s.total_tricks or won != given:
                raise InconsistentEventError(
                    "brisques given ("
                    + ", ".join(f"{self.name(p)} {given[p]}" for p in range(s.n))
                    + ") disagree with the tricks ("
                    + ", ".join(f"{self.name(p)} {won[p]}" for p in range(s.n))
                    + f" after {self.tricks_played} tricks) (R-BRISQUE)"
                )
            return _Outcome(accept("R-BRISQUE", "brisques_known", {}))
        v = s.variant

        def commit() -> None:
            for seat in range(s.n):
                if counts.get(seat, 0):
                    self._score(s.side_of[seat], counts[seat] * v.brisque_points, "R-BRISQUE")
                self.brisques_won[seat] = counts.get(seat, 0)
            self.brisques_scored = True

        total = sum(counts.values()) * v.brisque_points
        each = ", ".join(
            f"{self.name(seat)} {counts.get(seat, 0)} → {counts.get(seat, 0) * v.brisque_points}"
            for seat in range(s.n)
        )
        return _Outcome(accept("R-BRISQUE", "brisques",
                               {"points": total, "each": each, "value": v.brisque_points}),
                        commit)


def _place(place: str, player: str, count: int) -> str:
    return WHERE_FIELD.join((place, player, str(count)))


def check_brisque_counts(counts: Mapping[int, int], setup: Setup) -> None:
    """R-BRISQUE: the counts must add up to the brisques the packs hold."""
    want = setup.variant.brisques_total(setup.n)
    for seat, count in counts.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise InconsistentEventError(
                f"{setup.players[seat]}: a brisque count is a whole number ≥ 0, not {count!r}"
            )
    got = sum(counts.values())
    if got != want:
        raise InconsistentEventError(
            f"brisque counts add up to {got}, but {setup.packs} packs hold {want} aces and tens "
            "(R-BRISQUE)",
            "R-BRISQUE",
        )


def _maximal(found: Sequence[Instance]) -> list[Instance]:
    """Instances not contained in a larger one (the marriage inside a sequence)."""
    out: list[Instance] = []
    for inst in found:
        counts = inst.counts()
        if not any(
            other is not inst and len(other.cards) > len(inst.cards)
            and contains(other.counts(), counts)
            for other in found
        ):
            out.append(inst)
    return out
