"""No file can crash or exhaust the program: whatever is handed to ``bezique import`` or
``bezique replay`` ends with exit status 2 and a message naming the place, within the stated
size limits, and nothing is stored."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from storage_samples import sample_record

from referee import input_limits as lim
from referee.storage import Store

ROOT = os.geteuid() == 0


def _bezique(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    code = "import sys; from referee.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=timeout
    )


def _refused(res: subprocess.CompletedProcess[str], place: str) -> None:
    assert res.returncode == 2, (res.returncode, res.stderr)
    assert "Traceback" not in res.stderr, res.stderr
    assert place in res.stderr, res.stderr


def _archive(path: Path, records: list[dict[str, object]], **entry: object) -> None:
    manifest = {"format": "bezique-archive/1", "matches": []}
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for i, rec in enumerate(records):
            name = f"matches/{i:06d}.json"
            zf.writestr(name, json.dumps(rec))
            manifest["matches"].append({"file": name, **entry})  # type: ignore[attr-defined]
        zf.writestr("manifest.json", json.dumps(manifest))


def _stored(db: Path) -> int:
    if not db.exists():
        return 0
    with Store.open(db) as s:
        return len(s.list_matches())


@pytest.mark.parametrize(
    "text",
    [
        '{"format": "bezique-match/1", "variant": "two-hand", "players": ["A", "B"],'
        ' "target": ' + "9" * 5000 + ', "deals": []}',
        '{"format": "bezique-match/1", "variant": "two-hand", "players": ["A", "\\ud800"],'
        ' "deals": []}',
        '{"format": "bezique-match/1", "variant": "two-hand", "players": ["A", "B"],'
        ' "deals": [], "\\udfff": 1}',
    ],
    ids=["5000-digit-integer", "lone-surrogate", "surrogate-key"],
)
def test_hostile_json_is_refused_by_import_and_replay(tmp_path: Path, text: str) -> None:
    f = tmp_path / "bad.json"
    f.write_text(text)
    db = tmp_path / "db.sqlite3"
    _refused(_bezique("import", str(f), "--db", str(db)), "bad.json")
    _refused(_bezique("replay", str(f)), "bad.json")
    assert _stored(db) == 0


def test_special_files_are_never_read(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    for f in (zero, fifo, tmp_path):
        _refused(_bezique("import", str(f), "--db", str(db), timeout=30), str(f))
        _refused(_bezique("replay", str(f), timeout=30), str(f))


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    f = tmp_path / "huge.json"
    with f.open("wb") as fh:
        fh.truncate(lim.MAX_RECORD_BYTES + 1)
    res = _bezique("import", str(f), "--db", str(tmp_path / "db.sqlite3"))
    _refused(res, "huge.json")
    assert "too large" in res.stderr


def _patch_flags(path: Path, flag: int) -> None:
    data = bytearray(path.read_bytes())
    for sig, off in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = data.find(sig)
        while at >= 0:
            data[at + off] |= flag
            at = data.find(sig, at + 4)
    path.write_bytes(bytes(data))


def test_encrypted_corrupt_and_bomb_archives_are_refused(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    enc = tmp_path / "enc.zip"
    _archive(enc, [sample_record()])
    _patch_flags(enc, 0x1)
    res = _bezique("import", str(enc), "--db", str(db))
    _refused(res, "enc.zip")

    bad = tmp_path / "corrupt.zip"
    _archive(bad, [sample_record(deals=4)])
    data = bytearray(bad.read_bytes())
    at = data.find(b"PK\x03\x04") + 30 + len("matches/000000.json")
    data[at + 10 : at + 60] = b"\xff" * 50
    bad.write_bytes(bytes(data))
    _refused(_bezique("import", str(bad), "--db", str(db)), "corrupt.zip!matches/000000.json")

    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("manifest.json", json.dumps({"format": "bezique-archive/1", "matches": []}))
        zf.writestr("matches/000000.json", b" " * (lim.MAX_RECORD_BYTES - 10))
    res = _bezique("import", str(bomb), "--db", str(db))
    _refused(res, "bomb.zip!matches/000000.json")
    assert _stored(db) == 0


def test_a_member_listed_many_times_is_refused_before_extraction(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    dup = tmp_path / "dup.zip"
    big = json.dumps(sample_record(deals=3))
    with pytest.warns(UserWarning), zipfile.ZipFile(dup, "w", zipfile.ZIP_DEFLATED) as zf:
        for _ in range(200):
            zf.writestr("matches/000000.json", big)
        zf.writestr("manifest.json", json.dumps({"format": "bezique-archive/1", "matches": []}))
    res = _bezique("import", str(dup), "--db", str(db), timeout=30)
    _refused(res, "dup.zip!matches/000000.json")
    assert "twice" in res.stderr

    again = tmp_path / "again.zip"
    with zipfile.ZipFile(again, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("matches/000000.json", big)
        zf.writestr(
            "manifest.json",
            json.dumps(
                {"format": "bezique-archive/1",
                 "matches": [{"file": "matches/000000.json"}] * 200}
            ),
        )
    res = _bezique("import", str(again), "--db", str(db), timeout=30)
    _refused(res, "matches[1].file")
    assert _stored(db) == 0


@pytest.mark.parametrize("when", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00",
                                  "1000-01-01T00:00:00", 12])
def test_out_of_range_dates_are_refused(tmp_path: Path, when: object) -> None:
    z = tmp_path / "dates.zip"
    _archive(z, [sample_record()], created_at=when)
    res = _bezique("import", str(z), "--db", str(tmp_path / "db.sqlite3"))
    _refused(res, "matches[0].created_at")


def test_export_never_creates_a_folder_and_names_an_unwritable_one(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    with Store.open(db) as s:
        s.import_match(sample_record())
    missing = tmp_path / "no" / "such"
    res = _bezique("export", "--all", "-o", str(missing / "b.zip"), "--db", str(db))
    _refused(res, str(missing))
    assert not (tmp_path / "no").exists()
    res = _bezique("export", "1", "-o", str(missing / "m.json"), "--db", str(db))
    _refused(res, str(missing))

    locked = tmp_path / "locked"
    locked.mkdir()
    if ROOT:
        subprocess.run(["chattr", "+i", str(locked)], check=True)
    else:
        locked.chmod(0o500)
    try:
        res = _bezique("export", "--all", "-o", str(locked / "b.zip"), "--db", str(db))
        _refused(res, str(locked))
        res = _bezique("export", "1", "-o", str(locked / "m.json"), "--db", str(db))
        _refused(res, str(locked / "m.json"))
    finally:
        if ROOT:
            subprocess.run(["chattr", "-i", str(locked)], check=True)
        locked.chmod(0o755)
