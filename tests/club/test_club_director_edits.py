"""A round the director edited is checked before it is played: faults are refused with one
error class each, a repeated pairing is only warned about."""

from __future__ import annotations

import pytest

from referee.club.errors import (
    ClubError,
    PlayerMissingError,
    PlayerTwiceError,
    RoundError,
    TableSizeError,
    UnknownPlayerError,
)
from referee.club.rounds import RepeatWarning, Round, validate_round
from referee.club.swiss import swiss_round
from referee.errors import BeziqueError

PLAYERS = ["Anna", "Boris", "Vera", "Gleb", "Dina"]
HISTORY = [Round(1, (("Anna", "Boris"), ("Vera", "Gleb")), ("Dina",))]


def test_an_edited_round_with_everyone_once_and_no_repeat_passes() -> None:
    edited = Round(2, (("Anna", "Dina"), ("Boris", "Vera")), ("Gleb",))
    assert validate_round(edited, PLAYERS, HISTORY) == ()


def test_the_servers_proposal_passes_its_own_check() -> None:
    proposed = swiss_round(["Dina", "Anna", "Vera", "Boris", "Gleb"], HISTORY)
    assert validate_round(proposed, PLAYERS, HISTORY) == ()


def test_a_repeated_pairing_is_a_warning_naming_the_earlier_round() -> None:
    edited = Round(2, (("Boris", "Anna"), ("Vera", "Dina")), ("Gleb",))
    warnings = validate_round(edited, PLAYERS, HISTORY)
    assert warnings == (RepeatWarning(("Anna", "Boris"), (1,)),)
    assert warnings[0].message == "Anna and Boris have already met (round 1)"


def test_a_repeat_at_a_three_hand_table_warns_for_the_pair_that_met() -> None:
    history = [Round(1, (("Anna", "Boris", "Vera"),), ("Gleb", "Dina"))]
    edited = Round(2, (("Anna", "Gleb", "Vera"),), ("Boris", "Dina"))
    got = validate_round(edited, PLAYERS, history, table_size=3)
    assert [w.players for w in got] == [("Anna", "Vera")]


@pytest.mark.parametrize(
    ("edited", "error", "player"),
    [
        (
            Round(2, (("Anna", "Zoe"), ("Boris", "Vera")), ("Gleb", "Dina")),
            UnknownPlayerError,
            "Zoe",
        ),
        (
            Round(2, (("Anna", "Dina"), ("Anna", "Vera")), ("Gleb", "Boris")),
            PlayerTwiceError,
            "Anna",
        ),
        (
            Round(2, (("Anna", "Dina"), ("Boris", "Vera")), ("Gleb", "Dina")),
            PlayerTwiceError,
            "Dina",
        ),
        (Round(2, (("Anna", "Dina"), ("Boris", "Vera"))), PlayerMissingError, "Gleb"),
    ],
)
def test_an_unplayable_round_is_refused_naming_the_player(
    edited: Round, error: type[RoundError], player: str
) -> None:
    with pytest.raises(error, match=player) as caught:
        validate_round(edited, PLAYERS, HISTORY)
    assert getattr(caught.value, "player") == player  # noqa: B009


def test_a_table_of_the_wrong_size_is_refused() -> None:
    edited = Round(2, (("Anna", "Dina", "Boris"), ("Vera", "Gleb")))
    with pytest.raises(TableSizeError, match="has 3 players, not 2"):
        validate_round(edited, PLAYERS, HISTORY)


def test_every_club_error_is_a_value_error_of_the_engines_family() -> None:
    for cls in (UnknownPlayerError, PlayerTwiceError, PlayerMissingError, TableSizeError):
        assert issubclass(cls, RoundError)
        assert issubclass(cls, ClubError)
        assert issubclass(cls, BeziqueError)
        assert issubclass(cls, ValueError)
