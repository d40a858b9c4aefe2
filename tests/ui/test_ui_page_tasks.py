"""ui/page_tasks.py: work for a page's loop, for a page that may have gone (issue 22). A
page without a connection gets no task and no coroutine is made for it; a task whose page
went on the way ends quietly; a task of a page still there fails as loudly as before."""

from __future__ import annotations

import asyncio
import gc
import threading
import warnings
from concurrent.futures import Future
from types import SimpleNamespace
from typing import Any

import pytest

from ui import page_tasks


class Page:
    """A Flet page as page_tasks sees it: its session's connection (with the loop) or None,
    and ``run_task`` as Flet's (the coroutine on the connection's loop)."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None) -> None:
        connection = SimpleNamespace(loop=loop) if loop is not None else None
        self.session = SimpleNamespace(connection=connection)
        self.futures: list[Future[Any]] = []

    def go(self) -> None:
        self.session.connection = None

    def run_task(self, handler: Any, *args: Any) -> Future[Any]:
        loop = self.session.connection.loop  # Flet's: fails on a page that has gone
        future = asyncio.run_coroutine_threadsafe(handler(*args), loop)
        self.futures.append(future)
        return future


@pytest.fixture
def loop() -> Any:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield loop
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)
    loop.close()


def test_a_page_that_has_gone_gets_no_task_and_no_unawaited_coroutine(loop: Any) -> None:
    page = Page(loop)
    page.go()
    made: list[str] = []

    async def save() -> None:
        made.append("ran")

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "coroutine ... was never awaited" would be one
        assert page_tasks.run_task(page, save) is False
        gc.collect()
    assert made == [] and page.futures == []
    assert page_tasks.run_task(SimpleNamespace(), save) is False  # no session at all


def test_a_connected_page_runs_the_task_on_its_loop_from_another_thread(loop: Any) -> None:
    page = Page(loop)
    ran: list[object] = []
    done = threading.Event()

    async def note(value: int) -> None:
        ran.append((value, asyncio.get_running_loop() is loop))
        done.set()

    assert page_tasks.run_task(page, note, 7) is True
    assert done.wait(5)
    assert ran == [(7, True)]


def test_a_task_whose_page_went_on_the_way_ends_quietly_and_one_still_there_fails(
    loop: Any,
) -> None:
    async def fails() -> None:
        raise AttributeError("'NoneType' object has no attribute 'loop'")

    gone = Page(loop)

    async def goes_then_fails() -> None:
        gone.go()
        await fails()

    assert page_tasks.run_task(gone, goes_then_fails)
    there = Page(loop)
    assert page_tasks.run_task(there, fails)
    for page in (gone, there):
        deadline = loop.time() + 5
        while not page.futures and loop.time() < deadline:
            threading.Event().wait(0.01)
    assert gone.futures[0].exception(5) is None
    assert isinstance(there.futures[0].exception(5), AttributeError)
