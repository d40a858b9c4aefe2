"""Card faces drawn with the bundled DejaVu Sans: offline, Flet's web client has no font with
♠ ♥ ♦ ♣, so the suit glyph always uses the font the app ships (ui/assets/fonts)."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

import flet as ft

from referee.cards import JOKER_SYMBOL, Card, Suit, spoken_order
from referee.glossary import rank_label, shown_cards

SUIT_FONT = "DejaVuSans"
SUIT_FONT_FILE = "fonts/DejaVuSans-Suits.ttf"  # under ui/assets; the server preloads it
RED = "#C62828"
BLACK = "#1B1B1B"
FACE_BG = "#FFFDF7"
JOKER_COLOUR = "#6A1B9A"  # the joker has no suit: neither red nor black


def joker_text(size: float) -> ft.Text:
    """The joker's star in the shipped font (Roboto has no ★)."""
    return ft.Text(
        JOKER_SYMBOL,
        font_family=SUIT_FONT,
        size=size,
        color=JOKER_COLOUR,
        weight=ft.FontWeight.BOLD,
    )


def suit_colour(suit: Suit) -> str:
    return RED if suit.is_red else BLACK


def suit_text(suit: Suit, size: float, colour: str | None = None) -> ft.Text:
    """A suit glyph in the shipped font (never the platform's)."""
    return ft.Text(
        suit.symbol,
        font_family=SUIT_FONT,
        size=size,
        color=colour or suit_colour(suit),
        weight=ft.FontWeight.W_500,
    )


# The screen's language while a screen is being built (set by the shell before each render):
# card faces show ranks as its players read them (ru: Т К Д В), records keep A K Q J.
LANGUAGE: ContextVar[str] = ContextVar("card_language", default="en")


def shown_rank(card: Card) -> str:
    return rank_label(card.rank, LANGUAGE.get())


def inline_cards(cards: list[Card], size: float = 18) -> ft.Control:
    """Cards as coloured text runs (``K♠ Q♠``) on a card-white chip, readable in both themes."""
    parts: list[ft.Control] = []
    for c in cards:
        if c.is_joker:
            parts.append(joker_text(size * 1.1))
            continue
        parts.append(
            ft.Row(
                [
                    ft.Text(
                        shown_rank(c),
                        size=size,
                        weight=ft.FontWeight.BOLD,
                        color=suit_colour(c.suit),
                    ),
                    suit_text(c.suit, size),
                ],
                spacing=0,
                tight=True,
            )
        )
    return ft.Container(
        content=ft.Row(parts, spacing=8, wrap=True, tight=True),
        bgcolor=FACE_BG,
        border_radius=8,
        padding=ft.Padding.symmetric(horizontal=8, vertical=2),
    )


def suit_runs(cards: list[Card], size: float = 15) -> ft.Control:
    """Many cards in little room, grouped by suit as a hand is written down (``♠ К Д  ♥ Т 10``):
    each suit once, its ranks high to low in its colour, on a card-white chip; a joker last."""
    groups: list[ft.Control] = []
    ordered = spoken_order(cards)
    for suit in dict.fromkeys(c.suit for c in ordered if not c.is_joker):
        # thin spaces: ten cards of four suits fit one line beside a name at 360 px
        ranks = "\u2009".join(shown_rank(c) for c in ordered if not c.is_joker and c.suit is suit)
        groups.append(
            ft.Row(
                [
                    suit_text(suit, size),
                    ft.Text(ranks, size=size, weight=ft.FontWeight.BOLD, color=suit_colour(suit)),
                ],
                spacing=2,
                tight=True,
            )
        )
    groups += [joker_text(size * 1.1) for c in ordered if c.is_joker]
    return ft.Container(
        content=ft.Row(groups, spacing=8, run_spacing=0, wrap=True, tight=True),
        bgcolor=FACE_BG,
        border_radius=8,
        padding=ft.Padding.symmetric(horizontal=8, vertical=2),
    )


def suit_badge(suit: Suit, size: float) -> ft.Control:
    """A big suit glyph on a card-white disc (black spades stay visible in the dark theme)."""
    return ft.Container(
        content=suit_text(suit, size),
        bgcolor=FACE_BG,
        width=size * 1.5,
        height=size * 1.5,
        border_radius=size,
        alignment=ft.Alignment.CENTER,
    )


def card_face(
    card: Card,
    *,
    width: float = 56,
    on_click: Callable[[Any], None] | None = None,
    selected: bool = False,
    dimmed: bool = False,
    identifier: str | None = None,
    label: str | None = None,
    badge: str | None = None,
) -> ft.Control:
    """One card: rank over suit on a white face, large enough to read across a table.

    Faces stay white in the dark theme, like real cards; selection is a thick coloured rim.
    """
    height = width * 1.35
    colour = suit_colour(card.suit)
    body: list[ft.Control] = [
        ft.Text(shown_rank(card), size=width * 0.42, weight=ft.FontWeight.BOLD, color=colour),
        suit_text(card.suit, width * 0.42),
    ]
    if card.is_joker:  # one big star: no rank, no suit
        body = [joker_text(width * 0.72)]
    if badge:
        body.append(ft.Text(badge, size=width * 0.2, color=BLACK))
    face = ft.Container(
        content=ft.Column(
            body,
            spacing=0,
            alignment=ft.MainAxisAlignment.CENTER,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            tight=True,
        ),
        width=width,
        height=height,
        bgcolor=FACE_BG,
        border_radius=ft.BorderRadius.all(width * 0.12),
        border=ft.Border.all(4 if selected else 1, "#1565C0" if selected else "#9E9E9E"),
        opacity=0.35 if dimmed else 1.0,
        alignment=ft.Alignment.CENTER,
        on_click=on_click,
        ink=False,  # no ink: see ui/views/plain_buttons.py
    )
    if identifier or label:
        return ft.Semantics(
            identifier=identifier,
            # what a screen reader says: the ranks of the screen's language (Д♠ on Russian
            # screens), as the face shows them, never the record's Latin code
            label=shown_cards(label or str(card), LANGUAGE.get()),
            button=on_click is not None,
            selected=selected,
            content=face,
        )
    return face
