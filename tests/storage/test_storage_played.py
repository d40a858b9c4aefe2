"""A match keeps the date it was played through export and import (docs/match-record-2.md):
a stored match exports as ``bezique-match/2`` with ``played``, an import of it stores that
start time, and the duplicate check knows a match whichever version carried it."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from storage_samples import sample_record

from referee.record import FORMAT_1, FORMAT_2, played_text
from referee.storage import StorageInputError, Store


def _utc(t: datetime) -> datetime:
    return (t if t.tzinfo else t.replace(tzinfo=UTC)).astimezone(UTC)


def _dated(rec: dict[str, Any], played: str) -> dict[str, Any]:
    return rec | {"format": FORMAT_2, "played": played}


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    started=st.datetimes(
        min_value=datetime(1900, 1, 2),
        max_value=datetime(2026, 11, 30),
        timezones=st.sampled_from(
            [UTC, timezone(timedelta(hours=3)), timezone(-timedelta(hours=5.5))]
        ),
    ),
    deals=st.integers(min_value=0, max_value=3),
)
def test_export_then_import_keeps_when_the_match_was_played_to_the_second(
    store: Store, tmp_path_factory: pytest.TempPathFactory, started: datetime, deals: int
) -> None:
    """A match started at any moment (microseconds included) exports as version 2 with that
    moment to the second, and a fresh database that imports it lists it with that date."""
    first = store.import_match(_dated(sample_record(deals), started.isoformat()))
    assert _utc(store.match_info(first).created_at) == started  # the record's own moment
    exported = store.export_match(first)
    assert exported["format"] == FORMAT_2
    assert exported["played"] == played_text(started)  # UTC, to the second
    other = Store.open(tmp_path_factory.mktemp("other") / "other.sqlite3")
    try:
        (mid,) = other.import_record(exported)
        got = _utc(other.match_info(mid).created_at)
        assert got == started.replace(microsecond=0)
        assert other.export_match(mid) == exported
        assert other.load_match(mid).result() == store.load_match(first).result()
    finally:
        other.close()


def test_a_match_started_in_the_app_exports_its_start_and_is_imported_with_it(
    store: Store, tmp_path: Path
) -> None:
    mid = store.create_match("two-hand", ["Anna", "Boris"])
    started = _utc(store.match_info(mid).created_at)
    exported = store.export_match(mid)
    assert exported["played"] == started.replace(microsecond=0).isoformat()
    with Store.open(tmp_path / "other.sqlite3") as other:
        done = other.import_record(exported)
        assert done.played == started.replace(microsecond=0)
        assert _utc(other.match_info(done[0]).created_at) == started.replace(microsecond=0)


def test_version_1_export_leaves_the_date_out_and_its_import_is_dated_now(store: Store) -> None:
    mid = store.import_match(_dated(sample_record(2), "2025-06-01T18:00:00+02:00"))
    v1 = store.export_match(mid, format=FORMAT_1)
    assert v1["format"] == FORMAT_1 and "played" not in v1
    before = datetime.now(UTC)
    done = store.import_record(v1, copies=True)
    assert done.played is None
    assert _utc(store.match_info(done[0]).created_at) >= before - timedelta(seconds=1)
    with pytest.raises(StorageInputError, match="unknown record format"):
        store.export_match(mid, format="bezique-match/3")


def test_a_version_2_import_after_the_version_1_of_the_same_match_is_detected(
    store: Store,
) -> None:
    """Device B imported the version-1 export of a match (dated at the import); the version-2
    export of the same match, played earlier, is recognised and not stored again."""
    v1 = sample_record(2)
    (mid,) = store.import_record(v1)
    stats = [(p.name, p.matches_played, p.deals_played) for p in store.player_stats()]
    again = store.import_record(_dated(v1, "2026-11-28T20:15:00+01:00"))
    assert list(again) == [] and again.skipped == [mid]
    assert len(store.list_matches()) == 1
    assert [(p.name, p.matches_played, p.deals_played) for p in store.player_stats()] == stats


def test_a_version_1_import_after_the_version_2_of_the_same_match_is_detected(
    store: Store,
) -> None:
    (mid,) = store.import_record(_dated(sample_record(2), "2026-11-28T20:15:00+01:00"))
    again = store.import_record(sample_record(2))
    assert list(again) == [] and again.skipped == [mid]
    assert _utc(store.match_info(mid).created_at) == datetime(2026, 11, 28, 19, 15, tzinfo=UTC)


def test_the_same_version_2_record_twice_is_stored_once(store: Store) -> None:
    rec = _dated(sample_record(1), "2026-11-28T20:15:00.700+00:00")
    (mid,) = store.import_record(rec)
    assert store.import_record(store.export_match(mid)).skipped == [mid]  # to the second
    assert store.import_record(rec).skipped == [mid]


def test_a_match_that_went_the_same_way_on_another_day_is_imported(store: Store) -> None:
    """Same content, but the stored one was started before the record's date: two matches
    (two empty matches of the same players on different days)."""
    (first,) = store.import_record(_dated(sample_record(0), "2026-11-01T20:00:00+00:00"))
    later = store.import_record(_dated(sample_record(0), "2026-11-20T20:00:00+00:00"))
    assert len(later) == 1 and later.skipped == []
    assert sorted(_utc(m.created_at).date().isoformat() for m in store.list_matches()) == [
        "2026-11-01",
        "2026-11-20",
    ]
    assert store.import_record(_dated(sample_record(0), "2026-11-01T20:00:00Z")).skipped == [first]


def test_a_backup_member_without_a_manifest_date_keeps_its_own_played(
    store: Store, tmp_path: Path
) -> None:
    import zipfile

    archive = tmp_path / "b.zip"
    rec = _dated(sample_record(1), "2026-10-10T10:10:10+00:00")
    manifest = {"format": "bezique-archive/1", "matches": [{"file": "m.json"}]}
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("manifest.json", json.dumps(manifest))
        zf.writestr("m.json", json.dumps(rec))
    (mid,) = store.import_archive(archive)
    assert _utc(store.match_info(mid).created_at) == datetime(2026, 10, 10, 10, 10, 10, tzinfo=UTC)


@pytest.mark.parametrize(
    ("rec", "message"),
    [
        (sample_record(1) | {"played": "2026-11-28T20:15:00+00:00"}, "unknown field"),
        (_dated(sample_record(1), "yesterday"), 'not a date-time with an offset: "yesterday"'),
        (_dated(sample_record(1), "2026-11-28T20:15:00"), "not a date-time with an offset"),
        (_dated(sample_record(1), "2999-01-01T00:00:00+00:00"), "more than a day in the future"),
    ],
)
def test_a_refused_played_names_its_place_and_stores_nothing(
    store: Store, rec: dict[str, Any], message: str
) -> None:
    with pytest.raises(StorageInputError) as e:
        store.import_record(rec)
    assert e.value.where == "played" and message in e.value.detail
    assert store.list_matches() == []


# ----------------------------------------------------------------------------- command line
def _bezique(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    code = "import sys; from referee.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args, "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_export_writes_version_2_and_import_keeps_and_says_the_date(tmp_path: Path) -> None:
    src = tmp_path / "src.sqlite3"
    rec_file = tmp_path / "in.json"
    rec_file.write_text(json.dumps(_dated(sample_record(2), "2026-11-28T20:15:00+01:00")))
    run = _bezique("import", str(rec_file), db=src)
    assert run.returncode == 0 and "(played 2026-11-28 19:15 UTC)" in run.stderr, run.stderr
    out = tmp_path / "out.json"
    assert _bezique("export", "1", "-o", str(out), db=src).returncode == 0
    exported = json.loads(out.read_text())
    assert exported["format"] == FORMAT_2 and exported["played"] == "2026-11-28T19:15:00+00:00"
    v1 = tmp_path / "v1.json"
    run = _bezique("export", "1", "-o", str(v1), "--format", "bezique-match/1", db=src)
    assert run.returncode == 0 and json.loads(v1.read_text()) == sample_record(2)
    dst = tmp_path / "dst.sqlite3"
    run = _bezique("import", str(v1), db=dst)
    assert run.returncode == 0 and "the record carries no date" in run.stderr, run.stderr
    run = _bezique("import", str(out), db=dst)  # the same match, now with its date
    assert run.returncode == 0 and "1 already stored, skipped" in run.stderr, run.stderr
    (only,) = json.loads(_bezique("matches", "--json", db=dst).stdout)
    assert only["id"] == 1
    run = _bezique("matches", "--json", db=src)
    assert json.loads(run.stdout)[0]["created_at"].startswith("2026-11-28T19:15:00")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_dated(sample_record(1), "yesterday")))
    run = _bezique("import", str(bad), db=dst)
    assert run.returncode == 2 and f"{bad}: played: not a date-time" in run.stderr, run.stderr
    run = _bezique("export", "1", "--format", "bezique-match/9", db=src)
    assert run.returncode == 2 and "bezique-match/9" in run.stderr
