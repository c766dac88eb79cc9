"""Finished games: every game's final standings (places, points, coins, each seat's 積分 and title before and
after), written once at game over, so a player who was away at the end (or is on another device) sees them.

Games that ended before this migration have no record: nothing kept their standings but the browser.

Revision ID: 0010_games
Revises: 0009_login_sessions
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_games"
down_revision: str | None = "0009_login_sessions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(80), primary_key=True),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("room", sa.String(16), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("hands_limit", sa.Integer(), nullable=True),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("seat_names", sa.JSON(), nullable=False),
        sa.Column("bots", sa.JSON(), nullable=False),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("hands_played", sa.Integer(), nullable=False),
        sa.Column("points", sa.JSON(), nullable=False),
        sa.Column("coins", sa.JSON(), nullable=False),
        sa.Column("places", sa.JSON(), nullable=False),
        sa.Column("stood_up", sa.JSON(), nullable=False),
        sa.Column("rank_before", sa.JSON(), nullable=False),
        sa.Column("rank_after", sa.JSON(), nullable=False),
        sa.Column("titles_before", sa.JSON(), nullable=False),
        sa.Column("titles_after", sa.JSON(), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('practice', 'coin', 'tournament')", name="ck_games_kind"),
    )
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.String(80), sa.ForeignKey("games.id", name="fk_game_players_game_id"),
                  primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", name="fk_game_players_user_id"),
                  nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_game_players_user_id_ended_at", "game_players", ["user_id", "ended_at"])


def downgrade() -> None:
    op.drop_index("ix_game_players_user_id_ended_at", table_name="game_players")
    op.drop_table("game_players")
    op.drop_table("games")
