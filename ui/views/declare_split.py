"""A long list of combinations to name (six- and eight-pack: 17 and 23 names; three- and
four-hand) on a phone. The declare layer under its tabs is split in two shares of fixed
proportions: the proposal (confirm, the proposed cards with their hand/table captions, then
the why) above, the names below in denser rows that scroll with a scrollbar always shown.
Both shares depend on the screen's height only, so tapping a name (which changes the
proposal) moves no name, and the proposal is never pushed under the names (QA P15: at
360×780 the proposed Q♠ J♦ were hidden behind a 490 px list; "Four trump jacks" below the
screen at 390×844). The scrolling list keeps one key for the layer's life: a tap replaces
its rows, Flet patches the list on screen, so it stays scrolled where the finger left it."""

from __future__ import annotations

import flet as ft

FEW_ROWS = 6  # up to this many rows (two-hand's 12 names) the list keeps its whole height
NAME_HEIGHT = 48  # a name's button in a long list (Material's least tap target)
NAME_SIZE = 15  # px: two lines fit a 48-px button (1 px padding, its border); 16 px did not
ROW_SPACING = 6
CHOICE_SHARE = 2  # the proposal's share of the height under the tabs …
NAMES_SHARE = 3  # … and the names' share
WIDE_ROWS = 8  # beside the proposal (tablet, laptop): the list's height in rows
SCROLLBAR_GAP = 10  # the rows end left of the scrollbar, which never covers a name
LIST_KEY = "declare-names-list"


def many(count: int) -> bool:
    """Whether ``count`` names make a long list (more rows of two than ``FEW_ROWS``)."""
    return (count + 1) // 2 > FEW_ROWS


def names_share(box: ft.Control) -> ft.Control:
    """The names' box as the lower share of the layer (the proposal takes the upper)."""
    return ft.Container(content=box, expand=NAMES_SHARE)


def names_list(rows: ft.Control, *, wide: bool) -> ft.Control:
    """The scrolling list that holds ``rows`` (the names' rows for the current choice). A new
    control each time (a cached one changed in place would be skipped by Flet's diff), with
    the same key, so Flet patches the one on screen and Flutter keeps its scroll position."""
    height = WIDE_ROWS * (NAME_HEIGHT + ROW_SPACING) - ROW_SPACING if wide else None
    return ft.Column(
        [ft.Container(content=rows, padding=ft.Padding.only(right=SCROLLBAR_GAP))],
        spacing=0,
        scroll=ft.ScrollMode.ALWAYS,
        height=height,
        expand=not wide,
        key=LIST_KEY,
    )
