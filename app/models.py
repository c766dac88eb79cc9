"""Database tables.  Every change here needs an Alembic migration in migrations/versions/."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
    func,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# SQLite only auto-increments a column declared exactly INTEGER PRIMARY KEY.
BigId = BigInteger().with_variant(Integer(), "sqlite")


def _now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    # Named constraints, so migrations can refer to them and autogenerate matches on both backends.
    metadata = MetaData(
        naming_convention={
            "uq": "uq_%(table_name)s_%(column_0_name)s",
            "ck": "ck_%(table_name)s_%(constraint_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s",
        }
    )


class User(Base):
    __tablename__ = "users"
    __table_args__ = (
        # The last line of defence: no code path, however buggy, can leave an account in debt.
        CheckConstraint("coins >= 0", name="coins_nonnegative"),
        CheckConstraint("rank_points >= 0", name="rank_points_nonnegative"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(20))
    # NFKC + casefold of the username, so "Alice" and "ａｌｉｃｅ" cannot both exist.
    username_key: Mapped[str] = mapped_column(String(20), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    # Denormalised from the ledger for locking and reads; the ledger's last balance_after always equals it.
    coins: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    rank_points: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")  # 積分
    # player / operator / admin (app.services.roles.Role); granted only by an admin or `python -m app make-admin`.
    role: Mapped[str] = mapped_column(String(16), default="player", server_default="player")
    # A frozen account cannot sit down or register for tournaments (app.services.admin.set_frozen).
    frozen: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The client's language for this account ("zh-Hans", "zh-Hant", "en"; app.game.names.LANGUAGES), so it
    # follows the player to another browser.  NULL until the player picks one: the browser's own choice stands.
    language: Mapped[str | None] = mapped_column(String(8), default=None)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=_now, server_default=func.now()
    )


    @property
    def is_admin(self) -> bool:
        return self.role == "admin"


class LoginSession(Base):
    """One login (登入): the server's record of a session token, so it can be listed and revoked.

    Only a SHA-256 digest of the token is stored: the token itself is 256 random bits, so a fast hash is
    enough, and a leaked copy of this table logs nobody in.  A session ends at ``expires_at`` (the absolute
    lifetime), after ``Settings.session_idle_seconds`` without use (``last_seen_at``, updated at most once a
    ``app.services.sessions.LAST_SEEN_EVERY``), or when revoked (logout, password change, freeze, an admin).
    """

    __tablename__ = "login_sessions"
    __table_args__ = (Index("ix_login_sessions_user_id", "user_id"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)  # public: shown to its owner, never secret
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    revoked_reason: Mapped[str | None] = mapped_column(String(32), default=None)
    user_agent: Mapped[str] = mapped_column(String(200), default="")
    address: Mapped[str] = mapped_column(String(64), default="")


class Commitment(Base):
    """What a player is committed to now (app.services.commitments): at most one per account, so nobody sits
    at two tables, queues while seated, or takes coins out of reach by registering mid-hand.

    ``user_id`` is the primary key: a second commitment cannot be written, whatever the process or the race.
    """

    __tablename__ = "commitments"
    __table_args__ = (
        CheckConstraint("kind IN ('seat', 'queue', 'tournament')", name="kind"),
        Index("ix_commitments_kind_ref", "kind", "ref"),
    )

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(16))
    # What it is to: the table id (seat), the queue's key (queue), the tournament id (tournament).
    ref: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=_now, server_default=func.now()
    )


class Hand(Base):
    """One played hand: enough to replay it (seed, actions) and to audit its settlement."""

    __tablename__ = "hands"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    # Chosen by the table actor; settling the same key twice is a no-op.
    hand_key: Mapped[str] = mapped_column(String(200), unique=True)
    table_id: Mapped[str | None] = mapped_column(String(64))
    variant: Mapped[str] = mapped_column(String(16))
    room: Mapped[str | None] = mapped_column(String(16))  # None for practice tables
    practice: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    seed: Mapped[str | None] = mapped_column(Text)
    commitment: Mapped[str | None] = mapped_column(String(128))
    seats: Mapped[list[Any]] = mapped_column(JSON)  # user id per seat, null for a bot
    actions: Mapped[list[Any]] = mapped_column(JSON)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    # What the settlement did (coin and 積分 deltas per seat, forfeits), returned again on a repeat call.
    settlement: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=_now, server_default=func.now()
    )


class LedgerEntry(Base):
    """Append-only: one row per change of one account's coins or 積分.  Never updated, never deleted."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        CheckConstraint("asset IN ('coins', 'rank_points')", name="asset"),
        CheckConstraint("balance_after >= 0", name="balance_nonnegative"),
        Index("ix_ledger_entries_user_id_id", "user_id", "id"),
        Index("ix_ledger_entries_hand_id", "hand_id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    asset: Mapped[str] = mapped_column(String(16), default="coins", server_default="coins")
    delta: Mapped[int] = mapped_column(BigInteger)
    balance_after: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(String(32))
    # Unique, so a retried write (a settlement, a grant, an admin click) can never apply twice.
    idempotency_key: Mapped[str] = mapped_column(String(200), unique=True)
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hands.id"))
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))  # the admin, for adjustments
    note: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=_now, server_default=func.now()
    )


