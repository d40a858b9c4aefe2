"""The column type of every moment the store keeps: aware datetimes in, UTC out.

SQLModel gives ``datetime`` fields the same contract (``sqlmodel.sql.sqltypes.UTCDateTime``),
but its module cannot be imported without SQLModel and pydantic, which the phone build leaves
out of its start (``tables.py``). The models name this type instead, so the server and the
phone read and write moments through one definition.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import types
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.sql.operators import OperatorType


class UTCDateTime(types.TypeDecorator[datetime]):
    """Aware datetimes stored in UTC; SQLite, which keeps no offset, gives them back as UTC."""

    impl = types.DateTime
    cache_ok = True

    def __init__(self) -> None:
        super().__init__(timezone=True)

    def __repr__(self) -> str:
        return "UTCDateTime()"

    def coerce_compared_value(self, op: OperatorType | None, value: Any) -> types.TypeEngine[Any]:
        """A moment less a duration is compared as an interval, as DateTime would."""
        if isinstance(value, timedelta):
            return types.Interval()
        return self

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """A naive moment is refused: its zone would be a guess."""
        if value is None:
            return None
        if value.utcoffset() is None:
            raise ValueError("a moment to store has no UTC offset")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """What SQLite gives back without an offset was stored as UTC."""
        if value is None:
            return None
        if value.utcoffset() is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)
