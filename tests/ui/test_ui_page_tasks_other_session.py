"""Work handed to a page whose websocket is gone is dropped, never raised into whoever handed
it: after a server restart a phone's new session joined the table while another session had
no connection, Flet's run_task raised AttributeError inside the new session's start, and the
phone showed "Error running app" instead of its match."""

from __future__ import annotations

import asyncio
from typing import Any

from ui import live
from ui.state.app import AppState


class Connection:
    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()  # never run: work handed to it only waits


class Session:
    def __init__(self, connected: bool) -> None:
        self.connection = Connection() if connected else None


class PubSub:
    def subscribe_topic(self, _topic: str, _handler: Any) -> None:
        pass

    def send_others_on_topic(self, _topic: str, _message: Any) -> None:
        pass

    def unsubscribe_topic(self, _topic: str) -> None:
        pass


class Page:
    """What live.connect uses of a Flet page; ``run_task`` fails as Flet's does without a
    connection (``self.session.connection.loop``)."""

    def __init__(self, connected: bool) -> None:
        self.session = Session(connected)
        self.pubsub = PubSub()
        self.ran: list[str] = []

    def run_task(self, handler: Any, *args: Any) -> None:
        _ = self.session.connection.loop  # type: ignore[union-attr]
        self.ran.append(handler.__name__)


async def work() -> None:
    pass


def test_a_session_joins_the_table_while_another_has_lost_its_connection(store: Any) -> None:
    gone, here = Page(connected=False), Page(connected=True)
    away, back = AppState(store, lang="en"), AppState(store, lang="en")
    links = [live.connect(away, gone)]  # type: ignore[arg-type]
    try:
        links.append(live.connect(back, here))  # type: ignore[arg-type]
        # the page without a connection is not at the table (ui/live.py), and nothing for
        # it was raised into this start
        assert back.others_at_table == 0 and away.others_at_table == 0
        assert "run" not in gone.ran
    finally:
        for link in links:
            live.COMPANY.leave(link)
        here.session.connection.loop.close()  # type: ignore[union-attr]
