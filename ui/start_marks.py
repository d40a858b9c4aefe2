"""Moments of a session's first screen, for benchmarks/bench_offline.py: the phone build logs
them to the browser's console (ui/phone_app.py installs its logger); elsewhere they cost a
call that does nothing."""

from __future__ import annotations

from collections.abc import Callable

_sink: Callable[[str], None] | None = None


def use(sink: Callable[[str], None]) -> None:
    """Log every later mark with ``sink``."""
    global _sink
    _sink = sink


def mark(name: str) -> None:
    """One moment, by name (bench_offline.MARKS lists them in order)."""
    if _sink is not None:
        _sink(name)
