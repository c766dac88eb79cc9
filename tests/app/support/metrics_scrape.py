"""Reading a /metrics scrape in tests: samples by (name, labels), and the check that every metric
docs/metrics.md documents (``app.metrics.CATALOGUE``) is served."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from app.metrics import CATALOGUE

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def samples(text: str) -> Samples:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def missing_documented(found: Samples) -> list[str]:
    """Documented metrics the scrape does not show (a histogram shows as ``<name>_count``)."""
    names = {name for name, _labels in found}
    return [doc.exposed() for doc in CATALOGUE
            if doc.exposed() not in names and f"{doc.exposed()}_count" not in names]


def total(found: Samples, name: str, **labels: str) -> float:
    """The sum of ``name``'s series whose labels include ``labels``."""
    return sum(v for (n, ls), v in found.items() if n == name and set(labels.items()) <= set(ls))
