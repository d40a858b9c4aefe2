"""The trace reading of benchmarks/trace_frames.py (issue 14): each marked tap's stages come
from the events that follow it in order (its send, the update, the next main frame, that
frame's raster, the first composite after the raster), and a tap the trace lost is skipped
rather than paired with another tap's events."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from trace_frames import RASTER_THREAD, frame_stages

MAIN, WORKER, VIZ = 1, 2, 3


def _meta() -> list[dict[str, Any]]:
    names = {MAIN: "CrRendererMain", WORKER: RASTER_THREAD, VIZ: "VizCompositorThread"}
    return [
        {"ph": "M", "name": "thread_name", "pid": 7, "tid": t, "args": {"name": n}}
        for t, n in names.items()
    ]


def _x(name: str, tid: int, ts: float, dur: float) -> dict[str, Any]:
    return {"ph": "X", "name": name, "pid": 7, "tid": tid, "ts": ts, "dur": dur}


def _i(name: str, ts: float, message: str | None = None) -> dict[str, Any]:
    args = {"data": {"message": message}} if message else {"data": {}}
    return {"ph": "I", "name": name, "pid": 7, "tid": MAIN, "ts": ts, "args": args}


def _tap(at: float) -> list[dict[str, Any]]:
    """A tap at ``at`` µs: send +1 ms, update +11 ms, frame +18 ms (10 ms), raster +28 ms
    (9 ms), a composite before the raster ends (not the one) and one after it."""
    return [
        _i("TimeStamp", at, "bench-tap"),
        _i("WebSocketSend", at + 1000),
        _i("WebSocketReceive", at + 11000),
        _x("ProxyMain::BeginMainFrame", MAIN, at + 18000, 10000),
        _x("ThreadControllerImpl::RunTask", WORKER, at + 28000, 9000),
        _x("Display::DrawAndSwap", VIZ, at + 30000, 2000),
        _x("Display::DrawAndSwap", VIZ, at + 40000, 4000),
    ]


def test_each_marked_tap_reads_its_own_stages_in_order() -> None:
    events = _meta() + _tap(0) + _tap(500_000)
    stages = frame_stages({"traceEvents": events})
    assert len(stages) == 2
    for s in stages:
        assert s == {
            "server": 10.0,
            "vsync_wait": 7.0,
            "main_frame": 10.0,
            "raster": 9.0,
            "drawn": 43.0,  # send at 1 ms → the composite after the raster ends at 44 ms
        }


def test_other_marks_and_threads_are_not_taps() -> None:
    events = _meta() + _tap(0)
    events.append(_i("TimeStamp", 200_000, "someone else's mark"))
    # a raster task on another thread must not be taken for the worker's
    events.append(_x("ThreadControllerImpl::RunTask", VIZ, 18_500, 1000))
    stages = frame_stages(events)
    assert len(stages) == 1 and stages[0]["raster"] == 9.0


def test_a_tap_without_its_update_is_skipped() -> None:
    events = [*_meta(), _i("TimeStamp", 0, "bench-tap"), _i("WebSocketSend", 1000)]
    assert frame_stages(events) == []
    # lost in the middle: the next tap's update is not taken for it
    events = [*_meta(), _i("TimeStamp", 0, "bench-tap"), _i("WebSocketSend", 1000), *_tap(300_000)]
    stages = frame_stages(events)
    assert len(stages) == 1 and stages[0]["server"] == 10.0
