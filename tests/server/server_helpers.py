"""Raw HTTP and websocket handshakes against a real app server on 127.0.0.1, with any Host and
Origin a hostile page could send (a client library would fix them up for us)."""

from __future__ import annotations

import base64
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
E2E = ROOT / "tests" / "ui" / "e2e"
if str(E2E) not in sys.path:
    sys.path.insert(0, str(E2E))


@dataclass
class RawResponse:
    status: int
    headers: dict[str, str]
    body: bytes


def raw_request(
    port: int,
    path: str = "/",
    *,
    host: str | None = None,
    headers: dict[str, str] | None = None,
    method: str = "GET",
    read_body: bool = True,
) -> RawResponse:
    """One HTTP/1.1 request to 127.0.0.1:``port`` with exactly these headers."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    lines += ["Connection: close", "", ""]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall("\r\n".join(lines).encode("latin-1"))
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
            if not read_body and b"\r\n\r\n" in data:
                break
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    parsed = {}
    for line in header_lines:
        k, _, v = line.partition(":")
        parsed[k.strip().lower()] = v.strip()
    return RawResponse(int(status_line.split()[1]), parsed, body)


def websocket_handshake(
    port: int,
    *,
    host: str | None = None,
    origin: str | None = None,
    cookie: str | None = None,
    path: str = "/ws",
) -> RawResponse:
    """The opening handshake of the app's websocket; 101 means a Flet session could start."""
    headers = {
        "Upgrade": "websocket",
        "Sec-WebSocket-Key": base64.b64encode(os.urandom(16)).decode(),
        "Sec-WebSocket-Version": "13",
    }
    if origin is not None:
        headers["Origin"] = origin
    if cookie is not None:
        headers["Cookie"] = cookie
    lines = [f"GET {path} HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    lines += ["Connection: Upgrade", "", ""]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall("\r\n".join(lines).encode("latin-1"))
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    parsed = {}
    for line in header_lines:
        k, _, v = line.partition(":")
        parsed[k.strip().lower()] = v.strip()
    return RawResponse(int(status_line.split()[1]), parsed, body)


TABLE_ADDRESS = "127.0.0.2"  # a loopback alias stands in for the LAN address: no traffic leaves


class TableServer:
    """``python -m ui.main --table --table-address 127.0.0.2`` on a free port; its join links
    are read from what it prints."""

    def __init__(
        self,
        db_url: str,
        port: int,
        log_path: Path,
        state: Path,
        extra: tuple[str, ...] = (),
        lang: str | None = "en",  # None: each device's own choice, as `--table` alone
        env: dict[str, str] | None = None,  # more of the server's environment
    ) -> None:
        self.db_url, self.port, self.log_path = db_url, port, log_path
        self.state, self.extra, self.lang = state, extra, lang
        self.env = dict(env or {})
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def device_url(self) -> str:
        return f"http://{TABLE_ADDRESS}:{self.port}/"

    @property
    def host_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self, timeout: float = 60.0) -> None:
        env = dict(os.environ, FLET_FORCE_WEB_SERVER="1", PYTHONUNBUFFERED="1")
        env["BEZIQUE_WEB_PRECOMPRESS"] = "off"
        env["BEZIQUE_TABLE_STATE"] = str(self.state)
        env.update(self.env)
        env.pop("DISPLAY", None)
        cmd = [sys.executable, "-m", "ui.main", "--table", "--table-address", TABLE_ADDRESS]
        cmd += ["--port", str(self.port), "--db", self.db_url, *self.extra]
        if self.lang is not None:
            cmd += ["--lang", self.lang]
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"table server exited: {self.log_path.read_text()}")
            try:
                if raw_request(self.port).status == 200:
                    return
            except OSError:
                time.sleep(0.1)
        raise TimeoutError("table server did not answer")

    def link(self, role: str) -> str:
        label = {"scorer": "Scorer link: ", "viewer": "Viewer link: "}[role]
        for line in self.log_path.read_text().splitlines():
            if line.startswith(label):
                return line[len(label) :].strip()
        raise AssertionError(f"no {role} link printed")

    def secret(self, role: str) -> str:
        return self.link(role).split("k=", 1)[1]

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
            self.proc = None


