"""Home's "Phones at the table: show the join codes" for the host in table mode (QA P20): the
scorer and viewer links with QR codes big enough to scan from across the table, in the
host's language. Nothing at all for any other session (it holds no codes: AppState.join_codes
is set only for the server's host, ui/server/host_codes.py).

Shown, the codes take Home's place until hidden, so that both are in sight at once: side by
side on a laptop's screen (1280 x 800 has room for two codes of about 500 px, but not for two
stacked ones under Home's cards, issue 22), one under the other on a phone."""

from __future__ import annotations

import flet as ft

from ui.views.common import (
    VIEWPORT_HEIGHT,
    VIEWPORT_WIDTH,
    View,
    ViewContext,
    app_bar,
    big_button,
    body_text,
    scroll_body,
    tagged,
)

LABELS = {"scorer": "server.links_scorer", "viewer": "server.links_viewer"}
STACKED_LARGEST = 320  # px, on a phone: a camera reads it from across a table
LARGEST = 600  # px, side by side: larger reads no better, and leaves no room for the words
SMALLEST_SIDE_BY_SIDE = 280  # narrower than two of these: one under the other
BODY_PADDING = 16  # scroll_body's padding, each side
CARD_PADDING = 14  # the white card's own, each side
GAP = 24  # between the two cards
# Above the codes and around them, on a laptop: the app bar (64), the body's top padding
# (12), the hide button (56) and the scan line (24) with their gaps (3 x 14), and in each
# card its padding (2 x 14), its label and its link (up to two lines each: 2 x 48) and their
# gaps (2 x 8), with a margin so that the card's foot never touches the screen's.
AROUND = 64 + 12 + 56 + 24 + 3 * 14 + 2 * CARD_PADDING + 2 * 48 + 2 * 8 + 12


def _width() -> float:
    return VIEWPORT_WIDTH.get() or 390.0


def side_by_side() -> bool:
    """Two codes of at least :data:`SMALLEST_SIDE_BY_SIDE` fit next to each other."""
    card = SMALLEST_SIDE_BY_SIDE + 2 * CARD_PADDING
    return _width() >= 2 * card + GAP + 2 * BODY_PADDING


def code_size() -> float:
    """The codes' side: as large as the screen allows, both codes on it at once where it can
    (side by side, the screen's height sets the limit too)."""
    width = _width()
    if not side_by_side():
        return max(160.0, min(float(STACKED_LARGEST), width - 2 * (BODY_PADDING + CARD_PADDING)))
    across = (width - 2 * BODY_PADDING - GAP) / 2 - 2 * CARD_PADDING
    height = VIEWPORT_HEIGHT.get()
    down = height - AROUND if height else across
    return max(160.0, min(float(LARGEST), across, down))


def controls(ctx: ViewContext) -> list[ft.Control]:
    """Home's entry that shows the codes (nothing for a session without codes)."""
    codes = ctx.app.join_codes
    if codes is None:
        return []
    return [_toggle(ctx)]


def shown(ctx: ViewContext) -> bool:
    """Whether Home is to show the codes instead of its cards."""
    return ctx.app.join_codes is not None and ctx.app.join_codes.shown


def view(ctx: ViewContext) -> View:
    """The codes in Home's place, with the button that hides them on top."""
    codes = ctx.app.join_codes
    assert codes is not None
    size = code_size()
    cards = [_card(ctx, code.role, code.url, code.png, size) for code in codes.codes]
    together: ft.Control
    if side_by_side():
        together = ft.Row(
            cards,
            spacing=GAP,
            alignment=ft.MainAxisAlignment.CENTER,
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
        max_width = 2 * (size + 2 * CARD_PADDING) + GAP + 2 * BODY_PADDING
    else:
        together = ft.Column(cards, spacing=14, tight=True)
        max_width = 640
    page = f"{codes.links_url}?lang={ctx.app.lang}"
    out: list[ft.Control] = [
        _toggle(ctx),
        body_text(ctx.t("hostlinks.scan"), 16),
        together,
        body_text(ctx.t("hostlinks.page", url=page), 15, color=ft.Colors.ON_SURFACE_VARIANT),
        body_text(ctx.t("server.links_hint"), 15, color=ft.Colors.ON_SURFACE_VARIANT),
    ]
    for i, control in enumerate(out):  # stable keys: Flet patches each in place
        control.key = f"join-codes-{i}"
    body = scroll_body(out, max_width=max_width)
    return View(body, app_bar(ctx, ctx.t("app.title"), back=False))


def _toggle(ctx: ViewContext) -> ft.Control:
    codes = ctx.app.join_codes
    assert codes is not None

    def toggle(_e: object) -> None:
        codes.toggle()
        ctx.app.changed()

    return big_button(
        ctx.t("hostlinks.hide" if codes.shown else "hostlinks.show"),
        toggle,
        icon=ft.Icons.QR_CODE_2,
        identifier="join-codes",
    )


def _card(ctx: ViewContext, role: str, url: str, png: bytes, size: float) -> ft.Control:
    """One role's code on white (dark on light in the dark theme too), its name above and its
    link below."""
    return tagged(
        f"join-code-{role}",
        ft.Container(
            content=ft.Column(
                [
                    ft.Text(
                        ctx.t(LABELS[role]),
                        size=20,
                        weight=ft.FontWeight.BOLD,
                        color=ft.Colors.BLACK,
                        text_align=ft.TextAlign.CENTER,  # centred when it wraps too
                    ),
                    ft.Image(
                        src=png,
                        width=size,
                        height=size,
                        fit=ft.BoxFit.CONTAIN,
                        filter_quality=ft.FilterQuality.NONE,  # sharp modules
                        gapless_playback=True,
                        semantics_label=ctx.t(LABELS[role]),
                    ),
                    ft.Text(url, size=14, color=ft.Colors.BLACK, text_align=ft.TextAlign.CENTER),
                ],
                spacing=8,
                tight=True,
                horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            ),
            width=size + 2 * CARD_PADDING,
            padding=CARD_PADDING,
            border_radius=14,
            bgcolor=ft.Colors.WHITE,
        ),
    )
