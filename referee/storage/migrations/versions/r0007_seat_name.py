"""match_player.name: the name a seat was played under once the player's own name changed (a
rename) or the seat went to another player (a merge). A match's log names its players as they
sat down, so its replay and its record keep those names while the player row, which the
statistics and the club follow, may be renamed. NULL means the player's current name, which is
every seat written before this revision.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("match_player") as batch:
        batch.add_column(sa.Column("name", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("match_player") as batch:
        batch.drop_column("name")
