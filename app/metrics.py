"""Prometheus metrics (``GET /metrics``, text format) with prometheus-client: the one declaration.

Every metric is declared here once, with its help text and the values each label may take; docs/metrics.md is
generated from ``CATALOGUE`` (``app.docgen``), and tests check that a scrape after a played hand and a
tournament shows every documented metric.  Naming follows Prometheus: units as suffixes (``_seconds``,
``_coins``), counters end in ``_total`` (prometheus-client adds it), label sets are bounded (route templates,
never raw paths; status classes; enum values).

Hot paths (a message in or out, an action) must cost one plain ``inc``/``observe``: label children are bound
here at import (the ``*_BY_*`` dicts and named children), never looked up per call; the per-message counters
are ``LoopCounter`` ints, without prometheus-client's lock.  What is a *state* of the
process — live tables, seats, inbox depth, a table that stopped moving — is read when scraped by
``app.monitoring.collector.AppCollector``; its metrics are declared here too (``kind="gauge (scrape)"``).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily
from prometheus_client.registry import Collector

from app.game.rooms import GameKind, RoomKey
from app.game.variants import VariantKey
from app.services.errors import ErrorCode
from engine.scoring.situation import WinKind

REGISTRY = CollectorRegistry(auto_describe=True)
_SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
_WAIT_SECONDS = (1.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0)
_GC_SECONDS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


@dataclass(frozen=True)
class MetricDoc:
    """One documented metric: its exposed name, kind, meaning and labels with the values they take."""

    name: str
    kind: str
    help: str
    group: str
    labels: dict[str, str] = field(default_factory=dict)  # label → its values, as the doc says them

    def exposed(self) -> str:
        """The name a scrape shows (counters get ``_total``)."""
        return self.name + "_total" if self.kind == "counter" else self.name


CATALOGUE: list[MetricDoc] = []
_group = ""


def _values(values: Sequence[str]) -> str:
    return ", ".join(f"`{v}`" for v in values)


def _doc(name: str, kind: str, help: str, labels: dict[str, Sequence[str] | str] | None) -> None:
    CATALOGUE.append(MetricDoc(name, kind, help, _group, {
        k: v if isinstance(v, str) else _values(v) for k, v in (labels or {}).items()}))


def counter(name: str, help: str, labels: dict[str, Sequence[str] | str] | None = None) -> Counter:
    _doc(name, "counter", help, labels)
    return Counter(name, help, list(labels or ()), registry=REGISTRY)


def gauge(name: str, help: str, labels: dict[str, Sequence[str] | str] | None = None) -> Gauge:
    _doc(name, "gauge", help, labels)
    return Gauge(name, help, list(labels or ()), registry=REGISTRY)


def histogram(name: str, help: str, buckets: Sequence[float],
              labels: dict[str, Sequence[str] | str] | None = None) -> Histogram:
    _doc(name, "histogram", help, labels)
    return Histogram(name, help, list(labels or ()), buckets=buckets, registry=REGISTRY)


class LoopCounter:
    """One series of a per-message counter: a plain int.  It is bumped only on the event loop's thread (and
    read there at scrape), so it needs none of prometheus-client's per-``inc`` lock (measured on the shared,
    loaded development machine: 1.4-3.2 µs a locked ``inc``, 0.13 µs this one)."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0

    def inc(self, amount: int = 1) -> None:
        self.value += amount


class _LoopCounters(Collector):
    def __init__(self, name: str, help: str, label: str, children: dict[str, LoopCounter]) -> None:
        self.name, self.help, self.label, self.children = name, help, label, children

    def collect(self) -> Any:
        family = CounterMetricFamily(self.name, self.help, labels=[self.label])
        for value, child in self.children.items():
            family.add_metric([value], child.value)
        yield family


def loop_counter(name: str, help: str, label: str, values: Sequence[str]) -> dict[str, LoopCounter]:
    """A counter for the hottest paths (a message in or out), one label: ``{value: LoopCounter}``."""
    _doc(name, "counter", help, {label: values})
    children = {value: LoopCounter() for value in values}
    REGISTRY.register(_LoopCounters(name, help, label, children))
    return children


def scraped(name: str, help: str, labels: dict[str, Sequence[str] | str] | None = None) -> MetricDoc:
    """A gauge computed at scrape time by the app's collector (``app.monitoring.collector``)."""
    _doc(name, "gauge (scrape)", help, labels)
    return CATALOGUE[-1]


def bind(metric: Any, *values: Sequence[str]) -> dict[Any, Any]:
    """Every child of a labelled metric, bound now: ``{value or (values…): child}`` (so each series is exported
    from the start, at 0, and a hot path only indexes a dict)."""
    children = {}
    for combo in product(*values):
        children[combo[0] if len(combo) == 1 else combo] = metric.labels(*combo)
    return children


