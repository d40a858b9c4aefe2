"""A deal simulator: random *legal* parties of every variant, as match records.

The simulator holds the real cards: it shuffles the packs, deals, turns up trumps, plays
every trick with cards the players hold (following suit, trumping and, under H-MUST-WIN,
winning in phase 2), draws from the stock in seating order from the winner, and lets the
trick winner declare only what their hand and table really hold, under the rules of
RULES.md and the house rules given. It keeps its own score, written from the rules and not
from the engine, so a replay of its record can be checked against an independent sum.

Variants scored by showings (``engine = "showings"``, the multi-pack joker variant) are
played by their own deal, ``_ShowingsSim``: the pack from the Variant (extra nines, jokers),
18 cards to each player dealt in, leads instead of kept tricks, and at most one showing per
lead won with values from the escalation tables of docs/joker-multipack.md
(:func:`showing_value`). It offers no ``cards`` tracking: ``tracking=None`` takes the finest
level a variant offers (:func:`default_tracking`).

It is the strongest check on the engine: a legal simulated event the engine rejects is a bug
in one of the two. Everything is seeded (``random.Random(seed)``): the same arguments give
the same record, byte for byte.

The second half of the module breaks simulated records on purpose (mutation fuzzing) and
replays them the way ``bezique replay`` does; :func:`check_text` says what happened.

Conventions the record cannot express and the simulator shares with the engine, because
copies of a card are indistinguishable: which table copy a declaration builds on (the one
that has not scored this kind, least used first), which table copy leaves the table when a
card is played from it (the most used), and that a shown seven is the one played first.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from referee.cards import ALL_CARDS, JOKER, Card, Rank, Suit
from referee.copy_choice import choose_copies
from referee.errors import BeziqueError, RecordError
from referee.events import (
    Brisques,
    CarteBlanche,
    CutBonus,
    Declare,
    Event,
    LastTrick,
    Penalty,
    Seven,
    StockExhausted,
    Trick,
)
from referee.record import (
    DealRecord,
    MatchRecord,
    dump_record,
    parse_record,
    record_to_obj,
    replay_record,
)
from referee.variants import CombinationSpec, GameSpec, ShowingSpec, Variant, load_variant

TRACKINGS = ("melds", "tricks", "cards")
NAMES = ("Anna", "Boris", "Clara", "Dmitri")


@dataclass(frozen=True, slots=True)
class SimOptions:
    """How the simulated players behave (all choices are still legal)."""

    declare_rate: float = 0.9  # a trick winner who can declare does so this often
    greedy_rate: float = 0.4  # the winner declares their best-scoring combination
    pending_rate: float = 0.35  # a declaration lays extra cards forming a pending combination
    reuse_rate: float = 0.5  # a declaration builds on table cards when it may
    table_play_weight: float = 0.4  # weight of a declared card when picking a card to play
    low_card_weight: float = 4.0  # 7s, 8s and 9s are played this much more readily (phase 1)
    penalty_rate: float = 0.0  # chance per deal of a table-agreed penalty event
    revoke_rate: float = 0.0  # phase 2: chance a player plays a card the rules forbid
    rich_rate: float = 0.25  # chance a deal gives one player a whole (rare) combination
    blank_rate: float = 0.15  # carte blanche variants: a deal gives one player no court card
    cut_bonus_rate: float = 0.3  # six-/eight-pack: chance each player takes the cut bonus
    brisques_with_cards: float = 0.5  # chance a cards-tracked deal still states its brisques
    max_deals: int = 60  # a partie stops here even if nobody reached the target


@dataclass(frozen=True, slots=True)
class SimulatedMatch:
    """A simulated partie: the record and what the rules say it scores."""

    record: MatchRecord
    deal_scores: tuple[tuple[int, ...], ...]  # per side, per deal (the simulator's own sum)
    finished: bool
    winner: str | None
    side_names: tuple[str, ...]
    # with cards tracking: (deal, event, player) of each revoke a later card proves (P-REVOKE)
    revokes: tuple[tuple[int, int, str], ...] = ()

    @property
    def events(self) -> int:
        return sum(len(d.events) for d in self.record.deals)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(s) for s in self.deal_scores)

    def to_obj(self) -> dict[str, Any]:
        return record_to_obj(self.record)

    def to_json(self) -> str:
        return dump_record(self.record)


# ================================================================================ the cards
class _TC:
    """A declared card on the table and the kinds it has scored in (meld → points)."""

    __slots__ = ("card", "groups", "reformable", "scored")

    def __init__(self, card: Card) -> None:
        self.card = card
        self.scored: dict[str, int] = {}
        # R-REFORM: the combination (meld → its number) each scoring was part of, and the
        # kinds this card may score again because a card of that combination was played
        self.groups: dict[str, int] = {}
        self.reformable: set[str] = set()

    def mark(self, meld: str, points: int, group: int) -> None:
        """This card scored ``meld`` in combination number ``group``."""
        self.scored[meld] = points
        self.groups[meld] = group
        self.reformable.discard(meld)

    def same(self, other: _TC) -> bool:
        """Equal card and history (the copies a record cannot tell apart)."""
        return (self.card == other.card and self.scored == other.scored
                and self.groups == other.groups and self.reformable == other.reformable)


@dataclass(frozen=True, slots=True)
class _Inst:
    spec: CombinationSpec
    cards: tuple[Card, ...]  # sorted, repeats for copies

    @property
    def meld(self) -> str:
        return self.spec.id

    def counts(self) -> Counter[Card]:
        return Counter(self.cards)


def _not_scored_in(meld: str) -> Callable[[_TC], bool]:
    """The copies a pending combination may hold: those that have not scored its kind."""
    return lambda tc: meld not in tc.scored


def _within(small: Counter[Card], big: Counter[Card]) -> bool:
    return all(big[c] >= k for c, k in small.items())


def _bezique_cards(trumps: Suit | None, rule: str) -> tuple[Card, Card] | None:
    """Q♠ J♦; under H-BEZIQUE-PAIR the queen of trumps and the same-colour other jack; under
    H-BEZIQUE-BY-TRUMPS (six-pack) ♠ Q♠ J♦, ♦ Q♦ J♠, ♥ Q♥ J♣, ♣ Q♣ J♥, and no bezique at all
    before trumps are fixed (None)."""
    if rule == "H-BEZIQUE-PAIR" and trumps is not None:
        other = {Suit.SPADES: Suit.CLUBS, Suit.CLUBS: Suit.SPADES,
                 Suit.HEARTS: Suit.DIAMONDS, Suit.DIAMONDS: Suit.HEARTS}[trumps]
        return Card(Rank.QUEEN, trumps), Card(Rank.JACK, other)
    if rule == "H-BEZIQUE-BY-TRUMPS":
        if trumps is None:
            return None
        jack = {Suit.SPADES: Suit.DIAMONDS, Suit.DIAMONDS: Suit.SPADES,
                Suit.HEARTS: Suit.CLUBS, Suit.CLUBS: Suit.HEARTS}[trumps]
        return Card(Rank.QUEEN, trumps), Card(Rank.JACK, jack)
    return Card(Rank.QUEEN, Suit.SPADES), Card(Rank.JACK, Suit.DIAMONDS)


def _find(
    cards: Counter[Card],
    variant: Variant,
    trumps: Suit | None,
    trumps_open: bool,
    bezique_rule: str,
    rng: random.Random,
) -> list[_Inst]:
    """The combinations these cards hold (RULES.md §4), one random pick for four-of-a-kind."""
    out: list[_Inst] = []
    for spec in variant.combinations:
        if spec.shape == "suit":
            if spec.suit == "trump":
                suits: Iterable[Suit] = (
                    (trumps,) if trumps is not None else (tuple(Suit) if trumps_open else ())
                )
            elif trumps_open:  # before trumps are fixed a marriage is the fixing one
                suits = ()
            else:
                suits = (s for s in Suit if s is not trumps)
            for suit in suits:
                need = [Card(r, suit) for r in spec.ranks]
                if all(cards[c] >= spec.copies for c in need):
                    out.append(_Inst(spec, tuple(sorted(need * spec.copies))))
        elif spec.shape == "bezique":
            pair = _bezique_cards(trumps, bezique_rule)
            if pair is None:
                continue
            q, j = pair
            if cards[q] >= spec.copies and cards[j] >= spec.copies:
                out.append(_Inst(spec, tuple(sorted([q, j] * spec.copies))))
        elif spec.suit == "trump":  # four (five) trump aces …
            if trumps is not None and cards[Card(spec.ranks[0], trumps)] >= spec.copies:
                out.append(_Inst(spec, (Card(spec.ranks[0], trumps),) * spec.copies))
        else:
            rank = spec.ranks[0]
            pool = [c for c in sorted(cards.elements()) if c.rank is rank]
            if len(pool) >= 4:
                out.append(_Inst(spec, tuple(sorted(rng.sample(pool, 4)))))
    return out


def _beats(card: Card, best: Card, trumps: Suit | None) -> bool:
    """R-RANK: a higher card of the same suit, or a trump on a non-trump."""
    if card.suit == best.suit:
        return card.rank > best.rank
    return trumps is not None and card.suit == trumps


def _winner(played: Sequence[tuple[int, Card]], trumps: Suit | None) -> int:
    best_seat, best = played[0]
    for seat, card in played[1:]:
        if _beats(card, best, trumps):
            best_seat, best = seat, card
    return best_seat


@dataclass(eq=False, slots=True)
class _Pending:
    """A pending combination and the very table copies it was laid with (R-PENDING)."""

    meld: str
    cards: tuple[Card, ...]
    held: tuple[_TC, ...]


@dataclass(frozen=True, slots=True)
class _Lay:
    """A declaration the simulator may make: doing it, and what it scores."""

    run: Callable[[], None]
    points: int
    pendings: int = 0

    def __call__(self) -> None:
        self.run()


# ================================================================================ one deal
@dataclass(slots=True)
class _Table:
    """What stays the same for the deals of one simulated partie."""

    variant: Variant
    n: int
    rules: frozenset[str]
    tracking: str
    side_of: tuple[int, ...]
    sides: int
    options: SimOptions

    def has(self, rule: str) -> bool:
        return rule in self.rules

    def bezique_rule(self) -> str:
        """Which cards make the bezique: the house rule that changes them, or ""."""
        for rule in ("H-BEZIQUE-PAIR", "H-BEZIQUE-BY-TRUMPS"):
            if rule in self.rules:
                return rule
        return ""


class _DealSim:
    """One deal played out with real cards; ``events`` is the full (cards-level) log."""

    def __init__(self, t: _Table, rng: random.Random, dealer: int,
                 match_totals: Sequence[int]) -> None:
        self.t = t
        self.rng = rng
        self.dealer = dealer
        self.match_totals = list(match_totals)
        v, n = t.variant, t.n
        deck = [c for c in ALL_CARDS for _ in range(v.packs(n))]
        rng.shuffle(deck)
        self.seats: list[int] = list(range(n))  # the players dealt in
        self.hands: list[Counter[Card]] = [Counter() for _ in range(n)]
        # R-DEAL: dealt in seating order from the player after the dealer.
        for k in range(v.hand_size * n):
            self.hands[(dealer + 1 + k) % n][deck.pop()] += 1
        self.turn_up: Card | None = deck.pop() if v.turn_up else None
        self.original_turn_up = self.turn_up
        self.stock: list[Card] = deck  # drawn from the end; the turn-up is drawn last
        self.trumps: Suit | None = self.turn_up.suit if self.turn_up else None
        self.keep: list[set[Card]] = [set() for _ in range(n)]
        self.duties: list[tuple[int, frozenset[Card]]] = []  # (seat, cards shown lacking)
        self.revokes: list[tuple[int, int]] = []  # (event index, seat) of proven revokes
        if rng.random() < t.options.rich_rate:
            self.rig(rng.randrange(n))
        elif v.carte_blanche_points and rng.random() < t.options.blank_rate:
            self.deal_blank(rng.randrange(n))
        self.tables: list[list[_TC]] = [[] for _ in range(n)]
        self.pending: list[list[_Pending]] = [[] for _ in range(n)]
        self.shown_sevens = [0] * n
        self.seven_exchanged = False
        self.tricks_won = [0] * n
        self.brisques = [0] * n
        self.last_winner: int | None = None
        self.phase2 = False
        self.events: list[Event] = []
        self.phase2_at: int | None = None  # index in events of the first phase-2 trick
        self.score = [0] * t.sides
        self.kept = [0] * t.sides  # brisques and the last trick: "all points" keeps them
        self.partie_by_meld: int | None = None
        self.bonus_winner: int | None = None
        self.bonus_event = -1  # index in events of the trick that wins the last-trick bonus
        self.final_winner: int | None = None
        self.combinations_scored = 0  # numbers each scored combination (R-REFORM)
        self.blank: list[int] = []  # showed carte blanche, no court card drawn since
        if self.turn_up is not None and self.turn_up.rank is Rank.SEVEN:
            self.score[t.side_of[dealer]] += v.dealer_seven_points  # R-DEALER-SEVEN

    def rig(self, p: int) -> None:
        """A rich deal: p is dealt the cards of one combination (any kind alike), taken
        from the stock or the other hands in exchange for p's other cards. Still a deal a
        shuffle could give; it only makes the rare combinations common enough to test."""
        rng, v = self.rng, self.t.variant
        specs = sorted(v.combinations, key=lambda c: c.id)
        spec = rng.choice(specs)
        if spec.shape == "suit":
            suit = self.trumps if spec.suit == "trump" and self.trumps else rng.choice(
                [s for s in Suit if s is not self.trumps] if spec.suit == "plain"
                and self.trumps else list(Suit))
            want = Counter({Card(r, suit): spec.copies for r in spec.ranks})
        elif spec.shape == "bezique":
            rule = self.t.bezique_rule()
            pair = _bezique_cards(self.trumps, rule)
            if pair is None:  # H-BEZIQUE-BY-TRUMPS before trumps: one suit's pair, at random
                pair = _bezique_cards(rng.choice(list(Suit)), rule)
            if pair is None:
                return
            q, j = pair
            want = Counter({q: spec.copies, j: spec.copies})
        elif spec.suit == "trump":  # trumps are fixed later: a suit is chosen at random
            want = Counter({Card(spec.ranks[0], self.trumps or rng.choice(list(Suit))):
                            spec.copies})
        else:
            want = Counter(rng.choices([Card(spec.ranks[0], s) for s in Suit], k=4))
        if sum(want.values()) > v.hand_size:
            return
        self.keep[p] = set(want)  # and p holds on to them until they are declared
        self.give(p, want)

    def deal_blank(self, p: int) -> None:
        """p is dealt a hand without king, queen or jack (carte blanche, rare by chance): each
        court card swapped for a card of the stock that is none, the stock reshuffled."""
        court = (Rank.KING, Rank.QUEEN, Rank.JACK)
        hand = self.hands[p]
        for card in [c for c in hand.elements() if c.rank in court]:
            spots = [i for i, c in enumerate(self.stock) if c.rank not in court]
            if not spots:
                return
            i = self.rng.choice(spots)
            hand[card] -= 1
            hand[self.stock[i]] += 1
            self.stock[i] = card
        hand += Counter()  # drop the zero counts
        self.rng.shuffle(self.stock)

    def give(self, p: int, want: Counter[Card]) -> None:
        """p gets the cards of ``want`` from the stock or the other hands, in exchange for
        p's other cards (a deal a shuffle could give)."""
        rng = self.rng
        hand = self.hands[p]
        for card, k in want.items():
            while hand[card] < k:
                spare = [c for c in sorted(hand.elements()) if hand[c] > want[c]]
                places: list[Counter[Card] | None] = [
                    h for q, h in enumerate(self.hands) if q != p and h[card] > 0]
                if card in self.stock:
                    places.append(None)
                if not spare or not places:
                    return
                give = rng.choice(spare)
                place = rng.choice(places)
                hand[give] -= 1
                hand[card] += 1
                if place is None:
                    self.stock[self.stock.index(card)] = give
                else:
                    place[card] -= 1
                    place[give] += 1
                hand += Counter()  # drop zero counts
                self.hands[p] = hand
        for h in self.hands:
            for c in [c for c, k in h.items() if k <= 0]:
                del h[c]

    # ------------------------------------------------------------------------- helpers
    @property
    def trumps_open(self) -> bool:
        return self.t.variant.fix_trumps_by_marriage and self.trumps is None

    def pool(self, p: int) -> list[_TC]:
        """Declared cards p may build on: their own (and the partner's, H-PARTNER-BUILD)."""
        pool = list(self.tables[p])
        if self.t.has("H-PARTNER-BUILD"):
            for seat in range(self.t.n):
                if seat != p and self.t.side_of[seat] == self.t.side_of[p]:
                    pool.extend(self.tables[seat])
        return pool

    def copies_for(self, p: int, need: Counter[Card], meld: str,
                   allowed: Callable[[_TC], bool] | None = None) -> list[_TC] | None:
        """The copies a declaration takes, as the engine takes them (copy_choice.py): for each
        card the first ``allowed`` copies in the order of preference."""
        classes = self.t.has("H-REUSE-CLASSES")
        spec = self.t.variant.combination(meld)

        def against(tc: _TC) -> int:  # the score a reuse of this copy must beat
            return max((pts for m, pts in tc.scored.items()
                        if not classes or spec is None
                        or getattr(self.t.variant.combination(m), "family", None) == spec.family),
                       default=0)

        return choose_copies(self.pool(p), need, face=lambda tc: tc.card, allowed=allowed,
                             prefer=lambda tc: (meld in tc.scored, against(tc),
                                                max(tc.scored.values(), default=0)))

    def reuse_ok(self, copies: Sequence[_TC], spec: CombinationSpec) -> bool:
        """R-REUSE: a declared card only in a different kind scoring more than each kind it
        scored in (Rubicon …: any other kind); H-REUSE-CLASSES: freely across classes, within
        one only to a greater one. Judged copy by copy, as the engine judges them."""
        classes = self.t.has("H-REUSE-CLASSES")
        kinds = self.t.variant.reuse == "kinds" and not classes
        for tc in copies:
            for meld, points in tc.scored.items():
                if meld == spec.id:
                    # R-REFORM (Rubicon): the same kind again once a card of that
                    # combination was played and another laid from the hand
                    if self.t.variant.reform and meld in tc.reformable:
                        continue
                    return False
                if kinds:
                    continue  # Rubicon: any other kind, whatever its points
                if classes:
                    old = self.t.variant.combination(meld)
                    if old is not None and old.family == spec.family and spec.points <= points:
                        return False
                elif spec.points <= points:
                    return False
        return True

    def points_for(self, inst: _Inst) -> int:
        if self.trumps_open and inst.spec.suit == "trump":
            return self.t.variant.fixing_marriage_points.get(inst.meld, inst.spec.points)
        return inst.spec.points

    def nt_bad(self, inst: _Inst) -> bool:
        """R-NT-TRUMPS: no sequence before trumps are fixed (Rubicon: a sequence fixes them,
        R-TRUMPS-BY-MELD)."""
        if self.t.variant.fix_trumps_by_sequence:
            return False
        return self.trumps_open and inst.spec.shape == "suit" and len(inst.spec.ranks) > 2

    def emit(self, ev: Event) -> None:
        self.events.append(ev)

    # ------------------------------------------------------------------------- playing
    def play(self) -> None:
        t = self.t
        v = t.variant
        stock_tricks = v.stock_tricks(t.n)
        total = v.total_tricks(t.n)
        leader = (self.dealer + 1) % t.n
        penalty_at = (
            self.rng.randrange(1, total + 1)
            if self.rng.random() < t.options.penalty_rate else None
        )
        if v.cut_bonus:
            # R-CUT-BONUS (RULES.md §8): before the deal the dealer who lifted exactly 24
            # scores the dealer's bonus, the non-dealer who guessed the number cut the other
            for seat in range(t.n):
                if self.rng.random() < t.options.cut_bonus_rate:
                    kind = "dealer" if seat == self.dealer else "guess"
                    self.score[t.side_of[seat]] += v.cut_bonus[kind]
                    self.emit(CutBonus(seat))
        if v.carte_blanche_points:
            # R-CARTE-BLANCHE: a hand without king, queen or jack, shown before trick 1
            court = (Rank.KING, Rank.QUEEN, Rank.JACK)
            for seat in range(t.n):
                if not any(c.rank in court for c in self.hands[seat].elements()):
                    self.score[t.side_of[seat]] += v.carte_blanche_points
                    self.emit(CarteBlanche(seat))
                    self.blank.append(seat)
        for number in range(1, total + 1):
            if number == stock_tricks + 1:
                self.begin_phase_two()
            winner = self.trick(number, leader)
            leader = winner
            bonus_at = stock_tricks if t.has("H-LAST-TRICK-24") else total
            if number == bonus_at:  # R-LAST-TRICK / H-LAST-TRICK-24, scored with the trick
                self.bonus_winner = winner
                self.bonus_event = len(self.events) - 1
                self.score[t.side_of[winner]] += v.last_trick_points
                self.kept[t.side_of[winner]] += v.last_trick_points
            if number == total:
                self.final_winner = winner
                if t.tracking == "cards":  # counted from the tricks, with the final one
                    self.score_brisques()
            if number <= stock_tricks:
                self.maybe_declare(winner)
                self.draw(winner)
                if number < stock_tricks:
                    self.carte_blanche_again()
            if number == penalty_at:
                self.penalty()
        if t.tracking != "cards":  # the deal's closing brisques event
            self.score_brisques()

    def carte_blanche_again(self) -> None:
        """H-CARTE-BLANCHE-REPEAT: after a draw, a player who showed carte blanche and has
        still drawn no court card shows the hand again (scoring the same); once a court card
        is drawn, never again in the deal. Not after the last draw from the stock."""
        t = self.t
        if not t.has("H-CARTE-BLANCHE-REPEAT") or not self.blank:
            return
        court = (Rank.KING, Rank.QUEEN, Rank.JACK)
        for seat in list(self.blank):
            if any(c.rank in court for c in self.hands[seat].elements()):
                self.blank.remove(seat)
            elif self.rng.random() < 0.7:
                self.score[t.side_of[seat]] += t.variant.carte_blanche_points
                self.emit(CarteBlanche(seat))

    def score_brisques(self) -> None:
        for seat in range(self.t.n):
            points = self.brisques[seat] * self.t.variant.brisque_points
            self.score[self.t.side_of[seat]] += points
            self.kept[self.t.side_of[seat]] += points

    def begin_phase_two(self) -> None:
        """R-PHASE2: the declared cards go back into the hands."""
        self.phase2 = True
        self.phase2_at = len(self.events)
        self.keep = [set() for _ in range(self.t.n)]
        for p in range(self.t.n):
            for tc in self.tables[p]:
                self.hands[p][tc.card] += 1
            self.tables[p].clear()

    def choices(self, p: int) -> list[tuple[Card, bool]]:
        """Every card p may play now, with whether it comes off the table."""
        out = [(c, False) for c in self.hands[p] if self.hands[p][c] > 0]
        seen = set()
        for tc in self.tables[p]:
            if tc.card not in seen:
                seen.add(tc.card)
                out.append((tc.card, True))
        return out

    def legal_phase_two(self, p: int, lead: Card, best: Card) -> list[Card]:
        """R-PHASE2: follow suit, else trump, else anything; H-MUST-WIN: win if able."""
        hand = [c for c in self.hands[p] if self.hands[p][c] > 0]
        follow = [c for c in hand if c.suit == lead.suit]
        trumps = self.trumps
        trumping = [c for c in hand if trumps is not None and c.suit == trumps]
        legal = follow or trumping or hand
        if self.t.has("H-MUST-WIN"):
            winning = [c for c in legal if _beats(c, best, trumps)]
            if winning:
                legal = winning
        return legal

    def trick(self, number: int, leader: int) -> int:
        t, rng = self.t, self.rng
        played: list[tuple[int, Card]] = []
        from_table: set[int] = set()
        best: Card | None = None
        for k in range(t.n):
            seat = (leader + k) % t.n
            if self.phase2:
                if best is None:
                    hand = sorted(c for c in self.hands[seat] if self.hands[seat][c] > 0)
                    card = rng.choice(hand)
                else:
                    legal = self.legal_phase_two(seat, played[0][1], best)
                    wrong = sorted(c for c in self.hands[seat]
                                   if self.hands[seat][c] > 0 and c not in legal)
                    if wrong and rng.random() < t.options.revoke_rate:
                        card = rng.choice(wrong)  # a sloppy player: a revoke (P-REVOKE)
                    else:
                        card = rng.choice(sorted(legal))
                off = False
            else:
                opts = self.choices(seat)
                weights = [
                    t.options.table_play_weight if off
                    else self.hands[seat][c] * (t.options.low_card_weight if c.rank < Rank.JACK
                                                else 0.02 if c in self.keep[seat] else 1.0)
                    for c, off in opts
                ]
                card, off = rng.choices(opts, weights)[0]
            self.remove_card(seat, card, off)
            if off:
                from_table.add(seat)
            played.append((seat, card))
            if best is None or _beats(card, best, self.trumps):
                best = card
        winner = _winner(played, self.trumps)
        if self.phase2:
            self.track_revokes(played)
        self.tricks_won[winner] += 1
        self.brisques[winner] += sum(1 for _, c in played if c.is_brisque)
        if (
            t.has("H-SEVEN-EXTRA") and t.tracking == "cards" and self.trumps is not None
            and any(s == winner and c == Card(Rank.SEVEN, self.trumps) for s, c in played)
        ):
            self.score[t.side_of[winner]] += t.variant.seven_points
        self.last_winner = winner
        self.emit(Trick(winner, dict(played), frozenset(from_table)))
        return winner

    def track_revokes(self, played: Sequence[tuple[int, Card]]) -> None:
        """R-PHASE2: what each follower's card shows they lacked; a later play of such a card
        proves a revoke, which the referee should propose as P-REVOKE (cards tracking)."""
        index = len(self.events)  # the index this trick's event gets
        for seat, card in played:
            for duty in [d for d in self.duties if d[0] == seat and card in d[1]]:
                self.duties.remove(duty)
                self.revokes.append((index, seat))
        trumps = self.trumps
        lead = played[0][1]
        best = lead
        for seat, card in played[1:]:
            suit_cards = {Card(r, lead.suit) for r in Rank}
            lacked: set[Card] = set()
            if card.suit != lead.suit:
                lacked |= suit_cards  # did not follow suit
                if trumps is not None and card.suit != trumps:
                    lacked |= {Card(r, trumps) for r in Rank}  # nor trump
            if self.t.has("H-MUST-WIN") and not _beats(card, best, trumps):
                if card.suit == lead.suit == best.suit:
                    lacked |= {c for c in suit_cards if c.rank > best.rank}
                elif trumps is not None and card.suit == trumps == best.suit:
                    lacked |= {Card(r, trumps) for r in Rank if r > best.rank}
            if lacked:
                self.duties.append((seat, frozenset(lacked)))
            if _beats(card, best, trumps):
                best = card

    def remove_card(self, seat: int, card: Card, off_table: bool) -> None:
        if off_table:
            copies = [tc for tc in self.tables[seat] if tc.card == card]
            copies.sort(key=lambda tc: -len(tc.scored))
            top = copies[0]
            table = self.tables[seat]
            # the first copy equal to it (same card, same history), as list.remove finds it
            at = next(i for i, tc in enumerate(table) if tc.same(top))
            del table[at]
            # R-REFORM: the rest of each combination it was part of may form that kind again
            for meld, group in top.groups.items():
                for tc in table:
                    if tc.groups.get(meld) == group:
                        tc.reformable.add(meld)
            return
        self.hands[seat][card] -= 1
        if self.hands[seat][card] == 0:
            del self.hands[seat][card]
        if self.trumps is not None and card == Card(Rank.SEVEN, self.trumps):
            self.shown_sevens[seat] = max(0, self.shown_sevens[seat] - 1)

    def draw(self, winner: int) -> None:
        """R-DRAW: the winner first, then the others in seating order; the turn-up last."""
        for k in range(self.t.n):
            if not self.stock:
                if self.turn_up is not None:
                    self.hands[(winner + k) % self.t.n][self.turn_up] += 1
                    self.turn_up = None
                continue
            self.hands[(winner + k) % self.t.n][self.stock.pop()] += 1

    def penalty(self) -> None:
        t = self.t
        offences = sorted(t.variant.penalties)
        if not offences:
            return
        p = self.rng.choice(self.seats)
        offence = self.rng.choice(offences)
        side = t.side_of[p]
        amount = t.variant.penalties[offence]
        if amount == "all":
            # RULES.md §5: the deal's points so far are wiped, brisques and the last trick
            # still count; H-FALSE-ALL-MATCH: the whole match total goes to 0.
            if t.has("H-FALSE-ALL-MATCH"):
                points = max(0, self.match_totals[side] + self.score[side])
            else:
                points = max(0, self.score[side] - self.kept[side])
        else:
            points = int(amount)
        if t.has("H-PENALTY-TO-OPPONENT"):
            # Each opposing side receives the amount; a false declaration still wipes the
            # offender's points (RULES.md §5).
            for other in range(t.sides):
                if other != side:
                    self.score[other] += points
            if amount == "all":
                self.score[side] -= points
        else:
            self.score[side] -= points
        self.emit(Penalty(p, offence))

    # ------------------------------------------------------------------------- declaring
    def maybe_declare(self, p: int) -> None:
        t, rng = self.t, self.rng
        if t.has("H-FOUR-TRICKS") and self.tricks_won[p] < 4:
            return
        if rng.random() >= t.options.declare_rate:
            return
        seven = self.seven_option(p)
        if seven == "exchange" and t.has("H-SEVEN-FREE") and rng.random() < 0.7:
            self.declare_seven(p, exchange=True)  # besides the trick's declaration
            seven = self.seven_option(p)
        options: list[Callable[[], None]] = []
        if seven is not None:
            options.append(lambda: self.declare_seven(p, exchange=seven == "exchange"))
        for q in self.pending_options(p):
            options.extend([self._scorer(p, q)] * 3)
        laid = self.new_declaration(p)
        if laid is not None:
            options.extend([laid] * 3)
        if options:
            rng.choice(options)()

    def _scorer(self, p: int, q: _Pending) -> Callable[[], None]:
        return lambda: self.score_pending(p, q)

    def seven_option(self, p: int) -> str | None:
        v = self.t.variant
        if self.trumps is None or not v.seven_points:
            return None
        seven = Card(Rank.SEVEN, self.trumps)
        if self.hands[p][seven] <= self.shown_sevens[p]:
            return None
        exchange = (not self.seven_exchanged and self.turn_up is not None
                    and self.turn_up != seven)
        return "exchange" if exchange else "show"

    def declare_seven(self, p: int, exchange: bool) -> None:
        """R-SEVEN: the first seven is exchanged for the turn-up, later ones are shown."""
        assert self.trumps is not None
        seven = Card(Rank.SEVEN, self.trumps)
        if exchange:
            assert self.turn_up is not None
            self.hands[p][seven] -= 1
            self.hands[p][self.turn_up] += 1
            self.turn_up = seven
            self.seven_exchanged = True
        else:
            self.shown_sevens[p] += 1
        points = self.t.variant.seven_points
        if exchange and self.t.has("H-SEVEN-TWENTY"):
            points = 20  # H-SEVEN-TWENTY: 10 for holding it, 10 for making it the turn-up
        self.score[self.t.side_of[p]] += points
        self.emit(Seven(p))

    def pending_options(self, p: int) -> list[_Pending]:
        """R-PENDING: pending combinations whose very cards are still on the table and have
        not scored that kind since. Only the first pending of the same kind and cards is
        offered: the record cannot tell two of them apart."""
        out: list[_Pending] = []
        pool = self.pool(p)
        seen: set[tuple[str, tuple[Card, ...]]] = set()
        for q in self.pending[p]:
            if (q.meld, q.cards) in seen:
                continue
            seen.add((q.meld, q.cards))
            spec = self.t.variant.combination(q.meld)
            if spec is None or self.nt_bad(_Inst(spec, q.cards)):
                continue
            if not all(any(tc is x for x in pool) for tc in q.held):
                continue
            if any(q.meld in tc.scored for tc in q.held):
                continue
            out.append(q)
        return out

    def score_pending(self, p: int, q: _Pending) -> None:
        spec = self.t.variant.combination(q.meld)
        assert spec is not None
        points = self.points_for(_Inst(spec, q.cards))
        if self.trumps_open and spec.suit == "trump":
            self.trumps = q.cards[0].suit
        self.combinations_scored += 1
        for tc in q.held:
            tc.mark(q.meld, points, self.combinations_scored)
        self.pending[p] = [x for x in self.pending[p] if x is not q]
        self.gain(p, spec, points)
        self.emit(Declare(p, (), q.cards, q.meld))

    def gain(self, p: int, spec: CombinationSpec, points: int) -> None:
        side = self.t.side_of[p]
        self.score[side] += points
        if spec.wins_partie and self.partie_by_meld is None:
            self.partie_by_meld = side

    def new_declaration(self, p: int) -> _Lay | None:
        """A random legal declaration laying at least one card from p's hand, or None."""
        t, rng = self.t, self.rng
        hand = self.hands[p]
        pool = self.pool(p)
        on_table = Counter(tc.card for tc in pool)
        found = _find(hand + on_table, t.variant, self.trumps, self.trumps_open,
                      t.bezique_rule(), rng)
        rng.shuffle(found)
        plain: list[_Lay] = []
        reusing: list[_Lay] = []
        pending: list[_Lay] = []
        for inst in found:
            if self.nt_bad(inst):
                continue
            need = inst.counts()
            new: Counter[Card] = Counter()
            table: Counter[Card] = Counter()
            reuse = not t.has("H-ALL-NEW") and rng.random() < t.options.reuse_rate
            for card, k in need.items():
                least = max(0, k - hand[card])
                most = 0 if t.has("H-ALL-NEW") else min(k, on_table[card])
                if least > most:
                    break
                from_table = rng.randint(least, most) if reuse else least
                table[card] += from_table
                new[card] += k - from_table
            else:
                new, table = +new, +table
                if not new:
                    continue
                lay = self.candidate(p, inst, new, table)
                if lay is not None:
                    (reusing if table else plain).append(lay)
                extra = self.pending_extra(p, inst, new, found)
                if extra is not None:
                    lay = self.candidate(p, inst, new + extra, table)
                    if lay is not None and lay.pendings:
                        pending.append(lay)
        every = plain + reusing + pending
        if every and rng.random() < t.options.greedy_rate:
            return max(every, key=lambda lay: lay.points)
        for group, rate in ((pending, t.options.pending_rate), (reusing, t.options.reuse_rate)):
            if group and rng.random() < rate:
                return rng.choice(group)
        return rng.choice(every) if every else None

    def candidate(self, p: int, inst: _Inst, new: Counter[Card], table: Counter[Card]
                  ) -> _Lay | None:
        """Laying ``new`` with ``table`` cards to score ``inst``, if the rules allow it. The
        record cannot say which laid card goes where; it is read as the engine reads it: the
        scored combination takes the new cards first (RULES.md R-NEW-CARD, R-REUSE)."""
        need = inst.counts()
        from_new = Counter({c: min(k, new[c]) for c, k in need.items() if new[c]})
        if not from_new:
            return None  # R-NEW-CARD: the combination scored needs a newly laid card
        copies = self.copies_for(p, need - from_new, inst.meld,
                                 lambda tc: self.reuse_ok([tc], inst.spec))
        if copies is None or not self.reuse_ok(copies, inst.spec):
            return None
        pendings = self.pendings_of(p, inst, new, table)
        if pendings is None:
            return None
        return _Lay(lambda: self.lay(p, inst, new, table, from_new, copies, pendings),
                    inst.spec.points, len(pendings))

    def pending_extra(self, p: int, main: _Inst, new: Counter[Card],
                      found: Sequence[_Inst]) -> Counter[Card] | None:
        """Cards from the hand that, laid with the main combination, form another one."""
        if self.trumps_open:
            return None
        left = self.hands[p] - new
        others = [o for o in found if o is not main]
        self.rng.shuffle(others)
        for other in others:
            extra = other.counts() - main.counts()
            if extra and _within(extra, left) and sum(extra.values()) < len(other.cards):
                return extra
        return None

    def pendings_of(self, p: int, main: _Inst, new: Counter[Card], table: Counter[Card]
                    ) -> list[tuple[_Inst, list[_TC], Counter[Card]]] | None:
        """R-PENDING: the other combinations these cards form become pending; None when a
        laid card belongs to none (R-NEW-CARD)."""
        combined = new + table
        need = main.counts()
        pendings: list[tuple[_Inst, list[_TC], Counter[Card]]] = []
        if combined != need:
            every = _find(combined, self.t.variant, self.trumps, self.trumps_open,
                          self.t.bezique_rule(), self.rng)
            for other in _all_rank_picks(every, combined):
                oc = other.counts()
                if _within(oc, need) or _within(oc, table) or self.nt_bad(other):
                    continue
                other_new = Counter({c: min(k, new[c]) for c, k in oc.items() if new[c]})
                copies = self.copies_for(p, oc - other_new, other.meld,
                                         _not_scored_in(other.meld))
                if copies is None or any(other.meld in tc.scored for tc in copies):
                    continue
                if any(q.meld == other.meld and q.cards == other.cards for q, _, _ in pendings):
                    continue
                pendings.append((other, copies, other_new))
        for card, k in combined.items():
            if k > max([need[card], *(q.counts()[card] for q, _, _ in pendings)]):
                return None
        return pendings

    def lay(self, p: int, inst: _Inst, new: Counter[Card], table: Counter[Card],
            from_new: Counter[Card], copies: list[_TC],
            pendings: list[tuple[_Inst, list[_TC], Counter[Card]]]) -> None:
        points = self.points_for(inst)
        if self.trumps_open and inst.spec.suit == "trump":
            self.trumps = inst.cards[0].suit  # R-NT-TRUMPS
        laid = [_TC(c) for c in sorted(new.elements())]
        for tc in laid:
            self.hands[p][tc.card] -= 1
            if self.hands[p][tc.card] == 0:
                del self.hands[p][tc.card]
        self.tables[p].extend(laid)
        taken = list(copies)
        remaining = Counter(from_new)
        for tc in laid:
            if remaining[tc.card]:
                remaining[tc.card] -= 1
                taken.append(tc)
        self.combinations_scored += 1
        for tc in taken:
            tc.mark(inst.meld, points, self.combinations_scored)
        for q, held_copies, q_new in pendings:
            held = list(held_copies)
            wanted = Counter(q_new)
            for tc in laid:
                if wanted[tc.card]:
                    wanted[tc.card] -= 1
                    held.append(tc)
            self.pending[p].append(_Pending(q.meld, q.cards, tuple(held)))
        self.gain(p, inst.spec, points)
        if self.keep[p] <= set(inst.cards):
            self.keep[p] = set()
        self.emit(Declare(p, tuple(sorted(new.elements())), tuple(sorted(table.elements())),
                          inst.meld))

    # ------------------------------------------------------------------------- the record
    def record_events(self) -> list[Event]:
        """The deal's events at the partie's tracking level."""
        t = self.t
        out: list[Event] = []
        for i, ev in enumerate(self.events):
            if i == self.phase2_at and t.tracking == "melds":
                out.append(StockExhausted())
            if isinstance(ev, Trick):
                if t.tracking == "melds":
                    if i == self.bonus_event:
                        out.append(LastTrick(ev.winner))
                    continue
                if t.tracking == "tricks":
                    ev = Trick(ev.winner)
            out.append(ev)
        counts = Brisques({seat: k for seat, k in enumerate(self.brisques) if k})
        if t.tracking != "cards" or self.rng.random() < t.options.brisques_with_cards:
            out.append(counts)  # needed with melds and tricks, optional with cards
        return out


