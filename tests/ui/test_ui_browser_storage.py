"""The phone build's durability (ui/browser_storage.py), driven without a browser: a fake
``FS.syncfs`` whose callback the test calls as the browser would."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from ui import browser_storage, runtime
from ui.browser_storage import BrowserDurability


class FakeFS:
    """Records each sync; ``finish(err)`` calls its callback as IndexedDB would."""

    def __init__(self) -> None:
        self.calls: list[Any] = []

    def syncfs(self, populate: bool, callback: Any) -> None:
        assert populate is False  # writing back, never reading over the live file
        self.calls.append(callback)


@pytest.fixture
def durability(monkeypatch: pytest.MonkeyPatch) -> BrowserDurability:
    monkeypatch.setattr(browser_storage, "mode", lambda: "idbfs")
    return BrowserDurability(FakeFS())


async def _turn() -> None:
    for _ in range(3):
        await asyncio.sleep(0)


def test_a_commit_is_unsaved_until_the_browser_confirms_the_sync(
    durability: BrowserDurability,
) -> None:
    async def scenario() -> None:
        fs = durability._fs
        durability.committed()
        assert durability.pending == 1
        await _turn()
        assert len(fs.calls) == 1  # one sync started
        fs.calls[0](None)  # JavaScript's null: done
        await _turn()
        assert durability.pending == 0 and durability.problem is None

    asyncio.run(scenario())


def test_commits_during_a_sync_are_carried_by_the_next_one(
    durability: BrowserDurability,
) -> None:
    async def scenario() -> None:
        fs = durability._fs
        durability.committed()
        await _turn()
        durability.committed()
        durability.committed()
        await _turn()
        assert len(fs.calls) == 1  # never two syncs at once
        fs.calls[0](None)
        await _turn()
        assert durability.pending == 2 and len(fs.calls) == 2
        fs.calls[1](None)
        await _turn()
        assert durability.pending == 0

    asyncio.run(scenario())


def test_a_failed_sync_is_shown_and_retried_and_nothing_counts_as_saved(
    durability: BrowserDurability, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(browser_storage, "RETRY_SECONDS", 0.01)
    told: list[str | None] = []
    durability.subscribe(lambda: told.append(durability.problem))

    async def scenario() -> None:
        fs = durability._fs
        durability.committed()
        await _turn()
        fs.calls[0]("QuotaExceededError")
        await _turn()
        assert durability.pending == 1
        assert durability.problem == "QuotaExceededError"
        await asyncio.sleep(0.05)
        assert len(fs.calls) == 2  # retried
        fs.calls[1](None)
        await _turn()
        assert durability.pending == 0 and durability.problem is None

    asyncio.run(scenario())
    assert told == ["QuotaExceededError", None]


def test_a_browser_that_refuses_storage_is_memory_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser_storage, "mode", lambda: "memory")
    monkeypatch.setattr(browser_storage, "refusal", lambda: "SecurityError")
    d = BrowserDurability(FakeFS())
    assert d.memory_only and d.problem == "memory" and d.refusal == "SecurityError"
    d.committed()
    assert d.pending == 0 and d._fs.calls == []  # nothing to sync to


def test_a_session_counts_browser_unsaved_entries_and_says_why(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MatchSession (ui/backend.py) adds the browser's unconfirmed entries to its own."""
    from ui import backend

    class Pending(runtime.Durability):
        pending = 2
        problem = "slow"

    store = backend.open_store(f"sqlite:///{tmp_path / 'b.sqlite3'}")
    monkeypatch.setattr(runtime, "durability", Pending())
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    session = backend.MatchSession(store, mid)
    assert session.unsaved == 2
    assert session.storage_away == "slow"


def test_the_inline_executor_runs_at_once_and_keeps_exceptions() -> None:
    ex = runtime.InlineExecutor()
    assert ex.submit(lambda x: x + 1, 1).result() == 2
    failed = ex.submit(lambda: 1 / 0)
    assert failed.done() and isinstance(failed.exception(), ZeroDivisionError)


def test_javascript_null_from_the_sync_is_success_not_an_error() -> None:
    """Pyodide hands JavaScript's null to Python as ``jsnull``: not None, falsy, "jsnull"."""

    class JsNull:
        def __bool__(self) -> bool:
            return False

        def __str__(self) -> str:
            return "jsnull"

    assert browser_storage._error_text(JsNull()) is None
    assert browser_storage._error_text(None) is None
    assert browser_storage._error_text("QuotaExceededError") == "QuotaExceededError"


def test_deferred_writes_run_after_the_current_turn_in_order_or_when_settled() -> None:
    """The browser's writer: a tap's screen update goes out first, its write right after;
    a caller about to wait (flush) runs what is queued at once."""
    ran: list[int] = []

    async def scenario() -> None:
        ex = runtime.DeferredExecutor()
        first = ex.submit(ran.append, 1)
        second = ex.submit(ran.append, 2)
        assert ran == [] and not first.done()  # not during the event's own turn
        await _turn()
        assert ran == [1, 2] and first.done() and second.done()
        third = ex.submit(ran.append, 3)
        runtime.settle(ex)
        assert ran == [1, 2, 3] and third.done()

    asyncio.run(scenario())


def test_a_deferred_write_waits_for_the_update_its_handler_woke() -> None:
    """As Flet runs a tap: the handler queues the write, then wakes the task that sends the
    screen's update (an event it waits on); the update goes out before the write."""
    said: list[str] = []

    async def scenario() -> None:
        ready = asyncio.Event()

        async def sender() -> None:
            await ready.wait()
            said.append("update sent")

        task = asyncio.create_task(sender())
        await asyncio.sleep(0)  # the sender waits, as Flet's scheduler does
        ex = runtime.DeferredExecutor()
        ex.submit(said.append, "written")  # the handler: the entry's write...
        ready.set()  # ...then the state change wakes the update
        await task
        for _ in range(3):
            await asyncio.sleep(0)
        assert said == ["update sent", "written"]

    asyncio.run(scenario())


def test_a_settings_file_is_carried_to_indexeddb_without_counting_as_an_entry(
    durability: BrowserDurability,
) -> None:
    async def scenario() -> None:
        fs = durability._fs
        durability.carry_files()
        await _turn()
        assert len(fs.calls) == 1 and durability.pending == 0  # synced, not "not saved"
        durability.carry_files()  # changed again while that sync runs: one more follows
        await _turn()
        assert len(fs.calls) == 1
        fs.calls[0](None)
        await _turn()
        assert len(fs.calls) == 2
        fs.calls[1](None)
        await _turn()
        assert len(fs.calls) == 2 and durability.problem is None

    asyncio.run(scenario())
