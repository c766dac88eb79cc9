"""Notices to every player (公告, issue 35): a text in three languages shown between two times.

Revision ID: 0011_notices
Revises: 0010_games
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_notices"
down_revision: str | None = "0010_games"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "notices",
        sa.Column("id", BigId, primary_key=True),
        sa.Column("text", sa.JSON(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.Integer(), sa.ForeignKey("users.id", name="fk_notices_created_by"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.Column("ended_early", sa.Boolean(), server_default=sa.false(), nullable=False),
    )
    op.create_index("ix_notices_ends_at", "notices", ["ends_at"])


def downgrade() -> None:
    op.drop_index("ix_notices_ends_at", table_name="notices")
    op.drop_table("notices")
