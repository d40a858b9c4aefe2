"""Table mode's small answers around the app (ui/server/table.py), at the ASGI level:

- ``/table-check`` (QA P31) tells a browser only whether its own cookie opens this table, so
  the reconnect notice can tell "server away" from "this phone's link was retired by
  --new-table"; it says nothing else to anyone.
- ``/table-links`` (QA P20) is in the host's language, and still only for the host."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from ui.i18n import load_catalog
from ui.server import reconnect_notice
from ui.server.roles import Role
from ui.server.table import COOKIE, TableAccess, TableGate

TABLE = "192.168.1.20"


async def _never(scope: Any, receive: Any, send: Any) -> None:
    raise AssertionError("the app behind the gate must not be reached")


def request(
    gate: TableGate,
    path: str,
    *,
    cookie: str | None = None,
    host: bool = False,
    query: str = "",
    headers: list[tuple[bytes, bytes]] | None = None,
) -> tuple[int, dict[bytes, bytes], bytes]:
    sent: list[Any] = []
    hdrs = list(headers or [])
    if cookie is not None:
        hdrs.append((b"cookie", f"{COOKIE}={cookie}".encode()))
    scope = {
        "type": "http",
        "path": path,
        "query_string": query.encode(),
        "headers": hdrs,
        "server": ("127.0.0.1" if host else TABLE, 8550),
    }

    async def receive() -> Any:
        return {"type": "http.request", "body": b""}

    async def send(message: Any) -> None:
        sent.append(message)

    asyncio.run(gate(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], dict(start["headers"]), body


def gate_for(access: TableAccess, **kw: Any) -> TableGate:
    pages = {"en": b"<p>links en</p>", "ru": b"<p>links ru</p>"}
    return TableGate(
        _never, access, TABLE, b"refused", b"<p>links default</p>", links_pages=pages, **kw
    )


def test_the_check_says_only_whether_the_callers_own_cookie_opens_the_table() -> None:
    access, old = TableAccess(), TableAccess()  # old: the table before --new-table
    gate = gate_for(access)
    cases = {
        "none": (None, False),
        "retired": (old.secrets_by_role[Role.SCORER], False),
        "scorer": (access.secrets_by_role[Role.SCORER], True),
        "viewer": (access.secrets_by_role[Role.VIEWER], True),
        "wrong": ("x" * 32, False),
    }
    for name, (cookie, valid) in cases.items():
        status, headers, body = request(gate, "/table-check", cookie=cookie)
        assert status == 200, name
        assert json.loads(body) == {"valid": valid}, name  # and nothing else
        assert b"set-cookie" not in headers and headers[b"cache-control"] == b"no-store"
    assert json.loads(request(gate, "/table-check", host=True)[2]) == {"valid": True}


def test_the_links_page_is_in_the_hosts_language_and_for_the_host_only() -> None:
    access = TableAccess()
    gate = gate_for(access)
    assert request(gate, "/table-links", host=True, query="lang=ru")[2] == b"<p>links ru</p>"
    ru_browser = [(b"accept-language", b"ru-RU,ru;q=0.9,en;q=0.8")]
    assert request(gate, "/table-links", host=True, headers=ru_browser)[2] == b"<p>links ru</p>"
    assert request(gate, "/table-links", host=True)[2] == b"<p>links default</p>"
    pinned = gate_for(access, accept_language=False)  # --lang given: the server's language
    assert request(pinned, "/table-links", host=True, headers=ru_browser)[2] == (
        b"<p>links default</p>"
    )
    assert request(pinned, "/table-links", host=True, query="lang=ru")[2] == b"<p>links ru</p>"
    scorer = access.secrets_by_role[Role.SCORER]
    assert request(gate, "/table-links", cookie=scorer, query="lang=ru")[0] == 404
    assert request(gate, "/table-links", query="lang=ru")[0] == 403


def test_the_reconnect_notice_asks_the_check_and_has_the_retired_link_words() -> None:
    script = reconnect_notice.script()
    assert '"/table-check"' in script
    for lang in ("en", "ru"):
        t = load_catalog(lang)
        assert t["hostlinks.refused_title"] in script and t["hostlinks.refused_body"] in script
