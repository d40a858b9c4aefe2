"""The peer score pad of issue 14 as bench_phone.py sees it: where its build is, how to reach
its scoring screen and which taps add a score, and the process that serves it.

The peer is any static web app built elsewhere (from its public source, outside this
repository); nothing here knows one app. Selectors that the benchmark times (``steps``,
``tap``, ``score``, ``undo``) are plain CSS for ``document.querySelector``, so that a tap is
dispatched inside the page exactly as this app's taps are; ``setup`` steps are not timed and
may use any Playwright selector.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "ui" / "e2e"))

from ui_e2e_harness import wait_serving  # type: ignore[import-not-found,unused-ignore]

HERE = Path(__file__).resolve().parent


@dataclass
class PeerSpec:
    """How to drive the peer (from bench_phone.py's ``--peer-*`` options)."""

    dir: Path
    ready: str  # shown once the first screen is there (the cold load's end is its pixels)
    tap: str  # the tap that adds a score
    score: str  # the element that shows the score the tap changes
    press: str = "click"  # or "hold": pointer down, held until the score changes, then up
    setup: list[Any] = field(default_factory=list)  # from the first screen to the scoring one
    steps: list[str] = field(default_factory=list)  # the peer's taps before ``tap`` in one score
    undo: str | None = None  # puts the score back after each sample (not timed)
    source: str = ""  # repository, commit and licence, recorded with the figures
    wait_ms: float = 0  # a delay the peer makes on purpose before it adds (from its source)

    def __post_init__(self) -> None:
        if self.press not in ("click", "hold"):
            raise ValueError(f"--peer-press: 'click' or 'hold', not {self.press!r}")
        if not (self.dir / "index.html").is_file():
            raise ValueError(f"--peer-dir {self.dir}: no index.html (give the built folder)")

    @staticmethod
    def json_list(option: str, text: str | None) -> list[Any]:
        """A JSON list from the command line, with the option named when it is not one."""
        if not text:
            return []
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{option}: not JSON ({exc})") from exc
        if not isinstance(value, list):
            raise ValueError(f"{option}: a JSON list of selectors, not {type(value).__name__}")
        return value


class PeerServer:
    """peer_server.py serving ``folder`` on 127.0.0.1 and a free port, in its own process."""

    def __init__(self, folder: Path, port: int, log: Path) -> None:
        self.folder, self.port, self.log = folder, port, log
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self, timeout: float = 30.0) -> None:
        self.log.write_text("", encoding="utf-8")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                str(HERE / "peer_server.py"),
                str(self.folder),
                str(self.port),
                str(self.log),
            ],
            stdout=subprocess.DEVNULL,
        )
        if wait_serving(self.url, timeout):
            return
        self.stop()
        raise RuntimeError(f"the peer server did not answer on {self.url}")

    def served_bytes(self) -> int:
        """Body bytes sent so far (every request, the service worker's included)."""
        total = 0
        for line in self.log.read_text(encoding="utf-8").splitlines():
            parts = line.split(" ", 2)
            if len(parts) >= 2 and parts[1].isdigit():
                total += int(parts[1])
        return total

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.proc = None
