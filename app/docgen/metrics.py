"""docs/metrics.md: every Prometheus metric ``GET /metrics`` serves, from ``app.metrics.CATALOGUE``."""

from __future__ import annotations

from app.docgen.note import GENERATED_NOTE
from app.metrics import CATALOGUE, MetricDoc

INTRO = """\
# Metrics

{note}

`GET /metrics` (Prometheus text format; off with `METRICS_ENABLED=false`, expose it only to the operators'
network) serves the metrics below.  Counters show `_total`, histograms `_bucket` / `_sum` / `_count`; every
label takes only the values listed, and every labelled series is exported from the start (at 0), so an alert
on a rate never waits for the first event.  *gauge (scrape)* is computed when scraped, from the live state of
this process.  Alerts and their runbooks: `deploy/prometheus/alerts.yml`, [operations.md](operations.md);
the dashboard: `deploy/grafana/mahjong.json`.
"""


def _row(doc: MetricDoc) -> str:
    labels = "<br>".join(f"`{k}`: {v}" for k, v in doc.labels.items()) or "–"
    return f"| `{doc.exposed()}` | {doc.kind} | {doc.help} | {labels} |"


def render() -> str:
    parts = [INTRO.format(note=GENERATED_NOTE.format(source="`app/metrics.py`"))]
    groups = list(dict.fromkeys(doc.group for doc in CATALOGUE))
    for group in groups:
        parts.append(f"## {group}\n\n| metric | kind | what it counts | labels |\n|---|---|---|---|")
        parts.append("\n".join(_row(doc) for doc in CATALOGUE if doc.group == group) + "\n")
    return "\n".join(parts)
