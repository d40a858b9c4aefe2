"""Correcting an entry where it happened: the list of a match's entries (with what was first
recorded for the corrected ones), and the correction of one entry — its player, its cards
through the deal screen's own picker, or its deletion — with a preview of what it changes
before it is stored and the list of changes after.

Every ruling and number is the engine's (referee.correction_diff, through ui/backend.py); this
class keeps the draft between taps and turns the engine's comparison into lines to show.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from referee.events import Declare, Event, LastTrick, Penalty, Seven, Trick
from ui import backend
from ui.correction_words import ChangeLine, change_lines
from ui.live import write_notice
from ui.state.common import Notice
from ui.state.deal import DealScreen

if TYPE_CHECKING:
    from ui.state.app import AppState


# ------------------------------------------------------------------------------ the entries
@dataclass(frozen=True)
class EntryLine:
    """One entry of a deal as the list shows it."""

    deal: int  # 0-based
    index: int | None  # its place in the deal's replay (None: deleted)
    seq: int  # the original log entry (what a correction names)
    text: str  # the ruling in words (or, deleted, what was recorded)
    accepted: bool
    status: str  # "counts", "corrected", "deleted"
    first: str | None = None  # what was first recorded, for a corrected or deleted entry
    correctable: bool = True


def entry_lines(session: backend.MatchSession, lang: str) -> list[list[EntryLine]]:
    """Per deal, its entries in order, corrected and deleted ones marked (the log's history:
    the original of each correction stays visible)."""
    rows = backend.log_history(session)
    by_seq = {r.seq: r for r in rows}
    match = session.match
    players = tuple(match.players)
    deal_index: dict[int, int] = {}
    for r in rows:
        if r.kind == "deal" and r.effective:
            deal_index[r.deal_id] = len(deal_index)
    out: list[list[EntryLine]] = [[] for _ in match.deals]
    counters = [0] * len(match.deals)
    for r in rows:
        if r.kind != "event" or not r.effective or r.deal_id not in deal_index:
            continue
        d = deal_index[r.deal_id]
        if d >= len(out):
            continue
        fix = by_seq.get(r.replaced_by) if r.replaced_by is not None else None
        first = describe(r.payload, players, lang) if fix is not None else None
        if fix is not None and fix.kind == "delete":
            out[d].append(EntryLine(d, None, r.seq, first or "", False, "deleted", first, False))
            continue
        i = counters[d]
        counters[d] += 1
        log = match.deals[d].log
        if i >= len(log):
            continue
        _, ruling = log[i]
        status = "counts" if fix is None else "corrected"
        text = backend.ruling_words(ruling, lang)  # the kind in words, not "— C-MARRIAGE"
        out[d].append(EntryLine(d, i, r.seq, text, bool(ruling.accepted), status, first))
    return out


def describe(payload: Any, players: tuple[str, ...], lang: str) -> str:
    """An entry as it was recorded, in words (the log's JSON form)."""
    from ui.i18n import Translator

    t = Translator(lang)
    if not isinstance(payload, dict):
        return str(payload)
    kind = str(payload.get("type", ""))
    who = str(payload.get("player") or payload.get("winner") or "")
    if kind == "declare":
        codes = [*payload.get("new", []), *payload.get("table", [])]
        cards = _cards_text(codes)
        return t("correction.what.declare", player=who, cards=cards)
    if kind == "brisques":
        counts = ", ".join(f"{k} {v}" for k, v in dict(payload.get("counts", {})).items())
        return t("correction.what.brisques", counts=counts)
    if kind == "penalty":
        offence = str(payload.get("offence", ""))
        return t("correction.what.penalty", player=who, penalty=backend.rule_title(offence, lang))
    return t(f"correction.what.{kind}", player=who)


def _cards_text(codes: list[Any]) -> str:
    """Recorded cards as players say them (K♠ Q♠), whatever order they were recorded in."""
    from referee.cards import cards_text, parse_card

    try:
        return cards_text(parse_card(c) for c in codes)
    except ValueError:
        return " ".join(str(c) for c in codes)


# ------------------------------------------------------------------------------ the draft
class DraftSession:
    """Stands in for the match session under the deal screen's picker: its match is the
    replay up to just before the corrected entry, and "recording" a declaration only hands
    it to the correction (the engine's ruling at that point is returned, nothing stored)."""

    can_undo = False
    can_redo = False

    def __init__(self, match: Any, on_event: Callable[[Event], None]) -> None:
        self.match = match
        self._on_event = on_event

    def record(self, event: Event) -> Any:
        ruling = self.match.verify(event)
        self._on_event(event)
        return ruling


class CorrectionScreen:
    """The correction of one entry of a match: the draft, its preview, its confirmation."""

    def __init__(
        self, session: backend.MatchSession, lang: str, deal: int, index: int, seq: int
    ) -> None:
        self.session = session
        self.lang = lang
        self.deal_index = deal
        self.index = index
        self.seq = seq
        event, ruling = session.match.deals[deal].log[index]
        self.original: Event = event
        self.original_ruling: Any = ruling
        self.draft: Event | None = event
        self.notice: Notice | None = None
        self.preview: Any = None  # the storage layer's Correction for the current draft
        self.changes: list[ChangeLine] = []
        self.done: list[ChangeLine] | None = None  # set once the correction is stored
        before = backend.match_before(session.match, deal, index)
        self.picking = DealScreen(DraftSession(before, self._picked), lang)  # type: ignore[arg-type]

    # ------------------------------------------------------------------------ reading
    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.session.match.players)

    @property
    def deleting(self) -> bool:
        return self.draft is None

    @property
    def changed(self) -> bool:
        return self.draft != self.original

    def player(self) -> int | None:
        """The draft's player (the winner of a trick or the last trick)."""
        return _player_of(self.draft) if self.draft is not None else None

    def can_change_player(self) -> bool:
        return isinstance(self.original, Declare | Seven | Penalty | Trick | LastTrick)

    def can_change_cards(self) -> bool:
        return isinstance(self.draft, Declare)

    def original_text(self) -> str:
        return backend.ruling_words(self.original_ruling, self.lang)

    def draft_text(self) -> str:
        """The draft in words as the engine would rule it at its place."""
        if self.preview is not None and self.preview.diff.ruling_after is not None:
            return backend.ruling_words(self.preview.diff.ruling_after, self.lang)
        return ""

    # ------------------------------------------------------------------------ editing
    def set_language(self, lang: str) -> None:
        self.lang = lang
        self.picking.set_language(lang)
        if self.preview is not None:
            self.changes = change_lines(self.preview.diff, self.players, lang, self._deals())

    def set_player(self, seat: int) -> None:
        if not 0 <= seat < len(self.players) or self.done is not None:
            return
        draft = self.original if self.draft is None else self.draft  # undeleted by a player
        if isinstance(draft, Declare | Seven | Penalty):
            self._set_draft(dataclasses.replace(draft, player=seat))
        elif isinstance(draft, Trick):
            self._set_draft(Trick(seat, draft.cards, draft.from_table))
        elif isinstance(draft, LastTrick):
            self._set_draft(LastTrick(seat))

    def delete(self) -> None:
        if self.done is None:
            self.picking.close_picker()
            self._set_draft(None)

    def reset(self) -> None:
        """Back to the entry as it stands."""
        if self.done is None:
            self.picking.close_picker()
            self.draft = self.original
            self.preview, self.changes, self.notice = None, [], None

    def open_picker(self) -> None:
        """The deal screen's picker, against the tables as they were at this entry, with the
        draft's cards already chosen."""
        draft = self.draft
        if not isinstance(draft, Declare) or self.done is not None:
            return
        ps = self.picking
        ps.open_picker(draft.player)
        p = ps.picker
        if p is None:
            return
        p.new = list(draft.new)
        wanted = Counter(draft.table)
        for i, card in enumerate(ps.table(draft.player)):
            if wanted[card] > 0:
                wanted[card] -= 1
                p.table_idx.add(i)

    def _picked(self, event: Event) -> None:
        self._set_draft(event)

    def _set_draft(self, event: Event | None) -> None:
        self.draft = event
        self.notice = None
        if event == self.original:
            self.preview, self.changes = None, []
            return
        try:
            self.preview = backend.preview_correction(self.session, self.seq, event)
        except ValueError as exc:  # malformed, or a later entry no longer fits
            self.preview, self.changes = None, []
            self.notice = Notice("correction.refused", {"why": str(exc)}, error=True)
            return
        except backend.WriteFailed as exc:
            self.preview, self.changes = None, []
            self.notice = Notice("error.storage", {"why": str(exc)}, error=True)
            return
        self.changes = change_lines(self.preview.diff, self.players, self.lang, self._deals())

    def can_confirm(self) -> bool:
        return self.done is None and self.changed and self.preview is not None

    def confirm(self) -> bool:
        """Store the correction (a log entry: the original stays in the history)."""
        if not self.can_confirm():
            return False
        try:
            worked = backend.correct(self.session, self.seq, self.draft)
        except (backend.Unseen, backend.ReadOnly) as exc:  # said in words, no raw role name
            self.notice = write_notice(exc, lang=self.lang)
            return False
        except (ValueError, backend.WriteFailed) as exc:
            self.notice = Notice("correction.refused", {"why": str(exc)}, error=True)
            return False
        self.done = change_lines(worked.diff, self.players, self.lang, self._deals())
        self.changes = self.done
        self.picking.close_picker()
        return True

    def _deals(self) -> int:
        return len(self.session.match.deals)

    def totals(self) -> list[tuple[str, int]]:
        """Each side's total as the match stands now (after confirming: corrected)."""
        m = self.session.match
        return list(zip(m.side_names, (int(t) for t in m.totals()), strict=True))