def _all_rank_picks(found: Sequence[_Inst], cards: Counter[Card]) -> list[_Inst]:
    """``found`` with every four-of-a-kind pick instead of one random pick."""
    from itertools import combinations_with_replacement

    out = [i for i in found if i.spec.shape != "rank" or i.spec.suit == "trump"]
    for inst in found:
        if inst.spec.shape != "rank" or inst.spec.suit == "trump":
            continue
        rank = inst.spec.ranks[0]
        avail = sorted(c for c in cards if c.rank is rank)
        seen: set[tuple[Card, ...]] = set()
        for pick in combinations_with_replacement(avail, 4):
            if _within(Counter(pick), cards) and pick not in seen:
                seen.add(pick)
                out.append(_Inst(inst.spec, tuple(sorted(pick))))
    return out


# ================================================================================ showings
# The multi-pack joker variant (engine "showings", docs/joker-multipack.md): no tricks are
# kept, the winner of a lead shows one combination, its value escalates. Written from the
# reading and the variant's data, not from referee/showings.py.
_SLOT_RANKS = {"A": Rank.ACE, "10": Rank.TEN, "K": Rank.KING, "Q": Rank.QUEEN, "J": Rank.JACK}


def showings_pack(v: Variant, n: int) -> list[Card]:
    """J-PACK: ``pack_ranks`` in four suits times the packs, the extra nines, the jokers."""
    deck: list[Card] = []
    for card in ALL_CARDS:
        deck.extend([card] * v.copies(card, n))
    deck.extend([JOKER] * v.jokers)
    return deck


