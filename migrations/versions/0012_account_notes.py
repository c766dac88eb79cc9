"""Moderators' notes on accounts (issue 35 item 4): who wrote what about an account, and when.

Revision ID: 0012_account_notes
Revises: 0011_notices
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_account_notes"
down_revision: str | None = "0011_notices"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "account_notes",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", name="fk_account_notes_user_id"),
                  nullable=False),
        sa.Column("author_id", sa.Integer(), sa.ForeignKey("users.id", name="fk_account_notes_author_id"),
                  nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    )
    op.create_index("ix_account_notes_user_id_id", "account_notes", ["user_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_account_notes_user_id_id", table_name="account_notes")
    op.drop_table("account_notes")
