"""Sample match data for the storage tests (kept here so tests need nothing outside the
repository)."""

from __future__ import annotations

import copy
from typing import Any

# A two-hand deal with melds tracking: accepted and rejected declarations, a seven, phase 2,
# last trick and brisques. Written here so the tests need nothing outside the repository.
SAMPLE_EVENTS: list[dict[str, Any]] = [
    {"type": "declare", "player": "Boris", "new": ["QS", "JD"], "meld": "bezique"},
    {"type": "declare", "player": "Anna", "new": ["KH", "QH"], "meld": "trump_marriage"},
    {"type": "seven", "player": "Anna"},
    {"type": "declare", "player": "Boris", "new": ["QC", "QD", "QH"], "table": ["QS"],
     "meld": "four_queens"},
    {"type": "declare", "player": "Anna", "new": ["AH", "10H", "JH"], "table": ["KH", "QH"],
     "meld": "trump_sequence"},
    {"type": "declare", "player": "Anna", "new": [], "table": ["KH", "QH"],
     "meld": "trump_marriage"},
    {"type": "stock_exhausted"},
    {"type": "declare", "player": "Boris", "new": ["KS"], "table": ["QS"], "meld": "marriage"},
    {"type": "last_trick", "winner": "Anna"},
    {"type": "brisques", "counts": {"Anna": 9, "Boris": 7}},
]


def sample_record(deals: int = 1) -> dict[str, Any]:
    """A valid match record with ``deals`` copies of the sample deal, dealers alternating."""
    players = ["Anna", "Boris"]
    return {
        "format": "bezique-match/1",
        "variant": "two-hand",
        "players": players,
        "tracking": "melds",
        "house_rules": [],
        "deals": [
            {"dealer": players[d % 2], "turn_up": "9H", "events": copy.deepcopy(SAMPLE_EVENTS)}
            for d in range(deals)
        ],
    }
