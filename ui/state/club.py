"""The club night's director's screen (issue #24): every table live, a new table, its links
and QR codes, abandoning a table, and a finished table's next match.

Plain Python over the app state and the night (ui/server/club_night.py, injected, so tests
drive it without a server or a page). Only a session the server made the director holds one
(``AppState.club``; ui/server/club_app.py): no screen of a table's phone can reach it.

The list reads storage each time it is drawn (a table's write reaches the director's session
as ui/live.py's news, which re-renders the screen), so it always shows what storage holds.
A new table is made with the app's own new-match form (players, variant, house rules): the
form's match is stored, then the night gives the table its number and links.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from referee.games import ahead
from ui import backend
from ui.state.club_ratings import RatingsScreen
from ui.state.common import Notice
from ui.state.join_codes import JoinCode
from ui.state.new_match import NewMatchForm

if TYPE_CHECKING:
    from ui.state.app import AppState
    from ui.state.club_tournament import TournamentScreen

Status = Literal["playing", "finished", "abandoned"]
ROLES = ("scorer", "viewer")


class Night(Protocol):
    """What the director's screen needs of the club night."""

    def tables(self) -> list[Any]: ...
    def add_table(self, match_id: int) -> Any: ...
    def next_match(self, number: int, match_id: int) -> Any: ...
    def abandon(self, number: int) -> Any: ...
    def join_url(self, number: int, role: str) -> str: ...
    def qr_png(self, number: int, role: str) -> bytes: ...
    def tournament(self) -> dict[str, Any] | None: ...
    def set_tournament(self, data: dict[str, Any] | None) -> None: ...


@dataclass(frozen=True)
class TableRow:
    """One table as the director's list shows it."""

    number: int
    match_id: int
    sides: tuple[str, ...]
    variant: str  # in the screen's language
    deal: int  # the deal in play, or the last one played (0: none yet)
    totals: tuple[int, ...]
    leading: str | None  # the winner once finished; else the side ahead (None: level)
    status: Status
    played: int  # matches this table has started tonight, this one included


