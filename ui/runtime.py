"""Where the app runs: a Python process beside Flet's server (desktop, web, table mode), or
the phone's browser on Pyodide (the phone build, ui/phone_app.py). Every difference between
the two that the rest of the app must know lives here, so no screen tests the platform.

- Threads: the browser has one. A write there runs at once, inline (SQLite on the in-memory
  file system takes well under a millisecond), instead of on a writer thread.
- Durability: in the browser a write is durable only once the file reached IndexedDB
  (ui/browser_storage.py); ``durability`` says how many entries are not there yet and why.
  On a server SQLite's commit is the durable step, so nothing waits.
- A server: table mode, join links, the server's warm-up at start exist only in a process.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any

IN_BROWSER = sys.platform == "emscripten"


class InlineExecutor(Executor):
    """``submit`` runs the job at once and returns its finished Future: the browser's single
    thread cannot hand work to another one."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return future


class DeferredExecutor(Executor):
    """``submit`` queues the job for the next turn of the event loop, in order: the browser's
    one thread first sends the screen's update, then writes (as the server's writer thread
    does beside it). ``settle`` runs what is queued at once, for a caller about to wait."""

    def __init__(self) -> None:
        self._jobs: list[tuple[Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]]]
        self._jobs = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        import asyncio

        future: Future[Any] = Future()
        self._jobs.append((future, fn, args, kwargs))
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop running (tests, start-up): now
            self.settle()
            return future
        # Two turns: the tap's handler woke Flet's update task after queueing this, so one
        # turn would write before that task sends the screen's update; two come after it.
        loop.call_soon(loop.call_soon, self.settle)
        return future

    def settle(self) -> None:
        while self._jobs:
            future, fn, args, kwargs = self._jobs.pop(0)
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as exc:
                future.set_exception(exc)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.settle()


def executor(name: str, *, deferred: bool = False) -> Executor:
    """One worker for jobs that must keep their order (the match's writes, opening storage).
    In the browser the jobs run on its one thread: at once, or (``deferred``) right after
    the current event's screen update went out."""
    if IN_BROWSER:
        return DeferredExecutor() if deferred else InlineExecutor()
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)


def settle(pool: Executor) -> None:
    """Before waiting for ``pool``'s jobs: in the browser, run the ones still queued (nothing
    else could run them while this thread waits); a thread pool needs nothing."""
    if isinstance(pool, DeferredExecutor):
        pool.settle()


class Durability:
    """Entries stored but not yet durable, and why (None: all durable). The server's is
    always durable; the browser's is replaced by ui/browser_storage.BrowserDurability."""

    pending = 0
    problem: str | None = None
    memory_only = False  # the browser refused storage: matches last as long as the page
    refusal = ""  # the browser's reason, when it refused

    def __init__(self) -> None:
        self._listeners: list[Callable[[], object]] = []

    def subscribe(self, listener: Callable[[], object]) -> Callable[[], None]:
        """``listener`` hears when ``pending`` or ``problem`` change; returns the unsubscribe."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def watch(self, engine: Any) -> None:
        """Told of the opened database's engine (the browser's syncs after its commits)."""

    def carry_files(self) -> None:
        """A file beside the database changed; the browser's durability carries it too."""

    def changed(self) -> None:
        for listener in list(self._listeners):
            listener()


durability: Durability = Durability()


def use_durability(d: Durability) -> None:
    """The phone build installs the browser's durability before the app opens storage."""
    global durability
    durability = d


# A server process warms the engine's data while the browser loads; in the browser the
# same work would only delay the first screen, so it happens when first needed.
WARM_UP_AT_OPEN = not IN_BROWSER
# Table mode (several phones on one match) needs a server process on the table's network.
TABLE_MODE_AVAILABLE = not IN_BROWSER
# A session can start behind an old session's screen only where a server restarted under an
# open page; in the phone's browser the page and its Python always start together (and
# clearing a screen that is not there costs the first screen a whole update).
STALE_SCREEN_POSSIBLE = not IN_BROWSER
