"""Crash safety: a writer killed with SIGKILL at random moments never loses an acknowledged
write, never corrupts the file, and the match always replays."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from referee.storage import Store
from referee.storage.log import Entry, derive

KILLS = int(os.environ.get("BEZIQUE_CRASH_KILLS", "24"))  # more for a stress run
WRITER = Path(__file__).with_name("crash_writer.py")


def _acks(out: Path) -> tuple[int | None, int, list[tuple[int, str, str]]]:
    """The match id, how many entries the writer found at its start, and its acks."""
    text = out.read_text()
    complete = text[: text.rfind("\n") + 1]  # a line cut by the kill is not an ack
    match_id: int | None = None
    found = 0
    acks: list[tuple[int, str, str]] = []
    for line in complete.splitlines():
        parts = line.split()
        if parts[0] == "ready":
            match_id = int(parts[1])
            found = int(parts[2])
        elif parts[0] == "ack":
            acks.append((int(parts[1]), parts[2], parts[3]))
    return match_id, found, acks


def _wait_ready(out: Path, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if out.exists() and "ready" in out.read_text():
            return
        if proc.poll() is not None:
            raise AssertionError(f"writer exited early with {proc.returncode}")
        time.sleep(0.01)
    raise AssertionError("writer never became ready")


def _wait_acks(out: Path, proc: subprocess.Popen[bytes], n: int, timeout: float = 60) -> None:
    """Until the writer acknowledged ``n`` writes: on a loaded machine a fixed sleep may give it
    no time to write at all, and the test would check nothing."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if out.exists() and out.read_text().count("\nack ") >= n:
            return
        if proc.poll() is not None:
            raise AssertionError(f"writer exited early with {proc.returncode}")
        time.sleep(0.01)
    raise AssertionError(f"writer acknowledged fewer than {n} writes in {timeout} s")


def test_sigkill_never_loses_an_acknowledged_write(tmp_path: Path) -> None:
    rng = random.Random(int(os.environ.get("BEZIQUE_CRASH_SEED", "0")) or None)
    db = tmp_path / "crash.sqlite3"
    env = dict(os.environ)
    env.pop("BEZIQUE_DATABASE_URL", None)
    repo = Path(__file__).resolve().parents[2]
    env["PYTHONPATH"] = os.pathsep.join([str(repo), env.get("PYTHONPATH", "")])
    acked: dict[int, tuple[str, str]] = {}
    match_id: int | None = None
    total_acks = 0
    least = 0  # the acknowledged writes the rounds waited for
    rows_before = 0
    for round_ in range(KILLS):
        out = tmp_path / f"out-{round_}.txt"
        with out.open("wb") as fh:
            proc = subprocess.Popen(
                [sys.executable, str(WRITER), str(db)], stdout=fh, stderr=subprocess.PIPE, env=env
            )
            try:
                if round_ % 6 == 5:
                    time.sleep(rng.uniform(0.0, 0.6))  # sometimes while it is still opening
                else:
                    _wait_ready(out, proc)
                    wanted = rng.randint(5, 20)
                    least += wanted
                    _wait_acks(out, proc, wanted)
                    time.sleep(rng.uniform(0.0, 0.2))  # then anywhere in a later write
            finally:
                proc.send_signal(signal.SIGKILL)
                _, err = proc.communicate(timeout=30)
        assert proc.returncode == -signal.SIGKILL, err.decode()[-2000:]
        mid, found, acks = _acks(out)
        if mid is not None and round_ > 0:
            assert found == rows_before, "a writer starts from exactly what is stored"
        if mid is not None:
            assert match_id in (None, mid)
            match_id = mid
        for seq, kind, who in acks:
            acked[seq] = (kind, who)
        total_acks += len(acks)

        # The file is intact and every acknowledged entry is there, as acknowledged.
        conn = sqlite3.connect(db)
        try:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            rows = conn.execute(
                "SELECT seq, kind, payload, target_seq FROM log_entry ORDER BY seq"
            ).fetchall()
        finally:
            conn.close()
        seqs = [r[0] for r in rows]
        assert seqs == list(range(1, len(rows) + 1))
        by_seq = {r[0]: r for r in rows}
        for seq, (kind, who) in acked.items():
            assert seq in by_seq, f"acknowledged entry {seq} was lost"
            assert by_seq[seq][1] == kind
            if kind in ("event", "correct"):
                assert json.loads(by_seq[seq][2])["player"] == who
        # Of this writer's work at most the one write in flight at the kill may be there
        # unacknowledged (what earlier writers left unacknowledged it found at its start).
        floor = max([rows_before, found, *(seq for seq, _, _ in acks)])
        assert len(rows) - floor <= 1
        rows_before = len(rows)

        # The match replays.
        if match_id is not None and rows:
            state = derive(Entry(r[0], r[1], r[3]) for r in rows)
            store = Store.open(db)
            try:
                assert store.notice is None
                m = store.load_match(match_id)
                events = sum(len(d.events) for d in m.deals)
                edits = sum(1 for r in rows if r[0] in state.effective and r[1] == "correct")
                assert events + len(m.deals) == len(state.effective) - edits
                assert store.cached_scores(match_id) == [list(d.scores()) for d in m.deals]
            finally:
                store.close()
    print(f"{KILLS} kills, {total_acks} acknowledged writes, {len(acked)} entries checked")
    assert total_acks >= least > 0, "the writer should have written plenty"
    assert any(kind == "correct" for kind, _ in acked.values()), "corrections were killed too"
