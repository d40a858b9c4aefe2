"""Every screen at the table shows the same match: after each durable write a session tells
the others ("match X moved to log position N by device D", Flet's in-process pubsub), and each
session that shows that match reloads it from storage (storage stays the truth) and says who
did what.

A session's own refused write (its view was stale: storage's compare-and-append said no) is
reported here too, as soon as the writer hears of it, not at the next tap.

The state part (``TableLink.arrive``, ``TableLink.refused``) is plain Python that tests drive
without a page; ``connect`` wires it to a Flet page's pubsub and event loop.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ui import backend, correction_words, entry_words, page_tasks
from ui.club_scope import OutOfScope
from ui.i18n import Translator
from ui.state.common import Notice

if TYPE_CHECKING:
    import flet as ft

    from ui.state.app import AppState

log = logging.getLogger(__name__)
RULE_SUFFIX = re.compile(r"\s+—\s+[A-Z][A-Z0-9-]+$")
TOPIC = "bezique-table"  # one topic for the server: a session on Home also hears of moves


@dataclass(frozen=True)
class Move:
    """What a session tells the others after a durable write."""

    match_id: int
    position: int
    action: str  # record | undo | redo | deal
    device: str  # the name its user gave it ("": none, see ``number``)
    ruling: Any = None
    deal: int = 0
    event: dict[str, Any] | None = None  # a recorded entry, as stored
    from_host: bool = False  # made on the host's screen: its other tabs are the same device
    number: int = 0  # an unnamed scoring phone's number: "Device 2" in each reader's language
    sides: tuple[str, ...] = ()  # a new match's sides ("new"), said with the news


@dataclass(frozen=True)
class LiveNotice:
    """The last move another device made, for the strip every screen shows."""

    move: Move
    serial: int
    earlier: Move | None = None  # the same device's entry just before, said with it
    form_replaced: bool = False  # this screen's open end form was closed by this move (P25)
    alone: bool = False  # this device's own undo/redo with no other device at the table
    own: bool = False  # this device's own move: "You undid …", never its name (issue 22)

    def text(self, t: Any, lang: str) -> str:
        m = self.move
        if (self.alone or self.own) and m.action in ("undo", "redo"):
            # one phone is not a table: no name; at a table, a phone's own move is "You …"
            words = "lone_words" if self.alone else "own_words"
            what = entry_words.words(m.ruling, lang, RULE_SUFFIX)
            if what:
                return str(t(f"{words}.{m.action}", what=what))
            return str(t(f"{words}.{m.action}_last"))
        device = device_name(m, t)
        if m.action == "record":
            what = backend.ruling_text(m.ruling, lang) if m.ruling is not None else ""
            what = RULE_SUFFIX.sub("", what)  # the strip is short: the rule id is on screen
            if self.earlier is not None:  # the end of a deal: its last trick too (QA P25)
                what = f"{entry_words.words(self.earlier.ruling, lang, RULE_SUFFIX)}; {what}"
            said = str(t("table.moved.record", device=device, what=what))
            if self.form_replaced:
                said = said.rstrip(".") + ". " + str(t("end_news.form_replaced"))
            return said
        if m.action in ("undo", "redo"):
            what = entry_words.words(m.ruling, lang, RULE_SUFFIX)  # QA P18: name the entry
            if what:
                return str(t(f"table_words.{m.action}", device=device, what=what))
            return str(t(f"table.moved.{m.action}", device=device))
        if m.action == "new":
            if not m.sides:  # storage did not say whose: the news without the names
                return str(t("new_match_news.strip_unnamed", device=device))
            return str(t("new_match_news.strip", device=device, players=" — ".join(m.sides)))
        if m.action == "correct":
            what = _correction_words(m.ruling, lang)
            if what:  # the same lines as the correcting phone's, in this phone's language
                return str(t("table_words.correct", device=device, what=what))
            return str(t("table.moved.correct", device=device))
        return str(t("table.moved.deal", device=device, n=m.deal))


def write_notice(exc: BaseException, refused: Any = None, lang: str = "en") -> Notice | None:
    """The plain words for table mode's refusals (None for other write failures); with the
    refused entry's ruling, the notice names it (QA P18). A tap made on a screen that had
    not yet shown another device's change names those changes (issue 22)."""
    if isinstance(exc, OutOfScope):  # a club table's phone, beyond its table (issue #24)
        return Notice("club.refused", {"why": str(exc)}, error=True)
    if isinstance(exc, backend.ReadOnly):
        return Notice("table.viewer_cannot_write", error=True)
    if isinstance(exc, backend.Unseen):
        return unseen_notice(exc, lang)
    if isinstance(exc, backend.Stale):
        what = entry_words.words(refused, lang, RULE_SUFFIX)
        if what:
            return Notice("table_words.stale", {"what": what}, error=True)
        return Notice("table.stale", error=True)
    return None


