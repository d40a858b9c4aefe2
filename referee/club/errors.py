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
