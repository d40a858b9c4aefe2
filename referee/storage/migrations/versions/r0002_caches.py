"""Derived caches for resume and statistics: match.updated_at, match.cache_version, the
winners' seats, per-deal scores and scored declarations. Existing matches get
cache_version 0, so the app re-derives their caches by replaying the log on first open.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the cache columns and tables (batch mode: SQLite cannot ALTER much)."""
    with op.batch_alter_table("match") as batch:
        batch.add_column(sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(
            sa.Column("cache_version", sa.Integer(), nullable=False, server_default="0")
        )
    op.execute("UPDATE match SET updated_at = created_at")
    with op.batch_alter_table("match_player") as batch:
        batch.add_column(sa.Column("won", sa.Boolean(), nullable=False, server_default="0"))
    op.create_table(
        "deal_score",
        sa.Column(
            "deal_id",
            sa.Integer(),
            sa.ForeignKey("deal.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column(
            "match_id",
            sa.Integer(),
            sa.ForeignKey("match.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("player.id"), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
    )
    op.create_index("ix_deal_score_match_id", "deal_score", ["match_id"])
    op.create_index("ix_deal_score_player_points", "deal_score", ["player_id", "points"])
    op.create_table(
        "meld_score",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "match_id",
            sa.Integer(),
            sa.ForeignKey("match.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "deal_id",
            sa.Integer(),
            sa.ForeignKey("deal.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("player.id"), nullable=False),
        sa.Column("meld", sa.String(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
    )
    op.create_index("ix_meld_score_match_id", "meld_score", ["match_id"])
    op.create_index("ix_meld_score_player_meld", "meld_score", ["player_id", "meld", "points"])


def downgrade() -> None:
    """Remove the caches (they are derived, so nothing is lost)."""
    op.drop_table("meld_score")
    op.drop_table("deal_score")
    with op.batch_alter_table("match_player") as batch:
        batch.drop_column("won")
    with op.batch_alter_table("match") as batch:
        batch.drop_column("cache_version")
        batch.drop_column("updated_at")
