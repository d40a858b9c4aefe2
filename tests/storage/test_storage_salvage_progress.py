"""A salvage says how far it got (a 13 MB file takes many seconds): rows read out of the file,
then matches replayed; the command line prints it on stderr about once a second."""

from __future__ import annotations

import io
from pathlib import Path

from test_storage_salvage import _bad_log_page, _bezique, _database

from referee.storage import Store
from referee.storage.progress import READ, REPLAY, WRITE, Every, Progress, to_stream
from referee.storage.salvage import salvage


def test_salvage_reports_rows_read_then_matches_replayed(sqlite_path: Path, tmp_path: Path) -> None:
    _database(sqlite_path)
    _bad_log_page(sqlite_path)
    seen: list[Progress] = []
    report = salvage(sqlite_path, tmp_path / "out.sqlite3", seen.append)
    reads = [p for p in seen if p.phase == READ]
    writes = [p for p in seen if p.phase == WRITE]
    replays = [p for p in seen if p.phase == REPLAY]
    assert reads and writes and replays
    # reading, then checking and copying each match, then replaying
    assert seen.index(reads[-1]) < seen.index(writes[0])
    assert seen.index(writes[-1]) < seen.index(replays[0])
    assert writes[-1].done == writes[-1].total
    done = [p.done for p in reads]
    assert done == sorted(done) and done[-1] > 0
    assert all(0 < p.done <= p.total for p in reads)
    assert reads[-1].done == reads[-1].total  # reading is said to be over
    assert all(p.pages * 4096 == sqlite_path.stat().st_size for p in reads)
    assert [p.done for p in replays] == sorted(p.done for p in replays)
    assert replays[-1].done == replays[-1].total >= report.matches


def test_salvage_at_open_reports_progress(sqlite_path: Path) -> None:
    _database(sqlite_path)
    _bad_log_page(sqlite_path)
    seen: list[Progress] = []
    with Store.open(sqlite_path, progress=seen.append) as s:
        assert s.notice is not None and "Recovered" in s.notice
    assert {p.phase for p in seen} == {READ, WRITE, REPLAY}


def test_progress_is_passed_on_about_once_a_second() -> None:
    now = [0.0]
    passed: list[Progress] = []
    every = Every(passed.append, seconds=1.0, clock=lambda: now[0])
    for step in range(1, 81):  # 80 reports over 2.5 s of reading (exact binary fractions)
        now[0] = step / 32
        every(Progress(READ, step * 10, 2000, 50))
    assert [p.done for p in passed] == [10, 330, 650]  # the first, then one a second
    every(Progress(REPLAY, 1, 3))  # a new phase is shown at once
    every(Progress(REPLAY, 3, 3))  # and so is its end
    every(Progress(REPLAY, 3, 3))  # once
    assert [(p.phase, p.done) for p in passed[3:]] == [(REPLAY, 1), (REPLAY, 3)]


def test_progress_lines_say_what_and_how_far() -> None:
    out = io.StringIO()
    sink = to_stream(out)
    sink(Progress(READ, 12345, 99300, 3170))
    sink(Progress(READ, 99153, 99153, 3170))
    sink(Progress(WRITE, 300, 300))
    sink(Progress(REPLAY, 300, 300))
    lines = out.getvalue().splitlines()
    assert lines == [
        "salvage: 12,345 of about 99,300 rows read (3,170 pages in the file)",
        "salvage: 99,153 rows read (3,170 pages in the file)",
        "salvage: 300 of 300 matches checked and copied",
        "salvage: 300 of 300 matches replayed and rebuilt",
    ]


def test_cli_salvage_prints_progress_on_stderr(sqlite_path: Path, tmp_path: Path) -> None:
    _database(sqlite_path)
    _bad_log_page(sqlite_path)
    res = _bezique("salvage", str(sqlite_path), "-o", str(tmp_path / "out.sqlite3"))
    assert res.returncode == 0, res.stderr
    lines = res.stderr.splitlines()
    assert any("rows read" in line and "pages in the file" in line for line in lines)
    assert any("matches replayed" in line for line in lines)
    assert "salvage:" not in res.stdout  # the report stays on stdout, progress on stderr
    # A reading command given the damaged file salvages it too, and says so as it goes.
    res = _bezique("matches", "--db", str(sqlite_path))
    assert res.returncode == 0, res.stderr
    assert "rows read" in res.stderr
