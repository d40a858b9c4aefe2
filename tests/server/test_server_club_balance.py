"""Which phones a club worker moves onto a worker started again (ui/server/club_balance.py):
the idlest first, never one with input in the last IDLE seconds, never more than asked; and
the websocket wrapper that knows when its page last sent something of its own."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from ui.server import club_balance, open_sockets
from ui.server.club_balance import IDLE, to_move


@dataclass
class Sock:
    name: str
    last_input: float
    role: str = "viewer"


def test_the_idlest_phones_move_first_up_to_the_count() -> None:
    now = 1000.0
    socks = [Sock(f"p{k}", now - IDLE - k) for k in range(6)]  # p5 the idlest
    moved = to_move(socks, 3, now)
    assert [s.name for s in moved] == ["p5", "p4", "p3"]  # type: ignore[attr-defined]
    assert to_move(socks, 0, now) == [] and len(to_move(socks, 10, now)) == 6


def test_a_phone_with_recent_input_never_moves() -> None:
    now = 1000.0
    busy = [Sock("loading", now - 1), Sock("resized", now - IDLE + 0.5)]
    idle = [Sock("viewer", now - 3 * IDLE)]
    assert [s.name for s in to_move([*busy, *idle], 3, now)] == ["viewer"]  # type: ignore[attr-defined]


def test_only_viewers_move_never_a_scorer_or_the_director() -> None:
    """A scorer's tap made while its page reconnects would be lost."""
    now = 1000.0
    socks = [
        Sock("scorer", 0.0, "scorer"),
        Sock("director", 0.0, "director"),
        Sock("host", 0.0, "host"),
        Sock("viewer", now - IDLE, "viewer"),
    ]
    assert [s.name for s in to_move(socks, 4, now)] == ["viewer"]  # type: ignore[attr-defined]


class Socket:
    """A websocket as Starlette gives it: frames to receive, a close that is remembered, the
    role the server gave the device in its scope."""

    def __init__(self, frames: list[bytes], role: str = "viewer") -> None:
        self.frames = frames
        self.closed_with: int | None = None
        self.scope = {"bezique.role": role}

    async def receive_bytes(self) -> bytes:
        return self.frames.pop(0)

    async def close(self, code: int = 1000) -> None:
        self.closed_with = code


def test_a_held_socket_counts_what_its_page_sends_and_closes_for_a_move() -> None:
    inner = Socket([b"\x00tap"])
    sock = open_sockets.HeldSocket(inner)
    assert sock in open_sockets.held()
    before = sock.last_input
    assert asyncio.run(sock.receive_bytes()) == b"\x00tap"
    assert sock.last_input >= before
    asyncio.run(sock.close_for_move())
    assert inner.closed_with == open_sockets.GOING_AWAY
    assert sock not in open_sockets.held()  # being closed: not chosen again


def test_a_worker_moves_its_share_of_idle_phones_and_none_when_alone(monkeypatch: Any) -> None:
    inner = [Socket([]) for _ in range(7)] + [Socket([], "scorer")]
    socks = [open_sockets.HeldSocket(i) for i in inner]
    for k, s in enumerate(socks):
        s.last_input -= IDLE + k
    socks[6].last_input = time.monotonic()  # just connected: busy
    monkeypatch.setattr(club_balance, "PAUSE", 0.0)
    monkeypatch.setattr(club_balance, "SETTLE", 0.0)
    assert asyncio.run(club_balance.move_share(1)) == 0
    moved = asyncio.run(club_balance.move_share(2))  # 8 held: a share of 4, viewers only
    assert moved == 4
    assert [i.closed_with for i in inner] == [None, None, 1012, 1012, 1012, 1012, None, None]
    assert socks[-1].role == "scorer" and socks[0].role == "viewer"
    for s in socks:
        s.closing = True  # out of the process's list for the other tests
