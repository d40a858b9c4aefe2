"""Declarations and reuse (RULES.md §3, §4, §7 no-trump): when a player may declare
(R-DECLARE-AFTER-TRICK, R-ONE-PER-TRICK, R-NO-DECLARE-AFTER-STOCK, H-FOUR-TRICKS), which
combination the cards form, the table cards a declaration builds on (R-ON-TABLE, R-REUSE,
H-REUSE-CLASSES, H-ALL-NEW, H-PARTNER-BUILD), pending combinations (R-PENDING, R-NEW-CARD)
and trumps fixed by the first marriage (R-NT-TRUMPS)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from referee.cards import Card, Rank, cards_text
from referee.combinations import CardCounts, Instance, contains, instances
from referee.copy_choice import choose_copies
from referee.deal_core import DealCore, PendingCombination, TableCard, _Outcome
from referee.events import (
    Declare,
)
from referee.rulings import WHERE_FIELD, WHERE_ITEM, Ruling, accept, reject
from referee.variants import CombinationSpec
from referee.verdict import meld_rule

COURT = (Rank.KING, Rank.QUEEN, Rank.JACK)


class DeclarationRules(DealCore):
    """Declaring combinations: the checks and what an accepted declaration changes."""

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

    def candidate_melds(self, cards: CardCounts) -> list[str]:
        """The kinds of combination these cards form (for the app's picker)."""
        return sorted({i.meld for i in self._instances(cards)})

    def declarations_open(self) -> bool:
        """Whether a declaration can still be accepted in this deal (R-NO-DECLARE-AFTER-STOCK):
        not once the stock ran out. The last trick (unless H-LAST-TRICK-24 moves its bonus to
        trick 24) and the brisques come after that, even in a record that leaves
        stock_exhausted out. A screen makes *Declare* its main button only while this holds."""
        deal_over = self.brisques_scored or (
            self.last_trick_scored and not self.setup.has("H-LAST-TRICK-24")
        )
        return not (self.stock_exhausted or deal_over)

    def _timing(self, player: int, *, free: bool = False) -> Ruling | None:
        """R-NO-DECLARE-AFTER-STOCK, R-DECLARE-AFTER-TRICK, R-ONE-PER-TRICK, H-FOUR-TRICKS."""
        who = {"player": self.name(player)}
        if not self.declarations_open():
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

    def _trumps_open(self) -> bool:
        return self.setup.variant.fix_trumps_by_marriage and self.trumps is None

    def _instances(self, cards: CardCounts, only: str | None = None) -> list[Instance]:
        return list(
            instances(
                cards,
                self.setup.variant,
                self.trumps,
                bezique_pair_rule=self.setup.has("H-BEZIQUE-PAIR"),
                by_trumps=self.setup.has("H-BEZIQUE-BY-TRUMPS"),
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
        named = self._meld_spec(ev.meld) if ev.meld is not None else None
        if (named is not None and named.shape == "bezique" and self.trumps is None
                and self.setup.has("H-BEZIQUE-BY-TRUMPS")):
            return _Outcome(reject("H-BEZIQUE-BY-TRUMPS", "bezique_needs_trumps",
                                   {"player": who, "meld": named.id}))
        candidates = self._instances(combined, ev.meld)
        if not candidates and ev.meld is not None:
            # "marriage" said of K and Q of trumps is the trump marriage they form.
            trump_kind = self._counterpart(ev.meld, "trump")
            if trump_kind != ev.meld:
                candidates = self._instances(combined, trump_kind)
        if ev.meld is None:
            maximal = _maximal(candidates)
            if len({frozenset(i.counts().items()) for i in maximal}) == 1:
                # The same cards read two ways (four trump aces are four aces too): the one
                # worth more is meant.
                maximal = [max(maximal, key=lambda i: self._points_for(i))]
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
                    meld_rule(ev.meld),  # the combination's definition decided; the
                    "not_that_combination",  # false declaration is what it proposes
                    {"player": who, "cards": cards_text(sorted(combined.elements())),
                     "meld": ev.meld},
                    proposes="P-FALSE-DECLARATION",
                )
            )
        # Prefer the reading that lays the most new cards into the scored combination.
        candidates.sort(key=lambda i: -sum(min(i.counts()[c], new[c]) for c in new))
        # R-PENDING: the cards laid score the named combination and keep the others they form
        # pending. Among several readings of the named kind (which four of five aces), the
        # one that keeps the most of them is meant: four aces scored on A♦ A♦ A♦ A♣, not on
        # the very cards of the four trump aces laid with them, which would vanish inside it.
        kind = candidates[0].meld
        most = sum(i.points for i in set(self._instances(combined)) if i.meld != kind)
        first: _Outcome | None = None
        best: tuple[int, _Outcome] | None = None
        for instance in candidates:
            outcome = self._check_instance(ev, instance, new, table)
            first = first or outcome
            if not outcome.ruling.accepted:
                continue
            kept = self._kept_pending(outcome.ruling)
            if best is None or kept > best[0]:
                best = (kept, outcome)
            if kept >= most:
                break  # nothing better is possible
        assert first is not None
        return first if best is None else best[1]

    def _kept_pending(self, ruling: Ruling) -> int:
        """The points of the combinations an accepted declaration keeps pending, other than
        more of the kind it scores (those cards have just scored in that kind)."""
        total = 0
        for meld, _cards in ruling.pending:
            spec = self._meld_spec(meld)
            if spec is not None and meld != ruling.meld:
                total += spec.points
        return total

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
        self, player: int, need: CardCounts, meld: str,
        allowed: Callable[[TableCard], bool] | None = None,
    ) -> list[TableCard] | None:
        """The table copies a declaration uses (referee/copy_choice.py): for each card the
        first copies ``allowed`` accepts in the order of preference — those that have not
        scored this kind, least used first (one's own before a partner's); None when the
        table lacks them."""
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

        return choose_copies(
            self._pool(player), need, face=lambda tc: tc.card, allowed=allowed,
            prefer=lambda tc: (meld in tc.scored, against(tc),
                               max(tc.scored.values(), default=0)),
        )

    def _reuse_allowed(self, player: int, spec: CombinationSpec) -> Callable[[TableCard], bool]:
        """The copies a scored combination may take: those R-REUSE (H-REUSE-CLASSES,
        R-REFORM) allows, judged copy by copy."""
        return lambda tc: self._reuse_problem(player, [tc], spec) is None

    @staticmethod
    def _pending_allowed(meld: str) -> Callable[[TableCard], bool]:
        """The copies a pending combination may hold: those that have not scored its kind
        (R-PENDING; it is not a reuse, and never a re-form)."""
        return lambda tc: meld not in tc.scored

    def _reuse_problem(self, player: int, copies: Sequence[TableCard], spec: CombinationSpec
                       ) -> Ruling | None:
        """R-REUSE (default) or H-REUSE-CLASSES for the table cards a new combination uses;
        Rubicon's reading: any other kind, and the same kind again once re-formed
        (R-REFORM)."""
        classes = self.setup.has("H-REUSE-CLASSES")
        v = self.setup.variant
        for tc in copies:
            for meld, points in sorted(tc.scored.items(), key=lambda kv: -kv[1]):
                if meld == spec.id and self._reformable(tc, meld):
                    continue
                if v.reuse == "kinds" and meld != spec.id and not classes:
                    continue  # Rubicon: any other kind (H-REUSE-CLASSES: Parlett's classes)
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

    def _reformable(self, tc: TableCard, meld: str) -> bool:
        """R-REFORM: the card may score this kind again, a card of its combination having
        been played (seen with ``cards`` tracking; below it the table's record is trusted,
        since plays are not recorded)."""
        if not self.setup.variant.reform:
            return False
        return meld in tc.reformable or self.setup.tracking != "cards"

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
        copies = self._choose_copies(player, from_table, spec.id,
                                     self._reuse_allowed(player, spec))
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
                player, other_counts - other_new, other.meld, self._pending_allowed(other.meld)
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
        reformed = any(spec.id in tc.scored for tc in copies)  # passed R-REUSE: re-formed
        if copies:
            key = "declared_reuse"
            params["reused"] = cards_text(tc.card for tc in copies)
        if reformed:
            key = "declared_reformed" if self.setup.tracking == "cards" else (
                "declared_reformed_unchecked")
        if pendings:
            key += "_pending"
            params["pending"] = WHERE_ITEM.join(
                WHERE_FIELD.join((p.meld, cards_text(p.cards))) for p in pendings
            )
        if fixes:
            key = "fixes_trumps_sequence" if len(spec.ranks) > 2 else "fixes_trumps"
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
            self.combinations_scored += 1
            for tc in taken:
                tc.scored[spec.id] = points
                tc.groups[spec.id] = self.combinations_scored
                tc.reformable.discard(spec.id)
            if any(c.rank in COURT for c in new.elements()):
                self.court_seen[player] = True
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
        if reformed:
            rule = "R-REFORM"
        if fixes:
            rule = self._fixing_rule()
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

    def _fixing_rule(self) -> str:
        """The rule by which a declaration fixes trumps: the first marriage (no-trump,
        R-NT-TRUMPS) or the first marriage or sequence (Rubicon …, R-TRUMPS-BY-MELD)."""
        return "R-TRUMPS-BY-MELD" if self.setup.variant.fix_trumps_by_sequence else "R-NT-TRUMPS"

    def _nt_problem(self, instance: Instance) -> Ruling | None:
        """R-NT-TRUMPS: before trumps are fixed, no sequence can be declared (unless a
        sequence fixes trumps too, R-TRUMPS-BY-MELD)."""
        if not self._trumps_open() or instance.spec.shape != "suit":
            return None
        if self.setup.variant.fix_trumps_by_sequence:
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
        copies = list(p.held) or self._choose_copies(
            player, wanted, meld, self._pending_allowed(meld))
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
            self.combinations_scored += 1
            for tc in copies:
                tc.scored[meld] = points
                tc.groups[meld] = self.combinations_scored
                tc.reformable.discard(meld)
            mine = self.pending[player]
            del mine[next(k for k, q in enumerate(mine) if q is p)]
            self._declared(player, points, spec)

        return _Outcome(
            accept(
                self._fixing_rule() if fixes else "R-PENDING",
                "pending_scored",
                {"player": who, "meld": meld, "points": points, "cards": cards_text(p.cards)},
                points=points,
                meld=meld,
            ),
            commit,
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