def showing_value(spec: ShowingSpec, nth: int, before: int, size: int) -> int:
    """What a showing scores (docs/joker-multipack.md, "the escalation tables").

    ``nth``: the player's n-th showing of this kind this deal (1 = the first); ``before``:
    the cards of this set the player showed before; ``size``: the cards shown now.
    """
    if spec.kind == "series":
        # "первый — в 4 очка, второй — в 8, третий — в 16 …": the table, then doubling
        if nth <= len(spec.values):
            return spec.values[nth - 1]
        return spec.values[-1] * (1 << (nth - len(spec.values)))
    if spec.kind == "repeat":
        # "показаны дважды … вдвойне, трижды — втройне"
        return nth * spec.values[0]
    # a set, card by card: the fourth card makes the set (values[0]), the fifth adds
    # values[1], the sixth values[2] …; the first three score nothing by themselves
    total = 0
    for position in range(before + 1, before + size + 1):
        if position >= 4:
            total += spec.values[position - 4]
    return total


def _lead_beats(card: Card, best: Card, trumps: Suit | None) -> bool:
    """J-LEAD: whoever beats the card led wins the lead, ties to the card led. A joker has
    no suit and no rank in play (the seed gives none): it beats nothing, anything beats it."""
    if card.is_joker:
        return False
    if best.is_joker:
        return True
    return _beats(card, best, trumps)


