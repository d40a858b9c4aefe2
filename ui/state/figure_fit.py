"""The size of a big figure that must stay on one line in a box of a known width (the viewer's
totals): Flet 1.0 has no FittedBox, so the size is chosen from the box width and the text's
length. Roboto Bold's digits all advance 0.56 em (tabular); the minus sign and a space are
counted as wide as a digit, and a margin covers the font's side bearings, so the figure never
wraps ("1100" read across the table as "110" over "0") nor is cut."""

from __future__ import annotations

DIGIT_EM = 0.5625  # Roboto Bold digit advance: 1152 / 2048 units
MARGIN = 0.92  # the part of the box the figure may fill
SMALLEST = 24.0


def figure_width(text: str, size: float) -> float:
    """The width ``text`` takes at font ``size`` (every character as wide as a digit)."""
    return len(text) * DIGIT_EM * size


def fitted_size(texts: list[str], box_width: float, largest: float) -> float:
    """One size for all ``texts`` (the sides' totals stay alike): ``largest`` when the longest
    fits ``box_width``, else the size that fills it, never below SMALLEST."""
    longest = max((len(t) for t in texts), default=1) or 1
    fits = box_width * MARGIN / (longest * DIGIT_EM)
    return max(SMALLEST, min(largest, float(int(fits))))


def box_width(
    viewport: float,
    columns: int,
    *,
    page_pad: float = 32,
    gap: float = 10,
    box_pad: float = 16,
    max_width: float = 720,
) -> float:
    """The inner width of one of ``columns`` boxes in a row of the scroll body (its padding
    ``page_pad``, no wider than ``max_width``), the row's ``gap``s and each box's ``box_pad``."""
    inner = min(viewport, max_width) - page_pad
    return (inner - gap * (columns - 1)) / columns - box_pad
