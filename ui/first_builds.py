"""New sessions build their first screen one at a time, after the work already waiting.

When a club worker dies, its forty phones reconnect to a surviving worker within a second,
and each new session replays its match and builds its whole first screen: about 0.1 s of
the process's one thread each. Started together, those builds all queued ahead of the live
tables: a write made in the first five seconds after the kill reached its table's other
phones after 2 s (median; benchmarks/club_night_bench.py). Taken one at a time, each after a
yield to the event loop, every update that became ready meanwhile goes first: a write waits
for one build at most, and the reconnected phones get their screens in the same total time.
One session alone (a laptop's table, the phone build) waits for nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator

# One gate per event loop (a lock belongs to the loop it first waited on; tests run many).
_GATES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
    weakref.WeakKeyDictionary()
)


@contextlib.asynccontextmanager
async def first_build() -> AsyncIterator[None]:
    """Hold the process's turn for a new session's first screen: the callbacks that were
    ready before it (other sessions' updates, taps) run first."""
    loop = asyncio.get_running_loop()
    gate = _GATES.get(loop)
    if gate is None:
        gate = _GATES[loop] = asyncio.Lock()
    async with gate:
        await asyncio.sleep(0)  # what became ready during the build before this one
        yield
