"""The join codes for the host's Home (QA P20), built from the running table session with
the terminal's and /table-links' own code (ui/server/table_mode.py, ui/server/qr.py).

Given only to a session whose role the server set to *host* when its websocket arrived on the
127.0.0.1 listener (ui/server/table.py, ui/server/roles.py): the client cannot choose it, and
a scorer's or viewer's session gets ``None``.
"""

from __future__ import annotations

from typing import Any

from ui.server import roles, table_mode
from ui.state.join_codes import JoinCode, JoinCodes

ROLES = (roles.Role.SCORER, roles.Role.VIEWER)


def for_page(page: Any) -> JoinCodes | None:
    """The codes for this session, or ``None``: not table mode, or not the host."""
    session = table_mode.current()
    if session is None or roles.role_of(page) is not roles.Role.HOST:
        return None
    codes = tuple(JoinCode(r.value, session.join_url(r), session.qr_png(r)) for r in ROLES)
    return JoinCodes(codes, session.links_url)
