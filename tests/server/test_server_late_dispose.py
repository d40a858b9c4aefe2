"""ui/server/late_dispose.py: Flet's session handler lets go of its session only once the
app's main returned (a page gone while main awaited made Flet read a forgotten session, and
log a traceback, issue 22); every session's handler gets the same main, which Flet's shared
pubsub is keyed by."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace
from typing import Any

import pytest

from ui.server.late_dispose import LateDisposeApp, main_telling

DISPOSED = "Disposing FletApp"


def disposed(caplog: pytest.LogCaptureFixture) -> bool:
    return any(DISPOSED in r.getMessage() for r in caplog.records)


def test_a_handler_disposed_while_main_runs_lets_go_only_after_main_returned(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="flet_web.fastapi")

    async def scenario() -> None:
        started, release = asyncio.Event(), asyncio.Event()

        async def main(_page: Any) -> None:
            started.set()
            await release.wait()

        app = LateDisposeApp(
            loop=asyncio.get_running_loop(), executor=None, main=main, before_main=None
        )
        page = SimpleNamespace(session=SimpleNamespace(connection=app))

        async def as_flet_does() -> bool:
            await main_telling(main)(page)
            return disposed(caplog)  # where Flet's handler reads its session once more

        running = asyncio.create_task(as_flet_does())
        await started.wait()
        app.dispose()  # the page went while main awaited
        assert not disposed(caplog)
        release.set()
        assert await running is False
        await asyncio.sleep(0)
        assert disposed(caplog)

    asyncio.run(scenario())


def test_a_handler_whose_main_returned_is_disposed_at_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="flet_web.fastapi")

    async def main(_page: Any) -> None:
        return None

    async def scenario() -> None:
        app = LateDisposeApp(
            loop=asyncio.get_running_loop(), executor=None, main=main, before_main=None
        )
        await main_telling(main)(SimpleNamespace(session=SimpleNamespace(connection=app)))
        app.dispose()
        assert disposed(caplog)

    asyncio.run(scenario())


def test_every_sessions_handler_gets_the_same_main_so_they_share_one_pubsub() -> None:
    async def main(_page: Any) -> None:
        return None

    assert main_telling(main) is main_telling(main)


def test_a_plain_main_is_called_as_flet_calls_one(caplog: pytest.LogCaptureFixture) -> None:
    """Flet runs a main that is not a coroutine function by calling it; the wrapper is one,
    so Flet awaits it: awaiting the plain main's None raised, and the session showed Flet's
    "Error running app" over what main had drawn (the one-button benchmark app did)."""
    calls: list[Any] = []

    def main(page: Any) -> None:
        calls.append(page)

    async def scenario() -> None:
        app = LateDisposeApp(
            loop=asyncio.get_running_loop(), executor=None, main=main, before_main=None
        )
        page = SimpleNamespace(session=SimpleNamespace(connection=app))
        await main_telling(main)(page)
        assert calls == [page]
        app.dispose()  # main has returned: disposed at once
        assert disposed(caplog)

    caplog.set_level(logging.INFO, logger="flet_web.fastapi")
    asyncio.run(scenario())
