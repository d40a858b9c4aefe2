"""Home's "Phones at the table: show the join codes" for the host in table mode (QA P20): the
scorer and viewer links with QR codes big enough to scan from across the table, in the
host's language. Nothing at all for any other session (it holds no codes: AppState.join_codes
is set only for the server's host, ui/server/host_codes.py)."""

from __future__ import annotations

import flet as ft

from ui.views.common import VIEWPORT_WIDTH, ViewContext, big_button, body_text, tagged

LARGEST = 320  # px: a phone's camera reads it from across a table
PAGE_PADDING = 16 + 14  # scroll_body's padding and the card's own, each side
LABELS = {"scorer": "server.links_scorer", "viewer": "server.links_viewer"}


def code_size() -> float:
    """The codes' side: as large as the screen allows, up to :data:`LARGEST`."""
    width = VIEWPORT_WIDTH.get() or 390.0
    return max(160.0, min(float(LARGEST), width - 2 * PAGE_PADDING))


def controls(ctx: ViewContext) -> list[ft.Control]:
    codes = ctx.app.join_codes
    if codes is None:
        return []
    shown = codes.shown

    def toggle(_e: object) -> None:
        codes.toggle()
        ctx.app.changed()

    out: list[ft.Control] = [
        big_button(
            ctx.t("hostlinks.hide" if shown else "hostlinks.show"),
            toggle,
            icon=ft.Icons.QR_CODE_2,
            identifier="join-codes",
        )
    ]
    if not shown:
        return out
    size = code_size()
    out.append(body_text(ctx.t("hostlinks.scan"), 16))
    for code in codes.codes:
        out.append(
            tagged(
                f"join-code-{code.role}",
                ft.Container(
                    content=ft.Column(
                        [
                            ft.Text(
                                ctx.t(LABELS[code.role]),
                                size=20,
                                weight=ft.FontWeight.BOLD,
                                color=ft.Colors.BLACK,
                                text_align=ft.TextAlign.CENTER,  # centred when it wraps too
                            ),
                            ft.Image(
                                src=code.png,
                                width=size,
                                height=size,
                                fit=ft.BoxFit.CONTAIN,
                                filter_quality=ft.FilterQuality.NONE,  # sharp modules
                                gapless_playback=True,
                                semantics_label=ctx.t(LABELS[code.role]),
                            ),
                            ft.Text(code.url, size=14, color=ft.Colors.BLACK),
                        ],
                        spacing=8,
                        tight=True,
                        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                    ),
                    padding=14,
                    border_radius=14,
                    bgcolor=ft.Colors.WHITE,  # dark on light in the dark theme too
                ),
            )
        )
    page = f"{codes.links_url}?lang={ctx.app.lang}"
    out.append(body_text(ctx.t("hostlinks.page", url=page), 15, color=ft.Colors.ON_SURFACE_VARIANT))
    out.append(body_text(ctx.t("server.links_hint"), 15, color=ft.Colors.ON_SURFACE_VARIANT))
    return out