def open_entries(app: AppState, session: backend.MatchSession | None) -> None:
    """Show the entries of a match (the open one, or one viewed from the history), read
    afresh from storage once the open match's queued writes are in."""
    if session is None or app.refused_to_viewer():  # a viewer corrects nothing (issue 22)
        return
    app.flush()
    try:
        session.reload()
    except backend.WriteFailed as exc:
        app.notice = Notice("error.storage", {"why": str(exc)}, error=True)
    app.entries_session = session
    app.go("entries")


def open_correction(app: AppState, line: EntryLine) -> bool:
    session = app.entries_session
    if session is None or line.index is None or app.refused_to_viewer():
        return False
    try:
        app.correction = CorrectionScreen(session, app.lang, line.deal, line.index, line.seq)
    except (ValueError, IndexError) as exc:
        app.notice = Notice("correction.refused", {"why": str(exc)}, error=True)
        app.changed()
        return False
    app.go("correction")
    return True


def confirm(app: AppState) -> bool:
    """Confirm the open correction; the match open at the deal screen (if it is the same
    one, through another session) is reloaded so it plays on from the corrected log."""
    cs = app.correction
    if not isinstance(cs, CorrectionScreen) or app.refused_to_viewer() or not cs.confirm():
        return False
    if app.deal is not None and app.deal.session.match_id == cs.session.match_id:
        app.deal.dismiss_ruling()  # the last ruling shown may be one the correction changed
    for other in (app.session, app.viewed):
        if other is not None and other is not cs.session and other.match_id == cs.session.match_id:
            try:
                other.reload()
            except backend.WriteFailed as exc:
                app.notice = Notice("error.storage", {"why": str(exc)}, error=True)
    return True


def _player_of(event: Event) -> int | None:
    if isinstance(event, Declare | Seven | Penalty):
        return event.player
    if isinstance(event, Trick | LastTrick):
        return event.winner
    return None