# -- bounded label values ------------------------------------------------------------------------------------

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "other")
STATUS_CLASSES = ("1xx", "2xx", "3xx", "4xx", "5xx")
SOCKET_KINDS = ("table", "lobby", "spectate", "relayed")
CLOSE_CODE_LABELS = ("1000", "1001", "1006", "1007", "1008", "1009", "1011", "1012", "1013", "4003", "4004", "4005", "4029",
               "4401", "other")
ROOM_KINDS = tuple(k.value for k in GameKind)
VARIANT_KEYS = tuple(v.value for v in VariantKey)
ROOM_KEYS = tuple(r.value for r in RoomKey)
OUTCOMES = ("draw", *(k.value for k in WinKind), "voided")
ACTIONS = ("discard", "other")
PROMPTS = ("turn", "split", "claim", "rob")  # app.tables.play.flow.PROMPT_KIND
AUTO_PLAY_REASONS = ("timeouts", "frozen", "disconnected", "chosen")
TOURNAMENT_STATES = ("scheduled", "registering", "running", "finished", "cancelled")
GENERATIONS = ("0", "1", "2")

# -- HTTP ----------------------------------------------------------------------------------------------------
_group = "HTTP"
_ROUTE = "route template (`/api/tables/{table_id}`), `static` for web files, `unmatched` for unknown paths"
HTTP_SECONDS = histogram("mahjong_http_request_duration_seconds", "HTTP request: received → response finished",
                         _SECONDS, {"route": _ROUTE, "method": METHODS})
HTTP_RESPONSES = counter("mahjong_http_responses", "HTTP responses sent",
                         {"route": _ROUTE, "method": METHODS, "status_class": STATUS_CLASSES})
ERRORS = counter("mahjong_errors", "refusals sent, by error code (REST and table sockets)",
                 {"code": "every `ErrorCode` value (docs/errors.md)"})
LOGIN_FAILURES = counter("mahjong_login_failures", "logins refused for a wrong name or password")

# -- WebSockets ----------------------------------------------------------------------------------------------
_group = "WebSockets"
SOCKETS_OPEN = gauge("mahjong_websockets_open", "accepted WebSockets open now, by kind (`relayed`: a table "
                     "socket held here for a table another process owns)", {"kind": SOCKET_KINDS})
SOCKET_CLOSES = counter("mahjong_websocket_closes", "WebSockets closed (or refused after the handshake), by close "
                        "code (docs/protocol.md)", {"kind": SOCKET_KINDS, "code": CLOSE_CODE_LABELS})
MESSAGES_IN_BY_KIND = loop_counter("mahjong_websocket_messages_received", "messages read from clients", "kind",
                                   SOCKET_KINDS)
MESSAGES_OUT_BY_KIND = loop_counter("mahjong_websocket_messages_sent", "messages written to clients", "kind",
                                    SOCKET_KINDS)
FRAME_ERRORS = counter("mahjong_ws_frame_errors", "WebSocket frames refused by the server before the app "
                       "(closed 1007), by kind", {"kind": ("invalid_utf8",)})
INVALID_UTF8_FRAMES = FRAME_ERRORS.labels(kind="invalid_utf8")
RELAY_RECORDS = loop_counter("mahjong_relay_records", "records relayed between processes through Redis",
                             "direction", ("sent", "received"))
RELAY_SECONDS = histogram("mahjong_relay_latency_seconds", "a relayed record: queued by one process → handled by "
                          "the other (wall clocks)", _SECONDS)

# -- tables and hands ----------------------------------------------------------------------------------------
_group = "Tables and hands"
HANDS = counter("mahjong_hands_finished", "hands finished and settled (`voided`: settlement failed)",
                {"variant": VARIANT_KEYS, "room_kind": ROOM_KINDS, "outcome": OUTCOMES})
SETTLEMENT_SECONDS = histogram("mahjong_settlement_seconds", "one hand's settlement transaction, retries included",
                               _SECONDS)
ACTION_SECONDS = histogram("mahjong_action_seconds", "a player's action: socket read → resulting events queued "
                           "for every seat (`discard`: discard → event latency)", _SECONDS, {"action": ACTIONS})
PROMPT_TIMEOUTS = counter("mahjong_prompt_timeouts", "prompts that timed out (the seat was played for)",
                          {"prompt": PROMPTS})
AUTO_PLAY = counter("mahjong_auto_play_activations", "players' seats put on 托管 (auto-play): after timeouts in a row, "
                    "by an admin's freeze, or because the player's socket left mid-game", {"reason": AUTO_PLAY_REASONS})
TABLES_LIVE = scraped("mahjong_tables_live", "tables in this process, by status",
                      {"status": ("waiting", "playing", "finished")})
