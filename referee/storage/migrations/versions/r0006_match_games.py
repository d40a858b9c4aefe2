"""match.games: the number of games agreed for a match where each deal is a game (Rubicon,
six-pack, eight-pack). Without it a Rubicon match created through storage fell back to the
variant's default (one game). NULL means the variant's default, or a points target.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("match") as batch:
        batch.add_column(sa.Column("games", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("match") as batch:
        batch.drop_column("games")
