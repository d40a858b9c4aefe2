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
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ui import backend
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
    device: str
    ruling: Any = None
    deal: int = 0
    event: dict[str, Any] | None = None  # a recorded entry, as stored


@dataclass(frozen=True)
class LiveNotice:
    """The last move another device made, for the strip every screen shows. An end of deal
    is two writes (last trick, brisques): ``earlier`` keeps the first so the strip tells the
    whole end; ``form_replaced``: this screen's own end form was open and is now closed."""

    move: Move
    serial: int
    earlier: tuple[Move, ...] = ()
    form_replaced: bool = False

    def text(self, t: Any, lang: str) -> str:
        m = self.move
        if m.action == "record" and self.earlier and _ends_together(self.earlier[-1], m):
            last, counts = self.earlier[-1].event or {}, m.event or {}
            said = str(
                t(
                    "end_news.ended",
                    device=m.device,
                    winner=last.get("winner", ""),
                    counts=", ".join(f"{p} {n}" for p, n in dict(counts.get("counts", {})).items()),
                )
            )
            if self.form_replaced:
                said += " " + str(t("end_news.form_replaced"))
            return said
        if m.action == "record":
            whats = [
                RULE_SUFFIX.sub("", backend.ruling_text(x.ruling, lang)).rstrip(".")
                for x in (*self.earlier, m)
                if x.ruling is not None
            ]  # the strip is short: the rule id is on screen
            said = str(t("table.moved.record", device=m.device, what="; ".join(whats)))
            if self.form_replaced:
                said = said.rstrip(".") + ". " + str(t("end_news.form_replaced"))
            return said
        if m.action == "undo":
            return str(t("table.moved.undo", device=m.device))
        if m.action == "redo":
            return str(t("table.moved.redo", device=m.device))
        if m.action == "correct":
            return str(t("table.moved.correct", device=m.device))
        return str(t("table.moved.deal", device=m.device, n=m.deal))


def write_notice(exc: BaseException, lang: str = "en") -> Notice | None:
    """The plain words for table mode's refusals (None for other write failures); a refused
    entry is named in ``lang`` (QA P18: the player should not have to remember it)."""
    if isinstance(exc, backend.ReadOnly):
        return Notice("table.viewer_cannot_write", error=True)
    if isinstance(exc, backend.Stale):
        ruling = getattr(exc, "ruling", None)
        if ruling is None:
            return Notice("table.stale", error=True)
        what = RULE_SUFFIX.sub("", backend.ruling_text(ruling, lang)).rstrip(".")
        return Notice("stale.entry", {"what": what}, error=True)
    return None


def _ends_together(first: Move, then: Move) -> bool:
    """``then`` is the brisques recorded right after ``first``, the same device's last trick
    of the same match: two writes of one end of deal."""
    return (
        first.action == then.action == "record"
        and first.device == then.device
        and first.match_id == then.match_id
        and first.position + 1 == then.position
        and (first.event or {}).get("type") == "last_trick"
        and (then.event or {}).get("type") == "brisques"
    )


class TableLink:
    """One session's link to the table. ``publish`` is what it says after its own writes
    (injected: the page's pubsub, or a test's list)."""

    def __init__(self, app: AppState, publish: Callable[[Move], object]) -> None:
        self.app = app
        self._publish = publish
        self._serial = 0
        app.on_session = self.attach

    # --- this session's writes ---------------------------------------------------------
    def attach(self, session: backend.MatchSession) -> None:
        session.on_written = self.written
        session.on_failed = lambda exc: self.schedule(self.refused, session, exc)

    def written(self, w: backend.Written) -> None:
        """Called after a durable write of this session: recorded entries from the writer
        thread, undo/redo/deal starts on the session's own thread (an undo or redo is
        announced on every screen, its own included)."""
        move = Move(
            w.match_id, w.position, w.action, self.app.device, w.ruling, w.deal, w.event
        )
        self._publish(move)
        if w.action in ("undo", "redo"):
            self.show(move)

    def schedule(self, fn: Callable[..., None], *args: Any) -> None:
        """Run on the session's own thread (the page's loop); tests run it at once."""
        fn(*args)

    def refused(self, session: backend.MatchSession, exc: BaseException) -> None:
        """This session's background write was refused or failed: show storage's match and
        say so in plain words (the other devices' screens never showed the refused entry)."""
        app = self.app
        if app.session is not session:
            return
        try:
            session.reload()
        except backend.WriteFailed as failure:
            exc = failure
        except Exception as other:  # storage unreachable: say so, keep what is shown
            exc = other
        self._tell(
            write_notice(exc, app.lang) or Notice("error.storage", {"why": str(exc)}, error=True)
        )
        app.changed()

    # --- the others' writes ------------------------------------------------------------
    def arrive(self, move: Move) -> None:
        """Another device moved a match on: reload it if this session shows it."""
        app = self.app
        shown = [
            s for s in (app.session, app.viewed) if s is not None and s.match_id == move.match_id
        ]
        if not shown:
            if app.screen in ("home", "history", "stats"):
                app.changed()  # the lists and the resume card read storage on render
            return
        deal = app.deal
        form_open = deal is not None and deal.session in shown and deal.mode == "end"
        for s in shown:
            if move.position <= s.position and not s.busy:
                continue  # already showing it (or a newer state)
            try:
                if move.action == "record":
                    s.catch_up(move.position, move.event, move.ruling)
                else:
                    s.reload()
            except backend.WriteFailed as exc:  # our own entry lost the race
                self._tell(write_notice(exc, self.app.lang) or Notice("error.diverged", error=True))
            except Exception:  # storage unreachable: the next tap reports it
                log.exception("reload after a move by %s", move.device)
        if deal is not None and deal.session in shown and move.action != "record":
            # an undo, redo, correction or new deal elsewhere: nothing half-done here
            # survives it (a new entry elsewhere leaves this screen's picker and ruling be)
            deal.moved_elsewhere()
        replaced = form_open and deal is not None and deal.mode != "end"
        self.show(move, form_replaced=replaced)

    def show(self, move: Move, *, form_replaced: bool = False) -> None:
        """Put a move in the strip every screen shows, and re-render (the brisques right
        after the same device's last trick join it: one end of deal, told whole)."""
        self._serial += 1
        prev = self.app.live_notice
        earlier: tuple[Move, ...] = ()
        if isinstance(prev, LiveNotice) and _ends_together(prev.move, move):
            earlier = (*prev.earlier, prev.move)
            form_replaced = form_replaced or prev.form_replaced
        self.app.live_notice = LiveNotice(move, self._serial, earlier, form_replaced)
        self.app.changed()

    def _tell(self, notice: Notice) -> None:
        if self.app.deal is not None:
            self.app.deal.write_refused(notice)
        else:
            self.app.notice = notice


def connect(app: AppState, page: ft.Page) -> TableLink:
    """Wire a session to the server's pubsub; moves are handled on the page's event loop."""
    link = TableLink(app, lambda move: page.pubsub.send_others_on_topic(TOPIC, move))

    async def run(fn: Callable[..., None], *args: Any) -> None:
        fn(*args)

    def schedule(fn: Callable[..., None], *args: Any) -> None:
        page.run_task(run, fn, *args)

    link.schedule = schedule  # type: ignore[method-assign]

    def heard(_topic: str, move: Any) -> None:
        if isinstance(move, Move):
            schedule(link.arrive, move)

    page.pubsub.subscribe_topic(TOPIC, heard)
    return link
