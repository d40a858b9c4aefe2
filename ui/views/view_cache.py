"""Reusing the very control object built for the same content: Flet diffs each render of the
app against the last, and an identical object is skipped, subtree and all. A screen whose
state holds a ``view_cache`` (the deal screen's player panels and card grids, the club
director's table cards) so pays nothing per render for what did not change."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import flet as ft

LIMIT = 256  # controls kept per screen state; past it the cache starts afresh


class HasViewCache(Protocol):
    view_cache: dict[tuple[Any, ...], Any]


def cached(
    holder: HasViewCache, key: tuple[Any, ...], build: Callable[[], ft.Control]
) -> ft.Control:
    """The control built for ``key`` before, or ``build()`` kept under it. The key must
    name everything the control shows and does (its callbacks stay those first built), and
    its place among its siblings when that can change: Flet diffs a list by position, so a
    kept control drawn in another place takes over the identity of what stood there (a tap
    on it would reach that control's handler)."""
    cache = holder.view_cache
    control: ft.Control | None = cache.get(key)
    if control is None:
        if len(cache) > LIMIT:
            cache.clear()
        control = cache[key] = build()
    return control