class AuditEntry(Base):
    """Append-only: one row per operator or admin act (who, what, on what, before / after, why, when).

    Written in the same transaction as the change it records; UPDATE and DELETE fail (triggers).
    """

    __tablename__ = "audit_log"
    __table_args__ = (
        Index("ix_audit_log_target", "target_type", "target_id"),
        Index("ix_audit_log_actor_id", "actor_id"),
        Index("ix_audit_log_action", "action"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    # None when the act came from the command line (python -m app make-admin / tournament ...).
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    action: Mapped[str] = mapped_column(String(40))
    target_type: Mapped[str] = mapped_column(String(20))
    target_id: Mapped[str] = mapped_column(String(64))
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    reason: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=_now, server_default=func.now()
    )


class LiveTable(Base):
    """A table with a game in play: what a restarted (or another) process needs to resume it.

    One row per running game (牌局), written by the process that owns the table.  Every write is guarded by
    ``fence``: the owner's fencing token, so a paused former owner can never write after another process
    took the table over (``app.tables.durability.journal``).  The row goes when the game ends.
    """

    __tablename__ = "live_tables"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(String(16))
    fence: Mapped[int] = mapped_column(BigInteger, default=1, server_default="1")
    room: Mapped[str | None] = mapped_column(String(16))  # None for practice tables
    variant: Mapped[str] = mapped_column(String(16))
    practice: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[Any]] = mapped_column(JSON)  # user id per seat (null: a bot seat)
    seat_names: Mapped[list[Any]] = mapped_column(JSON)
    bots: Mapped[list[Any]] = mapped_column(JSON)
    # The match (一將): dealer, 連莊 streak, 圈 (round wind), hands played, and the table's running totals.
    dealer: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    dealer_streak: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    round_wind: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    hands_played: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    voided: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    points: Mapped[list[Any]] = mapped_column(JSON)
    coins: Mapped[list[Any]] = mapped_column(JSON)
    # The game's first commitment, which drew the first dealer (docs/rules/common.md#first-dealer); null until
    # the first hand closes (a first hand resumed from the journal draws from its own commitment).
    first_commitment: Mapped[str | None] = mapped_column(String(128))
    # The current hand: its number, the wall's seed, salt and commitment, and whether it is closed
    # (settled or voided).  ``log_len`` counts its actions in ``table_actions``; ``v`` is the last event number.
    hand_no: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    seed: Mapped[str | None] = mapped_column(Text)
    salt: Mapped[str | None] = mapped_column(Text)
    commitment: Mapped[str | None] = mapped_column(String(128))
    hand_closed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    log_len: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    v: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    # The closed hand's ``hand_result`` message, sent again to whoever (re)connects before the next deal.
    last_result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # The seats on 托管 (auto-play), so a resumed table keeps them on it (null: none).
    auto_seats: Mapped[list[Any] | None] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=_now, server_default=func.now()
    )


