"""Table actor settings (timers, limits).  Environment: ``TABLE_*`` (e.g. ``TABLE_HAND_PAUSE_SECONDS=2``).

The per-table rule timers (discard and claim seconds, RULES.md §8) are table options; these are the
server's own: pauses, bot pacing, grace, the claim-timing hold and the socket limits.  Tests set the
delays to 0 and drive time with a FakeClock; the bench shrinks everything with ``time_scale``.
"""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.bots import DEFAULT_BOT_LEVEL, BotLevel


class TableSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="TABLE_", env_file=".env", env_file_encoding="utf-8",
                                      extra="ignore")

    # Wait this long for every human to connect before the first hand (absent players are auto-played).
    join_seconds: float = Field(default=20.0, ge=0)
    hand_pause_seconds: float = Field(default=5.0, ge=0)  # between hands
    bot_delay_seconds: float = Field(default=0.8, ge=0)  # a practice bot's "thinking" time
    auto_play_delay_seconds: float = Field(default=1.0, ge=0)  # 托管 and disconnected seats
    # Timing side channel (server-lessons §7.4): what follows a discard (or a kong others may rob) is held
    # until at least this long after the discard was sent, whether or not anybody could claim.
    claim_hold_seconds: float = Field(default=1.0, ge=0)
    grace_seconds: float = Field(default=0.5, ge=0)  # accepted after a deadline, for the round trip
    time_scale: float = Field(default=1.0, gt=0, le=1)  # multiplies the rule timers (bench: shrink them)
    timeouts_to_auto_play: int = Field(default=2, ge=1)  # RULES.md §8: 2 timeouts in a row → 托管
    # Who plays a seat on 托管 (timeouts or a disconnect): a bot level (issue 12: normal keeps the hand).
    auto_play_level: BotLevel = DEFAULT_BOT_LEVEL

    inbox_size: int = Field(default=256, ge=8)
    outbox_size: int = Field(default=256, ge=8)  # per socket; a socket that falls this far behind is closed
    rate_limit_messages: int = Field(default=100, ge=1)  # per socket per rate_limit_seconds → close 1008
    rate_limit_seconds: float = Field(default=20.0, gt=0)
    max_message_bytes: int = Field(default=4096, ge=256)  # → close 1009
    freeze_gc: bool = True  # gc.freeze() the long-lived heap at startup (see runtime.warm_up)
    # Full collections walk every live object (~1 µs each: ~0.2 s at 1,000 tables); the engine frees its
    # hands by reference counting, so they can be rare.  0 keeps Python's default (10).
    gc_gen2_threshold: int = Field(default=100, ge=0)
    settle_attempts: int = Field(default=3, ge=1)  # the settlement is idempotent (hand_key), so retry is safe
    # Snapshots (a connect or reconnect, and every ``resync``) per seat per resync_window_seconds: more
    # resyncs get the ``resync_limited`` error, more reconnects are closed with 4029 (issue 9 item 7).
    resyncs_per_window: int = Field(default=20, ge=1)
    resync_window_seconds: float = Field(default=10.0, gt=0)
