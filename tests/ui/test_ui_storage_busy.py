"""The app meets a busy database (another program holds its lock): it says so and tries again
until the database opens, instead of starting empty or showing an error page."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from referee.storage.errors import DatabaseBusyError
from ui import shell


class _Page:
    def __init__(self) -> None:
        self.controls: list[Any] = []
        self.shown: list[str] = []

    def add(self, control: Any) -> None:
        self.controls.append(control)

    def update(self) -> None:
        self.shown.extend(_text(c) for c in self.controls)


def _text(control: Any) -> str:
    """The words a control shows (a text, or the texts inside a container or column)."""
    if hasattr(control, "value") and isinstance(control.value, str):
        return str(control.value)
    inner = getattr(control, "content", None)
    if inner is not None:
        return _text(inner)
    return " ".join(_text(c) for c in getattr(control, "controls", []) or [])


class _Opener:
    def __init__(self, busy_times: int) -> None:
        self.busy_times = busy_times
        self.tries = 0

    def store(self) -> Any:
        self.tries += 1
        if self.tries <= self.busy_times:
            raise DatabaseBusyError("bezique.sqlite3 is in use by another program")
        return "the store"

    def retry(self) -> None:
        pass


def _run(coro: Any) -> Any:
    out: list[Any] = []
    t = threading.Thread(target=lambda: out.append(asyncio.run(coro)))  # Playwright-safe
    t.start()
    t.join()
    return out[0]


def test_a_busy_database_is_announced_and_retried_until_it_opens(monkeypatch: Any) -> None:
    monkeypatch.setattr(shell, "BUSY_RETRY_SECONDS", 0.01)
    page, opener = _Page(), _Opener(busy_times=2)
    store = _run(shell._open_waiting_while_busy(page, opener, "en"))  # type: ignore[arg-type]
    assert store == "the store" and opener.tries == 3
    assert any("in use by another program" in s for s in page.shown)
    assert page.controls == []  # the message is gone once the database opened


def test_an_unreachable_database_server_is_announced_and_retried(monkeypatch: Any) -> None:
    from referee.storage.errors import DatabaseUnreachableError

    class _Down(_Opener):
        def store(self) -> Any:
            self.tries += 1
            if self.tries <= self.busy_times:
                raise DatabaseUnreachableError("cannot reach postgresql://club: refused")
            return "the store"

    monkeypatch.setattr(shell, "BUSY_RETRY_SECONDS", 0.01)
    page, opener = _Page(), _Down(busy_times=1)
    assert _run(shell._open_waiting_while_busy(page, opener, "en")) == "the store"  # type: ignore[arg-type]
    assert any("server is not answering" in s for s in page.shown)


def test_a_salvage_at_start_shows_how_far_it_got_instead_of_a_blank_page(
    monkeypatch: Any,
) -> None:
    from referee.storage.progress import READ, REPLAY, Progress

    monkeypatch.setattr(shell, "PROGRESS_POLL_SECONDS", 0.01)
    steps = [Progress(READ, 5000, 99300, 3170), Progress(REPLAY, 120, 300)]
    page = _Page()

    class _Salvaging(_Opener):
        """Opens slowly, reporting progress as Store.open does while it salvages; each step
        waits until the page has shown the one before."""

        progress: Any = None

        def store(self) -> Any:
            for step in steps:
                self.progress = step
                while not any(str(step.done) in s for s in page.shown):
                    threading.Event().wait(0.01)
            return "the store"

    opener = _Salvaging(busy_times=0)
    assert _run(shell._open_waiting_while_busy(page, opener, "en")) == "the store"  # type: ignore[arg-type]
    assert any("damaged" in s and "Rows read: 5000 of about 99300" in s for s in page.shown)
    assert any("Matches rebuilt: 120 of 300" in s for s in page.shown)
    assert page.controls == []  # gone once the database is open
