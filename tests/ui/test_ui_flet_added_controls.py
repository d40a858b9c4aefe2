"""The patch of Flet's diff that skips new controls' plain values (ui/flet_added_controls.py):
what is configured, in which order and under which parent, is what Flet's own walk does."""

from __future__ import annotations

from typing import Any

import flet as ft
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import DiffBuilder

from ui import flet_added_controls


def screen() -> ft.Control:
    """A screen's worth of kinds: enums, colours, nested lists, a value object holding
    controls (a button's style), a dict, controls inside a control's ``content``."""
    return ft.Column(
        [
            ft.Row(
                [ft.Text("Anna", weight=ft.FontWeight.BOLD), ft.Text("310", size=28)],
                alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
            ),
            ft.Container(
                ft.FilledButton(
                    content=ft.Text("Bezique 40"),
                    style=ft.ButtonStyle(shape=ft.RoundedRectangleBorder(radius=8)),
                    data={"meld": "bezique", "points": 40},
                ),
                padding=ft.Padding.all(4),
                bgcolor=ft.Colors.BLUE_50,
            ),
            ft.ResponsiveRow([ft.Text(str(k), col=6) for k in range(4)]),
        ],
        spacing=4,
    )


def walked(configure: Any) -> list[tuple[str, str | None, bool]]:
    """Each control the walk yields: its kind, its parent's kind, whether initialized."""
    builder = DiffBuilder(None, None, control_cls=BaseControl)
    out = []
    for control in configure(builder, screen(), None, False):
        parent = control.parent
        out.append((type(control).__name__, type(parent).__name__ if parent else None,
                    bool(getattr(control, "_initialized", False))))
    return out


def test_the_patched_walk_configures_what_flets_own_walk_configures() -> None:
    assert flet_added_controls.install()
    patched = DiffBuilder.__dict__["_configure_dataclass"]
    original = patched.flet_original
    # Flet's walk calls itself through the class: with the patch out, all of it is Flet's
    DiffBuilder._configure_dataclass = original  # type: ignore[method-assign]
    try:
        theirs = walked(original)
    finally:
        DiffBuilder._configure_dataclass = patched  # type: ignore[method-assign]
    ours = walked(patched)
    assert ours == theirs
    assert len(ours) == 12 and all(initialized for *_, initialized in ours)


def test_plain_values_yield_nothing_and_are_not_walked() -> None:
    flet_added_controls.install()
    builder = DiffBuilder(None, None, control_cls=BaseControl)
    configure = DiffBuilder.__dict__["_configure_dataclass"]
    for value in (None, "text", 3, 2.5, True, ft.FontWeight.BOLD, ft.Colors.BLUE_50):
        assert list(configure(builder, value, None, False)) == []
    assert type(ft.FontWeight.BOLD) in flet_added_controls._plain


def test_the_patch_is_installed_once() -> None:
    assert flet_added_controls.install() and flet_added_controls.install()
    patched = DiffBuilder.__dict__["_configure_dataclass"]
    assert not getattr(patched.flet_original, "bezique_fast", False)
