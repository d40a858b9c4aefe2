"""A phone without a browser: Flet 1.0.5's web client as its websocket speaks it, for
benchmarks (and tests) with more phones than Chromium can run on this machine.

What it does, as the web client does (flet_web/fastapi/flet_app.py is the server's side;
the client's is Flet's Dart ``Control.applyPatch`` and its backend):

- opens ``/ws`` with the phone's cookie and the page's ``Origin``, sends ``REGISTER_CLIENT``
  (the page's route, size, platform; the session id it was given before, if any) and keeps
  the page the server answers with as its control tree;
- applies every ``PATCH_CONTROL`` to that tree (the patch's path table, then its replace /
  add / remove / move operations, exactly as the Dart client does), so what it "shows" is
  what a browser would draw;
- answers every ``INVOKE_METHOD`` (preferences, device info, wake lock: nothing; a
  ``push_route`` moves its address, as a browser's does);
- keeps the app's own frame that follows each drawing (``[127, "match:position"]``,
  ui/server/painted.py) from the tree and sends the last one back in front of each frame,
  as the page's script (ui/server/js/painted.js) does: the server judges a tap by it;
- taps a control as a finger does through the accessibility tree: the first control with a
  click handler inside the ``Semantics`` node of that identifier (ui/views/common.py
  ``tagged``) gets a ``CONTROL_EVENT`` "click";
- when its websocket drops it opens a new one to the same address and registers again with
  its session id (Flet's client retries); a server that no longer knows the session (a
  restarted server, another worker) starts a new one for the page's address, whose page
  replaces the tree (the page's script reloads the page in that case; the new session is
  the same: the cookie binds it, the address names the match).

What it does not do: draw. Its times are "received by the phone's websocket and applied to
its tree", never "painted" (bench_table.py measures painting in Chromium).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

REGISTER_CLIENT, PATCH_CONTROL, CONTROL_EVENT, UPDATE_CONTROL_PROPS = 1, 2, 3, 4
INVOKE_METHOD, SESSION_CRASHED = 5, 6
MARK = 0x7F  # the app's frame after a drawing (ui/server/painted.py)
SEEN = 0x02  # what the screen showed, in front of each frame sent
REPLACE, ADD, REMOVE, MOVE = 0, 1, 2, 3
PHONE_PAGE = {"width": 390.0, "height": 844.0, "platform": "android", "web": True}


def _ext(code: int, data: bytes) -> Any:
    """Flet's msgpack extensions (dates, times, durations) as plain values."""
    if code in (1, 2, 4):
        return data.decode("utf-8")
    if code == 3:
        return int.from_bytes(data, "big", signed=True) if data else 0
    return msgpack.ExtType(code, data)


def decode(frame: bytes) -> Any:
    return msgpack.unpackb(frame, ext_hook=_ext, strict_map_key=False, raw=False)


def is_control(value: Any) -> bool:
    return isinstance(value, dict) and "_c" in value


def controls(node: Any) -> Iterator[dict[str, Any]]:
    """Every control under ``node`` (itself first), depth first, in the tree's order."""
    stack = [node]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if "_c" in value:
                yield value
            stack.extend(reversed(list(value.values())))
        elif isinstance(value, list):
            stack.extend(reversed(value))


