"""The club's errors: each a ``BeziqueError`` (so a ``ValueError``), one class per reason, so
the director's screen can say what is wrong with an edited round or a result."""

from __future__ import annotations

from referee.errors import BeziqueError


class ClubError(BeziqueError):
    """Base of the club modules' errors on bad input."""


class ResultError(ClubError):
    """A match result the club cannot count: unfinished, a player twice, a side empty."""


class RoundError(ClubError):
    """A round (proposed or edited by the director) that cannot be played as it stands."""


class UnknownPlayerError(RoundError):
    """A round names a player who is not in the evening."""

    def __init__(self, player: str) -> None:
        self.player = player
        super().__init__(f'"{player}" is not a player of this evening')


class PlayerTwiceError(RoundError):
    """A round seats a player at two tables (or seats them and gives them the bye)."""

    def __init__(self, player: str) -> None:
        self.player = player
        super().__init__(f'"{player}" is seated twice in this round')


class PlayerMissingError(RoundError):
    """A round leaves a player neither seated nor given the bye."""

    def __init__(self, player: str) -> None:
        self.player = player
        super().__init__(f'"{player}" has no table and no bye in this round')


class TableSizeError(RoundError):
    """A table with the wrong number of players for the game (2 for two-hand, 3 for three-
    hand)."""

    def __init__(self, table: tuple[str, ...], size: int) -> None:
        self.table = table
        self.size = size
        names = ", ".join(table)
        super().__init__(f"the table {names} has {len(table)} players, not {size}")


class ThreeHandCountError(RoundError):
    """A round robin of three-hand tables for a number of entrants none fits: every pair at a
    table exactly once, everyone at a table every round, needs N ≡ 3 (mod 6)."""

    def __init__(self, count: int) -> None:
        self.count = count
        super().__init__(
            "a round robin of three-hand tables needs 3, 9, 15, 21, 27, 33… players (an odd "
            f"multiple of 3, N ≡ 3 mod 6, so that each pair meets once at a table), not {count}"
        )


class ThreeHandSearchError(RoundError):
    """The search for a three-hand round robin's schedule gave up at its bound of steps (beyond
    a club's sizes: every count up to 57 is found in under a second)."""

    def __init__(self, count: int, steps: int) -> None:
        self.count = count
        self.steps = steps
        super().__init__(
            f"no schedule of three-hand tables was found for {count} players within the "
            f"search's bound ({steps:,} steps); choose Swiss"
        )
