"""Prometheus metrics (``GET /metrics``, text format) with prometheus-client.

Counters and histograms live in one module-level registry (``REGISTRY``): they are bumped where things
happen (a settlement, an action, a REST error, a refused login).  What is a *state* of this process —
live tables and seats, open sockets, actor inbox depth, hands in the last minute — is read when scraped, by
a collector bound to the app (``AppCollector``), so it can never drift from the registry and the actors.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

REGISTRY = CollectorRegistry(auto_describe=True)
_SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

HANDS = Counter("mahjong_hands_settled", "hands settled (coin, practice and tournament)", registry=REGISTRY)
SETTLEMENT_SECONDS = Histogram("mahjong_settlement_seconds", "one hand's settlement transaction, retries included",
                               buckets=_SECONDS, registry=REGISTRY)
ACTION_SECONDS = Histogram("mahjong_action_seconds",
                           "a player's action: socket read → results queued for every seat", buckets=_SECONDS,
                           registry=REGISTRY)
ERRORS = Counter("mahjong_errors", "refusals sent, by error code (REST and table sockets)", ["code"],
                 registry=REGISTRY)
LOGIN_FAILURES = Counter("mahjong_login_failures", "logins refused for a wrong name or password",
                         registry=REGISTRY)

_recent_hands: deque[float] = deque(maxlen=100_000)


def hand_settled(seconds: float) -> None:
    """Called once per settled hand with how long its settlement took."""
    HANDS.inc()
    SETTLEMENT_SECONDS.observe(seconds)
    _recent_hands.append(time.monotonic())


def error_sent(code: str) -> None:
    ERRORS.labels(code=code).inc()
    if code == "bad_credentials":
        LOGIN_FAILURES.inc()


def hands_last_minute(now: float | None = None) -> int:
    cutoff = (time.monotonic() if now is None else now) - 60
    while _recent_hands and _recent_hands[0] < cutoff:
        _recent_hands.popleft()
    return len(_recent_hands)


class AppCollector(Collector):
    """The state of one app's tables and sockets, read at scrape time."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        state = self.app.state.services
        runtime = getattr(self.app.state, "table_runtime", None)
        tables = state.registry.all_tables()
        live = GaugeMetricFamily("mahjong_tables_live", "tables in this process, by status", labels=["status"])
        for status in ("waiting", "playing", "finished"):
            live.add_metric([status], sum(1 for t in tables if t.status == status))
        yield live
        yield GaugeMetricFamily("mahjong_seats_taken", "seats held by players (not bots)",
                                value=sum(len(t.players) for t in tables))
        actors = list(getattr(runtime, "actors", {}).values())
        sockets = GaugeMetricFamily("mahjong_sockets_open", "open WebSockets, by kind", labels=["kind"])
        sockets.add_metric(["table"], sum(1 for a in actors for s in a.slots if s.link is not None))
        sockets.add_metric(["lobby"], len(getattr(state.broker, "_subscribers", ())))
        yield sockets
        inbox = GaugeMetricFamily("mahjong_actor_inbox_depth", "commands waiting in table actors' inboxes",
                                  labels=["stat"])
        depths = [a.inbox.qsize() for a in actors]
        inbox.add_metric(["max"], max(depths, default=0))
        inbox.add_metric(["total"], sum(depths))
        yield inbox
        yield GaugeMetricFamily("mahjong_hands_last_minute", "hands settled in the last 60 s (hands per minute)",
                                value=hands_last_minute())
        if getattr(runtime, "active", False):  # one of several processes (app.tables.cluster.cluster)
            yield from _cluster_metrics(runtime)


def _cluster_metrics(runtime: Any) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
    relayed = GaugeMetricFamily("mahjong_cluster_relayed_sockets", "sockets relayed between processes: held here "
                                "for tables owned elsewhere, or held elsewhere for tables owned here", labels=["side"])
    relayed.add_metric(["held_here"], len(runtime.held))
    relayed.add_metric(["owned_here"], len(runtime.remote) + len(runtime.watching))
    yield relayed
    yield CounterMetricFamily("mahjong_cluster_tables_taken_over", "tables this process took over from the journal "
                              "(their owner died, stopped or lost its lease)", value=runtime.taken_over)
    frames = CounterMetricFamily("mahjong_cluster_relay_records", "relay traffic of this process", labels=["kind"])
    if runtime.relay is not None:
        frames.add_metric(["frames_published"], runtime.relay.published)
        frames.add_metric(["records_received"], runtime.relay.records_in)
    yield frames


def render(app: Any) -> bytes:
    """The /metrics body: the process-wide counters and histograms, then this app's gauges."""
    registry = getattr(app.state, "metrics_registry", None)
    if registry is None:
        registry = CollectorRegistry(auto_describe=False)
        registry.register(AppCollector(app))
        app.state.metrics_registry = registry
    return generate_latest(REGISTRY) + generate_latest(registry)