def unseen_notice(exc: backend.Unseen, lang: str) -> Notice:
    """"Not undone: this screen had not yet shown Anna's phone recorded: Anna is penalised
    10 …": what the tap asked, and each change the screen had not shown, in this device's
    language (the strip's own words for them)."""
    t = Translator(lang)
    said = [LiveNotice(m, 0).text(t, lang) for m in exc.missed if isinstance(m, Move)]
    kind = exc.action if exc.action in ("undo", "redo") else "write"
    if not said:
        return Notice(f"unseen.{kind}_unnamed", error=True)
    return Notice(f"unseen.{kind}", {"what": "; ".join(s.rstrip(".") for s in said)},
                  error=True)


class Company:
    """Who is at the table: the app sessions of one server (one per device's page). Each
    link's ``app.others_at_table`` is how many other devices are connected now; the screens
    show table wording (the news slot, "Boris's phone undid …") only while it is above 0.
    The host's browser tabs are one device (the laptop), not a table of their own."""

    def __init__(self) -> None:
        self._links: list[TableLink] = []
        self._lock = threading.Lock()

    def join(self, link: TableLink) -> None:
        with self._lock:
            if link not in self._links:
                self._links.append(link)
        self._count()

    def leave(self, link: TableLink) -> None:
        with self._lock:
            if link in self._links:
                self._links.remove(link)
        self._count()
        link.app.others_at_table = 0

    def links(self) -> list[TableLink]:
        with self._lock:
            return list(self._links)

    def _count(self) -> None:
        with self._lock:
            links = list(self._links)
        # a club server's tables are tables of their own (issue #24): a phone counts only
        # the devices of its own table; table mode has one table (``club_table`` None)
        devices: dict[object, set[object]] = {}
        for link in links:
            devices.setdefault(_table_of(link), set()).add(device_key(link))
        for link in links:
            others = len(devices[_table_of(link)]) - 1
            if link.app.others_at_table != others:
                link.app.others_at_table = others
                link.schedule(link.app.changed)  # its slot comes or goes on its own loop


def device_key(link: TableLink) -> object:
    """The device a session is on: every session of the table's host (it alone is given the
    join codes) is the laptop's; any other session is a phone of its own."""
    return "host" if link.app.join_codes is not None else link


def _table_of(link: TableLink) -> object:
    return getattr(link.app, "club_table", None)


COMPANY = Company()  # the server's: every Flet session runs in this process