@dataclass(frozen=True, slots=True)
class _Showing:
    """A showing the simulator may make: its kind, the cards laid and built on, its value."""

    spec: ShowingSpec
    new: Counter[Card]
    table: Counter[Card]
    points: int


class _ShowingsSim(_DealSim):
    """One deal of a showings variant played out with real cards: 18 cards to each player
    dealt in (three at most; with four the dealer sits out), a non-joker turn-up, leads,
    draws, and after each lead won while the stock lasts at most one showing that the
    winner's hand and table really hold."""

    def __init__(self, t: _Table, rng: random.Random, dealer: int,
                 match_totals: Sequence[int]) -> None:
        self.t = t
        self.rng = rng
        self.dealer = dealer
        self.match_totals = list(match_totals)
        v, n = t.variant, t.n
        order = [(dealer + 1 + k) % n for k in range(n)]
        sits_out = n > v.active_players(n)  # J-FOUR
        self.seats = [seat for seat in order if not (sits_out and seat == dealer)]
        deck = showings_pack(v, n)
        rng.shuffle(deck)
        self.hands = [Counter() for _ in range(n)]
        for k in range(v.hand_size * len(self.seats)):
            self.hands[self.seats[k % len(self.seats)]][deck.pop()] += 1
        turn_up = deck.pop()
        while turn_up.is_joker:  # J-JOKER-TURN-UP: it goes under the stock, the next is turned
            deck.insert(0, turn_up)
            turn_up = deck.pop()
        self.turn_up = turn_up
        self.original_turn_up = turn_up
        self.stock = deck
        self.trumps = turn_up.suit
        self.keep = [set() for _ in range(n)]
        self.duties = []
        self.revokes = []  # no cards tracking here: no revoke can be proved
        self.tables = [[] for _ in range(n)]
        self.pending = [[] for _ in range(n)]
        self.shown_sevens = [0] * n
        self.seven_exchanged = False
        self.tricks_won = [0] * n
        self.brisques = [0] * n
        self.last_winner = None
        self.phase2 = False
        self.events = []
        self.phase2_at = None
        self.score = [0] * t.sides
        self.kept = [0] * t.sides  # nothing is kept from an "all points" penalty here
        self.partie_by_meld = None
        self.bonus_winner = None  # no last-trick bonus (J-NO-TRICKS)
        self.bonus_event = -1
        self.final_winner = None
        self.shown: list[Counter[str]] = [Counter() for _ in range(n)]
        self.sets: list[Counter[str]] = [Counter() for _ in range(n)]
        if rng.random() < t.options.rich_rate:
            self.rig_showing(rng.choice(self.seats))

    # ------------------------------------------------------------------------- cards
    def slot_cards(self, slot: str) -> tuple[Card, ...]:
        """The cards that fill a slot of a series: trumps, or "BJ" the bezique jack (the
        jack of the other suit of the trump's colour)."""
        assert self.trumps is not None
        if slot == "BJ":
            return (Card(Rank.JACK, self.trumps.same_colour_partner),)
        return (Card(_SLOT_RANKS[slot], self.trumps),)

    def set_card(self, spec: ShowingSpec) -> Card:
        assert self.trumps is not None and spec.rank is not None
        suit = self.trumps.same_colour_partner if spec.bezique_jack else self.trumps
        return Card(spec.rank, suit)

    def rig_showing(self, p: int) -> None:
        """A rich deal: p is dealt the cards of one showing (a set: four to six of them)."""
        specs = sorted(self.t.variant.showings, key=lambda s: s.id)
        if not specs:
            return
        spec = self.rng.choice(specs)
        if spec.kind == "series":
            want = Counter(self.slot_cards(slot)[0] for slot in spec.slots)
        elif spec.kind == "repeat":
            assert spec.rank is not None
            want = Counter(Card(spec.rank, s) for s in Suit)
        else:
            want = Counter({self.set_card(spec): self.rng.randint(4, 6)})
        self.keep[p] = set(want)
        self.give(p, want)

    # ------------------------------------------------------------------------- playing
    def play(self) -> None:
        t = self.t
        v = t.variant
        stock_tricks = v.stock_tricks(t.n)
        total = v.total_tricks(t.n)
        leader = self.seats[0]
        penalty_at = (
            self.rng.randrange(1, total + 1)
            if self.rng.random() < t.options.penalty_rate else None
        )
        for number in range(1, total + 1):
            if number == stock_tricks + 1:
                self.begin_phase_two()
            winner = self.lead(leader)
            leader = winner
            if number == total:
                self.final_winner = winner  # R-TIE: the last lead
            if number <= stock_tricks:
                self.maybe_show(winner)
                self.draw(winner)
            if number == penalty_at:
                self.penalty()

    def lead(self, leader: int) -> int:
        """One lead: each player dealt in plays a card in seating order from the leader.
        While the stock lasts any card (hand or table); after it follow suit, else trump,
        else anything (a joker is of no suit: it follows nothing and trumps nothing)."""
        rng = self.rng
        at = self.seats.index(leader)
        order = self.seats[at:] + self.seats[:at]
        played: list[tuple[int, Card]] = []
        best: Card | None = None
        for seat in order:
            off = False
            if self.phase2:
                hand = sorted(c for c in self.hands[seat] if self.hands[seat][c] > 0)
                if best is not None:
                    lead = played[0][1]
                    follow = [c for c in hand if not c.is_joker and not lead.is_joker
                              and c.suit == lead.suit]
                    trumping = [c for c in hand if not c.is_joker and c.suit == self.trumps]
                    hand = (follow or trumping or hand) if not lead.is_joker else hand
                card = rng.choice(hand)
            else:
                opts = self.choices(seat)
                weights = [self.play_weight(seat, c, off) for c, off in opts]
                card, off = rng.choices(opts, weights)[0]
            self.remove_card(seat, card, off)
            played.append((seat, card))
            if best is None or _lead_beats(card, best, self.trumps):
                best = card
        winner = played[0][0]
        top = played[0][1]
        for seat, card in played[1:]:
            if _lead_beats(card, top, self.trumps):
                winner, top = seat, card
        self.tricks_won[winner] += 1
        self.last_winner = winner
        self.emit(Trick(winner))
        return winner

    def play_weight(self, seat: int, card: Card, off_table: bool) -> float:
        """Phase 1: nines go readily, jokers, kept cards and trumps are held on to."""
        o = self.t.options
        if off_table:
            return o.table_play_weight
        if card.is_joker:
            weight = 0.05
        elif card in self.keep[seat]:
            weight = 0.02
        elif card.rank < Rank.JACK:
            weight = o.low_card_weight
        elif card.suit == self.trumps:
            weight = 0.5
        else:
            weight = 1.0
        return self.hands[seat][card] * weight

    def draw(self, winner: int) -> None:
        """The winner first, then the others dealt in, in seating order; the turn-up last.
        With three players one card stays in the stock (160 = 3 × 53 + 1)."""
        at = self.seats.index(winner)
        for seat in self.seats[at:] + self.seats[:at]:
            if self.stock:
                self.hands[seat][self.stock.pop()] += 1
            elif self.turn_up is not None:
                self.hands[seat][self.turn_up] += 1
                self.turn_up = None

    # ------------------------------------------------------------------------- showing
    def maybe_show(self, p: int) -> None:
        """J-DECLARE: the winner of a lead may show one combination (not after the stock)."""
        t, rng = self.t, self.rng
        if rng.random() >= t.options.declare_rate:
            return
        found = self.showing_options(p)
        if not found:
            return
        if rng.random() < t.options.greedy_rate:
            pick = max(found, key=lambda s: s.points)
        else:
            reusing = [s for s in found if s.table]
            if reusing and rng.random() < t.options.reuse_rate:
                pick = rng.choice(reusing)
            else:
                pick = rng.choice(found)
        self.show(p, pick)

    def showing_options(self, p: int) -> list[_Showing]:
        out: list[_Showing] = []
        for spec in self.t.variant.showings:
            for reuse in (False, True):
                cards = self.build(p, spec, reuse)
                if cards is None:
                    continue
                new, table = cards
                size = sum(new.values()) + sum(table.values())
                points = showing_value(spec, self.shown[p][spec.id] + 1,
                                       self.sets[p][spec.id], size)
                out.append(_Showing(spec, new, table, points))
        return out

    def build(self, p: int, spec: ShowingSpec, reuse: bool
              ) -> tuple[Counter[Card], Counter[Card]] | None:
        """A random way p may show this kind now: (cards from the hand, cards from the
        table), or None. Table cards only if they have not scored this kind; a joker fills
        any slot; at least one new card and one real card (a set shown before may grow by
        a joker alone)."""
        rng = self.rng
        hand = Counter(self.hands[p])
        free: Counter[Card] = Counter(
            tc.card for tc in self.tables[p] if spec.id not in tc.scored) if reuse else Counter()
        new: Counter[Card] = Counter()
        table: Counter[Card] = Counter()

        def take(options: Sequence[Card]) -> bool:
            real = [(c, src) for c in options for src in (hand, free) if src[c] > 0]
            jokers = [(JOKER, src) for src in (hand, free) if src[JOKER] > 0]
            pool = real if real and (not jokers or rng.random() < 0.8) else jokers
            if not pool:
                return False
            card, src = pool[rng.randrange(len(pool))]
            src[card] -= 1
            (new if src is hand else table)[card] += 1
            return True

        already = self.sets[p][spec.id]
        if spec.kind == "series":
            for slot in spec.slots:
                options = self.slot_cards(slot)
                if slot == "J" and spec.jack_may_be_bezique:
                    options += self.slot_cards("BJ")
                if not take(options):
                    return None
        elif spec.kind == "repeat":
            assert spec.rank is not None
            for suit in Suit:
                if not take((Card(spec.rank, suit),)):
                    return None
        else:
            target = self.set_card(spec)
            room = 3 + len(spec.values) - already
            least = max(1, 4 - already)
            have = hand[target] + free[target] + hand[JOKER] + free[JOKER]
            if min(room, have) < least:
                return None
            for _ in range(rng.randint(least, min(room, have))):
                if not take((target,)):
                    return None
        if not new:
            return None  # R-NEW-CARD
        if not any(not c.is_joker for c in (new + table)) and not (
            spec.kind == "set" and already > 0
        ):
            return None  # jokers alone form nothing
        return +new, +table

    def show(self, p: int, s: _Showing) -> None:
        spec = s.spec
        laid = [_TC(c) for c in sorted(s.new.elements())]
        for tc in laid:
            self.hands[p][tc.card] -= 1
            if self.hands[p][tc.card] == 0:
                del self.hands[p][tc.card]
        copies: list[_TC] = []
        for card, k in s.table.items():
            free = [tc for tc in self.tables[p] if tc.card == card and spec.id not in tc.scored]
            free.sort(key=lambda tc: max(tc.scored.values(), default=0))
            copies.extend(free[:k])
        self.tables[p].extend(laid)
        for tc in [*copies, *laid]:
            tc.scored[spec.id] = s.points
        self.shown[p][spec.id] += 1
        if spec.kind == "set":
            self.sets[p][spec.id] += sum(s.new.values()) + sum(s.table.values())
        self.score[self.t.side_of[p]] += s.points
        if self.keep[p] & set(s.new):
            self.keep[p] = set()
        self.emit(Declare(p, tuple(sorted(s.new.elements())), tuple(sorted(s.table.elements())),
                          spec.id))

    # ------------------------------------------------------------------------- the record
    def record_events(self) -> list[Event]:
        """melds: the showings (and penalties) with stock_exhausted where the stock ran out,
        which ends the deal; tricks: a trick per lead as well. No brisques, no last trick."""
        out: list[Event] = []
        melds = self.t.tracking == "melds"
        for i, ev in enumerate(self.events):
            if i == self.phase2_at and melds:
                out.append(StockExhausted())
            if isinstance(ev, Trick) and melds:
                continue
            out.append(ev)
        return out


