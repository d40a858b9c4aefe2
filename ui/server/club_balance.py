"""Phones moved back onto a club worker that was started again (issue #24).

When a worker dies mid-evening its phones reconnect to the same address and land on the
surviving workers; the supervisor starts the dead one again, but nothing would bring phones
back to it: the survivors carry them all for the rest of the night (measured: 80 phones on
one worker answered writes with a p95 of 1.7 s instead of 0.3 s on two). So:

- the supervisor (:class:`BalancingSupervisor`, uvicorn's ``Multiprocess``) waits until a
  worker it started again serves, then sends every other worker ``SIGUSR1``;
- a worker that gets it (:func:`listen`) closes the websockets of its share of phones
  (its count divided by the number of workers), viewers only (a scorer's tap made while
  its page reconnects would be lost; the director's screen stays), the idlest first and
  none that sent anything of its own for ``IDLE`` seconds, a few at a time, for up to
  three ``IDLE`` periods (the phones that reconnected to it after the death are busy
  reloading at first). Each page's client connects again to the same address; the kernel
  hands part of the new connections to the new worker, which opens the phone's table again
  as after a kill (a new session, bound by its cookie); a page that lands on its old worker
  resumes its session there (ui/server/stale_disconnect.py) and may be moved again.

Storage is the truth throughout: a phone moved shows its table's match as storage has it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import time
from collections.abc import Sequence
from typing import Any, Protocol

from ui.server import open_sockets
from ui.server.roles import Role

log = logging.getLogger(__name__)

IDLE = 10.0  # seconds without input from the page before it may be moved
BATCH = 4  # websockets closed at a time …
PAUSE = 0.25  # … this many seconds apart: the new worker opens their sessions meanwhile
SETTLE = 3.0  # seconds for the pages closed to connect again before counting again
SIGNAL = signal.SIGUSR1
READY_WAIT = 30.0  # seconds the supervisor waits for a worker started again to serve


class Idle(Protocol):
    last_input: float

    @property
    def role(self) -> str: ...


def to_move(sockets: Sequence[Idle], count: int, now: float) -> list[Idle]:
    """Up to ``count`` of these websockets to close: viewers only (a scorer's tap during
    the move would be lost, the director's screen is the director's), the idlest first,
    none that had input in the last ``IDLE`` seconds (a page still loading)."""
    idle = sorted(
        (s for s in sockets if s.role == Role.VIEWER and now - s.last_input >= IDLE),
        key=lambda s: s.last_input,
    )
    return list(idle[: max(0, count)])


async def move_share(workers: int) -> int:
    """Close this worker's websockets, a few at a time as they become idle, until it holds
    no more than its part of what it held (a worker that has none takes ``1 / workers`` of
    it), for up to three ``IDLE`` periods; returns how many were closed. A page the kernel
    handed back to this worker resumes its session here (no reload) and may be moved again
    once idle; phones that reconnected here a moment ago are busy reloading at first."""
    if workers < 2:
        return 0
    held = len(open_sockets.held())
    target = held - held // workers
    moved = 0
    deadline = time.monotonic() + 3 * IDLE
    settled = False
    while time.monotonic() < deadline:
        excess = len(open_sockets.held()) - target
        if excess <= 0:
            if settled:
                break
            # the pages just closed connect again within a second or two, here or on the
            # new worker: count again once they have
            await asyncio.sleep(SETTLE)
            settled = True
            continue
        settled = False
        batch = to_move(open_sockets.held(), min(BATCH, excess), time.monotonic())
        for sock in batch:
            try:
                await sock.close_for_move()  # type: ignore[attr-defined]
            except Exception:  # already gone: nothing to move
                log.debug("a websocket closed before its move", exc_info=True)
        moved += len(batch)
        await asyncio.sleep(PAUSE if batch else 1.0)
    if moved:
        log.warning(
            "closed %d websockets for a worker started again; %d held now",
            moved,
            len(open_sockets.held()),
        )
    return moved


def listen(workers: int) -> None:
    """In a worker, inside its running event loop: on the supervisor's signal, move this
    worker's share of phones."""
    loop = asyncio.get_running_loop()
    tasks: set[asyncio.Task[int]] = set()

    def moved() -> None:
        task = loop.create_task(move_share(workers))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    loop.add_signal_handler(SIGNAL, moved)


def supervisor(config: Any, sockets: list[Any]) -> Any:
    """uvicorn's supervisor that also tells the other workers when it started one again."""
    from uvicorn.supervisors import Multiprocess

    class BalancingSupervisor(Multiprocess):  # type: ignore[misc]
        def keep_subprocess_alive(self) -> None:
            before = {p.pid for p in self.processes}
            super().keep_subprocess_alive()
            for process in [p for p in self.processes if p.pid not in before]:
                # a worker builds the whole app first: longer than a health check allows
                timeout = max(float(self.config.timeout_worker_healthcheck), READY_WAIT)
                if not process.wait_until_ready(timeout, self.should_exit):
                    continue
                for other in self.processes:
                    if other is not process and other.pid is not None:
                        with contextlib.suppress(ProcessLookupError):
                            os.kill(other.pid, SIGNAL)

    return BalancingSupervisor(config, sockets=sockets)
