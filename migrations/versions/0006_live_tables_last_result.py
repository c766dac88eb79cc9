"""The last settled hand's result, kept with a live table until its next hand is dealt.

A player who reconnects between hands, even to a restarted process, is sent the result again: the process
that settled the hand may have stopped after the journal had the settlement but before the player's socket
had the result.

Revision ID: 0006_live_tables_last_result
Revises: 0005_tournaments
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_live_tables_last_result"
down_revision: str | None = "0005_tournaments"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Nullable, no default: a plain ADD COLUMN (no table rebuild on SQLite); live rows get it at their next hand.
    op.add_column("live_tables", sa.Column("last_result", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("live_tables") as batch:
        batch.drop_column("last_result")
