"""Fitting a club server's new session to what its link opens (issue #24), before anything
of it is drawn (``make_main(adapt=...)``, ui/shell.py).

- The director (the laptop's own listener, or the director's link) gets the director's screen
  over the running night (ui/state/club.py).
- A table's phone gets a store that holds its table's matches only (ui/club_scope.py): every
  read and write of its session goes through it. Its number comes from the session, where
  the server bound it from the websocket's cookie (ui/server/roles.py); a session of a club
  server that has no table and is not the director (which the gate never lets in) is bound
  to no table at all: it sees nothing.
"""

from __future__ import annotations

from typing import Any

from ui.club_scope import TableStore
from ui.server import club_night, roles
from ui.state.club import ClubScreen


def adapt(page: Any, app: Any) -> None:
    night = club_night.current()
    if night is None:
        return
    role = roles.role_of(page)
    if role is roles.Role.DIRECTOR:
        app.club = ClubScreen(app, night)
        app.device_number = 0  # not a phone of a table: its news says "the host's screen"
        return
    table = roles.table_of(page)
    number = table if table is not None else 0  # no table 0: nothing to see
    app.club_table = number
    app.store = TableStore(
        app.store,
        night,
        number,
        lambda: str(app.t("club.other_table", n=number)),
        scorer=role is roles.Role.SCORER,
    )