class Tree:
    """The page as the client holds it: controls are dicts with ``_c`` (type) and ``_i``
    (id), their properties beside them."""

    def __init__(self, page: dict[str, Any]) -> None:
        self.page = page
        self.index: dict[int, dict[str, Any]] = {}
        self._add(page)

    def _add(self, value: Any) -> None:
        for c in controls(value):
            if "_i" in c:
                self.index[int(c["_i"])] = c

    def patch(self, target: int, patch: list[Any]) -> None:
        """Flet's ``Control.applyPatch`` on the control ``target``."""
        root = self.index.get(target)
        if root is None:
            raise KeyError(f"patch for control {target}, which this page does not have")
        paths: dict[int, list[Any]] = {}

        def walk(node: list[Any], path: list[Any]) -> None:
            paths[int(node[0])] = path
            if len(node) > 1 and isinstance(node[1], dict):
                for key, child in node[1].items():
                    walk(child, [*path, key])

        walk(patch[0], [])

        def target_of(n: int) -> Any:
            obj: Any = root
            for part in paths[n]:
                obj = obj[part]
            return obj

        for op in patch[1:]:
            kind = op[0]
            if kind == REPLACE:
                obj = target_of(op[1])
                obj[op[2]] = op[3]
                self._add(op[3])
            elif kind == ADD:
                obj = target_of(op[1])
                if isinstance(obj, list):
                    obj.insert(op[2], op[3])
                else:
                    obj[op[2]] = op[3]
                self._add(op[3])
            elif kind == REMOVE:
                obj = target_of(op[1])
                if isinstance(obj, list):
                    obj.pop(op[2])
                else:
                    obj.pop(op[2], None)
            elif kind == MOVE:
                src, dst = target_of(op[1]), target_of(op[3])
                if isinstance(src, list):
                    dst.insert(op[4], src.pop(op[2]))
                else:
                    dst[op[4]] = src.pop(op[2])
            else:
                raise ValueError(f"unknown patch operation {op!r}")

    # --- reading it as a person reads the screen ---------------------------------------
    def tagged(self, identifier: str) -> dict[str, Any] | None:
        """The ``Semantics`` node of ``identifier`` (the first in the tree's order)."""
        for c in controls(self.page):
            if c.get("identifier") == identifier:
                return c
        return None

    def identifiers(self) -> list[str]:
        return [str(c["identifier"]) for c in controls(self.page) if c.get("identifier")]

    def text(self, identifier: str) -> str | None:
        """Every text shown under ``identifier`` (its label, its texts' values), or None
        when it is not on the screen."""
        node = self.tagged(identifier)
        if node is None:
            return None
        parts = []
        for c in controls(node):
            for key in ("value", "text"):
                if isinstance(c.get(key), str):
                    parts.append(c[key])
        if not parts and isinstance(node.get("label"), str):
            parts.append(node["label"])
        return " ".join(parts)

    def all_text(self) -> str:
        parts = []
        for c in controls(self.page):
            for key in ("value", "text", "label"):
                if isinstance(c.get(key), str):
                    parts.append(c[key])
        return " ".join(parts)

    def tappable(self, identifier: str) -> int | None:
        """The id of the control a tap on ``identifier`` reaches (its first with a click
        handler), or None when there is none on the screen."""
        node = self.tagged(identifier)
        if node is None:
            return None
        for c in controls(node):
            if c.get("on_click") and not c.get("disabled"):
                return int(c["_i"])
        return None


