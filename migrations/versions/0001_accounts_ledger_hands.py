"""Accounts, the coin/積分 ledger and played hands.

Revision ID: 0001
Revises:
Create Date: 2025-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

# The ledger is append-only in the database too, not just by convention: an UPDATE or DELETE fails.
# (A later batch migration that recreates ledger_entries on SQLite must recreate these triggers.)
_SQLITE_TRIGGERS = [
    """CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE ON ledger_entries
       BEGIN SELECT RAISE(ABORT, 'ledger_entries is append-only'); END""",
    """CREATE TRIGGER ledger_entries_no_delete BEFORE DELETE ON ledger_entries
       BEGIN SELECT RAISE(ABORT, 'ledger_entries is append-only'); END""",
]
_POSTGRES_TRIGGERS = [
    """CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'ledger_entries is append-only'; END $$""",
    """CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
       FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only()""",
]


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("username", sa.String(20), nullable=False),
        sa.Column("username_key", sa.String(20), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("coins", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("rank_points", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("is_admin", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.CheckConstraint("coins >= 0", name="ck_users_coins_nonnegative"),
        sa.CheckConstraint("rank_points >= 0", name="ck_users_rank_points_nonnegative"),
        sa.UniqueConstraint("username_key", name="uq_users_username_key"),
    )
    op.create_table(
        "hands",
        sa.Column("id", BigId, primary_key=True),
        sa.Column("hand_key", sa.String(200), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("room", sa.String(16), nullable=True),
        sa.Column("practice", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("seed", sa.Text(), nullable=True),
        sa.Column("commitment", sa.String(128), nullable=True),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("actions", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("settlement", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.UniqueConstraint("hand_key", name="uq_hands_hand_key"),
    )
    op.create_table(
        "ledger_entries",
        sa.Column("id", BigId, primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", name="fk_ledger_entries_user_id"),
                  nullable=False),
        sa.Column("asset", sa.String(16), server_default="coins", nullable=False),
        sa.Column("delta", sa.BigInteger(), nullable=False),
        sa.Column("balance_after", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("idempotency_key", sa.String(200), nullable=False),
        sa.Column("hand_id", BigId, sa.ForeignKey("hands.id", name="fk_ledger_entries_hand_id"), nullable=True),
        sa.Column("actor_id", sa.Integer(), sa.ForeignKey("users.id", name="fk_ledger_entries_actor_id"),
                  nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.CheckConstraint("asset IN ('coins', 'rank_points')", name="ck_ledger_entries_asset"),
        sa.CheckConstraint("balance_after >= 0", name="ck_ledger_entries_balance_nonnegative"),
        sa.UniqueConstraint("idempotency_key", name="uq_ledger_entries_idempotency_key"),
    )
    op.create_index("ix_ledger_entries_user_id_id", "ledger_entries", ["user_id", "id"])
    op.create_index("ix_ledger_entries_hand_id", "ledger_entries", ["hand_id"])

    dialect = op.get_bind().dialect.name
    for statement in {"sqlite": _SQLITE_TRIGGERS, "postgresql": _POSTGRES_TRIGGERS}.get(dialect, []):
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS ledger_entries_append_only ON ledger_entries")
        op.execute("DROP FUNCTION IF EXISTS ledger_entries_append_only()")
    op.drop_index("ix_ledger_entries_hand_id", table_name="ledger_entries")
    op.drop_index("ix_ledger_entries_user_id_id", table_name="ledger_entries")
    op.drop_table("ledger_entries")  # SQLite drops its triggers with the table
    op.drop_table("hands")
    op.drop_table("users")