class TableLink:
    """One session's link to the table. ``publish`` is what it says after its own writes
    (injected: the page's pubsub, or a test's list); ``company``, the devices it counts as
    being at the table with it (none: it is alone)."""

    def __init__(
        self, app: AppState, publish: Callable[[Move], object], company: Company | None = None
    ) -> None:
        self.app = app
        self._publish = publish
        self._serial = 0
        self._new_heard: set[int] = set()  # new matches already told (heard twice: once)
        app.on_session = self.attach
        app.on_created = self.created
        self.company = company
        if company is not None:
            company.join(self)

    # --- this session's writes ---------------------------------------------------------
    def attach(self, session: backend.MatchSession) -> None:
        session.on_written = self.written
        session.news = self.app.news  # who writes, for the other server processes
        session.on_failed = lambda exc: self.schedule(self.refused, session, exc)

    def written(self, w: backend.Written) -> None:
        """Called after a durable write of this session: recorded entries from the writer
        thread, undo/redo/deal starts on the session's own thread (an undo or redo is
        announced on every screen, its own included)."""
        move = Move(
            w.match_id, w.position, w.action, self.app.device, w.ruling, w.deal, w.event,
            from_host=self.app.join_codes is not None, number=self.app.device_number,
        )
        self._publish(move)
        if w.action in ("undo", "redo"):
            self.show(move, own=True)

    def created(self, match_id: int) -> None:
        """This device created a match: the others hear of it at once, not at its first
        deal (their Home said "No match in progress" and offered New match: a duplicate)."""
        try:
            sides = backend.summarize(self.app.store, match_id).sides
        except Exception:  # storage away: the news goes without the names
            log.exception("reading the new match %s", match_id)
            sides = ()
        self._publish(Move(
            match_id, 0, "new", self.app.device, sides=tuple(sides),
            from_host=self.app.join_codes is not None, number=self.app.device_number,
        ))

    def schedule(self, fn: Callable[..., None], *args: Any) -> None:
        """Run on the session's own thread (the page's loop); tests run it at once."""
        fn(*args)

    def refused(self, session: backend.MatchSession, exc: BaseException) -> None:
        """This session's background write was refused or failed: show storage's match and
        say so in plain words (the other devices' screens never showed the refused entry)."""
        app = self.app
        if app.session is not session:
            return
        refused = session.refused
        try:
            session.reload()
            session.saw_elsewhere()  # storage's match holds what this screen never showed
        except backend.WriteFailed as failure:
            exc = failure
        except Exception as other:  # storage unreachable: say so, keep what is shown
            exc = other
        notice = write_notice(exc, refused, app.lang)
        self._tell(notice or Notice("error.storage", {"why": str(exc)}, error=True))
        app.changed()

    # --- the others' writes ------------------------------------------------------------
    def arrive(self, move: Move) -> None:
        """Another device moved a match on: reload it if this session shows it."""
        app = self.app
        if not app.sees(move.match_id):
            return  # a club table's phone hears nothing of the other tables (issue #24)
        if move.action == "new":
            if move.match_id in self._new_heard:
                return  # a club table's next match: told by storage and by the night
            self._new_heard.add(move.match_id)
            self.new_match(move)
            return
        shown = [
            s for s in (app.session, app.viewed) if s is not None and s.match_id == move.match_id
        ]
        if not shown:
            if app.screen in (
                "home", "history", "stats", "club", "club_tournament", "club_ratings", "club_player"
            ):
                app.changed()  # the lists, the resume card and the club's screens read storage
            return
        form_open = app.deal is not None and app.deal.session in shown and app.deal.mode == "end"
        for s in shown:
            if move.position <= s.position and not s.busy:
                continue  # already showing it (or a newer state)
            try:
                if move.action == "record":
                    s.catch_up(move.position, move.event, move.ruling)
                else:
                    s.reload()
                # until this device's screen shows it, its taps are refused (issue 22)
                s.saw_elsewhere(move)
            except backend.WriteFailed as exc:  # our own entry lost the race
                s.saw_elsewhere(move)
                notice = write_notice(exc, s.refused, app.lang)
                self._tell(notice or Notice("error.diverged", error=True))
            except Exception:  # storage unreachable: the next tap reports it
                log.exception("reload after a move by %s", move.device)
        deal = app.deal
        if deal is not None and deal.session in shown and move.action != "record":
            # an undo, redo, correction or new deal elsewhere: nothing half-done here
            # survives it (a new entry elsewhere leaves this screen's picker and ruling be)
            deal.moved_elsewhere()
        mine = move.from_host and self.app.join_codes is not None  # another tab of the host's
        self.show(
            move, form_replaced=form_open and deal is not None and deal.mode != "end", own=mine
        )

    def night_changed(self, what: str, table: int | None, move: Move) -> None:
        """The club night changed, on this server process or another (issue #24): a table
        was created (``add``), started its next match (``next``, ``move`` is that match as a
        new one) or was abandoned (``abandon``). The director's screen is drawn again (it
        reads the night); a phone of that table follows its next match as the phones of the
        director's own process do, or is told that its table stopped."""
        app = self.app
        if getattr(app, "club", None) is not None:
            app.changed()
            return
        if table is None or getattr(app, "club_table", None) != table:
            return
        if what == "next":
            self.arrive(move)
        elif what == "abandon":
            self.catch_up()
            notice = Notice("club.table_stopped", {"n": table})
            if app.deal is not None:
                app.deal.notice = notice  # the deal screen's own notice slot
            else:
                app.notice = notice
            app.changed()

    def catch_up(self) -> None:
        """Back after its device was away (no connection, so no moves were told to it): the
        matches it shows are read again from storage; a match that moved meanwhile counts as
        moved elsewhere (its taps are refused until the screen has shown it, and what was
        half-done on it is dropped, as after another device's undo)."""
        app = self.app
        moved = []
        for s in {id(s): s for s in (app.session, app.viewed) if s is not None}.values():
            before = s.position
            try:
                s.reload()
            except backend.WriteFailed as exc:  # its own entry, sent before it left, lost
                s.saw_elsewhere()
                notice = write_notice(exc, s.refused, app.lang)
                self._tell(notice or Notice("error.diverged", error=True))
                moved.append(s)
                continue
            except Exception:  # storage unreachable: the next tap reports it
                log.exception("reload on coming back")
                continue
            if s.position != before:
                s.saw_elsewhere()
                moved.append(s)
        deal = app.deal
        if deal is not None and deal.session in moved:
            deal.moved_elsewhere()

    def new_match(self, move: Move) -> None:
        """Another device created a match. A viewer with nothing to watch (Home, or a
        finished match) opens it: the phone held up to the onlookers follows the table.
        Home and the new-match form say it, so nobody starts a second one; every other
        screen has it in the news strip."""
        app = self.app
        idle = app.session is None or _finished(app.session)
        watching = app.role == "viewer" and app.screen in ("home", "viewer") and idle
        if watching and app.open_match(move.match_id, remember=False):
            self.show(move)
            return
        args = {"device": device_name(move, app.t), "players": " — ".join(move.sides)}
        if app.screen == "home":
            kind = "home_viewer" if app.role == "viewer" else "home"
            app.notice = Notice(f"new_match_news.{kind}", args)
        elif app.screen == "new_match":
            app.notice = Notice("new_match_news.form", args)
        self.show(move)

    def show(self, move: Move, *, form_replaced: bool = False, own: bool = False) -> None:
        """Put a move in the strip every screen shows, and re-render (``form_replaced``: the
        move closed the end form open on this screen, and the strip says so; ``own``: this
        device's move, said as "You …", and without a name while no other device is at
        the table)."""
        self._serial += 1
        alone = own and self.app.others_at_table == 0
        self.app.live_notice = LiveNotice(move, self._serial, _end_of_deal_before(
            self.app.live_notice, move), form_replaced, alone, own)
        self.app.changed()

    def _tell(self, notice: Notice) -> None:
        if self.app.deal is not None:
            self.app.deal.write_refused(notice)
        else:
            self.app.notice = notice


