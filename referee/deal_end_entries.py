"""Which entries the end of a deal still needs (RULES.md §2 R-LAST-TRICK, R-BRISQUE, §8): the
end form records exactly these, so a screen asks for nothing that never counts and never
refuses the one way left to close a deal.

- ``last_trick``: when the variant scores it and the record does not hold it yet (``melds``),
  or, with ``tricks`` tracking, while the play after the stock is not closed.
- ``brisques``: when they count in the variant (never in six- and eight-pack, whose game
  ignores them: GameSpec.brisques == "never"; none in the joker variant) and are not recorded
  yet; with ``cards`` tracking the tricks give them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal

if TYPE_CHECKING:
    from referee.deal_core import DealCore
    from referee.variants import Variant

LAST_TRICK: Final = "last_trick"
BRISQUES: Final = "brisques"
EndEntry = Literal["last_trick", "brisques"]


def brisques_count(variant: Variant) -> bool:
    """Brisques score in this variant (R-BRISQUE), at least to break a tie or save the loser
    from the rubicon; False in six- and eight-pack and where a brisque is worth nothing."""
    if variant.brisque_points <= 0:
        return False
    return variant.game is None or variant.game.brisques != "never"


def end_entries(deal: DealCore) -> tuple[EndEntry, ...]:
    """The entries this deal's end still needs, in the order they are recorded."""
    s = deal.setup
    out: list[EndEntry] = []
    if s.variant.last_trick_points > 0:
        played_out = deal.tricks_played >= s.total_tricks or deal.play_closed
        open_melds = s.tracking == "melds" and not deal.last_trick_scored
        open_tricks = s.tracking == "tricks" and not played_out
        if open_melds or open_tricks:
            out.append(LAST_TRICK)
    if s.tracking != "cards" and brisques_count(s.variant) and not deal.brisques_scored:
        out.append(BRISQUES)
    return tuple(out)
