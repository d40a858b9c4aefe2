"""match.abandoned_at: a match the table gave up on stays in history (recoverable) instead of
being deleted or offered for resuming forever. NULL means not abandoned.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("match") as batch:
        batch.add_column(sa.Column("abandoned_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("match") as batch:
        batch.drop_column("abandoned_at")
