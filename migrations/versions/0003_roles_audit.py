"""Roles (player / operator / admin) and the frozen flag on accounts; the append-only audit log.

``is_admin`` becomes ``role = 'admin'``.

Revision ID: 0003_roles_audit
Revises: 0002
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_roles_audit"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

# Append-only like ledger_entries (0001): an operator's trail that an operator could edit proves nothing.
_SQLITE_TRIGGERS = [
    """CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
       BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END""",
    """CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
       BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END""",
]
_POSTGRES_TRIGGERS = [
    """CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$""",
    """CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
       FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()""",
]


def upgrade() -> None:
    op.add_column("users", sa.Column("role", sa.String(16), server_default="player", nullable=False))
    op.add_column("users", sa.Column("frozen", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.execute("UPDATE users SET role = 'admin' WHERE is_admin")
    # SQLite >= 3.35 drops a plain column in place (no table copy, so ledger_entries' foreign keys stay).
    op.drop_column("users", "is_admin")
    op.create_table(
        "audit_log",
        sa.Column("id", BigId, primary_key=True),
        sa.Column("actor_id", sa.Integer(), sa.ForeignKey("users.id", name="fk_audit_log_actor_id"),
                  nullable=True),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("target_type", sa.String(20), nullable=False),
        sa.Column("target_id", sa.String(64), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    )
    op.create_index("ix_audit_log_target", "audit_log", ["target_type", "target_id"])
    op.create_index("ix_audit_log_actor_id", "audit_log", ["actor_id"])
    op.create_index("ix_audit_log_action", "audit_log", ["action"])
    dialect = op.get_bind().dialect.name
    for statement in {"sqlite": _SQLITE_TRIGGERS, "postgresql": _POSTGRES_TRIGGERS}.get(dialect, []):
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS audit_log_append_only ON audit_log")
        op.execute("DROP FUNCTION IF EXISTS audit_log_append_only()")
    op.drop_index("ix_audit_log_action", table_name="audit_log")
    op.drop_index("ix_audit_log_actor_id", table_name="audit_log")
    op.drop_index("ix_audit_log_target", table_name="audit_log")
    op.drop_table("audit_log")
    op.add_column("users", sa.Column("is_admin", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.execute("UPDATE users SET is_admin = (role = 'admin')")
    op.drop_column("users", "frozen")
    op.drop_column("users", "role")
