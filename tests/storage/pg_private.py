"""A throw-away PostgreSQL cluster on a free loopback port, for tests that stop and start the
server (the shared test server must never be stopped: other runs use it)."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

PG_BIN = Path("/usr/lib/postgresql/15/bin")
ROOT = os.geteuid() == 0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PrivatePostgres:
    """A throw-away PostgreSQL cluster on a free loopback port."""

    def __init__(self) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="bezique-pg-"))
        self.data = self.base / "data"
        self.port = _free_port()
        self.prefix = ["runuser", "-u", "postgres", "--"] if ROOT else []
        if ROOT:
            shutil.chown(self.base, "postgres", "postgres")
        self._run(PG_BIN / "initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres",
                  "--no-sync")
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: object) -> None:
        subprocess.run([*self.prefix, *map(str, args)], check=True, capture_output=True,
                       timeout=120)

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.base} -c listen_addresses=127.0.0.1"
        self._run(PG_BIN / "pg_ctl", "-D", self.data, "-o", opts, "-l", self.base / "log",
                  "-w", "start")

    def stop(self, mode: str = "immediate") -> None:
        self._run(PG_BIN / "pg_ctl", "-D", self.data, "-m", mode, "-w", "stop")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self.stop("fast")
        shutil.rmtree(self.base, ignore_errors=True)


def private_postgres() -> Iterator[PrivatePostgres]:
    """Generator for a fixture: a started private server, removed afterwards."""
    if not (PG_BIN / "initdb").exists():
        pytest.skip("PostgreSQL 15 server binaries not installed (scripts/system-deps.sh)")
    server = PrivatePostgres()
    server.start()
    try:
        yield server
    finally:
        server.remove()


