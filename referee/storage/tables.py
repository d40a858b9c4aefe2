"""The Core tables the storage layer's SQL names (``TABLES["match"]`` …), made from the one
schema in ``models.py``.

The server takes them from the SQLModel classes. The phone build (scripts/build_phone.py)
ships them frozen: :func:`freeze` writes the models' tables as JSON beside this module and
:func:`thaw` makes the same tables from it with SQLAlchemy alone, so a phone's start imports
neither SQLModel nor pydantic, whose compiled extension and model building were 0.7 s of a
3.4 s start there (docs/phone.md). JSON rather than a pickle: the same models give the same
bytes, so a new build whose schema did not change leaves the phone's copy of the app archive
as it is. This module is the only place that knows the difference; a test checks that the
thawed tables make the models' DDL and defaults and need nothing but SQLAlchemy to load.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)
from sqlalchemy.sql.schema import CallableColumnDefault, DefaultClause, ScalarElementColumnDefault
from sqlalchemy.types import TypeEngine

from referee.storage.schema import utcnow
from referee.storage.utc_datetime import UTCDateTime

FROZEN = Path(__file__).with_name("tables.json")  # written only into the phone build
TYPES: dict[str, type[TypeEngine[Any]]] = {
    "Integer": Integer,
    "Text": Text,
    "String": String,
    "Boolean": Boolean,
    "UTCDateTime": UTCDateTime,
}


class NotFreezable(TypeError):
    """A column the frozen form cannot say: it would load differently on the phone."""


def _type(column: Column[Any]) -> list[Any]:
    kind = type(column.type).__name__
    if kind == "AutoString":  # SQLModel's str column: a String but for MySQL's length
        return ["String", getattr(column.type, "length", None)]
    if kind not in TYPES or type(column.type) is not TYPES[kind]:
        raise NotFreezable(f"{column.table.name}.{column.name}: type {kind}")
    return [kind, column.type.length] if isinstance(column.type, String) else [kind]


def _default(column: Column[Any]) -> list[Any] | None:
    default = column.default
    if default is None:
        return None
    if isinstance(default, ScalarElementColumnDefault):
        return ["value", default.arg]
    called = getattr(default, "arg", None)
    if isinstance(default, CallableColumnDefault) and getattr(called, "__wrapped__", 0) is utcnow:
        return ["now"]  # SQLAlchemy keeps a wrapper of the models' default_factory
    raise NotFreezable(f"{column.table.name}.{column.name}: default {default!r}")


def _server_default(column: Column[Any]) -> str | None:
    clause = column.server_default
    if clause is None:
        return None
    if isinstance(clause, DefaultClause) and isinstance(clause.arg, str):
        return clause.arg
    raise NotFreezable(f"{column.table.name}.{column.name}: server default {clause!r}")


def freeze(metadata: MetaData) -> bytes:
    """``metadata``'s tables as JSON: columns, foreign keys, unique constraints, indexes, in a
    fixed order (the same models give the same bytes)."""
    tables = []
    for table in metadata.tables.values():
        columns = [
            {
                "name": c.name,
                "type": _type(c),
                "nullable": bool(c.nullable),
                "primary_key": bool(c.primary_key),
                "autoincrement": c.autoincrement,
                "default": _default(c),
                "server_default": _server_default(c),
            }
            for c in table.columns
        ]
        keys = sorted(
            (
                {
                    "columns": [c.name for c in k.columns],
                    "refs": [e.target_fullname for e in k.elements],
                    "ondelete": k.ondelete,
                    "name": k.name,
                }
                for k in table.constraints
                if isinstance(k, ForeignKeyConstraint)
            ),
            key=lambda k: (k["columns"], k["refs"]),
        )
        unique = sorted(
            (
                {"columns": [c.name for c in k.columns], "name": k.name}
                for k in table.constraints
                if isinstance(k, UniqueConstraint)
            ),
            key=lambda k: (k["name"] or "", k["columns"]),
        )
        indexes = sorted(
            (
                {"name": i.name, "columns": [c.name for c in i.columns], "unique": i.unique}
                for i in table.indexes
            ),
            key=lambda i: str(i["name"]),
        )
        tables.append(
            {
                "name": table.name,
                "columns": columns,
                "foreign_keys": keys,
                "unique": unique,
                "indexes": indexes,
            }
        )
    return json.dumps({"tables": tables}, indent=1, sort_keys=True).encode()


def thaw(frozen: bytes) -> MetaData:
    """The tables :func:`freeze` wrote, made again."""
    metadata = MetaData()
    for spec in json.loads(frozen)["tables"]:
        items: list[Any] = []
        for c in spec["columns"]:
            kind, *args = c["type"]
            default = c["default"]
            items.append(
                Column(
                    c["name"],
                    TYPES[kind](*args),
                    nullable=c["nullable"],
                    primary_key=c["primary_key"],
                    autoincrement=c["autoincrement"],
                    default=None
                    if default is None
                    else (utcnow if default[0] == "now" else default[1]),
                    server_default=c["server_default"],
                )
            )
        for k in spec["foreign_keys"]:
            items.append(
                ForeignKeyConstraint(
                    k["columns"], k["refs"], ondelete=k["ondelete"], name=k["name"]
                )
            )
        for u in spec["unique"]:
            items.append(UniqueConstraint(*u["columns"], name=u["name"]))
        for i in spec["indexes"]:
            items.append(Index(i["name"], *i["columns"], unique=i["unique"]))
        Table(spec["name"], metadata, *items)
    return metadata


def _metadata() -> MetaData:
    if FROZEN.exists():
        return thaw(FROZEN.read_bytes())
    from referee.storage.models import METADATA as models

    return models


METADATA = _metadata()
TABLES = METADATA.tables
