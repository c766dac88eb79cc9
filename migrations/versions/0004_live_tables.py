"""Live tables and their action logs: what a restart or another process needs to resume a game.

Revision ID: 0004_live_tables
Revises: 0003_roles_audit
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_live_tables"
down_revision: str | None = "0003_roles_audit"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "live_tables",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(16), nullable=False),
        sa.Column("fence", sa.BigInteger(), server_default="1", nullable=False),
        sa.Column("room", sa.String(16), nullable=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("practice", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("seat_names", sa.JSON(), nullable=False),
        sa.Column("bots", sa.JSON(), nullable=False),
        sa.Column("dealer", sa.Integer(), server_default="0", nullable=False),
        sa.Column("dealer_streak", sa.Integer(), server_default="0", nullable=False),
        sa.Column("round_wind", sa.Integer(), server_default="0", nullable=False),
        sa.Column("hands_played", sa.Integer(), server_default="0", nullable=False),
        sa.Column("voided", sa.Integer(), server_default="0", nullable=False),
        sa.Column("points", sa.JSON(), nullable=False),
        sa.Column("coins", sa.JSON(), nullable=False),
        sa.Column("hand_no", sa.Integer(), server_default="0", nullable=False),
        sa.Column("seed", sa.Text(), nullable=True),
        sa.Column("salt", sa.Text(), nullable=True),
        sa.Column("commitment", sa.String(128), nullable=True),
        sa.Column("hand_closed", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("log_len", sa.Integer(), server_default="0", nullable=False),
        sa.Column("v", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    )
    op.create_table(
        "table_actions",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(16), primary_key=True),
        sa.Column("hand_no", sa.Integer(), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("action", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_actions")
    op.drop_table("live_tables")
