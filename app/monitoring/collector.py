"""The state of one app's tables and sockets, read when ``/metrics`` is scraped (so it cannot drift from
the registry and the actors).  Names and help come from the declarations in ``app.metrics``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from app import metrics
from app.metrics import MetricDoc


def _gauge(doc: MetricDoc, value: float | None = None) -> GaugeMetricFamily:
    if value is not None:
        return GaugeMetricFamily(doc.name, doc.help, value=value)
    return GaugeMetricFamily(doc.name, doc.help, labels=list(doc.labels))


class AppCollector(Collector):
    """Tables, seats, inbox depth, hands per minute, a table that stopped moving, relayed sockets."""

    def __init__(self, app: Any, clock: Any = time.monotonic) -> None:
        self.app = app
        self.clock = clock
        self.progress: dict[str, tuple[int, float]] = {}  # table id → (event number, first seen at)

    def collect(self) -> Iterator[GaugeMetricFamily]:
        state = self.app.state.services
        runtime: Any = getattr(self.app.state, "table_runtime", None)
        tables = state.registry.all_tables()
        live = _gauge(metrics.TABLES_LIVE)
        for status in ("waiting", "playing", "finished"):
            live.add_metric([status], sum(1 for t in tables if t.status == status))
        yield live
        yield _gauge(metrics.SEATS_TAKEN, sum(len(t.players) for t in tables))
        actors = list(getattr(runtime, "actors", {}).values())
        inbox = _gauge(metrics.INBOX_DEPTH)
        depths = [a.inbox.qsize() for a in actors]
        inbox.add_metric(["max"], max(depths, default=0))
        inbox.add_metric(["total"], sum(depths))
        yield inbox
        yield _gauge(metrics.HANDS_LAST_MINUTE, metrics.hands_last_minute())
        playing = {t.id for t in tables if t.status == "playing"}
        yield _gauge(metrics.TABLE_STALLED, self.stalled([a for a in actors if a.id in playing and not a.closed]))
        relayed = _gauge(metrics.RELAYED_SOCKETS)
        active = getattr(runtime, "active", False)  # one of several processes (app.tables.cluster.cluster)
        relayed.add_metric(["held_here"], len(runtime.held) if active else 0)
        relayed.add_metric(["owned_here"], len(runtime.remote) + len(runtime.watching) if active else 0)
        yield relayed

    def stalled(self, actors: list[Any]) -> float:
        """Seconds since the least recently moving of these (playing) tables' event number last changed
        (between scrapes: a table that moves at all between two scrapes counts as moving)."""
        now = self.clock()
        seen: dict[str, tuple[int, float]] = {}
        for actor in actors:
            v = actor.out.v
            before = self.progress.get(actor.id)
            seen[actor.id] = before if before is not None and before[0] == v else (v, now)
        self.progress = seen
        return max((now - since for _v, since in seen.values()), default=0.0)


def render(app: Any) -> bytes:
    """The /metrics body: the process-wide counters and histograms, then this app's gauges."""
    registry = getattr(app.state, "metrics_registry", None)
    if registry is None:
        registry = CollectorRegistry(auto_describe=False)
        registry.register(AppCollector(app))
        app.state.metrics_registry = registry
    return generate_latest(metrics.REGISTRY) + generate_latest(registry)
