"""``bezique-match/2`` (docs/match-record-2.md): version 1 plus the optional date ``played``.
Both versions are read; ``played`` is refused in version 1 and when malformed, with its place;
the same events replay to the same result in either version; shared/examples still replay to
their expected results through shared/tools/replay-check.py."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.errors import RecordError
from referee.record import (
    FORMAT_1,
    FORMAT_2,
    parse_record,
    played_text,
    record_to_obj,
    replay_record,
)

from .conftest import REPO, SHARED, brisques, decl, record, stock

REPLAY_CHECK = SHARED / "tools" / "replay-check.py"
EXAMPLES = SHARED / "examples"
NOW = datetime(2026, 12, 2, 14, 5, tzinfo=UTC)


def _doc(**top: Any) -> dict[str, Any]:
    return record([decl("Anna", ["QS", "JD"]), stock(), brisques(8, 8)]) | top


def _v2(doc: dict[str, Any], played: str) -> dict[str, Any]:
    return doc | {"format": FORMAT_2, "played": played}


def _replay_json(tmp_path: Path, capsys: pytest.CaptureFixture[str], doc: Any) -> tuple[int, str]:
    f = tmp_path / "m.json"
    f.write_text(json.dumps(doc), encoding="utf-8")
    code = main(["replay", str(f), "--json"])
    out, err = capsys.readouterr()
    return code, out if code == 0 else err


@pytest.mark.parametrize(
    ("played", "want"),
    [
        ("2026-12-02T14:05:00+00:00", datetime(2026, 12, 2, 14, 5, tzinfo=UTC)),
        ("2026-12-02T17:05:00+03:00", datetime(2026, 12, 2, 14, 5, tzinfo=UTC)),
        ("2026-12-02T14:05:00Z", datetime(2026, 12, 2, 14, 5, tzinfo=UTC)),
        ("2026-12-02 09:05:30.5-05:00", datetime(2026, 12, 2, 14, 5, 30, 500000, tzinfo=UTC)),
        ("2026-12-03T14:00:00+00:00", datetime(2026, 12, 3, 14, tzinfo=UTC)),  # clock ahead
    ],
)
def test_version_2_played_is_read_as_utc(played: str, want: datetime) -> None:
    rec = parse_record(_v2(_doc(), played), now=NOW)
    assert rec.played == want and rec.played.tzinfo is not None


def test_version_2_without_played_reads_like_version_1() -> None:
    assert parse_record(_doc(format=FORMAT_2)) == parse_record(_doc())


def test_version_1_with_played_is_an_unknown_field_at_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = _doc(played="2026-12-02T14:05:00+00:00")
    with pytest.raises(RecordError) as e:
        parse_record(doc)
    assert e.value.path == "played" and FORMAT_2 in str(e.value)
    code, err = _replay_json(tmp_path, capsys, doc)
    assert code == 2 and err.startswith("bezique: played: unknown field") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("played", "message"),
    [
        ("yesterday", 'played: not a date-time with an offset: "yesterday"'),
        ("2026-12-02T14:05:00", "played: not a date-time with an offset"),  # no offset
        ("2026-12-02", "played: not a date-time with an offset"),  # a date alone
        ("2026-13-02T14:05:00+00:00", "played: not a date-time with an offset"),
        ("2026-12-02T14:05:00+25:00", "played: not a date-time with an offset"),
        ("x" * 100, "played: not a date-time with an offset: that text"),
        (1764684300, "played: must be text, not a number"),
        (None, "played: must be text, not null"),
        ("1850-01-01T00:00:00+00:00", "played: before 1900"),
        ("2026-12-03T14:06:00+00:00", "played: more than a day in the future"),
    ],
)
def test_malformed_played_is_refused_with_its_place(played: Any, message: str) -> None:
    with pytest.raises(RecordError) as e:
        parse_record(_v2(_doc(), played), now=NOW)
    assert e.value.path == "played"
    assert str(e.value).startswith(message), str(e.value)


def test_malformed_played_exits_2_naming_the_place_and_nothing_is_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = _replay_json(tmp_path, capsys, _v2(_doc(), "yesterday"))
    assert code == 2 and err == 'bezique: played: not a date-time with an offset: "yesterday"\n'


def test_the_same_events_replay_to_the_same_result_in_either_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    v1 = _doc()
    v2 = _v2(_doc(), "2026-12-02T14:05:00+00:00")
    assert replay_record(parse_record(v1)).result() == replay_record(parse_record(v2)).result()
    assert _replay_json(tmp_path, capsys, v1) == _replay_json(tmp_path, capsys, v2)


def test_a_record_is_written_as_version_2_only_when_it_has_a_date() -> None:
    plain = parse_record(_doc())
    assert record_to_obj(plain)["format"] == FORMAT_1 and "played" not in record_to_obj(plain)
    dated = parse_record(_v2(_doc(), "2026-12-02T17:05:00.25+03:00"))
    obj = record_to_obj(dated)
    assert obj["format"] == FORMAT_2 and obj["played"] == "2026-12-02T14:05:00+00:00"
    assert list(obj)[:2] == ["format", "variant"]
    assert record_to_obj(dated, FORMAT_1) == record_to_obj(plain)  # for version-1 tools
    assert parse_record(obj).played == datetime(2026, 12, 2, 14, 5, tzinfo=UTC)
    with pytest.raises(ValueError, match="unknown record format"):
        record_to_obj(dated, "bezique-match/3")


def test_played_text_is_utc_to_the_second() -> None:
    moscow = timezone(timedelta(hours=3))
    t = datetime(2026, 12, 2, 17, 5, 9, 999999, tzinfo=moscow)
    assert played_text(t) == "2026-12-02T14:05:09+00:00"


def _bezique_command(tmp_path: Path) -> Path:
    """A ``bezique`` for replay-check that runs this checkout's code."""
    exe = tmp_path / "bezique"
    exe.write_text(
        f'#!/bin/sh\nPYTHONPATH="{REPO}" exec "{sys.executable}" -m referee.cli "$@"\n',
        encoding="utf-8",
    )
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return exe


def test_shared_examples_replay_as_expected_in_version_1_and_as_version_2(
    tmp_path: Path,
) -> None:
    """replay-check over the public examples as they are (version 1), and over the same
    records given a date (version 2): both replay to the expected results."""
    if not REPLAY_CHECK.exists() or not EXAMPLES.is_dir():
        pytest.skip("no shared examples or replay-check tool")
    exe = _bezique_command(tmp_path)
    v2 = tmp_path / "v2"
    v2.mkdir()
    for f in sorted(EXAMPLES.glob("*.json")):
        if f.name.endswith(".expected.json"):
            shutil.copy(f, v2 / f.name)
            continue
        doc = json.loads(f.read_text(encoding="utf-8"))
        assert doc["format"] == FORMAT_1
        doc = {"format": FORMAT_2, "played": "2026-11-30T19:30:00+01:00"} | {
            k: v for k, v in doc.items() if k != "format"
        }
        (v2 / f.name).write_text(json.dumps(doc), encoding="utf-8")
    for folder in (EXAMPLES, v2):
        run = subprocess.run(
            [sys.executable, str(REPLAY_CHECK), str(exe), str(folder)],
            capture_output=True,
            text=True,
            timeout=300,
            env=os.environ | {"PYTHONIOENCODING": "utf-8"},
        )
        assert run.returncode == 0, run.stdout + run.stderr
        assert "records replay as expected" in run.stdout
