"""Home's section in the phone build (ui/runtime.py: no server, matches in the browser):
where the matches are kept, a backup of all of them as one file, what needs a computer
(several phones on one match), and the switch that keeps the screen on. When the browser
refused storage (private mode), a warning comes first on Home, with the same backup."""

from __future__ import annotations

import flet as ft

from ui import runtime
from ui.views import files, table_panel
from ui.views.common import ViewContext, banner, body_text, section, tagged


def backup_button(ctx: ViewContext) -> ft.Control:
    return tagged(
        "backup-all",
        ft.OutlinedButton(
            content=ft.Text(ctx.t("phone.backup"), size=17),
            icon=ft.Icons.DOWNLOAD,
            on_click=files.backup_handler(ctx),
        ),
    )


def warning(ctx: ViewContext) -> list[ft.Control]:
    """[] while the browser keeps the matches; else the warning and the backup button."""
    d = runtime.durability
    if not d.memory_only:
        return []
    why = f" ({d.refusal})" if d.refusal else ""
    return [
        banner(ctx.t("phone.memory_only", why=why), error=True, identifier="memory-only"),
        backup_button(ctx),
    ]


def controls(ctx: ViewContext) -> list[ft.Control]:
    return [
        section(
            ctx.t("phone.title"),
            body_text(ctx.t("phone.kept_here"), 15, color=ft.Colors.ON_SURFACE_VARIANT),
            backup_button(ctx),
            tagged(
                "table-needs-server",
                body_text(ctx.t("phone.table_needs_server"), 15,
                          color=ft.Colors.ON_SURFACE_VARIANT),
            ),
            table_panel.keep_awake(ctx),
        )
    ]
