"""The multi-pack joker variant ("инфузорка", seed 000): a deal scored by showings.

No tricks are kept; the winner of a lead shows a combination and its value escalates with each
showing (trump marriages 4, 8, 16, 32 …) or with each card added to a set (four trump queens
176, the fifth +100 …). A joker stands for any card; the ruling says which. The reading and
its guesses are in docs/joker-multipack.md; the tables are data (data/variants).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from referee.cards import Card, Rank, Suit, card_of, cards_text
from referee.combinations import contains
from referee.deal import DealState, Setup, TableCard, _Outcome
from referee.errors import InconsistentEventError
from referee.events import Brisques, Declare, LastTrick, Seven, Trick
from referee.rulings import WHERE_FIELD, WHERE_ITEM, accept, reject
from referee.variants import ShowingSpec

SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_SLOT_RANKS = {"A": Rank.ACE, "10": Rank.TEN, "K": Rank.KING, "Q": Rank.QUEEN, "J": Rank.JACK}


class ShowingsDeal(DealState):
    """A deal of the joker variant: the same table, copies and timing as the other variants,
    with its own combinations and escalating values."""

    def __init__(self, setup: Setup, index: int, dealer: int, turn_up: Card | None) -> None:
        super().__init__(setup, index, dealer, turn_up)
        self.shown: list[Counter[str]] = [Counter() for _ in range(setup.n)]
        self.sets: list[Counter[str]] = [Counter() for _ in range(setup.n)]

    # ------------------------------------------------------------------ deal end and queries
    @property
    def complete(self) -> bool:
        """No brisques are counted here: the deal's score is final once showing is over."""
        if self.setup.tracking == "tricks":
            return self.tricks_played >= self.setup.total_tricks
        return self.stock_exhausted

    def _turn_up_taker(self) -> int | None:
        """With three dealt in, 160 stock cards make 53 leads of three draws: the turn-up is
        never drawn and stays a known copy on the table. Otherwise the last drawer takes it,
        the dealer who sits out never."""
        v, n = self.setup.variant, self.setup.n
        active = v.active_players(n)
        if (v.cards_total(n) - v.hand_size * active) % active or self.last_winner is None:
            return None
        seat = (self.last_winner - 1) % n
        return (seat - 1) % n if self.sits_out(seat) else seat

    def sits_out(self, player: int) -> bool:
        """With four at the table the dealer sits the deal out (J-FOUR)."""
        return self.setup.n > self.setup.variant.active_players(self.setup.n) and (
            player == self.dealer
        )

    def points_of(self, meld: str) -> int:
        spec = self.setup.variant.showing(meld)
        return spec.values[0] if spec else 0

    def candidate_melds(self, cards: Counter[Card]) -> list[str]:
        """The combinations these cards could show (for the app's picker)."""
        listed = sorted(cards.elements())
        # A set grows card by card: one trump queen (or a joker) may be the fifth of a set
        # shown before, so a set is offered when the cards could start or extend one (the
        # ruling then says whether this player's set allows it).
        return [
            spec.id for spec in self.setup.variant.showings
            if self._fit(spec, listed, 0) is not None
            or (spec.kind == "set" and self._fit(spec, listed, 4) is not None)
        ]

    # ------------------------------------------------------------------ fitting cards
    def _slot_cards(self, slot: str) -> tuple[Card, ...]:
        assert self.trumps is not None
        if slot == "BJ":
            return (card_of(Rank.JACK, self.trumps.same_colour_partner),)
        return (card_of(_SLOT_RANKS[slot], self.trumps),)

    def _set_card(self, spec: ShowingSpec) -> Card:
        assert self.trumps is not None and spec.rank is not None
        suit = self.trumps.same_colour_partner if spec.bezique_jack else self.trumps
        return card_of(spec.rank, suit)

    def _fit(
        self, spec: ShowingSpec, cards: Sequence[Card], already: int
    ) -> list[tuple[Card, Card]] | None:
        """Pairs (card given, card it stands for) when the cards show this combination; None
        when they do not. ``already``: cards of a set shown before."""
        real = [c for c in cards if not c.is_joker]
        jokers = len(cards) - len(real)
        if not real and not (spec.kind == "set" and already > 0):
            return None  # jokers alone form nothing; added to a shown set they extend it
        pairs: list[tuple[Card, Card]] = []
        if spec.kind == "series":
            if len(cards) != len(spec.slots):
                return None
            open_slots = [self._slot_cards(s) for s in spec.slots]
            if spec.jack_may_be_bezique and "J" in spec.slots:
                j = spec.slots.index("J")
                open_slots[j] = open_slots[j] + self._slot_cards("BJ")
            for card in real:
                for i, options in enumerate(open_slots):
                    if card in options:
                        pairs.append((card, card))
                        del open_slots[i]
                        break
                else:
                    return None
            pairs.extend((_joker(cards), options[0]) for options in open_slots)
            return pairs
        if spec.kind == "repeat":
            assert spec.rank is not None
            if len(cards) != 4 or any(c.rank is not spec.rank for c in real):
                return None
            suits = [c.suit for c in real]
            if len(set(suits)) != len(suits):
                return None  # "четыре дамы разной масти": four different suits
            pairs = [(c, c) for c in real]
            missing = [s for s in SUITS if s not in suits]
            pairs.extend((_joker(cards), card_of(spec.rank, s)) for s in missing[:jokers])
            return pairs
        target = self._set_card(spec)
        if any(c != target for c in real):
            return None
        if already + len(cards) < 4 or already + len(cards) > 3 + len(spec.values):
            return None
        return [(c, target) for c in cards]

    def _value(self, spec: ShowingSpec, player: int, size: int) -> int:
        """The points of this showing: the escalation tables of the seed."""
        if spec.kind == "series":
            n = self.shown[player][spec.id]
            if n < len(spec.values):
                return spec.values[n]
            return int(spec.values[-1] * 2 ** (n - len(spec.values) + 1))
        if spec.kind == "repeat":
            return (self.shown[player][spec.id] + 1) * spec.values[0]
        before = self.sets[player][spec.id]
        after = before + size
        points = spec.values[0] if before < 4 <= after else 0
        points += sum(spec.values[p - 4] for p in range(max(before + 1, 5), after + 1))
        return points

    def _growth(
        self, player: int, spec: ShowingSpec, ev: Declare
    ) -> tuple[Counter[Card], list[Card]]:
        """A set that grows may be recorded with the added cards alone or with the set's
        cards already shown listed in ``table`` too (spec, joker-multipack): both are the
        same showing. A ``table`` that lists every card of the set shown before is read so;
        otherwise its cards are added to the set (copies are identical, so a table card that
        scored another kind may join). Returns (the listed cards that are the set shown
        before, the cards this showing adds)."""
        table = Counter(ev.table)
        if spec.kind != "set" or not self.sets[player][spec.id]:
            return Counter(), [*ev.new, *ev.table]
        members = Counter(tc.card for tc in self.tables[player] if spec.id in tc.scored)
        if not contains(table, members):
            return Counter(), [*ev.new, *ev.table]
        return members, [*ev.new, *(table - members).elements()]

    # ------------------------------------------------------------------ events
    def _check_declare(self, ev: Declare) -> _Outcome:
        player = ev.player
        who = self.name(player)
        # As in the other variants: no new card is R-NEW-CARD whatever the timing, and cards
        # that are not on the table or that the packs cannot hold are found before the
        # combination is read (R-ON-TABLE, R-PACK).
        if not ev.new:
            return _Outcome(reject("R-NEW-CARD", "no_new_card",
                                   {"player": who, "cards": cards_text(ev.table) or "—"}))
        if self.sits_out(player):
            return _Outcome(reject("J-FOUR", "sits_out", {"player": who}))
        problem = self._timing(player)
        if problem is not None:
            return _Outcome(problem)
        cards = list(ev.new) + list(ev.table)
        on_table = Counter(self.table(player))
        for card, count in Counter(ev.table).items():
            if on_table[card] < count:
                return _Outcome(reject("R-ON-TABLE", "not_on_table",
                                       {"player": who, "card": str(card)}))
        problem = self._copies_problem(player, Counter(ev.new))
        if problem is not None:
            return _Outcome(problem)
        variant = self.setup.variant
        meld = ev.meld
        if meld is None:
            fitting = [
                s.id for s in variant.showings
                if self._fit(s, self._growth(player, s, ev)[1], self.sets[player][s.id])
                is not None
            ]
            if len(fitting) != 1:
                key = "no_combination" if not fitting else "ambiguous"
                return _Outcome(reject(
                    "P-FALSE-DECLARATION" if not fitting else "R-PENDING", key,
                    {"player": who, "cards": cards_text(sorted(cards)),
                     "options": WHERE_ITEM.join(
                         WHERE_FIELD.join((m, str(self.points_of(m)))) for m in fitting)},
                    proposes="P-FALSE-DECLARATION" if not fitting else None))
            meld = fitting[0]
        spec = variant.showing(meld)
        if spec is None:
            return _Outcome(reject("P-FALSE-DECLARATION", "meld_not_in_variant",
                                   {"meld": meld, "variant": variant.id}))
        shown_before, cards = self._growth(player, spec, ev)
        copies = self._choose_copies(player, Counter(ev.table) - shown_before, spec.id)
        assert copies is not None
        for tc in copies:
            if spec.id in tc.scored:
                return _Outcome(reject(
                    "R-REUSE", "same_kind",
                    {"card": str(tc.card), "old_meld": spec.id, "old_points": tc.scored[spec.id],
                     "meld": spec.id, "points": self.points_of(spec.id)}))
        already = self.sets[player][spec.id]
        pairs = self._fit(spec, cards, already)
        if pairs is None:
            params: dict[str, str | int] = {
                "player": who, "cards": cards_text(sorted(cards)), "meld": spec.id,
                "count": already + len(cards), "most": 3 + len(spec.values),
            }
            if spec.kind == "set" and self._fit(spec, cards, 4) is not None:
                # The right cards, too few (or too many) for a set: not a false declaration.
                return _Outcome(reject("J-SHOWING", "set_size", params))
            return _Outcome(reject("P-FALSE-DECLARATION", "not_that_combination", params,
                                   proposes="P-FALSE-DECLARATION"))
        points = self._value(spec, player, len(cards))
        stands = [f"{card} = {meant}" for card, meant in pairs if card.is_joker]
        params = {
            "player": who, "meld": spec.id, "points": points,
            "cards": cards_text(meant for _, meant in pairs),
            "nth": self.shown[player][spec.id] + 1,
            "count": already + len(cards),
        }
        key = "showing_set" if spec.kind == "set" else "showing"
        if stands:
            key += "_jokers"
            params["jokers"] = ", ".join(stands)

        def commit() -> None:
            laid = [TableCard(c) for c in ev.new]
            for tc in laid:
                if self.known_in_hand[player][tc.card]:
                    self.known_in_hand[player][tc.card] -= 1
            self.tables[player].extend(laid)
            for tc in [*copies, *laid]:
                tc.scored[spec.id] = points
            self.shown[player][spec.id] += 1
            if spec.kind == "set":
                self.sets[player][spec.id] += len(cards)
            self.declared_this_trick = True
            self._score(self.setup.side_of[player], points, spec.id)

        return _Outcome(accept("J-SHOWING", key, params, points=points, meld=spec.id), commit)

    def _check_trick(self, ev: Trick) -> _Outcome:
        if self.sits_out(ev.winner):
            raise InconsistentEventError(
                f"{self.name(ev.winner)} deals and sits this deal out, so cannot win a lead "
                "(J-FOUR)"
            )
        return super()._check_trick(ev)

    def _check_seven(self, ev: Seven) -> _Outcome:
        return _Outcome(reject("J-NINE", "no_sevens", {"player": self.name(ev.player)}))

    def _check_brisques(self, ev: Brisques) -> _Outcome:
        raise InconsistentEventError(
            "no tricks are kept in joker-multipack, so no brisques are counted (J-NO-TRICKS)"
        )

    def _check_last_trick(self, ev: LastTrick) -> _Outcome:
        raise InconsistentEventError(
            "joker-multipack has no last-trick bonus: no tricks are kept (J-NO-TRICKS)"
        )


def _joker(cards: Sequence[Card]) -> Card:
    return next(c for c in cards if c.is_joker)
