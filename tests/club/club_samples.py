"""Small finished matches built through the engine, for the club tests."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from referee.cards import parse_card, parse_cards
from referee.events import Brisques, Declare, Event, LastTrick, StockExhausted
from referee.match import Match

T0 = datetime(2026, 12, 2, 19, 0, tzinfo=UTC)


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def declare(player: int, cards: str) -> Declare:
    return Declare(player, tuple(parse_cards(cards.split())))


def one_deal(
    variant: str,
    players: Sequence[str],
    target: int,
    events: Sequence[Event],
    brisques: dict[int, int],
    last_trick: int,
) -> Match:
    """A match of one deal, melds tracking: the events, the stock, the last trick, brisques."""
    m = Match.new(variant, list(players), "melds", (), target)
    m.start_deal(0, parse_card("9H"))
    for e in [*events, StockExhausted(), LastTrick(last_trick), Brisques(brisques)]:
        m.apply(e)
    return m


def two_hand_double_bezique() -> Match:
    """Anna declares a double bezique (500) and wins 600 to 110."""
    return one_deal(
        "two-hand",
        ["Anna", "Boris"],
        500,
        [declare(0, "QS QS JD JD"), declare(1, "KH QH")],
        {0: 10, 1: 6},
        1,
    )


def three_hand() -> Match:
    """B declares a double bezique; totals A 80, B 580, C 90: B first, C second, A third."""
    return one_deal(
        "three-hand", ["A", "B", "C"], 300, [declare(1, "QS QS JD JD")], {0: 8, 1: 8, 2: 8}, 2
    )


def four_hand() -> Match:
    """B & D (B's double bezique) beat A & C, 620 to 130 (C takes the last trick)."""
    return one_deal(
        "four-hand",
        ["A", "B", "C", "D"],
        300,
        [declare(1, "QS QS JD JD")],
        {0: 8, 1: 8, 2: 4, 3: 4},
        2,
    )
