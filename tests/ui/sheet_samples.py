"""Matches written straight through the storage layer, so the sheet and match tests start
from several deals without tapping through each one (the deal screen has its own tests)."""

from __future__ import annotations

from typing import Any

from referee.variants import load_variant

PLAYERS = {
    2: ("Anna", "Boris"),
    3: ("Anna", "Boris", "Clara"),
    4: ("Anna", "Boris", "Clara", "Dmitri"),
}
VARIANTS = {2: "two-hand", 3: "three-hand", 4: "four-hand"}


def play_deal(store: Any, match_id: int, players: tuple[str, ...], variant: str, d: int,
              *, finish: bool = True, last: int | None = None) -> None:
    """One deal: a bezique, a trump marriage, then (if ``finish``) the last trick and an
    uneven share of the brisques, so the columns hold different numbers."""
    n = len(players)
    store.start_deal(match_id, d % n, "9H")
    store.record(match_id, {"type": "declare", "player": players[(d + 1) % n],
                            "new": ["QS", "JD"], "meld": "bezique"})
    store.record(match_id, {"type": "declare", "player": players[(d + 2) % n],
                            "new": ["KH", "QH"], "meld": "trump_marriage"})
    if not finish:
        return
    store.record(match_id, {"type": "stock_exhausted"})
    winner = players[(d if last is None else last) % n]
    store.record(match_id, {"type": "last_trick", "winner": winner})
    total = 8 * load_variant(variant).packs(n)
    counts = {p: total // n for p in players}
    counts[players[d % n]] += total - sum(counts.values())
    store.record(match_id, {"type": "brisques", "counts": counts})


def sample_match(store: Any, sides: int, *, deals: int = 3, in_play: bool = True,
                 target: int | None = None) -> int:
    """A match of ``sides`` players (four-hand: two teams) with ``deals`` finished deals and,
    if ``in_play``, one more begun."""
    players = PLAYERS[sides]
    variant = VARIANTS[sides]
    match_id = int(store.create_match(variant=variant, players=list(players), target=target))
    for d in range(deals):
        play_deal(store, match_id, players, variant, d)
    if in_play:
        play_deal(store, match_id, players, variant, deals, finish=False)
    return match_id


JOKER_PLAYERS = ("Alexandra", "Boris", "Clara", "Dmitri")


def joker_match(store: Any, deals: int = 3) -> int:
    """Four sides each on their own (the multi-pack variant with jokers): the widest sheet."""
    p = JOKER_PLAYERS
    match_id = int(store.create_match(variant="joker-multipack", players=list(p)))
    for d in range(deals):
        store.start_deal(match_id, d % 4, "9H")
        store.record(match_id, {"type": "declare", "player": p[(d + 1) % 4],
                                "new": ["QS", "JD"], "meld": "bezique"})
        store.record(match_id, {"type": "declare", "player": p[(d + 2) % 4],
                                "new": ["KH", "QH"], "meld": "trump_marriage"})
        if d < deals - 1:
            store.record(match_id, {"type": "stock_exhausted"})
    return match_id
