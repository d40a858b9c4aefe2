"""The first schema: players, matches, seats, deals and the append-only log.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the tables the log needs."""
    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.Text(), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "match",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("format", sa.String(), nullable=False),
        sa.Column("variant", sa.String(), nullable=False),
        sa.Column("tracking", sa.String(), nullable=False),
        sa.Column("house_rules", sa.Text(), nullable=False),
        sa.Column("target", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("winner", sa.String(), nullable=True),
    )
    op.create_table(
        "match_player",
        sa.Column(
            "match_id",
            sa.Integer(),
            sa.ForeignKey("match.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("player.id"), nullable=False),
    )
    op.create_index("ix_match_player_player_id", "match_player", ["player_id"])
    op.create_table(
        "deal",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "match_id",
            sa.Integer(),
            sa.ForeignKey("match.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("turn_up", sa.String(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_deal_match_id", "deal", ["match_id"])
    op.create_table(
        "log_entry",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "match_id",
            sa.Integer(),
            sa.ForeignKey("match.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column(
            "deal_id",
            sa.Integer(),
            sa.ForeignKey("deal.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("target_seq", sa.Integer(), nullable=True),
        sa.Column("payload", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("match_id", "seq", name="uq_log_entry_match_seq"),
    )


def downgrade() -> None:
    """Drop everything (only for development)."""
    op.drop_table("log_entry")
    op.drop_index("ix_deal_match_id", table_name="deal")
    op.drop_table("deal")
    op.drop_index("ix_match_player_player_id", table_name="match_player")
    op.drop_table("match_player")
    op.drop_table("match")
    op.drop_table("player")