def device_name(move: Move, t: Any) -> str:
    """The device that made ``move``, as this reader says it: its user's name for it, else
    "Device 2" or "The host's screen" in the reader's language."""
    if move.device:
        return move.device
    return str(t("table.device.default", n=move.number) if move.number else t("table.device.host"))


def _correction_words(correction: Any, lang: str) -> str:
    """What a stored correction changed, in ``lang`` (empty when the move carries none)."""
    diff, after = getattr(correction, "diff", None), getattr(correction, "after", None)
    if diff is None or after is None:
        return ""
    try:
        return correction_words.said(diff, tuple(after.players), lang, len(after.deals))
    except Exception:  # never let the news break a screen: the plain sentence says enough
        log.exception("correction words")
        return ""


def _finished(session: backend.MatchSession) -> bool:
    """The session's match has a winner (the engine's result)."""
    try:
        return bool(session.match.result().finished)
    except Exception:  # a match the engine cannot sum up is nothing to stay on
        return True


def _end_of_deal_before(shown: LiveNotice | None, move: Move) -> Move | None:
    """The last trick the same device recorded just before these brisques: the end form
    records both, and the strip says both (QA P25: it named only the brisques)."""
    if shown is None or move.action != "record" or (move.event or {}).get("type") != "brisques":
        return None
    prev = shown.move
    same = (prev.match_id, prev.device, prev.position + 1) == (
        move.match_id, move.device, move.position)
    if same and prev.action == "record" and (prev.event or {}).get("type") == "last_trick":
        return prev
    return None


