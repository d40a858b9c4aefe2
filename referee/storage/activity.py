"""The order in which matches were last changed: ``match.activity``, a counter every write
moves on, so "the last played" never depends on a device's clock."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from referee.storage.tables import TABLES


def next_activity() -> Any:
    """One past the highest ``match.activity``, as SQL: the match being changed becomes the
    last played (the order of changes, never the wall clock)."""
    m2 = TABLES["match"].alias("m2")
    return select(func.coalesce(func.max(m2.c.activity), 0) + 1).scalar_subquery()
