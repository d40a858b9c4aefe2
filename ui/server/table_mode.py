"""Starting a table session: the address, the fresh secrets, the join links and their QR codes
(terminal, host page, and :func:`current` for the app's host screen)."""

from __future__ import annotations

import html
from dataclasses import dataclass

from ui.i18n import load_catalog
from ui.server import qr
from ui.server.roles import Role
from ui.server.table import LINKS_PATH, TableAccess


@dataclass(frozen=True)
class TableSession:
    """One run of ``--table``: where it is served and the link of each role."""

    address: str
    port: int
    access: TableAccess

    @property
    def base_url(self) -> str:
        return f"http://{self.address}:{self.port}"

    @property
    def host_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def links_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{LINKS_PATH}"

    def join_url(self, role: Role) -> str:
        return self.access.join_url(self.base_url, role)

    def qr_png(self, role: Role) -> bytes:
        """The role's join code as a PNG, for the host screen."""
        return qr.png_bytes(self.join_url(role))


_current: TableSession | None = None


def start(address: str, port: int) -> TableSession:
    """A new table session (new secrets) on ``address``:``port``; :func:`current` gives it to
    the app."""
    global _current
    _current = TableSession(address, port, TableAccess())
    return _current


def current() -> TableSession | None:
    """The table session this server runs, or ``None`` outside table mode. The app's host
    screen uses it to show the links and codes (``join_url``, ``qr_png``)."""
    return _current


def _t(lang: str) -> dict[str, str]:
    return load_catalog(lang)


def refusal_page() -> bytes:
    """The 403 page for a device without a valid link, in English and Russian (the server
    does not know the device's language)."""
    parts = []
    for lang in ("en", "ru"):
        t = _t(lang)
        parts.append(
            f"<section lang='{lang}'><h1>{html.escape(t['server.refusal_title'])}</h1>"
            f"<p>{html.escape(t['server.refusal_body'])}</p></section>"
        )
    return _page("Bezique Referee", "".join(parts)).encode()


def links_page(session: TableSession, lang: str) -> bytes:
    """The host's page of join codes (served on 127.0.0.1 only)."""
    t = _t(lang)
    blocks = []
    for role, key in ((Role.SCORER, "server.links_scorer"), (Role.VIEWER, "server.links_viewer")):
        url = session.join_url(role)
        blocks.append(
            f"<section id='{role.value}'><h2>{html.escape(t[key])}</h2>"
            f"{qr.svg_inline(url)}<p><code>{html.escape(url)}</code></p></section>"
        )
    body = (
        f"<h1>{html.escape(t['server.links_title'])}</h1>{''.join(blocks)}"
        f"<p>{html.escape(t['server.links_hint'])}</p>"
    )
    return _page(t["server.links_title"], body, lang).encode()


def _page(title: str, body: str, lang: str = "en") -> str:
    style = (
        "body{font-family:sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;"
        "font-size:1.2rem;line-height:1.4}code{word-break:break-all}"
        "section{margin-bottom:2rem}svg{width:16rem;height:16rem}"
    )
    return (
        f"<!doctype html><html lang='{lang}'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width,initial-scale=1'>"
        f"<title>{html.escape(title)}</title><style>{style}</style></head>"
        f"<body>{body}</body></html>"
    )


def terminal_text(session: TableSession, lang: str) -> str:
    """What the terminal shows at start: both links with their codes."""
    t = _t(lang)
    lines = [t["server.terminal_table"], ""]
    roles = ((Role.SCORER, "server.terminal_scorer"), (Role.VIEWER, "server.terminal_viewer"))
    for role, key in roles:
        url = session.join_url(role)
        lines += [f"{t[key]}: {url}", qr.terminal_text(url)]
    lines.append(f"{t['server.terminal_host']}: {session.host_url}  ({session.links_url})")
    return "\n".join(lines)
