"""A font size at which a number fits its box on one line: the viewer's big totals are read
across the table, and a four-digit total that wraps ("110" over "0") reads as two numbers.
Sized from the box's width and the longest text (digits of Roboto bold are about 0.6 em wide,
the minus sign no wider), never larger than the design size."""

from __future__ import annotations

from collections.abc import Sequence

GLYPH_EM = 0.62  # the width of a bold digit, in ems (a little over, to be safe)


def fitting_size(texts: Sequence[str], box_width: float | None, largest: float) -> float:
    """The largest size up to ``largest`` at which every text fits ``box_width`` (unknown
    width: ``largest``)."""
    longest = max((len(t) for t in texts), default=0)
    if box_width is None or longest == 0:
        return largest
    return max(12.0, min(largest, box_width / (longest * GLYPH_EM)))
