"""The join codes on the host's own screen in table mode (QA P20): the scorer and viewer
links with their QR codes, the same ones the terminal prints and /table-links shows.

Only a session the server made the host (the laptop's own 127.0.0.1 listener,
ui/server/roles.py) is given them (ui/server/host_codes.py); a phone's session never holds
them, so no screen of a scorer or viewer can show them, whatever it asks for.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class JoinCode:
    """One role's join link and its QR code as a PNG."""

    role: str  # "scorer" or "viewer"
    url: str
    png: bytes


@dataclass
class JoinCodes:
    """Both codes, the address of the host's page of codes, and whether Home shows them."""

    codes: tuple[JoinCode, ...]
    links_url: str  # http://127.0.0.1:PORT/table-links (the host's browser only)
    shown: bool = False

    def toggle(self) -> None:
        self.shown = not self.shown
