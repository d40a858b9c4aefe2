"""The shipped fallback font covers every symbol the texts use beyond Latin and Cyrillic:
a glyph neither it nor Flet's bundled Roboto has would show as a blank in the browser."""

from __future__ import annotations

import struct
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FONT = ROOT / "ui" / "assets" / "fonts" / "DejaVuSans-Suits.ttf"


def _cmap(path: Path) -> set[int]:
    """Code points of a TrueType font's format-4 Unicode cmap subtable."""
    data = path.read_bytes()
    num_tables = struct.unpack(">H", data[4:6])[0]
    offset = 0
    for i in range(num_tables):
        tag, _, off, _ = struct.unpack(">4sIII", data[12 + 16 * i : 28 + 16 * i])
        if tag == b"cmap":
            offset = off
    assert offset, "no cmap table"
    count = struct.unpack(">H", data[offset + 2 : offset + 4])[0]
    points: set[int] = set()
    for i in range(count):
        _, _, sub = struct.unpack(">HHI", data[offset + 4 + 8 * i : offset + 12 + 8 * i])
        base = offset + sub
        if struct.unpack(">H", data[base : base + 2])[0] != 4:
            continue
        segs = struct.unpack(">H", data[base + 6 : base + 8])[0] // 2
        ends = struct.unpack(f">{segs}H", data[base + 14 : base + 14 + 2 * segs])
        s0 = base + 16 + 2 * segs
        starts = struct.unpack(f">{segs}H", data[s0 : s0 + 2 * segs])
        for start, end in zip(starts, ends, strict=True):
            if start != 0xFFFF:
                points.update(range(start, end + 1))
    return points


def test_the_font_has_the_suits() -> None:
    assert {0x2660, 0x2661, 0x2662, 0x2663, 0x2664, 0x2665, 0x2666, 0x2667} <= _cmap(FONT)


def test_every_symbol_in_the_texts_is_covered() -> None:
    have = _cmap(FONT)
    missing: dict[str, str] = {}
    for path in [*(ROOT / "data").rglob("*.toml"), *(ROOT / "ui").rglob("*.py")]:
        for ch in path.read_text(encoding="utf-8"):
            o = ord(ch)
            latin_or_cyrillic = o < 0x250 or 0x400 <= o <= 0x4FF or 0x2000 <= o <= 0x200F
            if not latin_or_cyrillic and o not in have:
                missing[ch] = path.name
    assert missing == {}, "add them to the pyftsubset command in docs/app.md"
