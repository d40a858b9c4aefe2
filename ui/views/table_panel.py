"""Home's table section: this device's name as the others see it (not a viewer's: nobody
reads it), and the switch that keeps the screen on during a deal."""

from __future__ import annotations

from typing import Any

import flet as ft

from ui.views.common import ViewContext, body_text, section, tagged


def controls(ctx: ViewContext) -> list[ft.Control]:
    app = ctx.app

    def rename(e: Any) -> None:
        app.set_device(str(e.control.value or ""))

    name = ft.TextField(
        label=ctx.t("table.device.label"),
        value=app.device,
        text_size=18,
        on_blur=rename,
        on_submit=rename,
        max_length=40,
    )
    if app.role == "viewer":  # it records nothing: no name for the others to read
        return [section(ctx.t("table.device.title"), keep_awake(ctx))]
    return [
        section(
            ctx.t("table.device.title"),
            tagged("device-name", ft.Row([ft.Container(name, expand=True)])),
            body_text(ctx.t("table.device.hint"), 15, color=ft.Colors.ON_SURFACE_VARIANT),
            *_unnamed(ctx),
            keep_awake(ctx),
        )
    ]


def _unnamed(ctx: ViewContext) -> list[ft.Control]:
    """While the device has no name of its own: what the others read instead (each phone
    says it in its own language, ui/live.py)."""
    app = ctx.app
    if app.device:
        return []
    name = (
        ctx.t("table.device.default", n=app.device_number)
        if app.device_number
        else ctx.t("table.device.host")
    )
    return [
        tagged(
            "device-unnamed",
            body_text(
                ctx.t("table.device.unnamed", name=name), 15, color=ft.Colors.ON_SURFACE_VARIANT
            ),
        )
    ]


def keep_awake(ctx: ViewContext) -> ft.Control:
    """The switch that keeps the screen on during a deal."""
    app = ctx.app
    awake = ft.Row(  # the label wraps on a narrow phone (a Switch's own label would not)
        [
            ft.Switch(
                value=app.keep_awake,
                on_change=lambda e: app.set_keep_awake(bool(e.control.value)),
            ),
            ft.Text(ctx.t("table.awake.label"), size=17, expand=True),
        ],
        spacing=10,
    )
    return tagged("keep-awake", ft.Container(awake, padding=ft.Padding.symmetric(vertical=4)))
