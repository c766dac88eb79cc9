"""The one settings class.  Every value can be set from the environment (``DATABASE_URL``, ``PORT`` ...)."""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from app.quickplay.matching import WIDEST_SPREAD

PROJECT_ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER_SECRET = "change-me"
SECRET_KEY_MIN = 32  # characters, outside development


def _default_database_url() -> str:
    # An embedded database so `python -m app` works with nothing else installed.
    return f"sqlite+aiosqlite:///{PROJECT_ROOT / 'var' / 'mahjong.sqlite3'}"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    environment: Literal["development", "staging", "production"] = Field(
        default="development", description="outside development the server refuses the placeholder SECRET_KEY "
        f"or one shorter than {SECRET_KEY_MIN} characters")
    host: str = Field(default="127.0.0.1", description="where `python -m app` listens (the Docker image: 0.0.0.0)")
    port: int = Field(default=8000, ge=1, le=65535, description="where `python -m app` listens")
    # Behind a proxy (deploy/nginx.conf, deploy/nginx.local.conf): uvicorn takes the client's address from
    # X-Forwarded-For only on connections from these addresses; any other peer is taken as the client.
    forwarded_allow_ips: str = Field(default="127.0.0.1", description="the proxy's addresses, comma-separated "
                                     "IPs or networks (e.g. `127.0.0.1`, `172.28.0.10`): only from them is "
                                     "`X-Forwarded-For` believed.  `*` is refused: any client could then name "
                                     "its own address and dodge the per-IP limits")

    secret_key: str = Field(default=PLACEHOLDER_SECRET, description="keys the server's own signatures; at least "
                            f"{SECRET_KEY_MIN} random characters outside development")
    # Sessions (app.services.sessions): one row per login; the opaque token is the bearer token.
    session_idle_seconds: int = Field(default=2 * 24 * 3600, ge=300, le=30 * 24 * 3600, description="a session "
                                      "unused this long ends (a REST call or an open socket counts as use)")
    session_absolute_seconds: int = Field(default=7 * 24 * 3600, ge=600, le=90 * 24 * 3600, description="a "
                                          "session ends this long after login, used or not; a socket is then "
                                          "closed with 4401")
    session_cookie_secure: Literal["auto", "always", "never"] = Field(default="auto", description="the browser's "
                                                                      "session cookie (app.api.cookie_session) is "
                                                                      "Secure and named __Host-mj_session: auto, "
                                                                      "when the request came over https (behind a "
                                                                      "proxy: X-Forwarded-Proto from "
                                                                      "FORWARDED_ALLOW_IPS); always; never")
    ws_ticket_seconds: float = Field(default=20.0, ge=2, le=120, description="a WebSocket ticket from POST "
                                     "/api/ws-ticket must be used within this time (and only once)")
    ws_origins: Annotated[list[str], NoDecode] = Field(default_factory=list, description="origins (scheme://host"
                                                       "[:port], comma-separated) whose pages may open "
                                                       "WebSockets; empty: only this server's own origin. A "
                                                       "handshake without Origin (not a browser) is allowed")
    debug: bool = Field(default=False, description="show the traceback when the server cannot start (bad "
                        "DATABASE_URL, database or Redis down); off: one line naming the setting and the cause")

    database_url: str = Field(default_factory=_default_database_url, description="SQLAlchemy URL, e.g. "
                              "postgresql+asyncpg://user:pw@host/db; default: SQLite in <project>/var")
    migrate_on_startup: bool = Field(default=True, description="run Alembic to head when the app starts; turn "
                                     "off when a deploy step migrates instead")
    redis_url: str | None = Field(default=None, description="unset: lobby events fan out inside this process "
                                  "only; set: through Redis pub/sub, so every process's lobby sees every table")
    lobby_channel: str = Field(default="mahjong:lobby", description="the Redis pub/sub channel of the lobby")
    # Several processes (app.tables.cluster.cluster, docs/server.md "Several processes").
    cluster: bool = Field(default=True, description="with REDIS_URL and a Postgres DATABASE_URL, run as one of "
                          "several processes: each live table is leased to one process (a fencing token in every "
                          "journal write), sockets on any process are relayed to the table's owner, and a dead "
                          "owner's tables are taken over; off (or SQLite, or no Redis): one process")
    lease_seconds: float = Field(default=4.0, ge=0.5, le=60, description="a table's lease and a process's "
                                 "heartbeat last this long unless renewed (every third of it)")
    takeover_scan_seconds: float = Field(default=2.0, gt=0, le=60, description="how often each process "
                                         "takes over live tables whose lease is free: a dead owner's tables "
                                         "resume within lease_seconds, the take-over grace (two thirds of it) "
                                         "and this (about 9 s by default)")
    redis_prefix: str = Field(default="mahjong", description="prefix of the Redis keys and channels of table "
                              "leases and the relay (processes sharing one prefix share their tables)")
    node_name: str = Field(default="", max_length=32, pattern=r"^[a-z0-9_]*$", description="the name the proxy "
                           "routes this process's sockets by: `POST /api/ws-ticket?table=` answers the table's "
                           "owner's name as `node`, the client opens the socket with `?node=`, and the proxy "
                           "sends it to that process, so it needs no relay (docs/server.md \"Several "
                           "processes\"); empty: the proxy spreads sockets as it likes")

    # SIGTERM (a deploy): the server drains and exits in bounded time; the next start resumes every table.
    shutdown_seconds: float = Field(default=10.0, gt=0, le=300, description="on SIGTERM the server stops "
                                    "seating, sends `server_restarting`, closes sockets with 1001 and exits "
                                    "within this time, whatever happens (the journal keeps every hand)")
    restart_pause_seconds: float = Field(default=15.0, ge=0, le=3600, description="the expected pause "
                                         "announced to lobby and table sockets in `server_restarting`")

    welcome_grant: int = Field(default=50_000, ge=0, description="coins credited to a new account (a ledger "
                               "entry)")

    web_dir: Path = Field(default=PROJECT_ROOT / "web", description="served at / once it holds index.html")

    # Throttles (per process; 429 with Retry-After, docs/settings.md).  Login: every attempt counts against
    # the client's IP; failed attempts also count against the username, so guessing one account's password
    # from many addresses is slowed as well.
    login_per_ip: int = Field(default=20, ge=1, description="login attempts (and wrong current passwords on "
                              "POST /api/me/password) per IP per login_window_seconds")
    login_failures_per_user: int = Field(default=10, ge=1,
                                         description="failed logins and wrong current passwords per "
                                         "account per login_window_seconds")
    login_window_seconds: float = Field(default=60.0, gt=0, description="the login throttles' window")
    register_per_ip: int = Field(default=10, ge=1,
                                 description="registrations per IP per register_window_seconds")
    register_window_seconds: float = Field(default=3600.0, gt=0, description="the registration throttle's window")
    # argon2 is CPU-bound and runs in worker threads; leave a core to the event loop.
    password_hash_workers: int = Field(default=1, ge=1, le=64,
                                       description="argon2 hashes/verifications run at once (worker threads)")
    # Who may read GET /api/hands/{id}: its players and admins always; everyone logged in once the table
    # has closed when this is on (the seed and every action are revealed at the hand's end anyway).
    hands_public_after_close: bool = Field(default=False, description="any logged-in account may read a "
                                           "hand record once its table has closed")
    # Sockets (item 7): per account and per IP, lobby and table sockets together.
    max_body_bytes: int = Field(default=64 * 1024, ge=1024, le=16 * 1024 * 1024, description="the largest "
                                "request body accepted; a bigger one is answered 413 body_too_large unread")
    sockets_per_user: int = Field(default=8, ge=1, description="open WebSockets per account")
    sockets_per_ip: int = Field(default=64, ge=1, description="open WebSockets per IP")
    # Operations: the Prometheus endpoint and the log format (app.metrics, app.logs).
    metrics_enabled: bool = Field(default=True, description="serve GET /metrics (Prometheus text format)")
    log_format: Literal["text", "json"] = Field(
        default="text", description="json: one JSON line per log event, with table_id / hand_no when known")
    # The tournament director (app.tournaments.director): looks for due steps (open registration, start,
    # resume a running tournament's tables after a restart).
    tournament_director: bool = Field(default=True, description="run the tournament director in this process")
    tournament_tick_seconds: float = Field(default=5.0, gt=0, le=3600,
                                           description="how often the tournament director looks for due steps")
    # Several processes on one database: one director per tournament, by a Redis lease renewed every tick.
    tournament_lease_seconds: float = Field(default=30.0, gt=0, le=3600, description="with REDIS_URL, a "
                                            "process directs a tournament (seats its rounds, runs its tables) "
                                            "only while it holds the tournament's lease; renewed every tick, "
                                            "taken over by another process this long after the holder stops")

    # Quick play (快速開始, app.quickplay): matchmaking in waves, by rank (docs/server.md "Quick play").
    quickplay_matcher: bool = Field(default=True, description="run quick play's matcher in this process (with "
                                    "REDIS_URL only the holder of its lease forms tables)")
    quickplay_wave_seconds: float = Field(default=1.0, ge=0.05, le=30, description="how often the matcher "
                                          "forms tables from each pool (room × variant), ±20 % jitter; at once "
                                          "when a player queues")
    quickplay_rank_spread: int = Field(default=1, ge=0, le=WIDEST_SPREAD, description="how many titles "
                                       "(docs/rules/rooms.md#titles) apart a quick-play table's players may be at first")
    quickplay_spread_widen_seconds: float = Field(default=15.0, ge=1, le=600, description="every this long a "
                                                  "player waits, the spread they accept widens by one title, "
                                                  "up to the whole ladder")
    quickplay_lease_seconds: float = Field(default=5.0, ge=0.5, le=300, description="with REDIS_URL, one "
                                           "process runs the matcher while it holds this lease (renewed every "
                                           "wave); a claim older than twice this is resolved by the next holder")

    @model_validator(mode="after")
    def _matcher_lease_outlives_a_wave(self) -> Settings:
        # Renewed every wave: a lease shorter than twice a wave could lapse between renewals.
        if self.quickplay_lease_seconds <= 2 * self.quickplay_wave_seconds * 1.2:
            raise ValueError("QUICKPLAY_LEASE_SECONDS must be longer than 2.4 × QUICKPLAY_WAVE_SECONDS")
        return self

    @model_validator(mode="after")
    def _lease_outlives_a_tick(self) -> Settings:
        # A lease shorter than the tick would lapse between renewals and let a second director in.
        if self.tournament_lease_seconds <= self.tournament_tick_seconds:
            raise ValueError("TOURNAMENT_LEASE_SECONDS must be longer than TOURNAMENT_TICK_SECONDS")
        return self

    @model_validator(mode="after")
    def _idle_within_absolute(self) -> Settings:
        if self.session_idle_seconds > self.session_absolute_seconds:
            raise ValueError("SESSION_IDLE_SECONDS must not be longer than SESSION_ABSOLUTE_SECONDS")
        return self

    @field_validator("ws_origins", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip().rstrip("/") for part in value.split(",") if part.strip()]
        return value

    @field_validator("forwarded_allow_ips")
    @classmethod
    def _only_named_proxies(cls, value: str) -> str:
        parts = [part.strip() for part in value.split(",") if part.strip()]
        if "*" in parts:
            raise ValueError("FORWARDED_ALLOW_IPS must name the proxy's addresses, never *: any client could "
                             "write its own X-Forwarded-For")
        for part in parts:
            try:
                ipaddress.ip_network(part, strict=False)
            except ValueError:
                raise ValueError(f"FORWARDED_ALLOW_IPS: {part!r} is not an IP address or network") from None
        return ",".join(parts)

    @field_validator("redis_url", mode="before")
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        # docker-compose and .env files often carry REDIS_URL= with no value.
        return None if value == "" else value

    @model_validator(mode="after")
    def _refuse_placeholder_secret(self) -> Settings:
        # Anyone who knows the placeholder could mint tokens for any account, admins included.
        if self.environment != "development" and (
            self.secret_key == PLACEHOLDER_SECRET or len(self.secret_key) < SECRET_KEY_MIN
        ):
            raise ValueError(
                f"SECRET_KEY must be set to a random value of at least {SECRET_KEY_MIN} characters when "
                f"ENVIRONMENT={self.environment}"
            )
        return self

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


@lru_cache
def get_settings() -> Settings:
    return Settings()
