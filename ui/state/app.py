"""The app's top-level state: language, theme, which screen is open, and the screen states.

Plain Python so tests drive the whole app without a Flet page; the Flet shell (ui/shell.py)
only renders whatever this object says and forwards taps to it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, Literal

from ui import backend
from ui.i18n import LANGUAGES, Translator
from ui.state.club import ClubScreen
from ui.state.common import Notice
from ui.state.deal import DealScreen
from ui.state.history import HistoryScreen
from ui.state.join_codes import JoinCodes
from ui.state.matches import MatchKeeping
from ui.state.new_match import FormMemory, NewMatchForm
from ui.state.rules import RulesScreen

Screen = Literal[
    "home", "new_match", "deal", "score", "rules", "history", "history_match", "stats",
    "entries", "correction", "viewer", "club", "club_tournament", "club_ratings", "club_player",
]
# The director's screens (ui/state/club.py, ui/state/club_ratings.py): its session's only.
CLUB_SCREENS = ("club", "club_tournament", "club_ratings", "club_player")
Role = Literal["scorer", "viewer"]
Theme = Literal["system", "light", "dark"]
THEMES: tuple[Theme, ...] = ("system", "light", "dark")


class AppState:
    """Holds the storage handle and the open screen; screens get their state objects here."""

    def __init__(self, store: Any, lang: str = "en", role: Role = "scorer") -> None:
        self.store = store
        # A viewer reads the live match and writes nothing: its sessions are read-only in
        # the backend, whatever the screen offers (table mode: the link's role decides).
        self.role: Role = role
        # The role this device joined the table with by a link ("scorer" or "viewer"), said
        # on its Home; None for the host and outside table mode (set by the shell).
        self.joined_as: Role | None = None
        # Table mode (ui/live.py): told of every match session opened, and the last move
        # another device made, for the strip every screen shows.
        self.on_session: Callable[[backend.MatchSession], object] | None = None
        self.live_notice: Any = None
        self.live_open = 0  # the serial of the news opened in full by a tap (stays open)
        # Told of each match this device created (the form, a rematch, an import): the table
        # hears of a new match at once, not at its first deal (ui/live.py).
        self.on_created: Callable[[int], object] | None = None
        # How many other devices are connected to this table now (ui/live.py's Company): a
        # lone device shows no table wording. ``on_leave`` takes it off the table.
        self.others_at_table = 0
        self.on_leave: Callable[[], object] | None = None
        self.device = ""  # this device's name at the table ("Boris's phone"), if given
        # Unnamed, a scoring phone is "Device <number>" in each reader's language (0: the
        # host's screen, or a viewer, which records nothing)
        self.device_number = 0
        self.keep_awake = True  # the screen stays on while a deal is open (ui/awake.py)
        # The table's join codes: set by the shell for the server's host only (QA P20).
        self.join_codes: JoinCodes | None = None
        # A club server (issue #24): the director's screen, for the director's session only
        # (ui/server/club_app.py); a table phone's store sees its own table's matches only
        # (ui/club_scope.py), and ``club_table`` is its number.
        self.club: ClubScreen | None = None
        self.club_table: int | None = None
        self.t = Translator(lang)
        self.theme: Theme = "system"
        self.screen: Screen = "home"
        self.history: list[Screen] = []
        self.notice: Notice | None = None
        self.store_notice: str | None = None
        self._listeners: list[Callable[[], None]] = []
        # Called after the language or theme changed (the shell saves them on the device).
        self.on_settings: Callable[[], object] | None = None
        # Set by the shell: re-render from another thread (the match's writer saying whether
        # its entries are saved).
        self.notify_from_thread: Callable[[], object] | None = None
        self.new_form: NewMatchForm | None = None
        # Names and tracking of the last match started on this device (the shell loads and
        # saves them); ``on_remember`` is called after a match was started.
        self.form_memory = FormMemory()
        self.on_remember: Callable[[FormMemory], object] | None = None
        self.session: backend.MatchSession | None = None
        self.deal: DealScreen | None = None
        self.viewed: backend.MatchSession | None = None
        self.rules = RulesScreen(self)
        self.history_screen = HistoryScreen(self)
        self.matches = MatchKeeping(self)
        # ui/state/correction.py: the match whose entries are listed, the open correction
        self.entries_session: backend.MatchSession | None = None
        self.correction: Any = None
        # What this device's screen showed when the tap now handled was made (match id, log
        # position), as the device itself reported it (ui/server/painted.py, wired by the
        # shell); None where it does not say: then this session's view counts (issue 22).
        self.screen_showed: Callable[[], tuple[int, int] | None] | None = None

    # --- what the screen shows (issue 22) ----------------------------------------------------
    def shown_now(self) -> tuple[int, int] | None:
        """The match and log position the screen about to be drawn shows (the shell sends it
        to the device with the drawing; the device sends it back with each tap)."""
        if self.screen in ("entries", "correction") and self.entries_session is not None:
            s: backend.MatchSession | None = self.entries_session
        elif self.screen == "viewer" and self.viewed is not None:
            s = self.viewed
        else:
            s = self.session
        return None if s is None else (s.match_id, s.position)

    def _showed(self) -> tuple[int, int] | None:
        return self.screen_showed() if self.screen_showed is not None else None

    def _watch(self, session: backend.MatchSession) -> None:
        """Writes through this session are judged against what the device's screen showed."""
        session.shown_by = self._showed

    # --- observers -------------------------------------------------------------------------
    def subscribe(self, fn: Callable[[], None]) -> None:
        self._listeners.append(fn)

    def changed(self) -> None:
        for fn in list(self._listeners):
            fn()

    # --- settings --------------------------------------------------------------------------
    @property
    def lang(self) -> str:
        return self.t.lang

    def set_language(self, lang: str) -> None:
        if lang in LANGUAGES and lang != self.t.lang:
            self.t = Translator(lang)
            if self.deal is not None:
                self.deal.set_language(lang)
            self._settings_changed()
            self.changed()

    def toggle_language(self) -> None:
        i = LANGUAGES.index(self.t.lang)
        self.set_language(LANGUAGES[(i + 1) % len(LANGUAGES)])

    def cycle_theme(self) -> None:
        self.theme = THEMES[(THEMES.index(self.theme) + 1) % len(THEMES)]
        self._settings_changed()
        self.changed()

    def set_device(self, name: str) -> None:
        """The name the other devices see this one's entries under (blank keeps the old)."""
        name = " ".join(name.split())[:40]
        if name and name != self.device:
            self.device = name
            self._settings_changed()
            self.changed()

    def set_keep_awake(self, on: bool) -> None:
        if on != self.keep_awake:
            self.keep_awake = on
            self._settings_changed()
            self.changed()

    def set_theme(self, theme: str) -> None:
        """A saved theme (ignored unless it is one of THEMES)."""
        for known in THEMES:
            if known == theme:
                self.theme = known

    def _settings_changed(self) -> None:
        if self.on_settings is not None:
            self.on_settings()

    # --- navigation ------------------------------------------------------------------------
    def flush(self) -> None:
        """Let the open match's queued writes reach storage before a screen reads it."""
        if self.session is not None:
            try:
                self.session.flush()
            except backend.WriteFailed as exc:
                self.notice = Notice("error.storage", {"why": str(exc)}, error=True)

    def go(self, screen: Screen, *, remember: bool = True) -> None:
        self.flush()
        if screen in CLUB_SCREENS and self.club is None:
            screen = "home"  # the director's screens are the director's session's only
        if screen == "deal" and self.role == "viewer":
            screen = "viewer"  # a viewer reads the match; the deal screen is for scorers
        if screen == "rules" and screen != self.screen:
            self.rules.set_query("")  # the reference opens whole, not on an old search
            self.rules.variant_choice = None  # and on the open match's variant
        if remember and screen != self.screen:
            self.history.append(self.screen)
        self.screen = screen
        self.notice = None
        self.changed()

    def back(self) -> None:
        self.flush()
        self.screen = self.history.pop() if self.history else "home"
        self.notice = None
        self.changed()

    def home(self) -> None:
        self.history.clear()
        self.go("home", remember=False)

    # --- matches ---------------------------------------------------------------------------
    def unfinished_match(self) -> backend.MatchSummary | None:
        """The match to resume, if any (storage decides which one is unfinished)."""
        self.flush()
        try:
            return backend.unfinished_match(self.store)
        except Exception as exc:  # a broken database must not stop the app from opening
            self.notice = Notice("error.storage", {"why": str(exc)}, error=True)
            return None

    def start_new_match(self) -> None:
        if self.refused_to_table():
            return
        if self.club is not None:
            self.club.cancel_form()  # a match of the director's own, not a new table
        self.new_form = NewMatchForm(self.form_memory)
        self.go("new_match")

    # --- a club table's phone (issue #24) --------------------------------------------------
    def sees(self, match_id: int) -> bool:
        """Whether this session may show ``match_id``: always, except on a club table's
        phone, whose store knows its table's matches (ui/club_scope.py)."""
        sees = getattr(self.store, "sees", None)
        return True if sees is None else bool(sees(match_id))

    def refused_to_table(self, match_id: int | None = None) -> bool:
        """True (and the notice says why) when this is a club table's phone and the action
        is not for it: another table's match (``match_id``), or a new match (the director
        starts a table's matches)."""
        if self.club_table is None or (match_id is not None and self.sees(match_id)):
            return False
        self.notice = Notice("club.other_table", {"n": self.club_table}, error=True)
        self.changed()
        return True

    def submit_new_match(self) -> bool:
        form = self.new_form
        if form is None:
            return False
        if self.refused_to_viewer() or self.refused_to_table():
            return False
        with backend.telling(self.store, self.news()):
            match_id = form.submit(self.store)
        if match_id is None:
            self.changed()
            return False
        if self.club is not None and self.club.forming:  # the director's new table
            self.form_memory = form.remembered()
            self.club.table_created(match_id)
            return True
        self.form_memory = form.remembered()
        if self.on_remember is not None:
            self.on_remember(self.form_memory)
        self.created(match_id)
        self.open_match(match_id, remember=False)
        return True

    def news(self) -> dict[str, Any]:
        """Who this device is, as a write's notice tells the other server processes."""
        return {"device": self.device, "number": self.device_number,
                "host": self.join_codes is not None}

    def created(self, match_id: int) -> None:
        """A match was stored by this device: the table hears of it."""
        if self.on_created is not None:
            self.on_created(match_id)

    def open_match(self, match_id: int, *, remember: bool = True) -> bool:
        """Open a match at the deal screen (resume). The open match's own session is kept:
        its unsaved entries (storage away) stay queued instead of being reloaded away."""
        if self.refused_to_table(match_id):
            return False
        if self.session is not None and self.session.match_id == match_id:
            self.deal = DealScreen(self.session, self.lang)
            if not remember:
                self.history = ["home"]
            self.go("viewer" if self.role == "viewer" else "deal", remember=remember)
            return True
        if self.session is not None:
            try:
                self.session.close()
            except backend.StorageAway as exc:  # its entries are not saved yet: stay with it
                self.notice = Notice("error.storage", {"why": str(exc)}, error=True)
                self.changed()
                return False
            except backend.WriteFailed as exc:
                self.notice = Notice("error.storage", {"why": str(exc)}, error=True)
        try:
            self.session = backend.MatchSession(
                self.store, match_id, read_only=self.role == "viewer"
            )
            self.session.on_change = self._writes_changed
            self._watch(self.session)
        except Exception as exc:
            self.session = None
            self.notice = Notice("error.storage", {"why": str(exc)}, error=True)
            self.changed()
            return False
        if self.on_session is not None:
            self.on_session(self.session)
        self.deal = DealScreen(self.session, self.lang)
        if not remember:
            self.history = ["home"]
        self.go("viewer" if self.role == "viewer" else "deal", remember=remember)
        return True

    @property
    def may_write(self) -> bool:
        """Whether the screens offer writing at all: a viewer is shown no action it may not
        take (issue 22), and is refused in the state and the backend all the same."""
        return self.role != "viewer"

    def refused_to_viewer(self) -> bool:
        """True (and the notice says why) when this session is a viewer: every write of the
        app's screens asks this first; the match sessions refuse viewers' writes themselves."""
        if self.role != "viewer":
            return False
        self.notice = Notice("table.viewer_cannot_write", error=True)
        self.changed()
        return True

    def _writes_changed(self) -> None:
        if self.notify_from_thread is not None:
            self.notify_from_thread()

    def show_viewer(self) -> None:
        """The open match for reading across the table (big totals, sheet, last ruling)."""
        if self.session is not None:
            self.go("viewer")

    @property
    def route(self) -> str:
        """The address the browser shows for this screen: a match's screens name the match,
        so a device that reconnects (a server restart) comes back to it."""
        if self.session is not None and self.screen in ("deal", "score", "viewer"):
            kind = "view" if self.screen == "viewer" else "match"
            return f"/{kind}/{self.session.match_id}"
        if self.screen == "club":
            return "/club"
        if self.screen == "club_tournament":
            return "/club/tournament"
        if self.screen in ("club_ratings", "club_player") and self.club is not None:
            return self.club.ratings.route
        return "/"

    def open_route(self, route: str) -> bool:
        """Open what a route names (``/match/ID`` or ``/view/ID``); anything else, or a
        match that is not stored, leaves Home open. ``/view/`` makes the session a viewer (a
        route can only take rights away, never give them)."""
        parts = [p for p in route.split("?", 1)[0].split("/") if p]
        if parts == ["club"] and self.club is not None:
            self.go("club", remember=False)
            return True
        if parts == ["club", "tournament"] and self.club is not None:
            self.go("club_tournament", remember=False)
            return True
        if parts[:1] == ["club"] and self.club is not None:
            return self.club.ratings.open_route(parts)
        if len(parts) != 2 or parts[0] not in ("match", "view") or not parts[1].isdigit():
            return False
        if parts[0] == "view":
            self.role = "viewer"
        match_id = int(parts[1])
        if self.refused_to_table(match_id):
            return False
        try:
            self.store.match_info(match_id)
        except Exception:
            self.notice = Notice("table.route_missing", {"id": match_id}, error=True)
            return False
        return self.open_match(match_id, remember=False)

    def resume(self) -> bool:
        summary = self.unfinished_match()
        if summary is None:
            self.changed()
            return False
        return self.open_match(summary.id)

    def close(self) -> None:
        """The browser session ended: finish the open match's writes, stop its writer."""
        if self.on_leave is not None:
            self.on_leave()
        if self.session is not None:
            # nobody is left to tell of a failed write; storage keeps the truth
            with contextlib.suppress(backend.WriteFailed):
                self.session.close(leaving=True)
            self.session = None

    def show_score(self) -> None:
        self.go("score")

    def view_match(self, match_id: int) -> bool:
        """Open a past match (history): shown read-only, corrected through it (not by a
        viewer, whose sessions refuse every write)."""
        if self.refused_to_table(match_id):
            return False
        try:
            self.viewed = backend.MatchSession(
                self.store, match_id, read_only=self.role == "viewer"
            )
            self._watch(self.viewed)
            if self.on_session is not None:
                self.on_session(self.viewed)
        except Exception as exc:
            self.notice = Notice("error.storage", {"why": str(exc)}, error=True)
            self.changed()
            return False
        self.go("history_match")
        return True
