"""Coin-room tournaments: the tournament (its state survives restarts), registrations, and per-round tables.

Revision ID: 0005_tournaments
Revises: 0004_live_tables
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_tournaments"
down_revision: str | None = "0004_live_tables"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("hands_per_round", sa.Integer(), nullable=True),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("entry_fee", sa.BigInteger(), nullable=False),
        sa.Column("player_limit", sa.Integer(), nullable=False),
        sa.Column("prize_split", sa.JSON(), nullable=False),
        sa.Column("guarantee", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("opens_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("current_round", sa.Integer(), server_default="0", nullable=False),
        sa.Column("pool_user_id", sa.Integer(), sa.ForeignKey("users.id", name="fk_tournaments_pool_user_id"),
                  nullable=True),
        sa.Column("created_by", sa.Integer(), sa.ForeignKey("users.id", name="fk_tournaments_created_by"),
                  nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_tournaments_state", "tournaments", ["state"])
    op.create_table(
        "tournament_entries",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("tournament_id", sa.Integer(),
                  sa.ForeignKey("tournaments.id", name="fk_tournament_entries_tournament_id"), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", name="fk_tournament_entries_user_id"),
                  nullable=False),
        sa.Column("active", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("registrations", sa.Integer(), server_default="1", nullable=False),
        sa.Column("points", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("prize", sa.BigInteger(), server_default="0", nullable=False),
        sa.UniqueConstraint("tournament_id", "user_id", name="uq_tournament_entries_player"),
    )
    op.create_table(
        "tournament_games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("tournament_id", sa.Integer(),
                  sa.ForeignKey("tournaments.id", name="fk_tournament_games_tournament_id"), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=True),
        sa.Column("finished", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("points", sa.JSON(), nullable=True),
        sa.Column("hands_played", sa.Integer(), server_default="0", nullable=False),
        sa.UniqueConstraint("tournament_id", "round", "table_no", name="uq_tournament_games_table"),
    )


def downgrade() -> None:
    op.drop_table("tournament_games")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_state", table_name="tournaments")
    op.drop_table("tournaments")
