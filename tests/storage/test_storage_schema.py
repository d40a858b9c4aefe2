"""Migrations: the scripts build exactly the models' schema, and a database made at the first
schema opens in this version with its matches intact."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from storage_samples import sample_record

from referee.record import parse_record, replay_record
from referee.storage import Store, db
from referee.storage.models import METADATA


def test_known_revisions_match_the_migration_scripts() -> None:
    script = ScriptDirectory.from_config(db.alembic_config())
    chain = [r.revision for r in script.walk_revisions()][::-1]
    assert tuple(chain) == db.REVISIONS
    assert script.get_current_head() == db.HEAD_REVISION


def test_migrated_schema_equals_the_models(db_url: str) -> None:
    loc = db.resolve(db_url)
    db.upgrade(loc)
    engine = db.make_engine(loc)
    try:
        with engine.connect() as conn:
            ctx = MigrationContext.configure(conn, opts={"compare_type": True})
            assert compare_metadata(ctx, METADATA) == []
            assert db.current_revision(conn) == db.HEAD_REVISION
    finally:
        engine.dispose()


def _fill_first_schema(db_url: str, record: dict[str, Any]) -> None:
    """Write a match the way version 0001 of the app did: plain SQL against that schema."""
    loc = db.resolve(db_url)
    db.upgrade(loc, "0001")
    engine = db.make_engine(loc)
    now = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    try:
        with engine.begin() as conn:
            assert db.current_revision(conn) == "0001"
            for i, name in enumerate(record["players"], start=1):
                conn.execute(
                    text("INSERT INTO player (id, name, created_at) VALUES (:i, :n, :t)"),
                    {"i": i, "n": name, "t": now},
                )
            conn.execute(
                text(
                    "INSERT INTO match (id, format, variant, tracking, house_rules, target,"
                    " created_at) VALUES (1, :f, :v, :tr, '[]', NULL, :t)"
                ),
                {"f": record["format"], "v": record["variant"], "tr": record["tracking"], "t": now},
            )
            for seat in range(len(record["players"])):
                conn.execute(
                    text("INSERT INTO match_player (match_id, seat, player_id) VALUES (1, :s, :p)"),
                    {"s": seat, "p": seat + 1},
                )
            seq = 0
            for d, deal in enumerate(record["deals"], start=1):
                dealer = record["players"].index(deal["dealer"])
                conn.execute(
                    text(
                        "INSERT INTO deal (id, match_id, dealer, turn_up, created_at)"
                        " VALUES (:d, 1, :dealer, :tu, :t)"
                    ),
                    {"d": d, "dealer": dealer, "tu": deal["turn_up"], "t": now},
                )
                seq += 1
                conn.execute(
                    text(
                        "INSERT INTO log_entry (match_id, seq, kind, deal_id, created_at)"
                        " VALUES (1, :s, 'deal', :d, :t)"
                    ),
                    {"s": seq, "d": d, "t": now},
                )
                for ev in deal["events"]:
                    seq += 1
                    conn.execute(
                        text(
                            "INSERT INTO log_entry (match_id, seq, kind, deal_id, payload,"
                            " created_at) VALUES (1, :s, 'event', :d, :p, :t)"
                        ),
                        {"s": seq, "d": d, "p": json.dumps(ev), "t": now},
                    )
            if conn.dialect.name == "postgresql":
                for table in ("player", "match", "deal"):
                    conn.execute(
                        text(
                            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                            f" (SELECT max(id) FROM {table}))"
                        )
                    )
    finally:
        engine.dispose()


def test_database_from_the_first_schema_opens_and_keeps_its_matches(db_url: str) -> None:
    record = sample_record(deals=2)
    _fill_first_schema(db_url, record)
    store = Store.open(db_url)
    try:
        with store.engine.connect() as conn:
            assert db.current_revision(conn) == db.HEAD_REVISION
        assert store.export_match(1, format="bezique-match/1") == record
        m = store.load_match(1)
        want = replay_record(parse_record(record))
        assert m.result().to_json() == want.result().to_json()
        # The caches the new schema added were derived by replaying the old log.
        sides = want.result().sides
        assert store.cached_scores(1) == [[s.deal_scores[d] for s in sides] for d in range(2)]
        assert store.cached_melds(1), "declarations of the old log are in the statistics"
        stats = {s.name: s for s in store.player_stats()}
        assert stats["Anna"].deals_played == 2
        # And the old match goes on: new events append after the old ones.
        store.undo(1)  # the sample ends with its last trick and brisques: one step, two rows
        assert len(store.history(1)) == 2 * (1 + len(record["deals"][0]["events"])) + 2
        assert [h.kind for h in store.history(1)][-2:] == ["undo", "undo"]
    finally:
        store.close()


def test_a_failed_upgrade_leaves_the_previous_schema_whole(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Migrations run in one transaction (DDL included, on SQLite too): a failure, or a kill,
    half-way leaves the database exactly at the revision it had."""
    from alembic.operations import Operations
    from sqlalchemy import inspect

    loc = db.resolve(db_url)
    db.upgrade(loc, "0001")
    real = Operations.create_table

    def failing(self: Operations, name: str, *cols: Any, **kw: Any) -> Any:
        if name == "meld_score":  # the last step of 0002, after other changes
            raise RuntimeError("power cut")
        return real(self, name, *cols, **kw)

    monkeypatch.setattr(Operations, "create_table", failing)
    with pytest.raises(RuntimeError, match="power cut"):
        db.upgrade(loc)
    engine = db.make_engine(loc)
    try:
        with engine.connect() as conn:
            assert db.current_revision(conn) == "0001"
            names = set(inspect(conn).get_table_names())
            assert "deal_score" not in names
            columns = {c["name"] for c in inspect(conn).get_columns("match")}
            assert "cache_version" not in columns
    finally:
        engine.dispose()
    monkeypatch.setattr(Operations, "create_table", real)
    db.upgrade(loc)
    engine = db.make_engine(loc)
    try:
        with engine.connect() as conn:
            assert db.current_revision(conn) == db.HEAD_REVISION
    finally:
        engine.dispose()
