"""Engine bugs the simulator found, each pinned by a small hand-written record."""

from __future__ import annotations

from typing import Any

from referee.record import parse_record, replay_record


def _replay(house_rules: list[str], events: list[dict[str, Any]]) -> Any:
    record = {
        "format": "bezique-match/1", "variant": "three-hand",
        "players": ["Anna", "Boris", "Clara"], "tracking": "melds",
        "house_rules": house_rules,
        "deals": [{"dealer": "Clara", "turn_up": "9H", "events": events}],
    }
    return replay_record(parse_record(record)).result()


EVENTS = [
    {"type": "declare", "player": "Anna", "new": ["KD", "KD", "QD", "QD"],
     "meld": "double_marriage"},
    {"type": "declare", "player": "Anna", "new": ["KD", "KS", "KC", "KH"], "meld": "four_kings"},
    # a marriage on the third K♦ (it scored four kings only, another class): legal under
    # H-REUSE-CLASSES. The engine used to pick a K♦ of the double marriage (least used by
    # points overall) and reject it; with copies that cannot be told apart, the referee must
    # take the reading that the rules allow.
    {"type": "declare", "player": "Anna", "new": ["QD"], "table": ["KD"], "meld": "marriage"},
]


def test_reuse_classes_picks_the_copy_that_allows_the_reuse() -> None:
    result = _replay(["H-REUSE-CLASSES"], EVENTS)
    assert result.rejected == ()
    assert result.sides[0].deal_scores == (40 + 80 + 20,)


def test_default_reuse_still_rejects_it() -> None:
    result = _replay([], EVENTS)
    assert [(r.event, r.rule) for r in result.rejected] == [(2, "R-REUSE")]
