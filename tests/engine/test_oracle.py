"""A differential test against an independent model of RULES.md §3-§4 for melds-level
declarations: R-ON-TABLE, R-PACK (copies on the tables and the turn-up), R-NEW-CARD,
R-REUSE / H-REUSE-CLASSES / H-ALL-NEW / H-NO-PLAIN-SEQUENCE.

The model is written from the rule text, not from the engine: a declaration is legal when
*some* choice of the player's identical table copies makes it so. Only exact combinations from
the seed table are declared (so no pending combination arises), with hearts as trumps.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from .conftest import PLAYERS, decl, record, replay
from .test_combinations import TABLE

FAMILY = {  # H-REUSE-CLASSES (Foster): marriages and sequences; beziques; four of a kind
    "marriage": "m", "trump_marriage": "m", "double_marriage": "m",
    "double_trump_marriage": "m", "sequence": "m", "trump_sequence": "m",
    "bezique": "b", "double_bezique": "b",
    "four_aces": "4", "four_kings": "4", "four_queens": "4", "four_jacks": "4",
}


class Model:
    def __init__(self, rules: set[str], turn_up: str = "9H") -> None:
        self.rules = rules
        self.turn_up = turn_up
        self.tables: list[list[dict[str, Any]]] = [[], []]  # {"card", "scored": {meld: pts}}
        self.score = [0, 0]

    def copies_seen(self, card: str) -> int:
        on_tables = sum(1 for t in self.tables for tc in t if tc["card"] == card)
        return on_tables + (self.turn_up == card)

    def reuse_ok(self, used: list[dict[str, Any]], meld: str, points: int) -> bool:
        for tc in used:
            for old, old_points in tc["scored"].items():
                if old == meld:
                    return False
                if "H-REUSE-CLASSES" in self.rules:
                    if FAMILY[old] == FAMILY[meld] and old_points >= points:
                        return False
                elif old_points >= points:
                    return False
        return True

    def declare(self, player: int, new: list[str], table: list[str], meld: str,
                points: int) -> bool:
        if meld == "sequence" and "H-NO-PLAIN-SEQUENCE" in self.rules:
            return False
        if table and "H-ALL-NEW" in self.rules:
            return False
        if not new:
            return False  # R-NEW-CARD (nothing is ever pending here)
        mine = self.tables[player]
        choices = []
        for card, n in Counter(table).items():
            idx = [i for i, tc in enumerate(mine) if tc["card"] == card]
            if len(idx) < n:
                return False  # R-ON-TABLE
            choices.append(list(combinations(idx, n)))
        for card, n in Counter(new).items():
            if self.copies_seen(card) + n > 2:
                return False  # R-PACK: two packs
        for pick in product(*choices):
            used = [mine[i] for group in pick for i in group]
            if self.reuse_ok(used, meld, points):
                laid = [{"card": c, "scored": {}} for c in new]
                for tc in used + laid:
                    tc["scored"][meld] = points
                mine.extend(laid)
                self.score[player] += points
                return True
        return False


steps = st.lists(
    st.tuples(st.integers(0, 1), st.integers(0, len(TABLE) - 1),
              st.lists(st.booleans(), min_size=5, max_size=5), st.booleans()),
    max_size=14,
)


@given(steps, st.lists(st.sampled_from(["H-REUSE-CLASSES", "H-ALL-NEW", "H-NO-PLAIN-SEQUENCE"]),
                       unique=True, max_size=2),
       st.sampled_from(["9H", "KH", "QH", "JH", "AH", "10H"]))  # hearts trumps
def test_r_reuse_engine_agrees_with_a_model_of_the_rules(
        plan: list[tuple[int, int, list[bool], bool]], rules: list[str], turn_up: str) -> None:
    model = Model(set(rules), turn_up)
    events = []
    verdicts = []
    for player, k, mask, named in plan:
        meld, cards, points = TABLE[k]
        on_table = {tc["card"] for tc in model.tables[player]}
        table = [c for c, m in zip(cards, mask, strict=False) if m and c in on_table]
        new = list(cards)
        for c in table:
            new.remove(c)
        events.append(decl(PLAYERS[player], new, table, meld if named else None))
        verdicts.append(model.declare(player, new, table, meld, points))
    m = replay(record(events, house_rules=rules, turn_up=turn_up))
    got = [r.accepted for _, r in m.deals[0].log]
    assert got == verdicts, [(e, r.rule, r.message) for e, (_, r) in zip(events, m.deals[0].log,
                                                                          strict=True)]
    assert m.deals[0].scores() == model.score
