"""Starting a table session: the address, the secrets, the join links and their QR codes
(terminal, host page, and :func:`current` for the app's host screen).

A table session is one evening at the table, not one server process: the secrets are kept in a
file only the user can read, so a server restart lets every phone come back with the cookie it
has (issue 12 asks for both). They are new when ``--new-table`` is given, when the last session
is more than :data:`SESSION_HOURS` old, or when the address or port changed.
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

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
SESSION_HOURS = 12


def state_path() -> Path:
    """Where the running table session's secrets are kept (``BEZIQUE_TABLE_STATE`` or the
    user's state folder)."""
    env = os.environ.get("BEZIQUE_TABLE_STATE")
    if env:
        return Path(env)
    import platformdirs

    folder = platformdirs.user_state_dir("bezique-referee", appauthor=False)
    return Path(folder) / "table-session.json"


def _load(path: Path, address: str, port: int | None, now: float) -> TableAccess | None:
    """The kept session's secrets if it is still this table's (same address and port, young
    enough; ``port`` None: any port, a second process joining it); anything unreadable is no
    session."""
    try:
        data = json.loads(path.read_text("utf-8"))
        fresh = now - float(data["created"]) < SESSION_HOURS * 3600
        same_port = port is None or int(data["port"]) == port
        if not fresh or data["address"] != address or not same_port:
            return None
        kept = {Role.SCORER: str(data["scorer"]), Role.VIEWER: str(data["viewer"])}
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if any(len(v) < 22 for v in kept.values()):  # under 128 bits: not one of ours
        return None
    return TableAccess(kept)


def _save(path: Path, session: TableSession, now: float) -> None:
    """Write the secrets readable by this user only (written whole, then renamed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(
            {
                "created": now,
                "address": session.address,
                "port": session.port,
                "scorer": session.access.secrets_by_role[Role.SCORER],
                "viewer": session.access.secrets_by_role[Role.VIEWER],
            },
            fh,
        )
    os.replace(tmp, path)


class NoTableToJoin(Exception):
    """``--join-table`` found no table session kept for its address."""


def start(
    address: str, port: int, *, new: bool = False, path: Path | None = None, join: bool = False
) -> TableSession:
    """The table session on ``address``:``port``: the kept one after a restart, else (or with
    ``new``) one with new secrets; :func:`current` gives it to the app.

    ``join``: a further server process of the same table (on the same PostgreSQL database,
    another port): the secrets the first process keeps in the file, whatever its port; the
    file is left as it is (it stays the first process's), and NoTableToJoin when there is no
    such session, since new secrets would let no phone of the table in."""
    global _current
    path = path or state_path()
    now = time.time()
    if join:
        kept = _load(path, address, None, now)
        if kept is None:
            raise NoTableToJoin(
                f"no table session on {address} is kept in {path}: start the first server"
                " with --table (the same BEZIQUE_TABLE_STATE), then this one with --join-table"
            )
        _current = TableSession(address, port, kept)
        return _current
    access = None if new else _load(path, address, port, now)
    session = TableSession(address, port, access or TableAccess())
    if access is None:
        with contextlib.suppress(OSError):  # unsaved: a restart makes new links, no worse
            _save(path, session, now)
    _current = session
    return session


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
