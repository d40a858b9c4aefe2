"""What each device's screen showed when a tap was made (issue 22).

A write is judged against what the phone displayed, not against what the server has sent
it: on a slow Wi-Fi a drawing can reach a phone seconds after the server made it, and a tap
made meanwhile (an Undo meant for the entry on screen) must not act on an entry the screen
never showed. Flet's click carries only the control's id, and the app's screens keep their
controls from one drawing to the next, so the tap itself cannot say it. So:

- after each drawing that shows another match or log position, the server sends the page a
  small frame of its own naming it (``MARK``: ``[0x00][msgpack [127, "match:position"]]``),
  queued behind that drawing on the same websocket, so it arrives after it;
- the page's script (js/painted.js) keeps that frame from Flet's client and sends the last
  one back in front of each frame the client sends (``SEEN``: ``[0x02]["match:position"]``),
  which Flet's server would drop as an unknown packet type; ``ShownSocket`` takes it first;
- the app reads ``seen`` of the session's connection when it handles a tap
  (ui/shell.py → ``AppState.screen_showed`` → ``MatchSession.shown_by``) and refuses a write
  made on a screen that had not shown another device's change (ui/backend.py ``Unseen``).

A connection that never heard from the page's script (an old page, a desktop client) has
``seen`` None: the session's view counts, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from flet.messaging.protocol import Message

from ui.server.late_dispose import LateDisposeApp
from ui.server.unspoken import unspoken

SCRIPT = Path(__file__).with_name("js") / "painted.js"
MARK = 0x7F  # a message action Flet's protocol does not use: the page's script takes it
SEEN = 0x02  # a packet type Flet's server drops: ShownSocket reads it first
NOTHING = (0, -1)  # the screen showed no match


def label(shown: tuple[int, int] | None) -> str:
    return "" if shown is None else f"{shown[0]}:{shown[1]}"


def parse(text: str) -> tuple[int, int] | None:
    """A label sent back by the page; None when it is not one (then nothing is known)."""
    if text == "":
        return NOTHING
    match, sep, position = text.partition(":")
    if not sep or not match.isdigit() or not position.isdigit() or len(text) > 40:
        return None
    return int(match), int(position)


class ShownApp(LateDisposeApp):  # type: ignore[misc]  # Flet's web app is untyped
    """Flet's websocket session handler, also telling the page what each drawing shows and
    remembering what the page said its screen showed (``seen``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seen: tuple[int, int] | None = None
        self._shown: str | None = None  # what the drawings queued so far show
        self._told: str | None = None  # the last label queued for the page

    def mark_shown(self, shown: tuple[int, int] | None) -> None:
        """The drawing being made shows this (the app's render, before its patch is queued):
        the label follows the next message, which is that drawing."""
        self._shown = label(shown)

    def flush_shown(self) -> None:
        """After a drawing went out: a label not sent yet (the drawing changed nothing on
        screen, so no message carried it) goes now."""
        if self._shown is not None and self._shown != self._told:
            self._told = self._shown
            # the websocket may have just closed (Flet's queue gone): nothing to tell then
            with contextlib.suppress(AttributeError):
                super().send_message(Message(MARK, self._shown))  # type: ignore[arg-type]

    def send_message(self, message: Message) -> None:
        super().send_message(unspoken(message))  # its text never written (ui/server/unspoken.py)
        self.flush_shown()

    def heard(self, packet: bytes) -> None:
        """A ``SEEN`` packet from the page."""
        try:
            self.seen = parse(packet[1:].decode("utf-8"))
        except UnicodeDecodeError:
            self.seen = None


class ShownSocket:
    """The websocket as Flet's handler sees it, less the page's ``SEEN`` packets, which go
    to the handler's ``heard`` instead."""

    def __init__(self, websocket: Any, app: ShownApp) -> None:
        self._websocket = websocket
        self._app = app

    def __getattr__(self, name: str) -> Any:
        return getattr(self._websocket, name)

    async def receive_bytes(self) -> bytes:
        # Let the tap read last be handled first: its handler reads ``seen`` when it starts,
        # before a later SEEN (frames that arrived in a burst) could replace it.
        await asyncio.sleep(0)
        while True:
            data: bytes = await self._websocket.receive_bytes()
            if data[:1] == bytes([SEEN]):
                self._app.heard(data)
                continue
            return data


def script() -> str:
    return SCRIPT.read_text("utf-8")


def inject(index_html: str) -> str:
    """The page with the script first in ``<head>``, before Flutter opens its websocket."""
    tag = f"<script>\n{script()}\n</script>"
    head = index_html.find("<head>")
    if head < 0:
        return tag + index_html
    at = head + len("<head>")
    return index_html[:at] + "\n" + tag + index_html[at:]