# ================================================================================ a partie
def simulate_match(
    variant: str,
    seed: int,
    *,
    tracking: str | None = None,
    house_rules: Iterable[str] = (),
    players: int | Sequence[str] | None = None,
    target: int | None = None,
    options: SimOptions | None = None,
    max_deals: int | None = None,
    min_events: int = 0,
    games: int | None = None,
) -> SimulatedMatch:
    """A random legal partie, reproducible from ``seed``.

    ``players``: a count or the names (default: the variant's first count). The partie runs
    until a side wins it (R-TARGET, R-TIE, a partie-winning combination) or ``max_deals``;
    with ``min_events`` it runs until the record holds at least that many events (pass a high
    ``target`` so nobody wins first). ``tracking``: None is the finest level the variant
    offers (:func:`default_tracking`); a level it does not offer is an error. ``games``: the
    games of a match where each deal is a game (Rubicon …; default the variant's), written
    as the record's ``games`` when it is not the default.
    """
    if tracking is not None and tracking not in TRACKINGS:
        raise BeziqueError(f'unknown tracking "{tracking}"; use one of {", ".join(TRACKINGS)}')
    opts = options or SimOptions()
    rules = frozenset(house_rules)
    v = load_variant(variant, rules)
    if tracking is None:
        tracking = default_tracking(variant)
    elif tracking not in v.tracking_levels:
        raise BeziqueError(
            f'{variant} is tracked with {" or ".join(v.tracking_levels)}, not "{tracking}"')
    if players is None:
        names: tuple[str, ...] = NAMES[: v.player_counts[0]]
    elif isinstance(players, int):
        if players not in v.player_counts:
            counts = " or ".join(str(k) for k in v.player_counts)
            raise BeziqueError(f"{variant} is played by {counts} players, not {players}")
        names = NAMES[:players]
    else:
        names = tuple(players)
    n = len(names)
    if v.partnerships(n):
        side_of = tuple(seat % 2 for seat in range(n))
        side_names = tuple(" & ".join(names[s] for s in range(n) if s % 2 == k) for k in (0, 1))
    else:
        side_of = tuple(range(n))
        side_names = names
    goal = v.target(n) if target is None else target
    if games is not None:
        if v.game is None:
            raise BeziqueError(f"{variant} is not played in games: give a target instead")
        if target is not None or games <= 0:
            raise BeziqueError("games must be a whole number above 0, without a target")
    match_games = (games or v.games or 1) if v.game is not None and target is None else None
    t = _Table(v, n, rules, tracking, side_of, len(side_names), opts)
    rng = random.Random(f"{variant}|{seed}|{tracking}|{n}|{','.join(sorted(rules))}")
    dealer = rng.randrange(n)
    deals: list[DealRecord] = []
    scores: list[list[int]] = []
    totals = [0] * len(side_names)
    winner: int | None = None
    revokes: list[tuple[int, int, str]] = []
    events = 0
    limit = max_deals if max_deals is not None else opts.max_deals
    while len(deals) < limit or (min_events and events < min_events):
        sim = (_ShowingsSim if v.engine == "showings" else _DealSim)(t, rng, dealer, totals)
        sim.play()
        evs = sim.record_events()
        events += len(evs)
        if tracking == "cards":
            revokes.extend((len(deals), i, names[seat]) for i, seat in sim.revokes)
        deals.append(DealRecord(dealer, sim.original_turn_up, tuple(evs)))
        deal_score = list(sim.score)
        if v.game is not None:
            bris = [0] * t.sides
            for seat, k in enumerate(sim.brisques):
                bris[t.side_of[seat]] += k * v.brisque_points
            deal_score = _sim_game(v.game, [a - b for a, b in zip(sim.score, bris, strict=True)],
                                   bris)
        scores.append(deal_score)
        totals = [a + b for a, b in zip(totals, deal_score, strict=True)]
        if match_games is not None:
            # R-GAME: after the agreed games the higher total wins; equal totals play on
            if len(deals) >= match_games and totals.count(max(totals)) == 1:
                winner = totals.index(max(totals))
                break
            dealer = (dealer + 1) % n
            continue
        winner = _partie_winner(t, sim, totals, goal)
        if winner is not None:
            break
        dealer = (dealer + 1) % n
    default_target = v.target(n)
    record = MatchRecord(
        variant, names, tracking, tuple(sorted(rules)),
        None if goal == default_target else goal, tuple(deals),
        None if match_games is None or match_games == v.games else match_games,
    )
    per_side = tuple(tuple(s[k] for s in scores) for k in range(len(side_names)))
    return SimulatedMatch(
        record, per_side, winner is not None,
        side_names[winner] if winner is not None else None, side_names, tuple(revokes),
    )


