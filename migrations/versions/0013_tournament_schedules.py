"""Recurring tournaments (issue 35 item 6): schedules (the settings, a daily or weekly rule, a local time in a
named zone) and the occurrences the director created, one per (schedule, occurrence).

Revision ID: 0013_tournament_schedules
Revises: 0012_account_notes
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_tournament_schedules"
down_revision: str | None = "0012_account_notes"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournament_schedules",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("frequency", sa.String(8), nullable=False),
        sa.Column("weekdays", sa.JSON(), nullable=False),
        sa.Column("local_time", sa.String(5), nullable=False),
        sa.Column("timezone", sa.String(64), nullable=False),
        sa.Column("lead_minutes", sa.Integer(), nullable=False),
        sa.Column("paused", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("created_by", sa.Integer(), sa.ForeignKey("users.id", name="fk_tournament_schedules_created_by"),
                  nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "tournament_occurrences",
        sa.Column("schedule_id", sa.Integer(),
                  sa.ForeignKey("tournament_schedules.id", name="fk_tournament_occurrences_schedule_id"),
                  primary_key=True),
        sa.Column("occurrence", sa.String(32), primary_key=True),
        sa.Column("tournament_id", sa.Integer(),
                  sa.ForeignKey("tournaments.id", name="fk_tournament_occurrences_tournament_id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_occurrences")
    op.drop_table("tournament_schedules")
