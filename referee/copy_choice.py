"""Which table copies a declaration builds on (R-REUSE, H-REUSE-CLASSES, R-REFORM, R-PENDING).

A record names the table cards of a declaration by face only (``"table": ["KS"]``); with
several packs the table may hold several copies of that face, each with its own history (the
kinds it scored in, whether it may be re-formed). The referee must pick the copies, and it
accepts the declaration whenever *some* choice the rules allow exists.

The choice is a search over assignments that comes apart card by card: every rule on the
table copies of a combination judges each copy on its own history (R-REUSE / H-REUSE-CLASSES:
what that copy scored; R-REFORM: whether that copy's combination lost a card), so an
assignment is legal exactly when each of its copies is, and the preferred legal assignment
is, for each card, the first legal copies in the order of preference. The scored
combination and each pending one choose their copies separately, each with the rule that
judges it (a pending combination is not a reuse: only a copy that has not scored its kind
may hold it, R-PENDING), so the choice for one never spoils the other.

When no legal assignment exists the plain order of preference is kept for every card, so the
ruling names the same copy it always did.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from referee.cards import Card

T = TypeVar("T")


def choose_copies(
    pool: Sequence[T],
    need: Mapping[Card, int],
    *,
    face: Callable[[T], Card],
    prefer: Callable[[T], Any],
    allowed: Callable[[T], bool] | None = None,
) -> list[T] | None:
    """The copies of ``pool`` that give each card of ``need`` its count: for each card the
    first copies in ``prefer`` order (a stable sort, so the pool's own order breaks ties)
    that ``allowed`` accepts, or, when some card has too few of those, the first copies in
    ``prefer`` order for every card. None when the pool lacks copies of a card."""
    plain: list[T] = []
    legal: list[T] = []
    complete = True
    for card, count in need.items():
        copies = sorted((x for x in pool if face(x) == card), key=prefer)
        if len(copies) < count:
            return None
        plain.extend(copies[:count])
        if allowed is not None and complete:
            ok = [x for x in copies if allowed(x)]
            if len(ok) < count:
                complete = False
            legal.extend(ok[:count])
    return legal if allowed is not None and complete else plain
