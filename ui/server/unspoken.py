"""A message to the page without its text: Flet's web server logs each message it sends
with an eager f-string (flet_web's ``FletApp.send_message``: ``f"send_message: {message}"``),
so the dataclass ``repr`` of every control in a screen's update is written out and thrown
away even while that log is off. py-spy of a deal screen's taps on the server: a tenth of
each update's time (the diff, packing and sending being the rest). Sent as an
:class:`Unspoken` message, whose text is its action only, the same ``[action, body]`` is
packed; with the ``flet_transport`` log on for debugging, messages keep their full text."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from flet.messaging.protocol import Message

TRANSPORT_LOG = logging.getLogger("flet_transport")


@dataclass(repr=False)
class Unspoken(Message):
    """A message whose text names its action only."""

    def __repr__(self) -> str:
        return f"Message({self.action})"


def unspoken(message: Message) -> Message:
    """``message`` as sent, cheap to format unless the transport log is on."""
    if TRANSPORT_LOG.isEnabledFor(logging.DEBUG) or type(message) is not Message:
        return message
    return Unspoken(message.action, message.body)
