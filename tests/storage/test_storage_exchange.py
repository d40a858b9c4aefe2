"""Export/import as the match record, the backup archive, and the command line: malformed
input says what and where, and stores nothing."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from storage_samples import SAMPLE_EVENTS, sample_record

from referee.record import FORMAT_1, parse_record, record_to_obj, replay_record
from referee.storage import StorageInputError, Store


def _count(store: Store) -> int:
    return len(store.list_matches())


def test_import_then_export_round_trips(store: Store) -> None:
    rec = sample_record(deals=3) | {"target": 5000, "house_rules": []}
    mid = store.import_match(rec)
    assert store.export_match(mid, format=FORMAT_1) == rec
    assert store.load_match(mid).result().to_json() == (
        replay_record(parse_record(rec)).result().to_json()
    )


def test_import_normalises_card_spelling(store: Store) -> None:
    rec = sample_record()
    rec["deals"][0]["turn_up"] = "9♥"
    rec["deals"][0]["events"][0]["new"] = ["q♠", "JD"]
    mid = store.import_match(rec)
    out = store.export_match(mid, format=FORMAT_1)
    assert out == record_to_obj(parse_record(rec))
    assert out["deals"][0]["turn_up"] == "9H"
    assert out["deals"][0]["events"][0]["new"] == ["QS", "JD"]


def test_export_leaves_out_undone_events(store: Store) -> None:
    mid = store.import_match(sample_record())
    store.undo(mid)  # the end of the deal (last trick and brisques): one step
    assert store.export_match(mid)["deals"][0]["events"] == SAMPLE_EVENTS[:-2]
    store.undo(mid)
    assert store.export_match(mid)["deals"][0]["events"] == SAMPLE_EVENTS[:-3]


def _broken(change: str) -> tuple[dict[str, Any], str]:
    rec = sample_record(deals=2)
    if change == "card":
        rec["deals"][1]["events"][4]["new"][0] = "1S"
        return rec, "deals[1].events[4].new[0]"
    if change == "field":
        rec["deals"][0]["events"][2]["colour"] = "red"
        return rec, "deals[0].events[2]"
    if change == "player":
        rec["deals"][1]["dealer"] = "Zoe"
        return rec, "deals[1].dealer"
    if change == "brisques":
        rec["deals"][0]["events"][-1]["counts"] = {"Anna": 40, "Boris": 40}
        return rec, "deals[0].events[9]"
    if change == "format":
        rec["format"] = "bezique-match/7"
        return rec, "format"
    raise AssertionError(change)


@pytest.mark.parametrize("change", ["card", "field", "player", "brisques", "format"])
def test_malformed_record_names_the_place_and_stores_nothing(store: Store, change: str) -> None:
    store.import_match(sample_record())
    rec, place = _broken(change)
    with pytest.raises(StorageInputError) as err:
        store.import_match(rec)
    assert place in str(err.value)
    assert _count(store) == 1


def test_malformed_json_file_names_file_line_and_column(store: Store, tmp_path: Path) -> None:
    f = tmp_path / "broken.json"
    f.write_text('{"format": "bezique-match/1",\n "variant": "two-hand",\n "players": [,]}')
    with pytest.raises(StorageInputError) as err:
        store.import_match(f)
    assert str(f) in str(err.value) and "line 3" in str(err.value)
    assert _count(store) == 0


def test_archive_round_trip(store: Store, tmp_path: Path) -> None:
    recs = [sample_record(deals=n) for n in (1, 2, 3)]
    ids = [store.import_match(r) for r in recs]
    store.undo(ids[1])
    want = [store.export_match(i, format=FORMAT_1) for i in ids]  # the manifest keeps dates
    archive = tmp_path / "backup.zip"
    assert store.export_archive(archive) == 3
    with zipfile.ZipFile(archive) as zf:
        manifest = json.loads(zf.read("manifest.json"))
        assert manifest["format"] == "bezique-archive/1"
        members = [json.loads(zf.read(m["file"])) for m in manifest["matches"]]
    assert members == want
    again = store.import_archive(archive)  # the same backup: recognised, nothing doubled
    assert list(again) == [] and sorted(again.skipped) == sorted(ids)
    new_ids = store.import_archive(archive, copies=True)
    assert [store.export_match(i, format=FORMAT_1) for i in new_ids] == want
    created = {m.id: m.created_at for m in store.list_matches()}
    assert [created[i] for i in new_ids] == [created[i] for i in ids]


def test_archive_keeps_when_a_match_ended(store: Store, tmp_path: Path) -> None:
    done = store.import_match(sample_record() | {"target": 100})
    ended = store.match_info(done).finished_at
    assert ended is not None
    archive = tmp_path / "backup.zip"
    store.export_archive(archive)
    (copy_id,) = store.import_archive(archive, copies=True)
    info = store.match_info(copy_id)
    assert info.finished_at == ended and info.winner == store.match_info(done).winner


def test_archive_with_one_bad_record_stores_nothing(store: Store, tmp_path: Path) -> None:
    for n in (1, 2):
        store.import_match(sample_record(deals=n))
    archive = tmp_path / "backup.zip"
    store.export_archive(archive)
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(archive) as src, zipfile.ZipFile(bad, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename.endswith("000002.json"):
                rec = json.loads(data)
                rec["deals"][1]["events"][0]["new"] = ["ZZ"]
                data = json.dumps(rec).encode()
            dst.writestr(item, data)
    with pytest.raises(StorageInputError) as err:
        store.import_archive(bad)
    assert "000002.json" in str(err.value) and "deals[1].events[0].new[0]" in str(err.value)
    assert _count(store) == 2


def test_not_an_archive(store: Store, tmp_path: Path) -> None:
    f = tmp_path / "x.zip"
    f.write_bytes(b"PK but not really")
    with pytest.raises(StorageInputError, match=r"x\.zip"):
        store.import_archive(f)


# ----------------------------------------------------------------------------- command line
def _bezique(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    code = "import sys; from referee.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args, "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_import_export_and_archive(tmp_path: Path) -> None:
    db = tmp_path / "cli.sqlite3"
    rec_file = tmp_path / "match.json"
    rec_file.write_text(json.dumps(sample_record(deals=2)))
    run = _bezique("import", str(rec_file), db=db)
    assert run.returncode == 0, run.stderr
    run = _bezique("matches", "--json", db=db)
    assert run.returncode == 0, run.stderr
    (only,) = json.loads(run.stdout)
    out = tmp_path / "out.json"
    run = _bezique("export", str(only["id"]), "-o", str(out), "--format", FORMAT_1, db=db)
    assert run.returncode == 0, run.stderr
    assert json.loads(out.read_text()) == sample_record(deals=2)
    archive = tmp_path / "all.zip"
    assert _bezique("export", "--all", "-o", str(archive), db=db).returncode == 0
    db2 = tmp_path / "other.sqlite3"
    run = _bezique("import", str(archive), db=db2)
    assert run.returncode == 0, run.stderr
    run = _bezique("export", "1", db=db2)
    exported = json.loads(run.stdout)  # version 2 by default: the date the match was started
    assert exported.pop("played").startswith(only["created_at"][:16])
    assert exported | {"format": FORMAT_1} == sample_record(deals=2)
    run = _bezique("stats", "--json", db=db2)
    assert {s["player"] for s in json.loads(run.stdout)} == {"Anna", "Boris"}


def test_cli_malformed_import_exits_2_naming_the_place(tmp_path: Path) -> None:
    db = tmp_path / "cli.sqlite3"
    rec = copy.deepcopy(sample_record(deals=2))
    rec["deals"][1]["events"][3]["table"] = ["QX"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec))
    run = _bezique("import", str(bad), db=db)
    assert run.returncode == 2
    assert str(bad) in run.stderr and "deals[1].events[3].table[0]" in run.stderr
    assert json.loads(_bezique("matches", "--json", db=db).stdout) == []
    run = _bezique("export", "77", db=db)
    assert run.returncode == 2 and "77" in run.stderr
    run = _bezique("import", str(tmp_path / "missing.json"), db=db)
    assert run.returncode == 2 and "missing.json" in run.stderr


def test_cli_migrate_and_a_foreign_file(tmp_path: Path) -> None:
    db = tmp_path / "cli.sqlite3"
    run = _bezique("migrate", db=db)
    from referee.storage.db import HEAD_REVISION

    assert run.returncode == 0 and f"schema {HEAD_REVISION}" in run.stdout, run.stderr
    other = tmp_path / "notes.txt"
    other.write_text("not a database")
    run = _bezique("matches", db=other)
    assert run.returncode == 1 and "not a usable Bezique database" in run.stderr
    assert other.read_text() == "not a database"


def test_the_same_backup_imported_twice_is_skipped_and_stats_not_doubled(tmp_path: Path) -> None:
    src = Store.open(tmp_path / "src.sqlite3")
    for n in (1, 2, 3):
        src.import_match(sample_record(deals=n))
    src.export_archive(tmp_path / "backup.zip")
    src.close()
    db = tmp_path / "dst.sqlite3"
    first = _bezique("import", str(tmp_path / "backup.zip"), db=db)
    assert first.returncode == 0 and "3 matches imported" in first.stderr, first.stderr
    with Store.open(db) as s:
        stats_once = [(p.name, p.matches_played, p.deals_played) for p in s.player_stats()]
    second = _bezique("import", str(tmp_path / "backup.zip"), db=db)
    assert second.returncode == 0, second.stderr
    assert "0 matches imported" in second.stderr and "3 already stored, skipped" in second.stderr
    with Store.open(db) as s:
        assert len(s.list_matches()) == 3
        assert [(p.name, p.matches_played, p.deals_played) for p in s.player_stats()] == (
            stats_once
        )
    rec = tmp_path / "one.json"
    rec.write_text(json.dumps(sample_record(deals=2)))
    again = _bezique("import", str(rec), db=db)
    assert again.returncode == 0 and "1 already stored, skipped" in again.stderr
    copy = _bezique("import", str(rec), "--copy", db=db)
    assert copy.returncode == 0 and "as match 4" in copy.stderr, copy.stderr


def test_a_record_imported_again_is_skipped_and_the_stored_match_keeps_its_date(
    store: Store,
) -> None:
    """The storage function the app and the CLI share: ``import_record`` recognises a record
    already stored (same settings, same effective log) and stores nothing; a record that
    differs in one event is a match of its own."""
    rec = sample_record(deals=2)
    (mid,) = store.import_record(rec)
    played = store.match_info(mid).created_at
    stats = [(p.name, p.matches_played, p.deals_played) for p in store.player_stats()]
    again = store.import_record(rec)
    assert list(again) == [] and again.skipped == [mid]
    assert _count(store) == 1 and store.match_info(mid).created_at == played
    assert [(p.name, p.matches_played, p.deals_played) for p in store.player_stats()] == stats
    other = copy.deepcopy(rec)
    other["deals"][1]["events"].pop()
    assert len(store.import_record(other)) == 1 and _count(store) == 2
