"""A new session's first screen waits for the updates that were ready before it, and new
sessions build one at a time (ui/first_builds.py): after a club worker died, forty phones
reconnecting to a survivor must not hold up the live tables' writes for seconds."""

from __future__ import annotations

import asyncio

from ui import first_builds


def test_updates_ready_before_a_first_build_go_first() -> None:
    order: list[str] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        loop.call_soon(order.append, "a table's update")
        async with first_builds.first_build():
            order.append("first screen")

    asyncio.run(main())
    assert order == ["a table's update", "first screen"]


def test_first_builds_take_turns_and_updates_made_meanwhile_go_between_them() -> None:
    order: list[str] = []

    async def session(name: str) -> None:
        async with first_builds.first_build():
            order.append(f"{name} starts")
            asyncio.get_running_loop().call_soon(order.append, f"update during {name}")
            order.append(f"{name} drawn")

    async def main() -> None:
        await asyncio.gather(session("a"), session("b"), session("c"))

    asyncio.run(main())
    assert order == [
        "a starts", "a drawn", "update during a",
        "b starts", "b drawn", "update during b",
        "c starts", "c drawn", "update during c",
    ]


def test_each_event_loop_has_its_own_turns() -> None:
    """A test (or a restarted server) on a new loop is not held by a lock of an old one."""
    done: list[int] = []

    async def main(n: int) -> None:
        async with first_builds.first_build():
            done.append(n)

    for n in range(2):
        asyncio.run(main(n))
    assert done == [0, 1]
