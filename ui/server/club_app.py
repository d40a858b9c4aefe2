"""Fitting a club server's new session to what its link opens (issue #24), before anything
of it is drawn (``make_main(adapt=...)``, ui/shell.py).

- The director (the laptop's own listener, or the director's link) gets the director's screen
  over the running night (ui/state/club.py).
- A table's phone gets a store that holds its table's matches only (ui/club_scope.py): every
  read and write of its session goes through it. Its number comes from the session, where
  the server bound it from the websocket's cookie (ui/server/roles.py); a session of a club
  server that has no table and is not the director (which the gate never lets in) is bound
  to no table at all: it sees nothing.

Each change the director makes to the night (a table, its next match, its abandon) is told to
every session: this process's at once, the other worker processes' through PostgreSQL's
NOTIFY once the night's file is written (:class:`AnnouncedNight`, ui/live.py's
``night_moved``), so the director's screens and the table's phones on every worker see it.
"""

from __future__ import annotations

import logging
from typing import Any

from ui.club_scope import TableStore
from ui.server import club_night, roles
from ui.state.club import ClubScreen

log = logging.getLogger(__name__)


class AnnouncedNight:
    """The night as a director's screen changes it: each change, once written, is told to
    every session of every server process (the night is read as it is otherwise)."""

    def __init__(self, night: club_night.ClubNight, store: Any) -> None:
        self._night = night
        self._store = store  # the server's own store: its feed reaches the other workers

    def __getattr__(self, name: str) -> Any:
        return getattr(self._night, name)

    def add_table(self, match_id: int) -> club_night.ClubTable:
        return self._told("add", self._night.add_table(match_id))

    def next_match(self, number: int, match_id: int) -> club_night.ClubTable:
        return self._told("next", self._night.next_match(number, match_id))

    def abandon(self, number: int) -> club_night.ClubTable:
        return self._told("abandon", self._night.abandon(number))

    def _told(self, what: str, table: club_night.ClubTable) -> club_night.ClubTable:
        from referee.storage.change_feed import NIGHT, Change, NoFeed
        from ui import live

        feed = getattr(self._store, "feed", None) or NoFeed()
        news = {"table": table.number, "what": what}
        change = Change(table.match_id, 0, NIGHT, feed.origin, news=news)
        live.night_moved(self._store, change, live.COMPANY)  # this process's sessions
        try:
            feed.announce(change)  # the other workers' (PostgreSQL's NOTIFY)
        except Exception:  # their screens read the night's file when next drawn
            log.exception("telling the other workers of table %s's %s", table.number, what)
        return table


def adapt(page: Any, app: Any) -> None:
    night = club_night.current()
    if night is None:
        return
    role = roles.role_of(page)
    if role is roles.Role.DIRECTOR:
        app.club = ClubScreen(app, AnnouncedNight(night, app.store))
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
