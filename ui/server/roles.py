"""Who a device is at the table, as the app session sees it.

The server decides the role before the Flet session starts (ui/server/table.py) and puts it in
the websocket's ASGI scope; :func:`bind` copies it into the new session's store, where
:func:`role_of` reads it. Outside table mode (desktop, packaged app, the local browser app)
every session is the host.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

SCOPE_KEY = "bezique.role"
STORE_KEY = "bezique.role"
# A club server's table phones (ui/server/club_gate.py): the table number their link opens.
TABLE_SCOPE_KEY = "bezique.table"
TABLE_STORE_KEY = "bezique.table"


class Role(StrEnum):
    HOST = "host"  # the laptop's own screen: records, and shows the join links
    SCORER = "scorer"  # may record, undo and penalise
    VIEWER = "viewer"  # reads the live sheet only
    DIRECTOR = "director"  # a club night's director: every table, and the director's screen


def bind(page: Any, scope: Any) -> None:
    """Session hook (ui/server/asgi.py): the role the server gave this websocket."""
    role = Role(scope.get(SCOPE_KEY, Role.HOST.value))
    page.session.store.set(STORE_KEY, role.value)
    table = scope.get(TABLE_SCOPE_KEY)
    if table is not None:  # a club table's phone: its session is bound to that table only
        page.session.store.set(TABLE_STORE_KEY, int(table))


def table_of(page: Any) -> int | None:
    """The club table a phone's session is bound to (None: the host, the director, table
    mode's phones, no server)."""
    try:
        value = page.session.store.get(TABLE_STORE_KEY)
    except Exception:  # a page without a session store (tests' fakes)
        return None
    return int(value) if value is not None else None


def grant(role: str, table: Any) -> str:
    """A session's rights as one string: its role, and the club table it is bound to. A
    reconnecting websocket may resume a session only with the same grant
    (ui/server/session_roles.py)."""
    return role if table is None else f"{role}@{int(table)}"


def role_of(page: Any) -> Role:
    """The role of a page's session; the host when the server gave none."""
    try:
        value = page.session.store.get(STORE_KEY)
    except Exception:  # a page without a session store (tests' fakes): not in table mode
        return Role.HOST
    return Role(value) if value else Role.HOST


def may_write(page: Any) -> bool:
    """Whether this session may record, undo or penalise."""
    return role_of(page) in (Role.HOST, Role.SCORER, Role.DIRECTOR)


def joined_as(page: Any) -> str | None:
    """The role a phone joined the table with by its link ("scorer" or "viewer"), for its
    Home to say; None for the host (and outside table mode, where no link was used)."""
    role = role_of(page)
    return None if role in (Role.HOST, Role.DIRECTOR) else role.value


def app_role(page: Any) -> str | None:
    """The role in the words the app's ``make_main(role_of=...)`` takes: "scorer" (the host
    too) or "viewer"."""
    return "viewer" if role_of(page) is Role.VIEWER else "scorer"
