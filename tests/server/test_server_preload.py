"""The page starts the web client's downloads at once (issue 14's first load): the files
Flutter's loader would ask for one after another are announced in its head."""

from __future__ import annotations

import json
from typing import Any

from server_helpers import raw_request

from ui.server import precompress, preload
from ui.server.web_client import trimmed_font_manifest
from ui.views.cards import SUIT_FONT_FILE

WEB = precompress.web_client_dirs(None)[0]

FLET_PAGE = """<html><head><base href="/">
<script>var flet = {webRenderer: "auto"};</script>
<script>
flet.webRenderer="auto";
flet.canvasKitBaseUrl="/canvaskit/";
</script>
<script src="python.js"></script>
</head><body><script src="flutter_bootstrap.js" async></script></body></html>"""


def test_the_early_downloads_run_after_flets_configuration_and_before_any_other_script() -> None:
    page = preload.patch_index(FLET_PAGE, ["assets/FontManifest.json"])
    at = page.index("Early downloads")
    assert page.index('flet.canvasKitBaseUrl="/canvaskit/"') < at
    assert at < page.index('src="python.js"') < page.index('src="flutter_bootstrap.js"')


def test_a_page_without_flets_configuration_is_left_alone() -> None:
    page = "<html><head><script src='flutter_bootstrap.js'></script></head></html>"
    assert preload.patch_index(page, []) == page


def test_the_fonts_are_the_manifest_itself_its_fonts_under_assets_then_the_apps() -> None:
    manifest = trimmed_font_manifest(WEB)
    urls = preload.font_urls(manifest, [SUIT_FONT_FILE])
    assert urls[0] == "assets/FontManifest.json"
    assert "assets/fonts/MaterialIcons-Regular.otf" in urls
    assert "assets/fonts/roboto.woff2" in urls
    assert urls[-1] == SUIT_FONT_FILE
    assert len(urls) == len(set(urls))
    assert not [u for u in urls if "katex" in u.lower() or "cupertino" in u.lower()]


def test_font_names_cannot_break_out_of_the_script() -> None:
    text = preload.script(["fonts/</script><script>alert(1)</script>.ttf"])
    assert "</script><script>" not in text
    fonts = text.split("fonts = ", 1)[1].split(";", 1)[0]
    assert json.loads(fonts) == ["fonts/</script><script>alert(1)</script>.ttf"]


def test_the_served_page_announces_the_suit_font_and_is_revalidated(app_server: Any) -> None:
    first = raw_request(app_server.port, "/")
    assert first.status == 200
    body = first.body.decode("utf-8")
    assert "Early downloads" in body and SUIT_FONT_FILE in body
    assert first.headers["cache-control"] == "no-cache"
    again = raw_request(app_server.port, "/", headers={"If-None-Match": first.headers["etag"]})
    assert again.status == 304 and again.body == b""
    route = raw_request(app_server.port, "/history")  # Flet's client-side route: the same page
    assert route.body == first.body
