"""The club night's file kept by several processes at once (issue #24, ``--club --workers``):
every change is a locked read-modify-write, and every read sees another process's change at
once (ui/server/club_night.py)."""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from pathlib import Path
from typing import Any

from ui.server import club_night
from ui.server.roles import Role

TABLES_EACH = 30


def _worker(path: str, first_match: int, go: Any, done: Any) -> None:
    """A second process's changes: tables of its own, each abandoned and given its next
    match, as fast as it can, interleaved with the other process's."""
    night = club_night.start("192.0.2.5", 8550, path=Path(path), join=True)
    go.wait(10)
    for k in range(TABLES_EACH):
        table = night.add_table(first_match + k)
        night.abandon(table.number)
        night.next_match(table.number, first_match + 500 + k)
    done.put(os.getpid())


def test_two_processes_changing_the_night_at_once_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "club.json"
    club_night.start("192.0.2.5", 8550, path=path)  # the server's process makes the night
    ctx = multiprocessing.get_context("spawn")
    go, done = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(str(path), m, go, done)) for m in (1000, 2000)]
    for p in procs:
        p.start()
    time.sleep(1.0)  # both have read the night and wait
    go.set()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    assert done.qsize() == 2
    kept = json.loads(path.read_text())
    tables = kept["tables"]
    # every table of both processes, each with its own number, both its matches, abandoned
    # and then playing again: no change of one process was written over by the other's
    assert sorted(t["number"] for t in tables) == list(range(1, 2 * TABLES_EACH + 1))
    firsts = sorted(t["matches"][0] for t in tables)
    assert firsts == [*range(1000, 1000 + TABLES_EACH), *range(2000, 2000 + TABLES_EACH)]
    assert all(t["matches"] == [t["matches"][0], t["matches"][0] + 500] for t in tables)
    assert not any(t["abandoned"] for t in tables)
    assert len({t["scorer"] for t in tables} | {t["viewer"] for t in tables}) == 4 * TABLES_EACH
    assert path.stat().st_mode & 0o777 == 0o600
    assert not list(tmp_path.glob("*.tmp"))  # each writing renamed whole


def test_a_table_made_by_another_process_opens_its_links_here_at_once(tmp_path: Path) -> None:
    path = tmp_path / "club.json"
    here = club_night.start("192.0.2.5", 8550, path=path)
    there = club_night.start("192.0.2.5", 8550, path=path, join=True)  # another worker's copy
    assert here is not there and here.tables() == []
    table = there.add_table(7)
    # the gate's next request here: the new table's links open it, no restart, no wait
    assert here.grant_for(table.scorer) == club_night.Grant(Role.SCORER, 1)
    assert here.grant_for(table.viewer) == club_night.Grant(Role.VIEWER, 1)
    assert here.readable(1) == frozenset({7}) and here.writable(1) == 7
    # and what this process changes next keeps the other's table
    here.add_table(8)
    assert [t.number for t in there.tables()] == [1, 2]
    there.abandon(2)
    assert here.writable(2) is None  # a table stopped on another worker writes nothing here
    here.next_match(2, 9)
    assert there.writable(2) == 9 and there.readable(2) == frozenset({8, 9})


def test_each_writing_is_told_from_the_last_even_within_one_tick(tmp_path: Path) -> None:
    """The same size, the inode perhaps reused, within the clock's tick: the modification
    time still moves on, so one ``stat`` always tells a new writing."""
    path = tmp_path / "club.json"
    night = club_night.start("192.0.2.5", 8550, path=path)
    night.add_table(7)
    stamps = []
    for _ in range(20):
        night.abandon(1)
        stamps.append(path.stat().st_mtime_ns)
    assert stamps == sorted(set(stamps))


def test_a_worker_never_makes_a_new_night(tmp_path: Path) -> None:
    import pytest

    with pytest.raises(club_night.NoNightToJoin):
        club_night.start("192.0.2.5", 8550, path=tmp_path / "none.json", join=True)
    assert not (tmp_path / "none.json").exists()


def test_a_change_made_inside_another_holds_the_file_lock_throughout(tmp_path: Path) -> None:
    """A tournament's round is one change made of several (its tables, then the round): the
    night's file stays locked against other processes from its read to its last write, and
    the changes inside it do not wait on the lock their own process holds."""
    import fcntl

    import pytest

    path = tmp_path / "club.json"
    night = club_night.start("192.0.2.5", 8550, path=path)

    def locked_elsewhere() -> bool:
        fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # another open file: as a process
        except BlockingIOError:
            return True
        finally:
            os.close(fd)
        return False

    with night.changing():
        first = night.add_table(101)
        assert locked_elsewhere()  # still held after the inner change was written
        night.set_tournament({"round": 1, "tables": [first.number]})
        assert locked_elsewhere()
    assert not locked_elsewhere()
    kept = json.loads(path.read_text())
    assert [t["matches"] for t in kept["tables"]] == [[101]]
    assert kept["tournament"] == {"round": 1, "tables": [first.number]}
    with pytest.raises(RuntimeError), night.changing():
        raise RuntimeError("a change that fails")
    assert not locked_elsewhere()  # let go all the same
