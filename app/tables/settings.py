"""Table actor settings (timers, limits).  Environment: ``TABLE_*`` (e.g. ``TABLE_HAND_PAUSE_SECONDS=2``).

The per-table rule timers (discard and claim seconds, docs/rules/timing.md#room-options) are table options; these are the
server's own: pauses, bot pacing, grace, the claim-timing hold and the socket limits.  Tests set the
delays to 0 and drive time with a FakeClock; the bench shrinks everything with ``time_scale``.
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.bots import DEFAULT_BOT_LEVEL, BotLevel


class PracticePace(NamedTuple):
    """A practice table's pace: factors of ``bot_delay_seconds`` and ``claim_hold_seconds``."""

    bot_delay: float
    # The hold stays the same after every discard whoever could claim (it still hides that); only shorter.
    claim_hold: float


# Practice tables: how fast their bots answer and how long each discard is held (the one declaration).  At
# the defaults a 4-player table spends ~4 s of a turn cycle in holds and ~2.4 s in bots' thinking
# (docs/server.md); "fast" is 雀魂's pace: about 0.5 s per bot discard.
BotSpeed = Literal["normal", "fast"]
BOT_SPEEDS: Final[dict[str, PracticePace]] = {  # one entry per BotSpeed (a test checks)
    "normal": PracticePace(bot_delay=1.0, claim_hold=1.0),
    "fast": PracticePace(bot_delay=0.25, claim_hold=0.35),
}
DEFAULT_BOT_SPEED: Final[BotSpeed] = "normal"
PRACTICE_HANDS_MAX = 16  # a short practice game: at most this many hands (PracticeCreateIn.hands)


class TableSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="TABLE_", env_file=".env", env_file_encoding="utf-8",
                                      extra="ignore")

    join_seconds: float = Field(default=20.0, ge=0, description="wait this long for every human to connect "
                                "before the first hand (absent players are auto-played)")
    hand_pause_seconds: float = Field(default=5.0, ge=0, description="pause between hands")
    bot_delay_seconds: float = Field(default=0.8, ge=0, description="a bot's thinking time (×0.5-1.5) before a move others "
                                     "see; a bot passes a claim at once")
    auto_play_delay_seconds: float = Field(default=1.0, ge=0, description="how soon 托管 and disconnected "
                                           "seats act")
    # Timing side channel (server-lessons §7.4).
    claim_hold_seconds: float = Field(default=1.0, ge=0, description="what follows a discard (or a robbable "
                                      "kong) is held this long after it, whether or not anybody could claim")
    grace_seconds: float = Field(default=0.5, ge=0, description="accepted after a deadline, for the round trip")
    time_scale: float = Field(default=1.0, gt=0, le=1, description="multiplies the rule timers (bench: shrink "
                              "them)")
    timeouts_to_auto_play: int = Field(default=2, ge=1, description="timeouts in a row that put a seat on 托管 "
                                       "(docs/rules/timing.md#auto-play)")
    auto_play_level: BotLevel = Field(default=DEFAULT_BOT_LEVEL, description="the bot level that plays a seat "
                                      "on 托管 (timeouts, a disconnect or a freeze): an operator setting, not a "
                                      "room option (docs/rules/timing.md#auto-play F-6)")

    inbox_size: int = Field(default=256, ge=8, description="a table's command queue; a full one answers "
                            "`busy`")
    outbox_size: int = Field(default=256, ge=8, description="messages queued per socket; a socket that falls "
                             "this far behind is closed (1013)")
    rate_limit_messages: int = Field(default=100, ge=1, description="messages per socket per "
                                     "rate_limit_seconds; more closes it (1008)")
    rate_limit_seconds: float = Field(default=20.0, gt=0, description="the message rate limit's window")
    max_message_bytes: int = Field(default=4096, ge=256, description="a bigger client message closes the "
                                   "socket (1009)")
    freeze_gc: bool = Field(default=True, description="gc.freeze() the long-lived heap at startup "
                            "(runtime.warm_up)")
    # Full collections walk every live object (~1 µs each: ~0.2 s at 1,000 tables); the engine frees its
    # hands by reference counting, so they can be rare.
    gc_gen2_threshold: int = Field(default=100, ge=0, description="gc threshold2; 0 keeps Python's default "
                                   "(10)")
    # Used when collections are not paced (gc_young_interval_seconds 0).  Each hand's state lives for minutes,
    # so it survives young collections and is walked again by every older one: at 2,000 tables Python's 700
    # spent ~13 % of the time in GC pauses (bench/server_bench.py).
    gc_gen0_threshold: int = Field(default=10_000, ge=0, description="gc threshold0; 0 keeps Python's "
                                   "default (700)")
    # CPython counts allocations minus deallocations against threshold0, and a busy server frees old hands as
    # fast as it builds new ones: the young generation then grows unchecked (~76,000 objects at 1,500 tables,
    # 364 ms for one young collection at 3,000) until the count finally trips.  On a clock it stays small.
    gc_young_interval_seconds: float = Field(default=0.1, ge=0, le=10, description="collect the young and "
                                             "middle generations this often, so each pause stays short; 0: "
                                             "Python's own counts decide")
    gc_full_interval_seconds: float = Field(default=600.0, ge=10, description="with paced collections: a full "
                                            "collection this often (it walks every live object: 0.4-0.5 s at "
                                            "1,500 tables), for cyclic garbage that outlived the young ones")
    settle_attempts: int = Field(default=5, ge=1, description="tries to settle a hand before voiding it (the "
                                 "settlement is idempotent, so retrying is safe); 0.5 s between the first two, "
                                 "doubling: 7.5 s of database outage at 5")
    end_record_seconds: float = Field(default=600.0, ge=0, description="how long a finished game keeps trying "
                                      "to record its end in the journal while the database is away (0.5 s "
                                      "between the first tries, doubling to 8 s); the table's lease is held "
                                      "meanwhile, so no process resumes a game that is over")
    ended_linger_seconds: float = Field(default=10.0, ge=0, le=120, description="after game over the table "
                                        "stays this long to answer a seat or spectator that reconnects (its "
                                        "socket dropped as the game ended, or its reconnect queued behind the "
                                        "last move) with the final snapshot, the last hand's result and "
                                        "`game_over`, then close 1000; 0: such a socket is refused 4004 and "
                                        "never sees how the game ended")
    # Issue 9 item 7: 59 reconnecting sockets were served 5,841 resyncs in 5 s.
    resyncs_per_window: int = Field(default=20, ge=1, description="snapshots per seat (connects and `resync`s) "
                                    "per resync_window_seconds; more resyncs get `resync_limited`, more "
                                    "reconnects are closed (4029)")
    resync_window_seconds: float = Field(default=10.0, gt=0, description="the snapshot limit's window")
    durable: bool = Field(default=True, description="journal every accepted action before its events are "
                          "sent, so a restart or crash resumes every hand (app.tables.durability.journal)")
    group_commit: bool = Field(default=True, description="durable tables: actions arriving while a journal "
                               "commit is in flight are committed together in the next one (each table still "
                               "sends only once its own actions are committed)")
    journal_writers: int = Field(default=2, ge=1, le=16, description="durable tables on Postgres: group "
                                 "commits in flight at once (SQLite: always 1)")
    # Issue 36: at production pace a table acts about once a second, so an idle writer committed nearly every
    # table turn alone (~1.4 writes per commit at 1,000 tables).  Waiting only on timers' writes (bots' moves,
    # claim windows closing: three in four writes at a practice table) cut the commits by ~60 % and the
    # server's CPU by ~8 %, and a player's own action still commits at once (TableJournal.write's ``urgent``),
    # so discard → event stays where it was (bench/results/throughput.md, "Server, second round").
    journal_gather_ms: float = Field(default=20.0, ge=0, le=100, description="durable tables on Postgres: a "
                                     "journal write no player is waiting on (a bot's move, a timer's) waits "
                                     "up to this long for other tables' writes, so one commit carries many "
                                     "tables' turns (ending on the last tick of the timer slack's grid inside "
                                     "that window, a turn of the loop the tables' timers wake it for anyway); "
                                     "a player's own action commits at once and takes them along.  0: every "
                                     "write commits at once")
    # Issue 36: at production pace 1,000 tables set ~1,300 timers a second, each due on its own millisecond, so
    # nearly every timer was a wake-up of its own (a system call, a context switch, a loop turn) and each bot's
    # move a journal write gathered alone.  With the slack, timers due within one slack fire together:
    # −10 % of the server's CPU (commits 240 → 186 a second) for +0.3 ms of discard → event p50
    # (bench/results/throughput.md, "fourth round").  A timer due within ten slacks keeps its exact time.
    timer_slack_ms: float = Field(default=10.0, ge=0, le=50, description="a table timer due at least ten times "
                                  "this far ahead (a bot's move, the claim hold's release, a turn's deadline) "
                                  "fires on the next multiple of it, so many tables' timers share one turn of "
                                  "the event loop: at most this late, never early.  0: every timer fires on "
                                  "its own time")
    # A commit waits for its WAL flush, and a shared cloud disk's flush can take hundreds of ms at p99
    # (bench/journal_bench.py on the bench machine: p50 0.9 ms, p99 29-499 ms): every seat waits for it.
    journal_synchronous_commit: bool = Field(default=True, description="durable tables on Postgres: each "
                                             "action-log commit waits for the WAL flush.  Off: a commit returns "
                                             "once Postgres holds it (a crash of this server loses nothing) and "
                                             "the flush follows within ~0.6 s, so a crash of Postgres itself "
                                             "may lose that last fraction of a second of actions (their tables "
                                             "resume from before them).  Settlements always wait")
    # aiosqlite runs every statement in its own thread: each hand-off waits for the GIL, up to the switch
    # interval (5 ms) while the event loop is busy, several times per commit (bench/results/durable.md).
    sqlite_switch_interval_ms: float = Field(default=0.5, ge=0, description="durable tables on SQLite: the "
                                             "interpreter's thread switch interval (sys.setswitchinterval), so "
                                             "the SQLite driver's thread gets the GIL soon while the event loop "
                                             "is busy; 0 keeps Python's 5 ms")
    resume_join_seconds: float = Field(default=10.0, ge=0, description="a table resumed after a restart waits "
                                       "this long for its players to reconnect before play goes on")
