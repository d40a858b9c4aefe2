"""QR codes of the join links (segno: pure Python, no image library needed): for the terminal
that started the table, and as PNG/SVG for the host's screen."""

from __future__ import annotations

import io
from typing import Any

# The terminal's code paints both colours itself: black modules on a white quiet zone, from
# xterm's 256-colour cube (16, 231), which colour themes leave alone (they remap 0-15). Left
# to the terminal's own colours (segno's ``terminal()``, compact or not) the code comes out
# inverted on a light background, and many phone camera apps then read nothing (issue 22).
DARK, LIGHT = 16, 231
QUIET_ZONE = 4  # modules: the standard's quiet zone, white whatever is around it
UPPER_HALF = "\u2580"  # one character cell holds two rows of modules


def _code(url: str) -> Any:
    import segno

    return segno.make(url, error="m")


def terminal_text(url: str) -> str:
    """The code for a terminal, dark on light on a dark or a light background alike: each
    character cell is two modules, the upper half block in the top one's colour over a
    background in the bottom one's (ANSI 256-colour escapes, reset at each line's end)."""
    rows = [list(r) for r in _code(url).matrix_iter(scale=1, border=QUIET_ZONE)]
    if len(rows) % 2:
        rows.append([0] * len(rows[0]))  # light: the quiet zone goes on below
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        line, pen = [], None
        for pair in zip(top, bottom, strict=True):
            if pair != pen:  # a colour escape only where the colours change
                pen = pair
                line.append(f"\033[38;5;{_colour(pair[0])};48;5;{_colour(pair[1])}m")
            line.append(UPPER_HALF)
        lines.append("".join(line) + "\033[0m")
    return "\n".join(lines) + "\n"


def _colour(dark: int) -> int:
    return DARK if dark else LIGHT


def png_bytes(url: str, scale: int = 8) -> bytes:
    """A PNG of the code (for ``ft.Image(src=...)`` on the host screen)."""
    buf = io.BytesIO()
    _code(url).save(buf, kind="png", scale=scale, border=2)
    return buf.getvalue()


def svg_inline(url: str, scale: int = 6) -> str:
    """An ``<svg>`` element of the code, for an HTML page."""
    return str(_code(url).svg_inline(scale=scale, border=2))
