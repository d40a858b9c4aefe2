"""QR codes of the join links (segno: pure Python, no image library needed): for the terminal
that started the table, and as PNG/SVG for the host's screen."""

from __future__ import annotations

import io
from typing import Any


def _code(url: str) -> Any:
    import segno

    return segno.make(url, error="m")


def terminal_text(url: str) -> str:
    """The code drawn with block characters, dark on light, for a terminal."""
    out = io.StringIO()
    _code(url).terminal(out=out, compact=True)
    return out.getvalue()


def png_bytes(url: str, scale: int = 8) -> bytes:
    """A PNG of the code (for ``ft.Image(src=...)`` on the host screen)."""
    buf = io.BytesIO()
    _code(url).save(buf, kind="png", scale=scale, border=2)
    return buf.getvalue()


def svg_inline(url: str, scale: int = 6) -> str:
    """An ``<svg>`` element of the code, for an HTML page."""
    return str(_code(url).svg_inline(scale=scale, border=2))