class TableAction(Base):
    """The action log of a live table's current hand: one row per accepted action, in order (``seq``)."""

    __tablename__ = "table_actions"

    table_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    hand_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)


class Tournament(Base):
    """A coin-room tournament (比賽, docs/rules/rooms.md#tournaments); its state lives here and survives restarts.

    ``pool_user_id`` is the tournament's own system account: fees, the guarantee and prizes move through it
    as ordinary ledger entries (app.tournaments.service).
    """

    __tablename__ = "tournaments"
    __table_args__ = (Index("ix_tournaments_state", "state"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    room: Mapped[str] = mapped_column(String(16))
    variant: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)  # the tables' options; "rounds" = 圈 per game
    hands_per_round: Mapped[int | None] = mapped_column(Integer)  # None: a whole game per round
    rounds: Mapped[int] = mapped_column(Integer)
    entry_fee: Mapped[int] = mapped_column(BigInteger)
    player_limit: Mapped[int] = mapped_column(Integer)
    prize_split: Mapped[list[Any]] = mapped_column(JSON)  # whole percentages per place, summing to 100
    guarantee: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    opens_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    state: Mapped[str] = mapped_column(String(16))
    current_round: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    pool_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=_now, server_default=func.now()
    )
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class TournamentEntry(Base):
    """One player's registration and running total of tournament points."""

    __tablename__ = "tournament_entries"
    __table_args__ = (UniqueConstraint("tournament_id", "user_id", name="uq_tournament_entries_player"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    active: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # Frozen while the tournament ran: seated no more, paid nothing (app.tournaments.service.disqualify).
    disqualified: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    registrations: Mapped[int] = mapped_column(Integer, default=1, server_default="1")  # fee key suffix
    points: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    place: Mapped[int | None] = mapped_column(Integer)
    prize: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")


class TournamentGame(Base):
    """One table of one round: who sits where (None = a house bot) and, once over, the points scored."""

    __tablename__ = "tournament_games"
    __table_args__ = (
        UniqueConstraint("tournament_id", "round", "table_no", name="uq_tournament_games_table"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    round: Mapped[int] = mapped_column(Integer)
    table_no: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[Any]] = mapped_column(JSON)
    table_id: Mapped[str | None] = mapped_column(String(64))  # the live table in the registry
    # Tables this game was played at before and that an operator closed (the game started again): their
    # hands are recorded under their own ids, kept here (app.tournaments.service.set_table).
    closed_tables: Mapped[list[Any] | None] = mapped_column(JSON)
    finished: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    points: Mapped[list[Any] | None] = mapped_column(JSON)
    hands_played: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class Game(Base):
    """One finished game (牌局) at a table: its final standings, written once at game over
    (app.services.games), so a player who was not connected at the end still finds them.

    ``id`` is ``{table_id}:{game_id}``: the table's own game id is only unique at its table (its hands'
    keys begin the same way).  Per-seat lists are in seat order; a bot seat has no account, so its user id,
    積分 and titles are null.  Nothing hidden is kept: these are the totals every seat saw at game over.
    """

    __tablename__ = "games"
    __table_args__ = (CheckConstraint("kind IN ('practice', 'coin', 'tournament')", name="kind"),)

    id: Mapped[str] = mapped_column(String(80), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(64))
    variant: Mapped[str] = mapped_column(String(16))
    room: Mapped[str | None] = mapped_column(String(16))  # None for practice tables
    kind: Mapped[str] = mapped_column(String(16))  # app.game.rooms.GameKind
    options: Mapped[dict[str, Any]] = mapped_column(JSON)  # the table's options ("play again" opens the same)
    hands_limit: Mapped[int | None] = mapped_column(Integer)  # a short game's hands (None: its 圈)
    seats: Mapped[list[Any]] = mapped_column(JSON)  # user id per seat, null for a bot
    seat_names: Mapped[list[Any]] = mapped_column(JSON)
    bots: Mapped[list[Any]] = mapped_column(JSON)  # the bot seats
    reason: Mapped[str] = mapped_column(String(32))  # GameOverMessage.reason
    hands_played: Mapped[int] = mapped_column(Integer)
    points: Mapped[list[Any]] = mapped_column(JSON)  # net points per seat over the game
    coins: Mapped[list[Any]] = mapped_column(JSON)  # net coins per seat over the game
    places: Mapped[list[Any]] = mapped_column(JSON)  # 1 first; equal points share a place
    stood_up: Mapped[list[Any]] = mapped_column(JSON)  # seats that stood up at the end (below the entry)
    # 積分 and title (the 繁體 name, as the API's ``title``) per seat before the game's first hand and after its
    # last, read from the ledger at game over: the title a past game earned stays as it was.
    rank_before: Mapped[list[Any]] = mapped_column(JSON)
    rank_after: Mapped[list[Any]] = mapped_column(JSON)
    titles_before: Mapped[list[Any]] = mapped_column(JSON)
    titles_after: Mapped[list[Any]] = mapped_column(JSON)
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class GamePlayer(Base):
    """Who played a finished game: one row per seated account, so "my games" is one index read."""

    __tablename__ = "game_players"
    __table_args__ = (Index("ix_game_players_user_id_ended_at", "user_id", "ended_at"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # the game's, for the index's order


class Notice(Base):
    """A notice to every player (公告): maintenance at 03:00, a tournament starting.

    Shown from ``starts_at`` until ``ends_at`` in the player's language (``text``: ``zh_hans``, ``zh_hant``,
    ``en``); every lobby and table socket hears it when it starts (``app.lobby.notices``).  Ending one early
    moves its ``ends_at`` to that moment and marks it ``ended_early``; rows are never deleted.
    """

    __tablename__ = "notices"
    __table_args__ = (Index("ix_notices_ends_at", "ends_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    text: Mapped[dict[str, str]] = mapped_column(JSON)
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ends_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now, server_default=func.now())
    ended_early: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class AccountNote(Base):
    """A moderator's note on an account (備註): who wrote it, when, and what.  Never edited; each write is
    also an audit entry (``note.add``), so the note and its record commit together (app.services.notes)."""

    __tablename__ = "account_notes"
    __table_args__ = (Index("ix_account_notes_user_id_id", "user_id", "id"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))  # the account the note is about
    author_id: Mapped[int] = mapped_column(ForeignKey("users.id"))  # the admin who wrote it
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=_now, server_default=func.now()
    )


class TournamentSchedule(Base):
    """A recurring tournament (定期比賽): a tournament's settings and when it recurs (app.tournaments.schedules).

    The rule and its zone are stored (daily or weekly, a local wall-clock time, an IANA zone), never the next
    UTC instant: each occurrence is computed from them, so it stays at its local time across DST changes.
    """

    __tablename__ = "tournament_schedules"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)  # the tournament body, without its times
    frequency: Mapped[str] = mapped_column(String(8))  # daily / weekly
    weekdays: Mapped[list[Any]] = mapped_column(JSON)  # weekly: "MO".."SU"; daily: empty
    local_time: Mapped[str] = mapped_column(String(5))  # "HH:MM", in ``timezone``
    timezone: Mapped[str] = mapped_column(String(64))  # an IANA zone, e.g. "Asia/Taipei"
    lead_minutes: Mapped[int] = mapped_column(Integer)  # each occurrence is created this long before its start
    paused: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=_now, server_default=func.now()
    )
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


class TournamentOccurrence(Base):
    """One occurrence of a schedule, claimed by the director that creates its tournament.  The primary key
    (schedule, occurrence) is what makes it exactly once, whichever process gets there first."""

    __tablename__ = "tournament_occurrences"

    schedule_id: Mapped[int] = mapped_column(ForeignKey("tournament_schedules.id"), primary_key=True)
    # The occurrence's start as its UTC instant in ISO 8601 ("2026-12-05T12:00:00+00:00"): a text key, the
    # same on every backend.
    occurrence: Mapped[str] = mapped_column(String(32), primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=_now, server_default=func.now()
    )