def connect(app: AppState, page: ft.Page) -> TableLink:
    """Wire a session to the server's pubsub; moves are handled on the page's event loop.

    Told of moves while its device is connected: a closed tab, a locked phone or a dropped
    Wi-Fi unsubscribes at once (Flet keeps a disconnected session for an hour, and each move
    heard by one went to a loop it no longer had: a traceback each, issue 22); back on the
    same session, it subscribes again and shows what storage holds now."""
    link = TableLink(app, lambda move: page.pubsub.send_others_on_topic(TOPIC, move))

    async def run(fn: Callable[..., None], *args: Any) -> None:
        fn(*args)

    def schedule(fn: Callable[..., None], *args: Any) -> None:
        page_tasks.run_task(page, run, fn, *args)  # a page without a connection: dropped

    link.schedule = schedule  # type: ignore[method-assign]

    def heard(_topic: str, move: Any) -> None:
        if isinstance(move, Move):
            schedule(link.arrive, move)

    page.pubsub.subscribe_topic(TOPIC, heard)
    # At the table while the page is connected (a closed tab leaves, a reload comes back).
    link.company = COMPANY
    COMPANY.join(link)

    def disconnected(_e: Any) -> None:
        page.pubsub.unsubscribe_topic(TOPIC)
        COMPANY.leave(link)
        log.info("session %s left the table: unsubscribed", _session_id(page))

    def connected(_e: Any) -> None:
        page.pubsub.subscribe_topic(TOPIC, heard)
        COMPANY.join(link)
        log.info("session %s is back at the table: subscribed", _session_id(page))
        link.catch_up()  # the moves made while it was away were not told to it
        app.changed()  # drawn again: a new connection is told what the screen shows

    page.on_disconnect = disconnected
    page.on_connect = connected
    app.on_leave = lambda: COMPANY.leave(link)
    if not page_tasks.connected(page):  # gone while the app was starting: not at the table
        disconnected(None)
    return link


# --- the other server processes on the same database (issue 24) ---------------------------
def hear_other_processes(store: Any) -> None:
    """Once per server process, when its store is open: the writes other processes make on
    the same database (PostgreSQL's LISTEN/NOTIFY, referee/storage/change_feed.py) reach this
    process's sessions as the ``Move`` its own pubsub carries, through the same
    ``TableLink.arrive``; when the feed was cut (the database restarted), every session reads
    its matches from storage again (``TableLink.catch_up``). SQLite's feed hears nothing."""
    feed = getattr(store, "feed", None)
    if feed is None:
        return
    feed.listen(lambda change: heard_elsewhere(store, change, COMPANY), lambda: resync(COMPANY))


def heard_elsewhere(store: Any, change: Any, company: Company) -> None:
    """Another process's write: to every session of this process at the table."""
    from referee.storage.change_feed import NIGHT

    if change.action == NIGHT:
        night_moved(store, change, company)
        return
    move = move_of(store, change)
    for link in company.links():
        link.schedule(link.arrive, move)


def night_moved(store: Any, change: Any, company: Company) -> None:
    """The club night changed (a ``night`` change, from this process or another: ``news``
    names the table and what): to every session of this process (``night_changed``). The
    night itself is read again from its file by whoever reads it next."""
    from dataclasses import replace

    news = change.news
    what = str(news.get("what") or "")
    table = news.get("table")
    move = move_of(store, replace(change, action="new")) if what in ("add", "next") else None
    for link in company.links():
        link.schedule(
            link.night_changed,
            what,
            table if isinstance(table, int) else None,
            move or Move(change.match_id, change.position, "night", ""),
        )


def resync(company: Company) -> None:
    """What other processes wrote while the feed was cut was not heard: read storage."""
    for link in company.links():
        link.schedule(_read_again, link)


def _read_again(link: TableLink) -> None:
    link.catch_up()
    link.app.changed()


def move_of(store: Any, change: Any) -> Move:
    """A change notice as the in-process ``Move``: who made it as its notice says, the
    ruling it carried (an undo: the rulings it took back; a redo: those it restored, read
    from storage; a new match: its sides, read from storage)."""
    from referee.storage.change_feed import ruling_from

    news = change.news
    ruling: Any = change.ruling
    sides: tuple[str, ...] = ()
    try:
        if change.action == "undo":
            ruling = tuple(r for r in map(ruling_from, news.get("words") or ()) if r is not None)
        elif change.action == "redo":
            from types import SimpleNamespace

            view = SimpleNamespace(store=store, match_id=change.match_id,
                                   match=store.load_match(change.match_id))
            ruling = entry_words.newest_rulings(view)
        elif change.action == "new":
            sides = tuple(backend.summarize(store, change.match_id).sides)
    except Exception:  # storage away: the news goes without these words
        log.exception("reading match %s for another process's %s", change.match_id,
                      change.action)
    number = news.get("number")
    return Move(
        change.match_id, change.position, change.action, str(news.get("device") or ""),
        ruling, change.deal, change.event, from_host=bool(news.get("host")),
        number=number if isinstance(number, int) else 0, sides=sides,
    )


def _session_id(page: ft.Page) -> str:
    try:
        return str(page.session.id)
    except Exception:  # no session (a test's page)
        return "?"