def _sim_game(spec: GameSpec, points: Sequence[int], brisques: Sequence[int]) -> list[int]:
    """RULES.md §8, written again for the simulator (two sides): the higher score adds the
    bonus; brisques count only to break a tie or to keep the loser from the rubicon; tens
    and units are dropped unless that makes the scores equal; a loser under the rubicon line,
    brisques included, gives the winner the rubicon bonus, the loser's points and the
    brisques' value, and scores nothing."""
    a, b = points
    count = spec.brisques == "always"
    if spec.brisques == "tie_or_save":
        low = 0 if a < b else 1
        saved = points[low] < spec.rubicon_under <= points[low] + brisques[low]
        count = a == b or saved
    ex = [p + (brisques[i] if count else 0) for i, p in enumerate(points)]
    if ex[0] == ex[1]:
        return _hundreds(ex) if spec.drop_fractions else ex  # a drawn game: no bonus
    w = 0 if ex[0] > ex[1] else 1
    kept = _hundreds(ex) if spec.drop_fractions else ex
    if kept[0] == kept[1]:
        kept, dropped = ex, False
    else:
        dropped = spec.drop_fractions
    out = [0, 0]
    if points[1 - w] + (brisques[1 - w] if spec.brisques != "never" else 0) < spec.rubicon_under:
        own = _hundreds(points) if dropped else list(points)
        out[w] = own[w] + (own[1 - w] if spec.rubicon_adds_loser else 0)
        out[w] += spec.rubicon_bonus + spec.rubicon_brisques
        return out
    out[w], out[1 - w] = kept[w] + spec.bonus, kept[1 - w]
    return out


