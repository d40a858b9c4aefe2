"""Table mode across server processes (issue 24) without a browser or PostgreSQL: two
"processes" (two stores on one database, each with its own hub standing in for its pubsub and
event loop). What process 2's writes tell the feed (recorded here instead of NOTIFY) reaches
process 1's sessions through ui/live.py's ``heard_elsewhere``, as the same ``Move`` its own
pubsub carries: the screen shows storage's match and the strip says who did what (an undo's
words travel with the notice, a redo's are read from storage); after the feed was cut,
``resync`` makes every session read storage again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import make_url
from test_ui_table import Hub, declare, shown, stored
from ui_helpers import new_match, start_deal

from referee.storage.change_feed import Change, ChangeFeed, change_of, payload
from ui import backend, live
from ui.state.app import AppState


class Recorder(ChangeFeed):
    """A feed that keeps what it would NOTIFY (as PostgreSQL would deliver it: the payload's
    text read back), so the test hands it to the other process."""

    def __init__(self) -> None:
        super().__init__(make_url("postgresql://nobody@localhost/none"))
        self.sent: list[Change] = []

    def said(self, conn: Any, change: Change) -> None:
        back = change_of(payload(change))
        assert back is not None
        self.sent.append(back)


@pytest.fixture
def two(tmp_path: Path) -> Iterator[tuple[Any, Any, Recorder]]:
    url = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    one, two = backend.open_store(url), backend.open_store(url)
    feed = Recorder()
    two.feed = two.gate.feed = feed
    yield one, two, feed
    one.close()
    two.close()


def test_another_processs_writes_reach_this_processs_screens_as_its_own_moves(
    two: tuple[Any, Any, Recorder],
) -> None:
    store1, store2, feed = two
    hub1, hub2 = Hub(), Hub()
    boris = AppState(store2, lang="en")  # process 2
    hub2.join(boris, "Boris's phone")
    start_deal(new_match(boris))
    assert boris.session is not None
    mid = boris.session.match_id
    assert [c.action for c in feed.sent] == ["new", "deal"]
    assert feed.sent[0].news == {"device": "Boris's phone", "number": 0, "host": False}
    anna = AppState(store1, lang="en")  # process 1
    hub1.join(anna, "Anna's phone")
    assert anna.open_route(f"/match/{mid}")

    def carried() -> None:
        """What process 2 said reaches process 1 (its listener), then its loop runs."""
        hub2.deliver(boris)
        for change in feed.sent:
            live.heard_elsewhere(store1, change, hub1.company)
        feed.sent.clear()
        hub1.deliver(anna)

    feed.sent.clear()
    assert declare(boris, 0, "KS QS") is not None
    carried()
    assert shown(anna) == shown(boris) == stored(store1, mid)
    assert anna.live_notice is not None
    said = anna.live_notice.text(anna.t, "en")
    assert "Boris's phone recorded" in said and "marriage" in said

    assert boris.session is not None and boris.session.undo()
    carried()
    assert shown(anna) == stored(store1, mid)
    said = anna.live_notice.text(anna.t, "en")
    assert said.startswith("Boris's phone undid: Anna declares marriage"), said

    assert boris.session.redo()
    carried()
    assert shown(anna) == stored(store1, mid)
    said = anna.live_notice.text(anna.t, "en")
    assert said.startswith("Boris's phone restored: Anna declares marriage"), said

    # the feed was cut while Boris recorded: nothing heard, then every session reads storage
    assert declare(boris, 1, "KH QH") is not None
    hub2.deliver(boris)
    feed.sent.clear()  # lost with the connection
    assert shown(anna) != stored(store1, mid)
    live.resync(hub1.company)
    hub1.deliver(anna)
    assert shown(anna) == stored(store1, mid)


def test_a_new_match_of_another_process_is_news_on_this_ones_home(
    two: tuple[Any, Any, Recorder],
) -> None:
    store1, store2, feed = two
    hub1 = Hub()
    anna = AppState(store1, lang="en")
    hub1.join(anna, "Anna's phone")
    boris = AppState(store2, lang="en")
    boris.device = "Boris's phone"
    new_match(boris)
    (created,) = [c for c in feed.sent if c.action == "new"]
    live.heard_elsewhere(store1, created, hub1.company)
    hub1.deliver(anna)
    assert anna.notice is not None and anna.notice.key == "new_match_news.home"
    assert anna.notice.args["device"] == "Boris's phone"
    assert anna.notice.args["players"] == "Anna — Boris"
