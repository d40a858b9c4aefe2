"""Keeping the matches: every unfinished one resumable, abandoning (kept, recoverable) and
restoring, a warning before a new match while others are unfinished, the last result for
Home, the next partie with the same players, and export/import as files of the device.

Plain Python, driven by the tests without a page; the views only hand the bytes to Flet's
file picker (download) or give it the bytes the user picked (import).
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.rematch import rematch
from ui import backend, sheet_files
from ui.state.common import Notice
from ui.state.score import score_sheet
from ui.state.verdict import verdict_of

if TYPE_CHECKING:
    from ui.state.app import AppState

MAX_IMPORT_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class LastResult:
    """Home's line about the match finished last."""

    summary: backend.MatchSummary
    reason: str  # the verdict in words, in the screen's language


class MatchKeeping:
    def __init__(self, app: AppState) -> None:
        self.app = app
        # Unfinished matches shown in the warning before a new match (None: no warning open).
        self.new_warning: list[backend.MatchSummary] | None = None
        self.confirm_abandon: int | None = None  # the match whose abandon awaits a yes

    # --- reading -----------------------------------------------------------------------------
    def unfinished(self) -> list[backend.MatchSummary]:
        """Every match that can be resumed, the last played first (abandoned ones excluded)."""
        app = self.app
        app.flush()
        try:
            infos = app.store.list_matches(unfinished_only=True)
            return [backend.summarize(app.store, int(i.id)) for i in infos]
        except Exception as exc:  # a broken database must not stop Home from opening
            app.notice = Notice("error.storage", {"why": str(exc)}, error=True)
            return []

    def last_result(self) -> LastResult | None:
        app = self.app
        app.flush()
        try:
            match_id = app.store.last_finished_match()
            if match_id is None:
                return None
            summary = backend.summarize(app.store, int(match_id))
            verdict = verdict_of(app.store.load_match(int(match_id)), app.lang)
        except Exception as exc:
            app.notice = Notice("error.storage", {"why": str(exc)}, error=True)
            return None
        return LastResult(summary, verdict.reason)

    # --- resuming and abandoning ---------------------------------------------------------
    def resume(self, match_id: int) -> bool:
        """Open a match at its deal screen; an abandoned one is restored first (not by a
        viewer: it only watches)."""
        app = self.app
        try:
            info = app.store.match_info(match_id)
            if getattr(info, "abandoned", False) and app.may_write:
                app.store.restore_match(match_id)
        except Exception as exc:
            app.notice = Notice("error.storage", {"why": str(exc)}, error=True)
            app.changed()
            return False
        return app.open_match(match_id)

    def ask_abandon(self, match_id: int) -> None:
        if self.app.refused_to_viewer():  # not asked to confirm what is then refused
            return
        self.confirm_abandon = match_id
        self.app.changed()

    def cancel_abandon(self) -> None:
        self.confirm_abandon = None
        self.app.changed()

    def abandon(self, match_id: int) -> bool:
        """Set the match aside (storage keeps it whole); the open session closes if it is it."""
        app = self.app
        self.confirm_abandon = None
        if app.refused_to_viewer():
            return False
        app.flush()
        if app.session is not None and app.session.match_id == match_id:
            app.close()
            app.deal = None
        try:
            app.store.abandon_match(match_id)
            summary = backend.summarize(app.store, match_id)
        except Exception as exc:
            app.notice = Notice("sheet.abandon_failed", {"why": str(exc)}, error=True)
            app.changed()
            return False
        app.notice = Notice("sheet.abandoned_notice", {"players": " — ".join(summary.sides)})
        app.changed()
        return True

    def restore(self, match_id: int) -> bool:
        app = self.app
        if app.refused_to_viewer():
            return False
        try:
            app.store.restore_match(match_id)
            summary = backend.summarize(app.store, match_id)
        except Exception as exc:
            app.notice = Notice("error.storage", {"why": str(exc)}, error=True)
            app.changed()
            return False
        app.notice = Notice("sheet.restored_notice", {"players": " — ".join(summary.sides)})
        app.changed()
        return True

    # --- a new match -----------------------------------------------------------------------
    def request_new(self) -> None:
        """New match: straight to the form, or first a warning naming the unfinished ones."""
        open_ones = self.unfinished()
        if open_ones:
            self.new_warning = open_ones
            self.app.changed()
            return
        self.app.start_new_match()

    def confirm_new(self) -> None:
        self.new_warning = None
        self.app.start_new_match()

    def cancel_new(self) -> None:
        self.new_warning = None
        self.app.changed()

    def rematch(self, match_id: int, *, rotate: bool) -> bool:
        """The next partie with the same players, variant, house rules, tracking and target,
        the seats kept or moved on one place (referee.rematch); opens its deal screen."""
        app = self.app
        if app.refused_to_viewer():
            return False
        try:
            new_id = self.create_rematch(match_id, rotate=rotate)
        except Exception as exc:
            app.notice = Notice("sheet.rematch_failed", {"why": str(exc)}, error=True)
            app.changed()
            return False
        app.created(new_id)
        return app.open_match(new_id, remember=False)

    def create_rematch(self, match_id: int, *, rotate: bool) -> int:
        """Store the next partie of ``match_id`` (see :meth:`rematch`; the club director's
        "next match" of a table too, ui/state/club.py) and give its id; raises when storage
        or the engine refuses."""
        app = self.app
        info = app.store.match_info(match_id)
        nxt = rematch(
            info.variant,
            info.players,
            info.tracking,
            info.house_rules,
            info.target,
            rotate=rotate,
        )
        by_games = info.games is not None or backend.variant_info(nxt.variant).games is not None
        with backend.telling(app.store, app.news()):
            return backend.create_match(
                app.store,
                variant=nxt.variant,
                players=list(nxt.players),
                tracking=nxt.tracking,
                house_rules=list(nxt.house_rules),
                target=nxt.target if nxt.target is not None or by_games
                else _default_target(nxt),
                games=info.games,
            )

    # --- files -------------------------------------------------------------------------------
    def export_file(self, match_id: int, kind: str) -> sheet_files.ExportFile | None:
        """The match as a file of ``kind`` (json, csv, pdf, svg) for the device to save."""
        app = self.app
        app.flush()
        try:
            info = app.store.match_info(match_id)
            name = sheet_files.file_name(match_id, tuple(info.players), kind)
            if kind == "json":
                data = sheet_files.record_json(app.store.export_match(match_id))
            else:
                match = app.store.load_match(match_id)
                sheet = score_sheet(match, app.lang)
                if kind == "csv":
                    data = sheet_files.sheet_csv(sheet, app.t)
                elif kind in ("pdf", "svg"):  # the page, or its picture where no PDF is made
                    verdict = verdict_of(match, app.lang)
                    title = " — ".join(sheet.sides)
                    lines = [verdict.headline, verdict.reason, verdict.ends_with_deal]
                    sub = f"{app.t(f'variant.{info.variant}')} · {info.created_at:%Y-%m-%d}"
                    draw = sheet_files.sheet_pdf if kind == "pdf" else sheet_files.sheet_svg
                    data = draw(sheet, app.t, title, sub, [x for x in lines if x])
                else:
                    raise ValueError(f"unknown kind of file: {kind!r}")
        except Exception as exc:
            app.notice = Notice("history.export_failed", {"why": str(exc)}, error=True)
            return None
        return sheet_files.ExportFile(name, data, sheet_files.MIME[kind])

    def backup_file(self) -> sheet_files.ExportFile | None:
        """Every match in one zip (the CLI's ``export --all`` format, which *Import a match*
        takes back), for a device whose matches live only in its browser."""
        from datetime import date

        app = self.app
        app.flush()
        try:
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "backup.zip"
                app.store.export_archive(path)
                data = path.read_bytes()
        except Exception as exc:
            app.notice = Notice("history.export_failed", {"why": str(exc)}, error=True)
            return None
        name = f"bezique-matches-{date.today():%Y-%m-%d}.zip"
        return sheet_files.ExportFile(name, data, "application/zip")

    def exported(self, file: sheet_files.ExportFile, where: str | None) -> None:
        """The device saved (or offered to save) the file: say so."""
        if where:
            self.app.notice = Notice("sheet.saved_at", {"name": file.name, "path": where})
        else:
            self.app.notice = Notice("sheet.downloaded", {"name": file.name})
        self.app.changed()

    def export_failed(self, why: str) -> None:
        self.app.notice = Notice("history.export_failed", {"why": why}, error=True)
        self.app.changed()

    def import_cancelled(self) -> None:
        self.app.notice = Notice("sheet.import_cancelled")
        self.app.changed()

    def import_failed(self, why: str) -> None:
        self.app.notice = Notice("sheet.import_failed", {"why": why}, error=True)
        self.app.changed()

    def import_file(self, name: str, data: bytes | None) -> int | None:
        """Store a match record the user picked on the device; the notice says what was
        imported (players, variant, deals, score) or what is wrong and where."""
        app = self.app
        if app.refused_to_viewer():
            return None
        app.flush()
        try:
            if data is None:
                raise _ImportProblem("sheet.import_no_data", {})
            if len(data) > MAX_IMPORT_BYTES:
                raise _ImportProblem("sheet.import_too_big", {"n": MAX_IMPORT_BYTES // 1024**2})
            if data.startswith(_ZIP_MAGIC):
                return self._import_archive(name, data)
            try:
                text = data.decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise _ImportProblem("sheet.import_not_text", {"at": exc.start}) from exc
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as exc:
                raise _ImportProblem(
                    "sheet.import_not_json", {"line": exc.lineno, "col": exc.colno}
                ) from exc
            # What the CLI does: a record already stored is recognised and not stored again.
            done = app.store.import_record(obj)
            match_id = int(done[0] if done else done.skipped[0])
            summary = backend.summarize(app.store, match_id)
            if done and not summary.finished:
                app.created(match_id)  # one to resume: the table hears of it
        except _ImportProblem as p:
            app.notice = Notice(p.key, {"name": name, **p.values}, error=True)
            app.changed()
            return None
        except Exception as exc:
            app.notice = _not_imported(name, exc)
            app.changed()
            return None
        # Which date the match is listed with: the record's own (``played``, version 2), or,
        # for a record without one, the time it was imported.
        if not done:
            key = "sheet.import_already"
        else:
            key = "sheet.imported" if done.played is not None else "sheet.imported_undated"
        app.notice = Notice(
            key,
            {
                "name": name,
                "players": " — ".join(summary.sides),
                "variant": app.t(f"variant.{summary.variant}"),
                "date": summary.created,
                "deals": summary.deals,
                "scores": " : ".join(str(x) for x in summary.totals),
            },
        )
        app.changed()
        return match_id

    def _import_archive(self, name: str, data: bytes) -> int | None:
        """A backup archive (zip): every match in it with the dates it was played; those
        already stored are skipped, as the CLI does."""
        app = self.app
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "backup.zip"
            path.write_bytes(data)
            try:
                done = app.store.import_archive(path)
            except Exception as exc:
                app.notice = _not_imported(name, exc)
                app.changed()
                return None
        app.notice = Notice(
            "sheet.imported_archive", {"name": name, "n": len(done), "skipped": len(done.skipped)}
        )
        app.changed()
        return int(done[0]) if done else None


_ZIP_MAGIC = b"PK\x03\x04"


def _not_imported(name: str, exc: Exception) -> Notice:
    """Why a picked file was not stored: the file itself (a ValueError: StorageInputError
    names the place), or storage not answering."""
    if isinstance(exc, ValueError):
        return _refused(name, exc)
    return Notice("error.storage", {"why": str(exc)}, error=True)


def _refused(name: str, exc: ValueError) -> Notice:
    """A record or backup the storage layer refused: StorageInputError names the place."""
    where = getattr(exc, "where", "") or ""
    detail = getattr(exc, "detail", None) or str(exc)
    return Notice("sheet.import_refused", {"name": name, "where": where, "why": detail}, error=True)


class _ImportProblem(Exception):
    """Why a picked file is not a record (before the record itself is read)."""

    def __init__(self, key: str, values: dict[str, object]) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


def _default_target(nxt: Any) -> int:
    info = backend.variant_info(nxt.variant)
    return int(info.targets[len(nxt.players)])
