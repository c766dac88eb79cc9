"""The game's first commitment, kept with a live table: the first dealer is drawn from it (F-1,
docs/rules/common.md#first-dealer), and a game resumed after its first hand needs it to know when a 圈 ends.

Revision ID: 0014_first_commitment
Revises: 0013_tournament_schedules
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_first_commitment"
down_revision: str | None = "0013_tournament_schedules"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Nullable, no default: a plain ADD COLUMN.  A game in play across the upgrade keeps seat 0 as its first
    # dealer (null reads as "the hand in play is the first": see app.tables.play.recovery).
    op.add_column("live_tables", sa.Column("first_commitment", sa.String(128), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("live_tables") as batch:
        batch.drop_column("first_commitment")
