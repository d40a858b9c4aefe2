"""``match.activity``: the order in which matches were last played, from a counter every change
bumps, so "resume" follows what was done last and not the wall clock (a clock set back a day,
or forward a year once, made Home offer the match that was not played last).

Existing matches get their order from the last-played times they have.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("match") as batch:
        batch.add_column(
            sa.Column("activity", sa.Integer(), nullable=False, server_default="0")
        )
    op.execute(
        "UPDATE match SET activity = (SELECT count(*) FROM match AS m2"
        " WHERE coalesce(m2.updated_at, m2.created_at) < coalesce(match.updated_at,"
        " match.created_at) OR (coalesce(m2.updated_at, m2.created_at) ="
        " coalesce(match.updated_at, match.created_at) AND m2.id <= match.id))"
    )
    op.create_index("ix_match_activity", "match", ["activity"])


def downgrade() -> None:
    op.drop_index("ix_match_activity", table_name="match")
    with op.batch_alter_table("match") as batch:
        batch.drop_column("activity")
