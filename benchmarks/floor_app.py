"""A trivial Flet app (one score, one button) served exactly as the real app is, to learn
what a tap → painted costs in Flet itself on this machine (bench_floor.py drives it).

    python benchmarks/floor_app.py --variant filled|plain|gesture --port N

``filled``: the app's Material ``FilledButton`` (ink splash and state layers); ``plain``: a
``Container`` with ``on_click`` and ``ink=False`` (no Material ink); ``gesture``: a
``GestureDetector`` around a plain ``Container``. The score sits at the top as on the deal
screen, the button at the bottom, in the app's theme and font.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import flet as ft  # noqa: E402

VARIANTS = ("filled", "plain", "gesture")


def _button(variant: str, on_click: Any) -> ft.Control:
    label = ft.Text("Add 20", size=18, weight=ft.FontWeight.W_600)
    if variant == "filled":
        return ft.FilledButton(
            content=label,
            on_click=on_click,
            height=56,
            expand=True,
            style=ft.ButtonStyle(shape=ft.RoundedRectangleBorder(radius=14)),
        )
    face = ft.Container(
        content=label,
        alignment=ft.Alignment.CENTER,
        height=56,
        expand=True,
        border_radius=14,
        bgcolor=ft.Colors.PRIMARY_CONTAINER,
    )
    if variant == "plain":
        face.on_click = on_click
        face.ink = False
        return face
    return ft.GestureDetector(content=face, on_tap=on_click, expand=True)


def make_main(variant: str) -> Any:
    def app_main(page: ft.Page) -> None:
        score = [0]
        text = ft.Text("0", size=30, weight=ft.FontWeight.BOLD)

        def add(_: Any) -> None:
            score[0] += 20
            text.value = str(score[0])

        def reset(_: Any) -> None:
            score[0] = 0
            text.value = "0"

        page.add(
            ft.Column(
                [
                    ft.Container(
                        ft.Semantics(identifier="floor-score", container=True, content=text),
                        padding=12,
                    ),
                    ft.Container(expand=True),
                    ft.Row(
                        [
                            ft.Semantics(
                                identifier="floor-tap",
                                container=True,
                                content=_button(variant, add),
                                expand=True,
                            ),
                            ft.Semantics(
                                identifier="floor-reset",
                                container=True,
                                content=_button(variant, reset),
                                expand=True,
                            ),
                        ]
                    ),
                ],
                expand=True,
            )
        )

    return app_main


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", choices=VARIANTS, required=True)
    ap.add_argument("--port", type=int, required=True)
    args = ap.parse_args()
    from ui.main import serve_web

    serve_web(make_main(args.variant), host="127.0.0.1", port=args.port)


if __name__ == "__main__":
    main()
