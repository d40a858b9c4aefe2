"""What a terminal shows of printed text: its ANSI escapes interpreted by a VT100 emulator
(pyte, as a terminal would, not by a parser that only agrees with our own writer), each
character cell painted as the terminal paints it, with a dark or a light colour theme.

Block elements (full, upper and lower half blocks) are painted as a terminal font draws them;
any other character is painted as its cell's background alone (its letters do not matter to
a QR decoder, and no font is needed)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from PIL import Image, ImageDraw

CELL_W, CELL_H = 8, 16  # px: a terminal cell is about twice as tall as wide
INK = {"\u2588": (0, CELL_H), "\u2580": (0, CELL_H // 2), "\u2584": (CELL_H // 2, CELL_H)}
ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")  # takes no cell


@dataclass(frozen=True)
class Theme:
    """A terminal's colour theme: its default colours and its 16 named ones (what themes
    change); colours given as xterm-256 or 24-bit escapes are the same in every theme."""

    name: str
    foreground: str
    background: str
    named: dict[str, str]


DARK = Theme(
    "dark", "e5e5e5", "1e1e1e",
    {"black": "2e3436", "white": "d3d7cf", "brightblack": "555753", "brightwhite": "eeeeec"},
)
LIGHT = Theme(  # e.g. Solarized light: its "black" is not black, its "white" not white
    "light", "1e1e1e", "fdf6e3",
    {"black": "073642", "white": "eee8d5", "brightblack": "002b36", "brightwhite": "fdf6e3"},
)


def _rgb(colour: str, theme: Theme, default: str) -> tuple[int, int, int]:
    if colour == "default":
        colour = default
    colour = theme.named.get(colour, colour)
    if len(colour) != 6:  # a named colour this theme does not list: mid grey
        colour = "808080"
    return (int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16))


def render(text: str, theme: Theme, margin: int = 3) -> Image.Image:
    """``text`` as the terminal shows it, with ``margin`` cells of the theme's background
    around it (the terminal's own surroundings)."""
    import pyte

    lines = text.split("\n")
    cols = max(80, max(len(ESCAPE.sub("", line)) for line in lines) + 1)
    screen = pyte.Screen(cols, len(lines) + 1)
    screen.set_mode(pyte.modes.LNM)  # a newline returns to the line's start, as a tty does
    pyte.Stream(screen).feed(text)
    width, height = (cols + 2 * margin) * CELL_W, (screen.lines + 2 * margin) * CELL_H
    image = Image.new("RGB", (width, height), _rgb("default", theme, theme.background))
    draw = ImageDraw.Draw(image)
    for y in range(screen.lines):
        row = screen.buffer[y]
        for x in range(cols):
            cell = row[x]
            fg = _rgb(cell.fg, theme, theme.foreground)
            bg = _rgb(cell.bg, theme, theme.background)
            if cell.reverse:
                fg, bg = bg, fg
            left, top = (x + margin) * CELL_W, (y + margin) * CELL_H
            draw.rectangle((left, top, left + CELL_W - 1, top + CELL_H - 1), fill=bg)
            if cell.data in INK:
                a, b = INK[cell.data]
                draw.rectangle((left, top + a, left + CELL_W - 1, top + b - 1), fill=fg)
    return image