class ClubScreen:
    def __init__(self, app: AppState, night: Night) -> None:
        self.app = app
        self.night = night
        self.forming = False  # the new-match form is open for a new table
        self.links_of: int | None = None  # the table whose links and codes are shown
        self.confirm_abandon: int | None = None  # the table whose abandon awaits a yes
        # the evening's tournament (ui/state/club_tournament.py): the director's only. Imported
        # here, on the server: it needs the club's engine (referee/club/), which the phone's
        # image leaves out (scripts/build_phone.py), and every app imports this module
        from ui.state.club_tournament import TournamentScreen

        self.tournament: TournamentScreen = TournamentScreen(app, night)
        self.ratings = RatingsScreen(app)  # the leaderboard, players, records
        # each table's match summary with the match's version when it was read: a move at
        # one table replays that table's match, not the whole night's (twenty replays took
        # 0.3 s of the director's worker per move)
        self._summaries: dict[int, tuple[tuple[int, bool], backend.MatchSummary]] = {}
        self.view_cache: dict[tuple[Any, ...], Any] = {}  # the screen's cards (ui/views)

    # --- reading ---------------------------------------------------------------------------
    def rows(self) -> list[TableRow]:
        """Every table of the night, by number, as storage has it now."""
        rows = []
        tables = self.night.tables()
        try:  # one read says which matches moved since the last drawing
            versions = self.app.store.versions([t.match_id for t in tables])
        except Exception:  # storage away: every table is read (and says so) below
            versions = {}
        for t in tables:
            try:
                s = self._summary(t.match_id, versions.get(t.match_id))
            except Exception as exc:  # storage away: say so, keep the rest of the list
                self.app.notice = Notice("error.storage", {"why": str(exc)}, error=True)
                continue
            status: Status = (
                "abandoned"
                if t.abandoned or s.abandoned
                else "finished"
                if s.finished
                else "playing"
            )
            rows.append(
                TableRow(
                    t.number,
                    t.match_id,
                    s.sides,
                    self.app.t(f"variant.{s.variant}"),
                    s.deals,
                    s.totals,
                    s.winner if s.finished else _side_ahead(s.sides, s.totals),
                    status,
                    len(t.matches),
                )
            )
        return rows

    def _summary(self, match_id: int, version: tuple[int, bool] | None) -> backend.MatchSummary:
        """The match's summary, replayed only when its version moved (or is unknown)."""
        kept = self._summaries.get(match_id)
        if version is not None and kept is not None and kept[0] == version:
            return kept[1]
        summary = backend.summarize(self.app.store, match_id)
        if version is not None:
            self._summaries[match_id] = (version, summary)
        return summary

    def codes(self, number: int) -> tuple[JoinCode, ...]:
        """The table's scorer and viewer links with their QR codes."""
        return tuple(
            JoinCode(r, self.night.join_url(number, r), self.night.qr_png(number, r)) for r in ROLES
        )

    # --- a new table -----------------------------------------------------------------------
    def new_table(self) -> None:
        """The new-match form, for the new table's players, variant and house rules."""
        self.forming = True
        self.app.new_form = NewMatchForm(self.app.form_memory)
        self.app.go("new_match")

    def table_created(self, match_id: int) -> None:
        """The form stored the table's match: the table gets its number and links, which
        the screen then shows."""
        self.forming = False
        table = self.night.add_table(match_id)
        self.links_of = int(table.number)
        self.app.notice = Notice("club.created", {"n": table.number})
        self.app.created(match_id)
        self.app.history = []
        self.app.go("club", remember=False)

    def cancel_form(self) -> None:
        self.forming = False

    # --- one table -------------------------------------------------------------------------
    def show_links(self, number: int | None) -> None:
        self.links_of = None if number == self.links_of else number
        self.app.changed()

    def ask_abandon(self, number: int) -> None:
        self.confirm_abandon = number
        self.app.changed()

    def cancel_abandon(self) -> None:
        self.confirm_abandon = None
        self.app.changed()

    def abandon(self, number: int) -> bool:
        """The table stops: its match is set aside in storage (kept, as Home's abandon
        keeps it) and its scorers write nothing more; its viewers still read it."""
        self.confirm_abandon = None
        table = self._table(number)
        if table is None:
            return False
        try:
            info = self.app.store.match_info(table.match_id)
            if not info.finished:
                self.app.store.abandon_match(table.match_id)
        except Exception as exc:
            self.app.notice = Notice("sheet.abandon_failed", {"why": str(exc)}, error=True)
            self.app.changed()
            return False
        self.night.abandon(number)
        self.app.notice = Notice("club.abandoned", {"n": number})
        self.app.changed()
        return True

    def next_match(self, number: int) -> bool:
        """A finished (or abandoned) table's next match: the same players, variant, house
        rules, tracking and target, the seats moved on one (the score sheet's rematch); the
        table's links stay, and its phones are told of the new match."""
        table = self._table(number)
        if table is None:
            return False
        row = next((r for r in self.rows() if r.number == number), None)
        if row is None or row.status == "playing":
            self.app.notice = Notice("club.still_playing", {"n": number}, error=True)
            self.app.changed()
            return False
        try:
            new_id = self.app.matches.create_rematch(table.match_id, rotate=True)
        except Exception as exc:
            self.app.notice = Notice("sheet.rematch_failed", {"why": str(exc)}, error=True)
            self.app.changed()
            return False
        self.night.next_match(number, new_id)
        self.app.notice = Notice("club.next_started", {"n": number})
        self.app.created(new_id)
        self.app.changed()
        return True

    def _table(self, number: int) -> Any:
        return next((t for t in self.night.tables() if t.number == number), None)


def _side_ahead(sides: tuple[str, ...], totals: tuple[int, ...]) -> str | None:
    """The side ahead by the engine's reckoning (``referee.games.ahead``); None while level or
    nothing is scored."""
    side = ahead(totals) if totals and max(totals) != 0 else None
    return None if side is None else sides[side]