@dataclass
class Phone:
    """One phone's page on the server ``address`` (host:port) with its ``cookie``."""

    address: str
    cookie: str | None
    route: str = "/"
    name: str = ""
    tree: Tree | None = None
    session_id: str | None = None
    worker: str | None = None  # the X-Bezique-Worker that accepted the websocket
    mark: str | None = None  # what the server last said this screen shows
    sessions: list[str] = field(default_factory=list)  # every session id it was given
    workers: list[str] = field(default_factory=list)  # every worker it was on
    crashed: str | None = None
    reconnects: int = 0
    refused: str | None = None  # why the last attempt to connect again failed, if it did
    registered: bool = False  # the server answered this websocket's REGISTER_CLIENT
    misread: str | None = None  # a frame this client could not apply (its tree may be off)
    closed: bool = False
    on_mark: Callable[[Phone, str, float], None] | None = None  # (phone, label, received at)
    on_frame: Callable[[Phone, float], None] | None = None  # after each frame (received at)
    _ws: ClientConnection | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    _task: asyncio.Task[None] | None = None
    _registered: asyncio.Event = field(default_factory=asyncio.Event)

    # --- the websocket -------------------------------------------------------------------
    async def open(self, timeout: float = 60.0) -> None:
        """Connect and register; returns once the server answered with the page."""
        self._registered.clear()
        await self._connect()
        self._task = asyncio.create_task(self._run())
        await asyncio.wait_for(self._registered.wait(), timeout)

    async def _connect(self) -> None:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        self._ws = await connect(
            f"ws://{self.address}/ws",
            origin=f"http://{self.address}",  # type: ignore[arg-type]
            additional_headers=headers,
            open_timeout=20,
            max_size=None,
            ping_interval=None,  # Flet's client sends no pings either
            compression=None,
        )
        response = self._ws.response
        self.registered = False
        self.worker = response.headers.get("x-bezique-worker") if response else None
        if self.worker:
            self.workers.append(self.worker)
        page = {**PHONE_PAGE, "route": self.route}
        body = {"session_id": self.session_id, "page_name": "", "page": page}
        await self._send(REGISTER_CLIENT, body)

    async def _run(self) -> None:
        """Receive until closed; a dropped websocket is opened again (with backoff),
        as Flet's client does, until ``close``."""
        wait = 0.5
        while not self.closed:
            try:
                assert self._ws is not None
                async for frame in self._ws:
                    if isinstance(frame, bytes):
                        try:
                            self._received(frame)
                        except Exception as error:  # kept for the test's message, then on
                            self.misread = f"{type(error).__name__}: {error}"[:300]
                    wait = 0.5
            except ConnectionClosed:
                pass
            if self.closed:
                return
            while not self.closed:  # the server is away: try again
                await asyncio.sleep(wait)
                try:
                    self.reconnects += 1
                    await self._connect()
                    self.refused = None
                    break
                except Exception as error:  # Flet's client retries on any failure too
                    # refused, reset, timed out, or closed mid-handshake by a worker that
                    # died: the page's client tries again, and so does this one
                    self.refused = f"{type(error).__name__}: {error}"
                    wait = min(wait * 2, 4.0)

    def _received(self, frame: bytes) -> None:
        at = time.monotonic()
        if frame[:1] != b"\x00":
            return  # a data channel's frame: nothing of this app's
        action, body = decode(frame[1:])
        if action == MARK:
            self.mark = body or ""
            if self.on_mark is not None:
                self.on_mark(self, self.mark, at)
        elif action == REGISTER_CLIENT:
            if body.get("error"):
                self.crashed = str(body["error"])
            if self.session_id is not None and str(body["session_id"]) != self.session_id:
                # a new session (a restarted server, another worker): its page is loaded
                # afresh, so the page's script knows no drawing of it yet
                self.mark = None
            self.session_id = str(body["session_id"])
            self.sessions.append(self.session_id)
            self.registered = True
            if is_control(body.get("page_patch")):
                self.tree = Tree(body["page_patch"])
            self._registered.set()
        elif action == PATCH_CONTROL:
            if self.tree is not None:
                self.tree.patch(int(body["id"]), body["patch"])
        elif action == INVOKE_METHOD:
            if body.get("name") == "push_route":
                self.route = str((body.get("args") or {}).get("route") or self.route)
            answer = {"control_id": body["control_id"], "call_id": body["call_id"]}
            answer |= {"result": None, "error": None}
            asyncio.get_running_loop().create_task(self._send(INVOKE_METHOD, answer))
        elif action == SESSION_CRASHED:
            self.crashed = str(body.get("message") if isinstance(body, dict) else body)
        if self.on_frame is not None:
            self.on_frame(self, at)
        self._changed.set()

    async def _send(self, action: int, body: Any) -> None:
        ws = self._ws
        if ws is None:
            return
        with contextlib.suppress(ConnectionClosed):
            if self.mark is not None:
                await ws.send(bytes([SEEN]) + self.mark.encode("utf-8"))
            await ws.send(b"\x00" + msgpack.packb([action, body]))

    async def close(self) -> None:
        self.closed = True
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    # --- a person's hands and eyes -------------------------------------------------------
    async def tap(self, identifier: str, timeout: float = 30.0) -> float:
        """Tap ``identifier`` once it is on the screen; returns when the tap was sent
        (``time.monotonic``)."""
        target = await self.wait(lambda t: t.tappable(identifier), timeout, f"tap {identifier}")
        at = time.monotonic()
        await self._send(CONTROL_EVENT, {"target": target, "name": "click", "data": None})
        return at

    async def wait(self, probe: Callable[[Tree], Any], timeout: float = 30.0,
                   what: str = "") -> Any:
        """``probe(tree)`` once it gives something (not None/False), drawing by drawing."""
        deadline = time.monotonic() + timeout
        while True:
            if self.tree is not None:
                got = probe(self.tree)
                if got is not None and got is not False:
                    return got
            left = deadline - time.monotonic()
            if left <= 0:
                shown = self.tree.identifiers() if self.tree is not None else []
                raise TimeoutError(
                    f"{self.name}: {what or 'wait'} at {self.route}: {shown}; "
                    f"{self.reconnects} reconnects, refused {self.refused}, "
                    f"misread {self.misread}, crashed {self.crashed}"
                )
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(left, 1.0))

    def shows(self) -> tuple[int, int] | None:
        """The match and log position this screen shows, as the server last said; None
        while a websocket opened again is not yet answered (the worker that will answer
        may not know the session)."""
        if not self.registered or not self.mark:
            return None
        match, _, position = self.mark.partition(":")
        return int(match), int(position)
