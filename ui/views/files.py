"""Files to and from the device that asked: Flet's FilePicker saves bytes (in a browser: a
download; on a phone: the system's save dialog; on a desktop: a save dialog that writes
them) and picks a file with its bytes (``with_data``: no upload endpoint or temp folder on
the server). The bytes and the messages come from ui.state.matches."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import flet as ft

from ui import sheet_files
from ui.views.common import ViewContext, big_button, body_text

log = logging.getLogger(__name__)


def export_handler(ctx: ViewContext, match_id: int, kind: str) -> Any:
    return save_handler(ctx, lambda: ctx.app.matches.export_file(match_id, kind))


def backup_handler(ctx: ViewContext) -> Any:
    """Every match in one zip, saved on the device (Home of the phone build)."""
    return save_handler(ctx, ctx.app.matches.backup_file)


def save_handler(ctx: ViewContext, make: Any) -> Any:
    """Save the file ``make()`` gives on the device that asked (a download in a browser)."""
    keeping = ctx.app.matches

    async def handler(_e: Any) -> None:
        file = make()
        if file is None:
            ctx.app.changed()
            return
        try:
            where = await ft.FilePicker().save_file(
                dialog_title=file.name, file_name=file.name, src_bytes=file.data
            )
        except Exception as exc:  # the client refused or the platform cannot save
            log.warning("export failed", exc_info=True)
            keeping.export_failed(str(exc))
            return
        web = bool(getattr(ctx.page, "web", True))
        if where is None and not web:
            return  # the user closed the save dialog
        keeping.exported(file, None if web else where)

    return handler


def import_handler(ctx: ViewContext) -> Any:
    keeping = ctx.app.matches

    async def handler(_e: Any) -> None:
        try:
            files = await ft.FilePicker().pick_files(
                dialog_title=ctx.t("sheet.import"),
                file_type=ft.FilePickerFileType.CUSTOM,
                allowed_extensions=["json", "zip"],
                with_data=True,
            )
        except Exception as exc:
            log.warning("import failed", exc_info=True)
            keeping.import_failed(str(exc))
            return
        if not files:
            keeping.import_cancelled()
            return
        picked = files[0]
        data = picked.bytes
        if data is None and picked.path:  # desktop without data: the file is local
            try:
                data = Path(picked.path).read_bytes()
            except OSError:
                data = None
        keeping.import_file(picked.name, data)

    return handler


def export_buttons(ctx: ViewContext, match_id: int, *, suffix: str = "") -> list[ft.Control]:
    """Download the record (JSON) or the sheet (CSV, PDF) to this device; where no PDF can be
    made (the phone's browser), the sheet's picture (SVG) in its place."""
    tag = suffix or str(match_id)
    kinds = sheet_files.kinds()
    title = "sheet.export_title" if "pdf" in kinds else "sheet.export_title_svg"
    return [
        body_text(ctx.t(title), 15, color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Row(
            [
                big_button(
                    ctx.t(f"sheet.export_{kind}"),
                    export_handler(ctx, match_id, kind),
                    identifier=f"export-{kind}-{tag}",
                )
                for kind in kinds
            ],
            wrap=True,
            spacing=8,
            run_spacing=8,
        ),
    ]
