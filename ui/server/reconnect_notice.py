"""The web client's own notice while the app's server cannot be reached.

Flet's web client shows a spinner and "Working..." when its websocket drops, which does not
say the tap was not taken; and a tap made through its accessibility tree while it waits is
queued and sent after reconnecting (to the old session, which may show something else by
then, or to a new one after a restart). A small script in the page (js/reconnect_notice.js)
watches Flet's websocket: from its close until the server's first answer on a new one it
covers the screen with "Connection to the table lost. Reconnecting… Taps are not recorded
until the match is back on this screen." and lets no tap or key reach the app, so nothing is
queued and nothing looks accepted. The texts are the app's (data/i18n/ui-reconnect.*.toml),
in the browser's language (English or Russian). When the server is back but refuses this
browser (``--new-table`` retired its link), the notice learns it from ``/table-check``
(ui/server/table.py) and says to scan the host's new code instead.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from ui.i18n import load_catalog

SCRIPT = Path(__file__).with_name("js") / "reconnect_notice.js"
LANGS = ("en", "ru")


@cache
def script() -> str:
    """The notice's script with the texts of every language filled in."""
    texts = {}
    for lang in LANGS:
        t = load_catalog(lang)
        texts[lang] = {
            "title": t["reconnect.title"],
            "body": t["reconnect.body"],
            "refused_title": t["hostlinks.refused_title"],  # the link was retired (P31)
            "refused_body": t["hostlinks.refused_body"],
        }
    source = SCRIPT.read_text("utf-8")
    # "</" cannot end the inline script early: JSON lets it be written "<\/".
    filled = json.dumps(texts, ensure_ascii=False).replace("</", "<\\/")
    return source.replace("/*TEXTS*/ {}", filled)


def inject(index_html: str) -> str:
    """Flet's index.html with the notice's script first in ``<head>`` (before Flutter opens
    any websocket)."""
    tag = f"<script>\n{script()}\n</script>"
    head = index_html.find("<head>")
    if head < 0:
        return tag + index_html
    at = head + len("<head>")
    return index_html[:at] + "\n" + tag + index_html[at:]
