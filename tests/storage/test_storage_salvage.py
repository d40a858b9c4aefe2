"""Damage gives back what it holds: one bad page or a cut-off tail costs only the rows on it.
The damaged original is kept byte for byte, derived tables are rebuilt from the log, and the
user is told how many matches and entries came back and which did not."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from storage_samples import sample_record

from referee.storage import StorageError, Store
from referee.storage.salvage import salvage

MATCHES = 60


def _database(path: Path) -> dict[int, dict[str, object]]:
    """A database of MATCHES imported matches plus one played live; returns the records."""
    s = Store.open(path)
    for i in range(MATCHES):
        rec = sample_record(deals=1 + i % 3)
        rec["players"] = ["Anna", f"B{i}"]
        for d in rec["deals"]:
            d["dealer"] = "Anna"
            for ev in d["events"]:
                for key in ("player", "winner"):
                    if ev.get(key) == "Boris":
                        ev[key] = f"B{i}"
                if "counts" in ev:
                    ev["counts"] = {"Anna": 9, f"B{i}": 7}
        s.import_match(rec)
    records = {m.id: s.export_match(m.id) for m in s.list_matches()}
    s.close()
    return records


def _pages(path: Path, name: str, leaf: bool = True) -> list[int]:
    conn = sqlite3.connect(path)
    try:
        kind = "leaf" if leaf else "internal"
        return [
            int(r[0])
            for r in conn.execute(
                "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = ? ORDER BY pageno",
                (name, kind),
            )
        ]
    finally:
        conn.close()


def _scribble(path: Path, page: int) -> None:
    data = bytearray(path.read_bytes())
    size = 4096
    off = (page - 1) * size
    data[off : off + size] = b"\xa5" * size
    path.write_bytes(bytes(data))


def _entries(records: dict[int, dict[str, object]]) -> int:
    return sum(
        len(d["events"]) + 1  # type: ignore[arg-type]
        for r in records.values()
        for d in r["deals"]  # type: ignore[attr-defined]
    )


def _bad_index_page(path: Path) -> None:
    _scribble(path, _pages(path, "sqlite_autoindex_log_entry_1")[0])


def _bad_cache_page(path: Path) -> None:
    _scribble(path, _pages(path, "meld_score")[0])


def _bad_log_page(path: Path) -> None:
    pages = _pages(path, "log_entry")
    _scribble(path, pages[len(pages) // 2])


def _one_byte_cut(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:-1])


def _check_against_replay(s: Store) -> None:
    for m in s.list_matches():
        replayed = s.load_match(m.id)
        assert len(s.cached_scores(m.id)) == len(replayed.deals)


@pytest.mark.parametrize(
    ("damage", "whole"),
    [(_bad_index_page, True), (_bad_cache_page, True), (_bad_log_page, False),
     (_one_byte_cut, True)],
)
def test_damage_is_salvaged_not_thrown_away(
    sqlite_path: Path, damage: Callable[[Path], None], whole: bool
) -> None:
    records = _database(sqlite_path)
    damage(sqlite_path)
    damaged_bytes = sqlite_path.read_bytes()
    with Store.open(sqlite_path) as s:
        assert s.notice is not None
        kept = re.search(r"kept as (\S+\.corrupt-[\d-]+)", s.notice)
        assert kept, s.notice
        found = re.search(r"Recovered (\d+) matches with (\d+) log entries", s.notice)
        assert found, s.notice
        matches = s.list_matches()
        assert int(found.group(1)) == len(matches)
        entries = sum(len(s.history(m.id)) for m in matches)
        assert int(found.group(2)) == entries
        if whole:
            assert len(matches) == len(records)
            assert "Nothing was lost" in s.notice
            for m in matches:
                assert s.export_match(m.id) == records[m.id]
        else:
            assert entries >= 0.9 * _entries(records)
            assert "Not recovered: match" in s.notice
            intact = [m for m in matches if s.export_match(m.id) == records[m.id]]
            assert len(intact) >= len(records) - 6
        _check_against_replay(s)
        assert s.player_stats()
    kept_file = sqlite_path.with_name(kept.group(1))
    assert kept_file.read_bytes() == damaged_bytes


def test_the_report_names_what_was_not_recovered(sqlite_path: Path, tmp_path: Path) -> None:
    records = _database(sqlite_path)
    _bad_log_page(sqlite_path)
    report = salvage(sqlite_path, tmp_path / "out.sqlite3")
    assert report.lost or report.lost_matches
    assert report.entries < _entries(records)
    for mid, lost in report.lost.items():
        assert f"match {mid}: entries " in report.sentence()
        assert sum(b - a + 1 for a, b in lost) + len(
            [1 for a, b in report.kept[mid] for _ in range(a, b + 1)]
        ) == _entries({mid: records[mid]})


def _bezique(*args: str) -> subprocess.CompletedProcess[str]:
    code = "import sys; from referee.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120,
        env=dict(os.environ),
    )


def test_cli_salvage_and_export_read_a_kept_file(sqlite_path: Path, tmp_path: Path) -> None:
    records = _database(sqlite_path)
    _bad_index_page(sqlite_path)
    kept = tmp_path / "bezique.sqlite3.corrupt-20261201-101010"
    sqlite_path.rename(kept)
    before = kept.read_bytes()
    res = _bezique("export", "--all", "-o", str(tmp_path / "all.zip"), "--db", str(kept))
    assert res.returncode == 0, res.stderr
    assert f"{len(records)} matches written" in res.stderr
    assert "Recovered" in res.stderr
    res = _bezique("salvage", str(kept))
    assert res.returncode == 0, res.stderr
    out = Path(str(kept) + ".salvaged.sqlite3")
    assert f"Recovered {len(records)} matches" in res.stdout + res.stderr
    assert kept.read_bytes() == before
    with Store.open(out) as s:
        assert len(s.list_matches()) == len(records)
    res = _bezique("salvage", str(kept))
    assert res.returncode == 2 and "already exists" in res.stderr


def test_a_file_with_nothing_of_ours_is_reported_as_such(tmp_path: Path) -> None:
    bad = tmp_path / "x.sqlite3"
    bad.write_bytes(b"\x00garbage" * 1000)
    report = salvage(bad, tmp_path / "out.sqlite3")
    assert not report.readable
    assert "Nothing" in report.sentence()
    with pytest.raises(StorageError, match="already exists"):
        salvage(bad, tmp_path / "out.sqlite3")


def test_kept_log_rows_are_what_was_recorded(sqlite_path: Path, tmp_path: Path) -> None:
    _database(sqlite_path)
    conn = sqlite3.connect(sqlite_path)
    before = {
        (r[0], r[1]): r[2] for r in conn.execute("SELECT match_id, seq, payload FROM log_entry")
    }
    conn.close()
    _bad_log_page(sqlite_path)
    salvage(sqlite_path, tmp_path / "out.sqlite3")
    conn = sqlite3.connect(tmp_path / "out.sqlite3")
    after = {
        (r[0], r[1]): r[2] for r in conn.execute("SELECT match_id, seq, payload FROM log_entry")
    }
    conn.close()
    assert after and all(before[k] == v for k, v in after.items())
    assert json.loads(next(iter(v for v in after.values() if v)))


def test_corrections_and_deletions_come_back_as_they_counted(sqlite_path: Path) -> None:
    s = Store.open(sqlite_path)
    mid = s.create_match("two-hand", ["Anna", "Boris"])
    s.start_deal(mid, "Anna", "9H")
    for who in ("Anna", "Boris", "Anna"):
        s.record(mid, {"type": "penalty", "player": who, "offence": "P-REVOKE"})
    s.correct(mid, 2, {"type": "seven", "player": "Anna"})
    s.correct(mid, 3, None)
    want = s.export_match(mid)
    s.close()
    _bad_index_page(sqlite_path)
    with Store.open(sqlite_path) as again:
        assert again.notice is not None and "Nothing was lost" in again.notice
        assert again.export_match(mid) == want


def test_an_entry_the_engine_cannot_follow_is_left_out_and_named(
    sqlite_path: Path, tmp_path: Path
) -> None:
    records = _database(sqlite_path)
    conn = sqlite3.connect(sqlite_path)
    conn.execute(
        "UPDATE log_entry SET payload = ? WHERE match_id = 1 AND seq = 4",
        (json.dumps({"type": "seven", "player": "Nobody"}),),
    )
    conn.commit()
    conn.close()
    total = _entries({1: records[1]})
    report = salvage(sqlite_path, tmp_path / "out.sqlite3")
    assert report.lost[1] == [(4, 4)]
    assert f"match 1: entries 1–3 and 5–{total} recovered, 4 lost" in report.sentence()
    with Store.open(tmp_path / "out.sqlite3") as s:
        assert len(s.list_matches()) == len(records)
        assert [e.seq for e in s.history(1)] == [q for q in range(1, total + 1) if q != 4]
        assert s.export_match(2) == records[2]
        _check_against_replay(s)