def _hundreds(values: Sequence[int]) -> list[int]:
    return [x // 100 * 100 if x >= 0 else -((-x) // 100 * 100) for x in values]


def _partie_winner(t: _Table, sim: _DealSim, totals: Sequence[int], goal: int) -> int | None:
    """R-TARGET, R-CLAIM-AT-END, R-TIE / H-TIE-HIGHER, and a partie-winning combination."""
    if sim.partie_by_meld is not None:
        return sim.partie_by_meld
    reached = [s for s, total in enumerate(totals) if total >= goal]
    if not reached:
        return None
    if len(reached) == 1:
        return reached[0]
    # With melds tracking and H-LAST-TRICK-24 the record only knows the bonus trick's winner.
    last = sim.bonus_winner if t.tracking == "melds" else sim.final_winner
    last_side = t.side_of[last] if last is not None else None
    best = max(totals[s] for s in reached)
    leaders = [s for s in reached if totals[s] == best]
    if t.has("H-TIE-HIGHER"):
        # the higher total; equal highest totals: the last trick decides among them
        if len(leaders) == 1:
            return leaders[0]
        return last_side if last_side in leaders else None
    if last_side in reached:
        return last_side
    if len(leaders) == 1:
        return leaders[0]
    return None


def house_rule_sets(variant: str) -> list[tuple[str, ...]]:
    """A few house-rule combinations worth simulating for a variant (those it accepts)."""
    available = set(load_variant(variant).house_rules_available)
    wanted = [
        (),
        ("H-ALL-NEW", "H-JOKER-TEN-PACKS"),
        ("H-REUSE-CLASSES", "H-SEVEN-FREE", "H-SEVEN-EXTRA", "H-SEVEN-TWENTY"),
        ("H-MUST-WIN", "H-LAST-TRICK-24", "H-TIE-HIGHER"),
        ("H-FOUR-TRICKS", "H-BEZIQUE-PAIR", "H-NO-PLAIN-SEQUENCE", "H-CARTE-BLANCHE-REPEAT"),
        ("H-PENALTY-TO-OPPONENT", "H-FALSE-ALL-MATCH", "H-PARTNER-BUILD",
         "H-BEZIQUE-BY-TRUMPS"),
    ]
    return [tuple(r for r in rules if r in available) for rules in wanted]


def player_counts(variant: str) -> tuple[int, ...]:
    return load_variant(variant).player_counts


def tracking_levels(variant: str) -> tuple[str, ...]:
    """The tracking levels a variant offers, coarsest first (joker-multipack: no cards)."""
    offered = load_variant(variant).tracking_levels
    return tuple(level for level in TRACKINGS if level in offered)


def default_tracking(variant: str) -> str:
    """The finest level the variant offers: cards, or tricks where cards is not offered."""
    return tracking_levels(variant)[-1]


# ================================================================================ fuzzing
@dataclass(frozen=True, slots=True)
class FuzzOutcome:
    """What replaying one (possibly broken) record did."""

    kind: str  # "ok" (replayed; maybe with rejections), "input" (exit 2), "crash"
    message: str = ""
    rejected: tuple[tuple[int, int, str], ...] = ()
    error: str = ""  # the exception type on a crash
    scores: tuple[tuple[int, ...], ...] = ()  # per side, per deal, when replayed
    # per deal, when replayed: whether its closing facts are recorded. With tricks tracking
    # of joker-multipack a lead after the stock names only its winner, so a lost one shows
    # only here (the deal is a lead short).
    complete: tuple[bool, ...] = ()


def check_text(text: str) -> FuzzOutcome:
    """Read and replay a record's text as ``bezique replay`` does, catching everything."""
    try:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError("record", f"not valid JSON: {e.msg} at line {e.lineno}") from None
        except RecursionError:
            raise RecordError("record", "not valid JSON: nested too deeply") from None
        match = replay_record(parse_record(data))
        result = match.result()
        json.dumps(result.to_json(), ensure_ascii=False)  # what --json prints
        return FuzzOutcome(
            "ok", rejected=tuple((r.deal, r.event, r.rule) for r in result.rejected),
            scores=tuple(side.deal_scores for side in result.sides),
            complete=tuple(deal.complete for deal in match.deals),
        )
    except RecordError as e:
        return FuzzOutcome("input", str(e))
    except BeziqueError as e:  # a BeziqueError is exit 2 too, but should name a place
        return FuzzOutcome("input", str(e), error=type(e).__name__)
    except Exception as e:  # the fuzzer's whole point: nothing else may escape
        return FuzzOutcome("crash", str(e)[:300], error=type(e).__name__)


Mutator = Callable[[dict[str, Any], random.Random], tuple[dict[str, Any] | str, str]]


def _events(obj: dict[str, Any]) -> list[tuple[int, int, dict[str, Any]]]:
    return [
        (d, i, ev) for d, deal in enumerate(obj["deals"]) for i, ev in enumerate(deal["events"])
    ]


def _pick(obj: dict[str, Any], rng: random.Random, kind: str | None = None,
          pred: Callable[[dict[str, Any]], bool] | None = None
          ) -> tuple[int, int, dict[str, Any]] | None:
    found = [
        x for x in _events(obj)
        if (kind is None or x[2].get("type") == kind) and (pred is None or pred(x[2]))
    ]
    return rng.choice(found) if found else None


def _card_codes() -> list[str]:
    return [c.code for c in ALL_CARDS]


def mut_card_not_there(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    """A declaration builds on a table card the player does not have."""
    hit = _pick(obj, rng, "declare")
    if hit is None:
        return obj, "noop"
    ev = hit[2]
    ev.setdefault("table", []).append(rng.choice(_card_codes()))
    return obj, "card_not_there"


def mut_swap_trick_card(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    """A trick names a card its player could not hold."""
    hit = _pick(obj, rng, "trick", lambda e: "cards" in e)
    if hit is None:
        return obj, "noop"
    cards = hit[2]["cards"]
    name = rng.choice(sorted(cards))
    cards[name] = rng.choice(_card_codes())
    return obj, "trick_card"


def mut_out_of_turn(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    """A declaration by another player (not the trick winner)."""
    hit = _pick(obj, rng, "declare")
    if hit is None:
        return obj, "noop"
    others = [p for p in obj["players"] if p != hit[2]["player"]]
    hit[2]["player"] = rng.choice(others)
    return obj, "out_of_turn"


def mut_repeat_declaration(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    """The same declaration again right after itself (a reused card / a second one)."""
    hit = _pick(obj, rng, "declare")
    if hit is None:
        return obj, "noop"
    d, i, ev = hit
    obj["deals"][d]["events"].insert(i + 1, json.loads(json.dumps(ev)))
    return obj, "repeat_declaration"


def mut_rescore_from_table(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    """A declaration repeated with all its cards taken from the table and none new."""
    hit = _pick(obj, rng, "declare", lambda e: bool(e.get("new")))
    if hit is None:
        return obj, "noop"
    d, i, ev = hit
    again = {"type": "declare", "player": ev["player"], "new": [],
             "table": list(ev.get("table", [])) + list(ev["new"])}
    if "meld" in ev:
        again["meld"] = ev["meld"]
    obj["deals"][d]["events"].insert(i + 1, again)
    return obj, "rescore_from_table"


def mut_extra_copy(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    """A declaration lays one more copy of a card than the packs hold."""
    hit = _pick(obj, rng, "declare", lambda e: bool(e.get("new")))
    if hit is None:
        return obj, "noop"
    ev = hit[2]
    packs = load_variant(obj["variant"]).packs(len(obj["players"]))
    card = rng.choice(ev["new"])
    ev["new"] = [c for c in ev["new"] if c != card] + [card] * (packs + 1)
    return obj, "extra_copy"


def mut_delete_event(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    hit = _pick(obj, rng, rng.choice(["trick", None]))
    if hit is None:
        return obj, "noop"
    d, i, _ = hit
    del obj["deals"][d]["events"][i]
    return obj, "delete_event"


def mut_swap_events(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    hit = _pick(obj, rng)
    if hit is None:
        return obj, "noop"
    d, i, _ = hit
    evs = obj["deals"][d]["events"]
    j = rng.randrange(len(evs))
    evs[i], evs[j] = evs[j], evs[i]
    return obj, "swap_events"


def mut_brisques_off(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    hit = _pick(obj, rng, "brisques")
    if hit is None:
        return obj, "noop"
    counts = hit[2]["counts"]
    name = rng.choice(obj["players"])
    counts[name] = max(0, counts.get(name, 0) + rng.choice([-1, 1]))
    return obj, "brisques_off"


def mut_winner(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    hit = _pick(obj, rng, rng.choice(["trick", "last_trick"]))
    if hit is None:
        return obj, "noop"
    hit[2]["winner"] = rng.choice(obj["players"])
    return obj, "winner"


_WEIRD: list[Any] = [
    None, True, False, 0, -1, 1.5, 10**30, -(10**30), "", "x", "QS", [], {}, [None], {"a": 1},
    "\u0000", "𝔄𝔫𝔫𝔞", "é", float("1e308"), 2**63, [[[[[]]]]],
]


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, (*path, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_paths(v, (*path, i)))
    return out


def _set(obj: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        obj = obj[key]
    obj[path[-1]] = value


def mut_wrong_type(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    """Any value anywhere replaced by a value of another type (or a huge number)."""
    paths = [p for p in _paths(obj) if p]
    path = rng.choice(paths)
    _set(obj, path, json.loads(json.dumps(rng.choice(_WEIRD))))
    return obj, "wrong_type"


def mut_huge_number(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    huge = rng.choice([10**18, 10**100, 2**64, -(10**40), 10**6 + 1])
    where = rng.choice(["target", "brisques"])
    if where == "target":
        obj["target"] = huge
    else:
        hit = _pick(obj, rng, "brisques")
        if hit is None:
            return obj, "noop"
        hit[2]["counts"][rng.choice(obj["players"])] = huge
    return obj, "huge_number"


def mut_delete_field(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    paths = [p for p in _paths(obj) if p and isinstance(p[-1], str)]
    path = rng.choice(paths)
    parent = obj
    for key in path[:-1]:
        parent = parent[key]
    del parent[path[-1]]
    return obj, "delete_field"


def mut_unknown_field(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    paths = [p for p in _paths(obj) if isinstance(_get(obj, p), dict)]
    parent = _get(obj, rng.choice(paths))
    parent[rng.choice(["colour", "Winner", "évent", "new ", "x" * 50])] = 1
    return obj, "unknown_field"


def _get(obj: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        obj = obj[key]
    return obj


def mut_unicode_names(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    """Every player renamed consistently to unicode (must replay the same), or one name
    changed in a single place (an unknown player)."""
    fancy = ["Аня", "Борис Ёлкин", "李雷", "👑 Queen", "Zoë\u0301", "\u202eevil", "ﷺ", "a\u0000b"]
    rng.shuffle(fancy)
    mapping = dict(zip(obj["players"], fancy, strict=False))
    if rng.random() < 0.5:
        text = json.dumps(obj, ensure_ascii=False)
        for old, new in mapping.items():
            text = text.replace(json.dumps(old), json.dumps(new, ensure_ascii=False))
        return text, "unicode_rename"
    hit = _pick(obj, rng)
    if hit is None:
        return obj, "noop"
    for key in ("player", "winner"):
        if key in hit[2]:
            hit[2][key] = fancy[0]
    return obj, "unicode_unknown"


def mut_truncate(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    text = json.dumps(obj, ensure_ascii=False)
    return text[: rng.randrange(len(text))], "truncate"


def mut_garble_text(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    text = list(json.dumps(obj, ensure_ascii=False))
    for _ in range(rng.randint(1, 5)):
        text[rng.randrange(len(text))] = rng.choice('{}[]",:0x\\é\u0000 ')
    return "".join(text), "garble"


def mut_long_deal(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    """A deal blown up to about 10,000 events by repeating its declarations and penalties."""
    deal = rng.choice(obj["deals"])
    evs = deal["events"]
    fillers = [e for e in evs if e["type"] in ("declare", "seven", "penalty")]
    if not fillers:
        fillers = [{"type": "penalty", "player": obj["players"][0], "offence": "P-REVOKE"}]
    at = rng.randrange(len(evs) + 1)
    extra = [json.loads(json.dumps(rng.choice(fillers))) for _ in range(10_000 - len(evs))]
    deal["events"] = evs[:at] + extra + evs[at:]
    return obj, "long_deal"


def mut_deep_nesting(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    depth = rng.choice([100, 1000, 100_000])
    return "[" * depth + "]" * depth, "deep_nesting"


def mut_tracking(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    """The record claims another (valid) tracking level than it was written at."""
    obj["tracking"] = rng.choice([t for t in TRACKINGS if t != obj.get("tracking", "melds")])
    return obj, "tracking"


def mut_variant(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    """Another (valid) variant, or a house rule of the variant switched on or off."""
    from referee.variants import variant_ids

    if rng.random() < 0.5:
        obj["variant"] = rng.choice([v for v in variant_ids() if v != obj["variant"]])
        return obj, "variant"
    rules = list(obj.get("house_rules", []))
    available = list(load_variant(obj["variant"]).house_rules_available)
    rule = rng.choice(available) if available else "H-TARGET"
    obj["house_rules"] = [r for r in rules if r != rule] if rule in rules else [*rules, rule]
    return obj, "house_rule"


def mut_games(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    """The match's number of games changed: another count, none, zero, a target beside it."""
    choice = rng.choice(["count", "count", "delete", "zero", "with_target"])
    if choice == "count":
        obj["games"] = rng.choice([1, 2, 3, 5])
    elif choice == "delete":
        obj.pop("games", None)
    elif choice == "zero":
        obj["games"] = 0
    else:
        obj["games"] = obj.get("games", 2)
        obj["target"] = 3000
    return obj, f"games_{choice}"


def mut_cut_bonus(obj: dict[str, Any], rng: random.Random) -> tuple[Any, str]:
    """A cut bonus taken twice, after the first trick or declaration, or where the variant has
    none (R-CUT-BONUS)."""
    if not obj.get("deals"):
        return obj, "noop"
    d = rng.randrange(len(obj["deals"]))
    events = obj["deals"][d].setdefault("events", [])
    player = rng.choice(obj["players"])
    bonus = {"type": "cut_bonus", "player": player}
    given = [i for i, e in enumerate(events)
             if isinstance(e, dict) and e.get("type") == "cut_bonus"]
    if given and rng.random() < 0.5:
        events.insert(given[-1] + 1, dict(events[given[-1]]))
        return obj, "cut_bonus_twice"
    events.insert(rng.randrange(len(events) + 1), bonus)
    return obj, "cut_bonus_anywhere"


MUTATORS: dict[str, Mutator] = {
    "card_not_there": mut_card_not_there,
    "trick_card": mut_swap_trick_card,
    "out_of_turn": mut_out_of_turn,
    "repeat_declaration": mut_repeat_declaration,
    "rescore_from_table": mut_rescore_from_table,
    "extra_copy": mut_extra_copy,
    "delete_event": mut_delete_event,
    "swap_events": mut_swap_events,
    "brisques_off": mut_brisques_off,
    "winner": mut_winner,
    "wrong_type": mut_wrong_type,
    "huge_number": mut_huge_number,
    "delete_field": mut_delete_field,
    "unknown_field": mut_unknown_field,
    "unicode": mut_unicode_names,
    "truncate": mut_truncate,
    "garble": mut_garble_text,
    "long_deal": mut_long_deal,
    "deep_nesting": mut_deep_nesting,
    "tracking": mut_tracking,
    "variant": mut_variant,
    "games": mut_games,
    "cut_bonus": mut_cut_bonus,
}
# Expensive ones are drawn less often.
MUTATOR_WEIGHTS: dict[str, float] = {name: 1.0 for name in MUTATORS} | {
    "long_deal": 0.02, "deep_nesting": 0.05,
}


def mutate(obj: dict[str, Any], rng: random.Random, name: str | None = None
           ) -> tuple[str, str]:
    """A broken copy of a record object, as text, and the mutation's name. One to three
    mutations are stacked unless ``name`` picks exactly one."""
    work: dict[str, Any] | str = json.loads(json.dumps(obj))
    names = list(MUTATORS)
    steps = [name] if name else rng.choices(
        names, [MUTATOR_WEIGHTS[n] for n in names], k=rng.choice([1, 1, 1, 2, 3]))
    done: list[str] = []
    for step in steps:
        if isinstance(work, str):
            break
        try:
            work, label = MUTATORS[step](work, rng)
        except (KeyError, IndexError, TypeError, AttributeError, ValueError):
            label = "noop"  # an earlier mutation broke the shape this one expects
        done.append(label)
    text = work if isinstance(work, str) else json.dumps(work, ensure_ascii=False)
    return text, "+".join(done)


def small_records(seed: int, count: int, *, variants: Sequence[str] | None = None
                  ) -> list[dict[str, Any]]:
    """Short simulated records (one or two deals) of every variant and tracking level, as
    JSON objects: the raw material for fuzzing."""
    from referee.variants import variant_ids

    ids = list(variants or variant_ids())
    rng = random.Random(seed)
    out = []
    for k in range(count):
        variant = ids[k % len(ids)]
        levels = tracking_levels(variant)
        tracking = levels[(k // len(ids)) % len(levels)]
        counts = player_counts(variant)
        rules = rng.choice(house_rule_sets(variant))
        games = None
        if load_variant(variant).game is not None:  # matches of 2–3 games, the cut bonus
            games = rng.choice([None, 2, 3])
        sim = simulate_match(
            variant, rng.randrange(10**9), tracking=tracking, house_rules=rules,
            players=rng.choice(counts), max_deals=rng.choice([1, 1, 2] if games is None
                                                            else [games, games + 1]),
            options=replace(SimOptions(), penalty_rate=0.3), games=games,
        )
        out.append(sim.to_obj())
    return out


__all__ = [
    "MUTATORS",
    "TRACKINGS",
    "FuzzOutcome",
    "SimOptions",
    "SimulatedMatch",
    "check_text",
    "default_tracking",
    "house_rule_sets",
    "mutate",
    "player_counts",
    "showing_value",
    "showings_pack",
    "simulate_match",
    "small_records",
    "tracking_levels",
]

