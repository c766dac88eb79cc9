"""One commitment per player (app.services.commitments): a seat, a quick-play queue entry or an unfinished
tournament registration, never two at once.  And a tournament entry can be disqualified (a player frozen
while the tournament runs: no further rounds, no prize); a tournament game keeps the tables an operator
closed under it (``closed_tables``).

Existing active registrations of unfinished tournaments become commitments (a player registered in
several keeps the oldest tournament's; issue 23 refuses overlapping registrations from now on).  Seats are
not carried over: tables still playing keep their players, and a seat's commitment is taken at the next sit.

Revision ID: 0008_commitments
Revises: 0006_live_tables_last_result
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_commitments"
down_revision: str | None = "0006_live_tables_last_result"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "commitments",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", name="fk_commitments_user_id"),
                  primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("ref", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.CheckConstraint("kind IN ('seat', 'queue', 'tournament')", name="ck_commitments_kind"),
    )
    op.create_index("ix_commitments_kind_ref", "commitments", ["kind", "ref"])
    op.add_column("tournament_entries",
                  sa.Column("disqualified", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column("tournament_games", sa.Column("closed_tables", sa.JSON(), nullable=True))
    op.execute(
        "INSERT INTO commitments (user_id, kind, ref) "
        "SELECT e.user_id, 'tournament', CAST(MIN(e.tournament_id) AS VARCHAR(64)) "
        "FROM tournament_entries e JOIN tournaments t ON t.id = e.tournament_id "
        "WHERE e.active AND t.state IN ('scheduled', 'registering', 'running') GROUP BY e.user_id"
    )


def downgrade() -> None:
    with op.batch_alter_table("tournament_entries") as batch:
        batch.drop_column("disqualified")
    with op.batch_alter_table("tournament_games") as batch:
        batch.drop_column("closed_tables")
    op.drop_index("ix_commitments_kind_ref", table_name="commitments")
    op.drop_table("commitments")
