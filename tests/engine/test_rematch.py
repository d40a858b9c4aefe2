"""R-LEAD at the next partie: seats kept or moved one place on, partners kept opposite."""

from __future__ import annotations

from referee.rematch import next_seating, rematch


def test_kept_seating_is_the_same_order() -> None:
    assert next_seating(["Anna", "Boris", "Clara"], rotate=False) == ("Anna", "Boris", "Clara")


def test_rotated_seating_moves_everyone_one_place_on() -> None:
    seats = next_seating(["Anna", "Boris", "Clara"], rotate=True)
    assert seats == ("Clara", "Anna", "Boris")
    assert sorted(seats) == ["Anna", "Boris", "Clara"]


def test_four_hand_partners_stay_opposite_after_rotation() -> None:
    before = ["Anna", "Boris", "Clara", "Dmitri"]  # Anna & Clara against Boris & Dmitri
    after = next_seating(before, rotate=True)
    pairs = {frozenset((after[0], after[2])), frozenset((after[1], after[3]))}
    assert pairs == {frozenset(("Anna", "Clara")), frozenset(("Boris", "Dmitri"))}


def test_rematch_carries_the_settings_over() -> None:
    r = rematch("two-hand", ["Anna", "Boris"], "tricks", ["H-TIE-HIGHER"], 1500, rotate=True)
    assert (r.variant, r.tracking, r.house_rules, r.target) == (
        "two-hand", "tricks", ("H-TIE-HIGHER",), 1500
    )
    assert r.players == ("Boris", "Anna")