SEATS_TAKEN = scraped("mahjong_seats_taken", "seats held by players (not bots)")
INBOX_DEPTH = scraped("mahjong_actor_inbox_depth", "commands waiting in table actors' inboxes",
                      {"stat": ("max", "total")})
HANDS_LAST_MINUTE = scraped("mahjong_hands_last_minute", "hands settled in the last 60 s (hands per minute)")
TABLE_STALLED = scraped("mahjong_table_stalled_seconds", "the longest any playing table here has gone without a "
                        "new event (as seen by scrapes)")

# -- durability ----------------------------------------------------------------------------------------------
_group = "Durability"
JOURNAL_SECONDS = histogram("mahjong_journal_write_seconds", "one journal batch: queued → committed", _SECONDS)
JOURNAL_BATCH = histogram("mahjong_journal_batch_units", "table writes committed together in one journal batch",
                          (1, 2, 4, 8, 16, 32, 64, 128, 256))
JOURNAL_ERRORS = counter("mahjong_journal_errors", "journal writes that failed (the database refused them)")
FENCING_REFUSALS = counter("mahjong_fencing_refusals", "journal writes refused because another process took the "
                           "table over (a stale fencing token)")
TAKEOVERS = counter("mahjong_lease_takeovers", "tables this process took over from the journal (their owner died, "
                    "stopped or lost its lease)")
LEASES_REASSERTED = counter("mahjong_lease_reasserted", "table leases Redis had lost (a restart, an outage) that "
                            "this process, their live owner, set again")
RELAY_RESYNCS = counter("mahjong_relay_resyncs", "relayed sockets put back in step with a fresh snapshot after the "
                        "relay lost frames (their sockets stayed open)")
REDIS_UNREACHABLE = gauge("mahjong_redis_unreachable", "1 while this process cannot reach Redis (its last round "
                          "trip failed: lease renewal, /readyz), else 0; always 0 without REDIS_URL")
RELAYED_SOCKETS = scraped("mahjong_cluster_relayed_sockets", "sockets relayed between processes: held here for "
                          "tables owned elsewhere, or held elsewhere for tables owned here",
                          {"side": ("held_here", "owned_here")})

# -- tournaments ---------------------------------------------------------------------------------------------
_group = "Tournaments"
TOURNAMENTS = gauge("mahjong_tournaments", "tournaments by state (refreshed by the director's tick)",
                    {"state": TOURNAMENT_STATES})
ENTRANTS = gauge("mahjong_tournament_entrants", "active entrants of the tournaments in each state",
                 {"state": TOURNAMENT_STATES})
TRANSITIONS = counter("mahjong_tournament_transitions", "tournaments moved to a state", {"state": TOURNAMENT_STATES})
PRIZES_PAID = counter("mahjong_tournament_prizes_paid_coins", "prize-pool coins paid out to winners")
RECORD_FAILURES = counter("mahjong_tournament_record_failures", "a finished tournament table whose points could not "
                          "be recorded (at a round's last table: its next round or the prize payout did not happen)")
GAME_RECORD_FAILURES = counter("mahjong_game_record_failures", "a finished game whose record (its final "
                               "standings, GET /api/games/{id}) could not be written after every retry")
DIRECTOR_TICK = gauge("mahjong_tournament_director_last_tick_timestamp_seconds",
                      "when this process's tournament director last finished a tick (Unix time)")

# -- quick play ----------------------------------------------------------------------------------------------
_group = "Quick play"
QUEUED = gauge("mahjong_quickplay_queued_players", "players waiting in the quick-play queue",
               {"room": ROOM_KEYS, "variant": VARIANT_KEYS})
QUEUE_WAIT = histogram("mahjong_quickplay_wait_seconds", "a matched player's wait: queued → seated",
                       _WAIT_SECONDS, {"room": ROOM_KEYS, "variant": VARIANT_KEYS})
MATCHES = counter("mahjong_quickplay_matches", "quick-play tables formed", {"room": ROOM_KEYS, "variant": VARIANT_KEYS})

# -- process -------------------------------------------------------------------------------------------------
_group = "Process"
LOOP_LAG = histogram("mahjong_event_loop_lag_seconds", "how late the event loop ran a timer due every "
                     "0.25 s (everything in this process waits that long)", _SECONDS)
GC_PAUSE = histogram("mahjong_gc_pause_seconds", "cyclic garbage-collector pauses, by generation (a full "
                     "collection stops every table)", _GC_SECONDS, {"generation": GENERATIONS})
PROCESS_START = gauge("mahjong_process_start_time_seconds", "when this server process started (Unix time): a "
                      "new value on the same instance is a restart, however quick (alerts MahjongProcessRestarted, "
                      "MahjongRestartLoop)")
