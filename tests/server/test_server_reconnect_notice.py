"""The page carries the web client's own reconnect notice (ui/server/reconnect_notice.py):
first in <head>, before Flutter opens its websocket, with the app's texts in English and
Russian, on every address that serves the app."""

from __future__ import annotations

from typing import Any

from server_helpers import raw_request

from ui.i18n import load_catalog
from ui.server import reconnect_notice


def test_the_notice_script_is_first_in_head_with_both_languages() -> None:
    page = reconnect_notice.inject("<html><head><title>x</title></head><body></body></html>")
    head = page.index("<head>") + len("<head>")
    assert page[head:].lstrip().startswith("<script>")
    assert page.index("bezique-reconnecting") < page.index("<title>")
    for lang in ("en", "ru"):
        t = load_catalog(lang)
        assert t["reconnect.title"] in page and t["reconnect.body"] in page
    assert "</" not in reconnect_notice.script().split("const texts", 1)[1].split(";", 1)[0]


def test_the_served_page_has_the_notice_on_every_route(app_server: Any) -> None:
    for path in ("/", f"/match/{1}", "/view/3"):
        r = raw_request(app_server.port, path)
        assert r.status == 200, path
        assert b"bezique-reconnecting" in r.body and b"flutter_bootstrap.js" in r.body
        assert "content-security-policy" in r.headers
