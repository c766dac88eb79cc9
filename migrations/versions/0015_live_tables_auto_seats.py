"""The seats on 托管 (auto-play) at a live table, kept with its journal row so a restart resumes them on 托管.

A player who switched 托管 on (or went to it after timeouts) saw it off again after a server restart: the
resumed table knew nothing of it (issue 33 item 5).

Revision ID: 0015_live_tables_auto_seats
Revises: 0014_first_commitment
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_live_tables_auto_seats"
down_revision: str | None = "0014_first_commitment"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Nullable, no default: a plain ADD COLUMN (no table rebuild on SQLite); null reads as "no seat on 托管".
    op.add_column("live_tables", sa.Column("auto_seats", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("live_tables") as batch:
        batch.drop_column("auto_seats")