def device_request(port: int, path: str = "/", cookie: str | None = None) -> RawResponse:
    """A request as a phone on the network makes it: to the table address."""
    headers = {"Cookie": cookie} if cookie else {}
    return raw_request_to(TABLE_ADDRESS, port, path, headers=headers)


def raw_request_to(
    address: str, port: int, path: str = "/", headers: dict[str, str] | None = None
) -> RawResponse:
    headers = {"Host": f"{address}:{port}", **(headers or {})}
    lines = [f"GET {path} HTTP/1.1"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    lines += ["Connection: close", "", ""]
    with socket.create_connection((address, port), timeout=10) as s:
        s.sendall("\r\n".join(lines).encode("latin-1"))
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    parsed: dict[str, str] = {}
    for line in header_lines:
        k, _, v = line.partition(":")
        parsed.setdefault(k.strip().lower(), v.strip())
    return RawResponse(int(status_line.split()[1]), parsed, body)


def device_handshake(port: int, cookie: str | None, origin: str | None = None) -> RawResponse:
    """The app's websocket handshake from a phone: to the table address, its own origin."""
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        "GET /ws HTTP/1.1",
        f"Host: {TABLE_ADDRESS}:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
        f"Origin: {origin or f'http://{TABLE_ADDRESS}:{port}'}",
    ]
    if cookie:
        lines.append(f"Cookie: {cookie}")
    with socket.create_connection((TABLE_ADDRESS, port), timeout=10) as s:
        s.sendall(("\r\n".join([*lines, "", ""])).encode("latin-1"))
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    status_line = data.split(b"\r\n", 1)[0].decode("latin-1")
    return RawResponse(int(status_line.split()[1]), {}, b"")


class ClubServer:
    """``python -m ui.main --club --workers N --club-address 127.0.0.2`` on PostgreSQL, with
    the night given (its tables' secrets fixed, so a test names them) written first."""

    def __init__(
        self, db_url: str, port: int, tmp: Path, night: dict[str, object], workers: int = 2
    ) -> None:
        self.db_url, self.port, self.tmp = db_url, port, tmp
        self.night, self.workers = night, workers
        self.state = tmp / "club-night.json"
        self.log_path = tmp / "club-server.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 90.0) -> None:
        import json

        self.state.write_text(json.dumps(self.night))
        env = dict(os.environ, FLET_FORCE_WEB_SERVER="1", PYTHONUNBUFFERED="1")
        env["BEZIQUE_WEB_PRECOMPRESS"] = "off"
        env["BEZIQUE_CLUB_STATE"] = str(self.state)
        env.pop("DISPLAY", None)
        cmd = [sys.executable, "-m", "ui.main", "--club", "--club-address", TABLE_ADDRESS]
        cmd += ["--workers", str(self.workers), "--port", str(self.port), "--db", self.db_url]
        cmd += ["--lang", "en"]
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"club server exited: {self.log_path.read_text()}")
            if len(self.worker_pids()) == self.workers:
                try:
                    if raw_request(self.port).status == 200:
                        return
                except OSError:
                    pass
            time.sleep(0.2)
        raise TimeoutError("club server did not answer")

    def worker_pids(self) -> list[int]:
        """The worker processes serving now (uvicorn's spawned children, not its
        resource tracker)."""
        if self.proc is None:
            return []
        pids = []
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in children:
                try:
                    cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
                except OSError:
                    continue
                if b"spawn_main" in cmdline:
                    pids.append(int(child))
        return sorted(pids)

    def cookie(self, secret: str) -> str:
        """The cookie a phone gets for a join link (through whichever worker answers)."""
        joined = raw_request_to(TABLE_ADDRESS, self.port, f"/?k={secret}")
        assert joined.status == 303, joined
        return joined.headers["set-cookie"].split(";", 1)[0]

    @property
    def phone_address(self) -> str:
        return f"{TABLE_ADDRESS}:{self.port}"

    def stop(self) -> None:
        if self.proc is not None:
            workers = self.worker_pids()
            self.proc.terminate()  # uvicorn's supervisor stops its workers
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
            for pid in workers:  # none left behind, even when the supervisor was killed
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            self.proc = None
