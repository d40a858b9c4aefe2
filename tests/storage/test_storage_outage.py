"""What the screen says was saved, was saved: against a real PostgreSQL that is stopped and
started again, taps made while it is away are shown, marked unsaved, kept in order, written
once it is back, and the session carries on. A private server is started for this (stopping
the shared test server would break other runs)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pg_private import PrivatePostgres, private_postgres

from referee.events import Penalty, Seven
from referee.storage import StorageError, Store
from ui import backend
from ui.state.app import AppState
from ui.views.common import ViewContext
from ui.views.save_status import save_status


@pytest.fixture
def pg() -> Iterator[PrivatePostgres]:
    yield from private_postgres()


def _until(cond: Any, what: str, limit: float = 60.0) -> None:
    """Wait for a background effect (not a timed assertion: the limit only stops a hang)."""
    end = time.monotonic() + limit
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"still waiting for: {what}")
        time.sleep(0.05)


def _events(store: Store, mid: int) -> list[str]:
    return [str(e) for e in store.load_match(mid).current.events]


def test_taps_during_a_postgres_outage_are_kept_and_saved_when_it_is_back(
    pg: PrivatePostgres,
) -> None:
    store = Store.open(pg.url)
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    store.start_deal(mid, "Anna", "9H")
    session = backend.MatchSession(store, mid)
    session.record(Seven(0))
    session.flush()
    assert session.unsaved == 0

    pg.stop()  # the server dies
    shown = session.record(Seven(1))  # shown at once ...
    assert shown.accepted
    _until(lambda: session.storage_away is not None, "the writer noticing the outage")
    assert session.unsaved == 1  # ... but not marked saved
    session.record(Penalty(0, "P-REVOKE"))
    session.record(Penalty(1, "P-REVOKE"))
    assert session.unsaved == 3
    with pytest.raises(backend.StorageAway):
        session.undo()  # needs storage: refused, nothing lost, nothing reloaded
    assert session.unsaved == 3 and len(session.match.current.events) == 4

    pg.start()  # back
    _until(lambda: session.unsaved == 0, "the queued entries reaching the server")
    assert session.storage_away is None
    assert _events(store, mid) == [str(e) for e in session.match.current.events]
    assert [r.seq for r in store.history(mid)] == [1, 2, 3, 4, 5]  # each once, in order
    session.record(Seven(0))  # and the session carries on
    assert session.undo()
    session.close()
    assert len(store.history(mid)) == 7
    store.close()


def test_the_screen_says_entries_are_unsaved_while_postgres_is_away(
    pg: PrivatePostgres,
) -> None:
    store = Store.open(pg.url)
    app = AppState(store, lang="en")
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    store.start_deal(mid, "Anna", "9H")
    assert app.open_match(mid)
    ds = app.deal
    assert ds is not None
    pg.stop()
    view = ds.seven(0)
    assert view is not None and view.accepted
    session = app.session
    assert session is not None
    _until(lambda: session.storage_away is not None, "the writer noticing the outage")
    banners = save_status(ViewContext(app=app, page=None), session)  # type: ignore[arg-type]
    assert len(banners) == 1
    text = banners[0].content.content.value  # type: ignore[attr-defined]
    assert "Entries not saved yet: 1." in text
    app.home()  # leaving the screen while storage is away neither crashes nor drops the entry
    assert app.open_match(mid)  # the same session, its entry still queued
    assert app.session is session and session.unsaved == 1
    pg.start()
    _until(lambda: session.unsaved == 0, "the queued entry reaching the server")
    assert save_status(ViewContext(app=app, page=None), session) == []  # type: ignore[arg-type]
    assert len(store.history(mid)) == 2
    app.close()
    store.close()


def test_a_retry_after_a_lost_answer_never_writes_twice(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "db.sqlite3")
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    store.start_deal(mid, "Anna", "9H")
    real = store.record
    calls: list[int] = []

    def commit_then_lose_the_answer(*args: Any, **kw: Any) -> Any:
        calls.append(1)
        ruling = real(*args, **kw)
        if len(calls) == 1:
            raise StorageError("server closed the connection unexpectedly")
        return ruling

    store.record = commit_then_lose_the_answer  # type: ignore[method-assign]
    session = backend.MatchSession(store, mid)
    session.record(Seven(0))
    session.flush(timeout=30)
    assert len(calls) == 2  # retried ...
    assert [r.kind for r in store.history(mid)] == ["deal", "event"]  # ... stored once
    session.close()
    store.close()
