"""Issue 22: the join codes the terminal prints read on a dark and on a light terminal alike.
They were drawn in the terminal's own colours, so a light theme showed them inverted: zxing read
them only with inversion on, and many phone camera apps do not try that.

What is checked is the picture a terminal shows (tests/server/terminal_picture.py), decoded by
zxing-cpp with inversion off, as a plain camera app reads."""

from __future__ import annotations

from pathlib import Path

import pytest
from terminal_picture import DARK, LIGHT, Theme, render

from ui.server import table_mode
from ui.server.roles import Role
from ui.server.table import TableAccess

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "screenshots"


@pytest.mark.parametrize("theme", [DARK, LIGHT], ids=lambda t: t.name)
def test_the_printed_codes_decode_without_inversion_on_a_dark_and_a_light_terminal(
    theme: Theme,
) -> None:
    import zxingcpp

    session = table_mode.TableSession("192.168.1.20", 8550, TableAccess())
    picture = render(table_mode.terminal_text(session, "en"), theme)
    SHOTS.mkdir(parents=True, exist_ok=True)
    picture.save(SHOTS / f"terminal-codes-{theme.name}.png")
    found = zxingcpp.read_barcodes(
        picture, formats=zxingcpp.BarcodeFormat.QRCode, try_invert=False
    )
    assert sorted(code.text for code in found) == sorted(
        session.join_url(role) for role in (Role.SCORER, Role.VIEWER)
    )