PROCESS_START.set(time.time())  # this module is imported once per process, as it starts

# -- bound children (hot paths index these) ------------------------------------------------------------------
SOCKETS_OPEN_BY_KIND = bind(SOCKETS_OPEN, SOCKET_KINDS)
CLOSES = bind(SOCKET_CLOSES, SOCKET_KINDS, CLOSE_CODE_LABELS)
RELAY_SENT, RELAY_RECEIVED = RELAY_RECORDS["sent"], RELAY_RECORDS["received"]
HANDS_BY = bind(HANDS, VARIANT_KEYS, ROOM_KINDS, OUTCOMES)
ACTION_BY = bind(ACTION_SECONDS, ACTIONS)
TIMEOUTS_BY = bind(PROMPT_TIMEOUTS, PROMPTS)
AUTO_PLAY_BY = bind(AUTO_PLAY, AUTO_PLAY_REASONS)
TOURNAMENTS_BY = bind(TOURNAMENTS, TOURNAMENT_STATES)
ENTRANTS_BY = bind(ENTRANTS, TOURNAMENT_STATES)
TRANSITIONS_BY = bind(TRANSITIONS, TOURNAMENT_STATES)
QUEUED_BY = bind(QUEUED, ROOM_KEYS, VARIANT_KEYS)
QUEUE_WAIT_BY = bind(QUEUE_WAIT, ROOM_KEYS, VARIANT_KEYS)
MATCHES_BY = bind(MATCHES, ROOM_KEYS, VARIANT_KEYS)
ERRORS_BY = bind(ERRORS, [c.value for c in ErrorCode])
GC_PAUSE_BY = [GC_PAUSE.labels(g) for g in GENERATIONS]

_recent_hands: deque[float] = deque(maxlen=100_000)


def hand_settled(seconds: float, variant: str, kind: str, outcome: str) -> None:
    """Called once per settled hand with how long its settlement took, its variant, room kind and outcome
    (``draw`` or the ``WinKind``)."""
    HANDS_BY[variant, kind, outcome].inc()
    SETTLEMENT_SECONDS.observe(seconds)
    _recent_hands.append(time.monotonic())


def action_answered(kind: str, seconds: float) -> None:
    """A player's action (``ActionIn.kind``) took ``seconds`` from the socket to every seat's outbox."""
    (ACTION_BY["discard"] if kind == "discard" else ACTION_BY["other"]).observe(seconds)


def journal_committed(units: int, seconds: float) -> None:
    JOURNAL_BATCH.observe(units)
    JOURNAL_SECONDS.observe(seconds)


def journal_failed(fenced: bool) -> None:
    """A journal write failed: refused by its fencing token (``fenced``), or by the database."""
    (FENCING_REFUSALS if fenced else JOURNAL_ERRORS).inc()


def outcome(result: Any) -> str:
    """A finished hand's outcome label: ``draw``, or how it was won (``WinKind``)."""
    return "draw" if result.is_draw or result.win_kind is None else result.win_kind.value


def relay_received(stamp: float | None) -> None:
    """A relayed record arrived; ``stamp`` is the sender's wall clock when it queued the record."""
    RELAY_RECEIVED.inc()
    if stamp is not None:
        RELAY_SECONDS.observe(max(time.time() - stamp, 0.0))


def queue_sizes(sizes: dict[tuple[str, str], int]) -> None:
    """The quick-play queue's sizes per (room, variant), as the matcher read them from its store."""
    for key, child in QUEUED_BY.items():
        child.set(sizes.get(key, 0))


def quickplay_matched(room: str, variant: str, waits: list[float]) -> None:
    """A quick-play table was formed in ``room`` for ``variant``; ``waits``: each member's seconds queued."""
    MATCHES_BY[room, variant].inc()
    observe = QUEUE_WAIT_BY[room, variant].observe
    for seconds in waits:
        observe(max(seconds, 0.0))


def hand_voided(variant: str, kind: str) -> None:
    HANDS_BY[variant, kind, "voided"].inc()


def socket_closed(kind: str, code: int | None) -> None:
    """One socket of ``kind`` closed with ``code`` (codes outside ``CLOSE_CODE_LABELS`` count as ``other``)."""
    key = str(code or 1000)
    (CLOSES.get((kind, key)) or CLOSES[kind, "other"]).inc()


def error_sent(code: str) -> None:
    (ERRORS_BY.get(code) or ERRORS.labels(code=code)).inc()
    if code == "bad_credentials":
        LOGIN_FAILURES.inc()


def hands_last_minute(now: float | None = None) -> int:
    cutoff = (time.monotonic() if now is None else now) - 60
    while _recent_hands and _recent_hands[0] < cutoff:
        _recent_hands.popleft()
    return len(_recent_hands)
