"""Losses that leave a valid-looking database are noticed and said: a file that held matches
and is now 0 bytes, and a ``-wal`` deleted under a live writer (a log that ends before what was
acknowledged)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from storage_samples import sample_record

from referee.storage import Store

WRITER = """
import os, sys
from referee.storage import Store
path = sys.argv[1]
s = Store.open(path)
mid = s.create_match("two-hand", ["Anna", "Boris"])
s.start_deal(mid, "Anna", "9H")
for i in range(int(sys.argv[2])):
    s.record(mid, {"type": "penalty", "player": "Anna", "offence": "P-REVOKE"})
s.close()  # checkpointed into the file: these survive
s = Store.open(path)
s.record(mid, {"type": "penalty", "player": "Anna", "offence": "P-REVOKE"})
print("first", flush=True)
sys.stdin.readline()  # the test deletes the -wal here
for i in range(int(sys.argv[3])):
    s.record(mid, {"type": "penalty", "player": "Boris", "offence": "P-REVOKE"})
print("second", flush=True)
sys.stdin.readline()
"""


def test_a_database_emptied_to_zero_bytes_is_noticed(sqlite_path: Path) -> None:
    with Store.open(sqlite_path) as s:
        s.import_match(sample_record())
        s.import_match(sample_record())
    sqlite_path.write_bytes(b"")
    with Store.open(sqlite_path) as s:
        assert s.notice is not None
        assert "held 2 matches" in s.notice and "now holds none" in s.notice
        assert str(sqlite_path) in s.notice
    with Store.open(sqlite_path) as s:  # said once; the new state is what counts from now
        assert s.notice is None


def test_a_new_or_emptied_by_the_user_database_is_not_a_loss(sqlite_path: Path) -> None:
    with Store.open(sqlite_path) as s:
        assert s.notice is None
        mid = s.import_match(sample_record())
        s.delete_match(mid)
    with Store.open(sqlite_path) as s:
        assert s.notice is None


def test_a_wal_deleted_under_a_live_writer_is_noticed(sqlite_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(sqlite_path), "5", "7"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdin is not None
        assert proc.stdout.readline().strip() == "first"
        wal = sqlite_path.with_name(sqlite_path.name + "-wal")
        assert wal.exists()
        os.unlink(wal)
        proc.stdin.write("\n")
        proc.stdin.flush()
        assert proc.stdout.readline().strip() == "second"  # 7 more acknowledged
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    with Store.open(sqlite_path) as s:
        assert s.notice is not None, "acknowledged entries vanished without a word"
        assert "-wal" in s.notice and "missing" in s.notice
        assert len(s.history(1)) >= 6  # what was checkpointed is still there
