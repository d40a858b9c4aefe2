"""A screen's update goes to the page packed exactly as Flet packs it, without the text of
every control in it being made for a log that is off (ui/server/unspoken.py)."""

from __future__ import annotations

import logging

import flet as ft
import msgpack
import pytest
from flet.controls.base_control import BaseControl
from flet.messaging.protocol import Message, MessageAction, configure_encode_object_for_msgpack

from ui.server.unspoken import TRANSPORT_LOG, unspoken


class Loud:
    """A body whose text must never be made."""

    def __repr__(self) -> str:
        raise AssertionError("the message's text was made")


def packed(message: Message) -> bytes:
    return msgpack.packb(
        [message.action, message.body], default=configure_encode_object_for_msgpack(BaseControl)
    )


def test_the_message_formats_without_its_body_and_packs_the_same() -> None:
    body = {"id": 1, "patch": [[0], [ft.Text("40")]]}
    message = Message(MessageAction.PATCH_CONTROL, body)
    quiet = unspoken(message)
    assert packed(quiet) == packed(message)
    assert f"send_message: {unspoken(Message(MessageAction.PATCH_CONTROL, Loud()))}" == (
        "send_message: Message(MessageAction.PATCH_CONTROL)"
    )


def test_with_the_transport_log_on_a_message_keeps_its_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    message = Message(MessageAction.PATCH_CONTROL, {"id": 1})
    with caplog.at_level(logging.DEBUG, logger=TRANSPORT_LOG.name):
        assert unspoken(message) is message
