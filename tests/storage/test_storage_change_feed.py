"""The change feed between server processes on one PostgreSQL database (issue 24): each write
is announced with NOTIFY at its commit, heard by every other store's listener (two stores
stand for two processes), never by its own; a refused write is never announced; a listener
whose connection is killed listens again and says that storage must be read again. SQLite
has no feed. PostgreSQL parts skip without BEZIQUE_TEST_POSTGRES_URL."""

from __future__ import annotations

import os
import queue
import time
from collections.abc import Iterator
from typing import Any

import pytest

from referee.storage import StaleWrite, Store
from referee.storage.change_feed import (
    PAYLOAD_LIMIT,
    Change,
    ChangeFeed,
    NoFeed,
    change_of,
    payload,
    ruling_from,
    ruling_obj,
)

PENALTY = {"type": "penalty", "player": "Anna", "offence": "P-REVOKE"}
PG_ENV = "BEZIQUE_TEST_POSTGRES_URL"
HEARD_WITHIN = 1.0  # the "within a second"


class Ear:
    """A store's listener, as a server process runs it: what it heard, when it resynced."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.heard: queue.Queue[Change] = queue.Queue()
        self.resyncs: queue.Queue[float] = queue.Queue()
        store.feed.listen(self.heard.put, lambda: self.resyncs.put(time.monotonic()))
        assert isinstance(store.feed, ChangeFeed)
        assert store.feed.listening.wait(5), "the listener never started listening"

    def next(self, timeout: float = HEARD_WITHIN) -> Change:
        return self.heard.get(timeout=timeout)

    def nothing(self, wait: float = 0.5) -> list[Change]:
        time.sleep(wait)
        out = []
        while not self.heard.empty():
            out.append(self.heard.get_nowait())
        return out


@pytest.fixture
def pg_url() -> str:
    """An empty PostgreSQL database (the feed is PostgreSQL's; SQLite's: tested below)."""
    import psycopg

    url = os.environ.get(PG_ENV)
    if not url:
        pytest.skip(f"PostgreSQL not configured: set {PG_ENV} (scripts/pg-test-server.sh)")
    with psycopg.connect(url.replace("+psycopg", "", 1), autocommit=True) as conn:
        conn.execute("DROP SCHEMA IF EXISTS public CASCADE")
        conn.execute("CREATE SCHEMA public")
    return url


@pytest.fixture
def two(pg_url: str) -> Iterator[tuple[Store, Store]]:
    a, b = Store.open(pg_url), Store.open(pg_url)
    try:
        yield a, b
    finally:
        a.close()
        b.close()


def test_a_write_through_one_store_is_heard_by_the_other_within_a_second_not_by_itself(
    two: tuple[Store, Store],
) -> None:
    a, b = two
    ear_a, ear_b = Ear(a), Ear(b)
    with a.feed.telling({"device": "Boris's phone", "number": 2, "host": False}):
        mid = a.create_match("two-hand", ["Anna", "Boris"], target=10**9)
    started = time.monotonic()
    new = ear_b.next()
    assert time.monotonic() - started < HEARD_WITHIN
    assert (new.match_id, new.position, new.action) == (mid, 0, "new")
    assert new.news == {"device": "Boris's phone", "number": 2, "host": False}
    assert new.origin == a.feed.origin != b.feed.origin

    a.start_deal(mid, "Anna", "9H", at=0)
    deal = ear_b.next()
    assert (deal.match_id, deal.position, deal.action, deal.deal) == (mid, 1, "deal", 1)

    ruling = a.record(mid, PENALTY, at=1)
    rec = ear_b.next()
    assert (rec.match_id, rec.position, rec.action) == (mid, 2, "record")
    assert rec.event == next(h for h in a.history(mid) if h.seq == 2).payload  # as stored
    assert rec.ruling is not None
    assert (rec.ruling.accepted, rec.ruling.rule, rec.ruling.points) == (
        ruling.accepted,
        ruling.rule,
        ruling.points,
    )
    assert rec.ruling.render("en") == ruling.render("en")

    # b's writes are heard by a, at the positions storage gave them
    assert b.undo(mid, at=2)
    undo = ear_a.next()
    assert (undo.match_id, undo.position, undo.action) == (mid, 3, "undo")
    assert b.redo(mid, at=3)
    assert (ear_a.next().action, b.log_position(mid)) == ("redo", 4)
    b.correct(mid, 2, None, at=4)
    corr = ear_a.next()
    assert (corr.position, corr.action) == (5, "correct")

    # nobody hears itself; and a hears nothing more of its own writes
    assert ear_a.nothing() == []
    assert [c.action for c in ear_b.nothing(0)] == []


def test_a_refused_write_is_never_announced(two: tuple[Store, Store]) -> None:
    a, b = two
    mid = a.create_match("two-hand", ["Anna", "Boris"], target=10**9)
    a.start_deal(mid, "Anna", "9H", at=0)
    ear_b = Ear(b)
    with pytest.raises(StaleWrite):
        a.record(mid, PENALTY, at=0)  # a stale view: rolled back, so no NOTIFY either
    a.record(mid, PENALTY, at=1)
    heard = ear_b.next()
    assert (heard.position, heard.action) == (2, "record")
    assert ear_b.nothing() == []


def test_a_killed_listener_listens_again_and_asks_for_a_read_of_storage(
    two: tuple[Store, Store],
    pg_url: str,
) -> None:
    import psycopg

    a, b = two
    ear_b = Ear(b)
    feed = b.feed
    assert isinstance(feed, ChangeFeed)
    killed = feed.backend_pid
    assert killed is not None
    plain = pg_url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(plain, autocommit=True) as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s)", (killed,)).fetchone() == (True,)
    # the write made while it is away is lost to it: the resync says "read storage"
    mid = a.create_match("two-hand", ["Anna", "Boris"], target=10**9)
    ear_b.resyncs.get(timeout=15)
    assert feed.listening.wait(5) and feed.backend_pid not in (None, killed)
    ear_b.nothing(0)  # the new match may or may not have been heard, by timing
    a.start_deal(mid, "Anna", "9H", at=0)  # and it hears again
    heard = ear_b.next()
    assert (heard.match_id, heard.position, heard.action) == (mid, 1, "deal")


def test_sqlite_has_no_feed(tmp_path: Any) -> None:
    with Store.open(tmp_path / "one.sqlite3") as store:
        assert type(store.feed) is NoFeed
        store.feed.listen(lambda c: pytest.fail("heard"), lambda: pytest.fail("resync"))
        with store.feed.telling({"device": "x"}):
            mid = store.create_match("two-hand", ["Anna", "Boris"])
        assert store.log_position(mid) == 0


def test_a_notice_over_the_payload_limit_leaves_the_entry_and_words_to_storage() -> None:
    from referee.rulings import accept

    ruling = accept("R-X", "some.key", {"who": "Anna"}, points=40, meld="bezique")
    small = Change(7, 3, "record", "o", 1, {"type": "x"}, ruling, {"device": "d"})
    back = change_of(payload(small))
    assert back is not None and back.event == {"type": "x"} and back.ruling == ruling
    big = Change(
        7,
        3,
        "undo",
        "o",
        1,
        {"type": "x", "pad": "é" * 9000},
        ruling,
        {"device": "d", "words": [ruling_obj(ruling)] * 200},
    )
    said = payload(big)
    assert len(said.encode()) <= PAYLOAD_LIMIT
    back = change_of(said)
    assert back is not None
    assert (back.match_id, back.position, back.action, back.event, back.ruling) == (
        7,
        3,
        "undo",
        None,
        None,
    )
    assert back.news == {"device": "d"}
    assert change_of("not json") is None
    assert ruling_from({"accepted": True}) is None
