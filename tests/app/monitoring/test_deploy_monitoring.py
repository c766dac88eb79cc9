"""What ships with the deploy for monitoring (issue 28): the Prometheus config and alert rules pass
``promtool`` (check and unit tests), every alert has its runbook in docs/operations.md, and every query of the
Grafana dashboard names metrics the server serves (docs/metrics.md, from ``app.metrics.CATALOGUE``).

promtool comes from Debian's ``prometheus`` package; without it the promtool tests are skipped with the
reason (CI, ``.ci/run``, installs it so they run)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
import yaml

from app.core.config import PROJECT_ROOT
from app.metrics import CATALOGUE

PROMETHEUS = PROJECT_ROOT / "deploy" / "prometheus"
DASHBOARD = PROJECT_ROOT / "deploy" / "grafana" / "mahjong.json"
PROMTOOL = shutil.which("promtool")
needs_promtool = pytest.mark.skipif(PROMTOOL is None, reason="promtool is missing: apt-get install prometheus "
                                    "(.ci/run does)")
METRIC = re.compile(r"\b(mahjong_[a-z0-9_]+|up)\b")
HISTOGRAM_PARTS = ("_bucket", "_sum", "_count")


def _served() -> set[str]:
    """Every series name a scrape can show: counters' ``_total``, histograms' three parts, and ``up``."""
    names = {"up"}
    for doc in CATALOGUE:
        names.add(doc.exposed())
        if doc.kind == "histogram":
            names.update(doc.exposed() + part for part in HISTOGRAM_PARTS)
    return names


def _promtool(*args: str) -> subprocess.CompletedProcess[str]:
    assert PROMTOOL is not None
    return subprocess.run([PROMTOOL, *args], cwd=PROMETHEUS, capture_output=True, text=True, timeout=120)


@needs_promtool
def test_promtool_checks_the_rules_and_the_config():
    rules = _promtool("check", "rules", "alerts.yml")
    assert rules.returncode == 0, rules.stdout + rules.stderr
    config = _promtool("check", "config", "prometheus.yml")
    assert config.returncode == 0, config.stdout + config.stderr


@needs_promtool
def test_promtool_unit_tests_of_the_alerts_pass():
    result = _promtool("test", "rules", "alerts_test.yml")
    assert result.returncode == 0, result.stdout + result.stderr


def _alerts() -> list[dict]:
    groups = yaml.safe_load((PROMETHEUS / "alerts.yml").read_text("utf-8"))["groups"]
    return [rule for group in groups for rule in group["rules"]]


def test_every_alert_names_served_metrics_and_has_a_runbook_and_a_unit_test():
    runbooks = (PROJECT_ROOT / "docs" / "operations.md").read_text("utf-8")
    tests = (PROMETHEUS / "alerts_test.yml").read_text("utf-8")
    alerts = _alerts()
    assert len(alerts) >= 8
    for rule in alerts:
        name = rule["alert"]
        assert f"\n### {name}\n" in runbooks, f"{name}: no runbook paragraph in docs/operations.md"
        assert rule["annotations"]["runbook"] == f"docs/operations.md#{name.lower()}"
        assert f"alertname: {name}\n" in tests, f"{name}: no promtool unit test"
        unknown = set(METRIC.findall(rule["expr"])) - _served()
        assert not unknown, f"{name} uses metrics the server does not serve: {unknown}"


def test_every_dashboard_query_names_served_metrics():
    dashboard = json.loads(DASHBOARD.read_text("utf-8"))
    panels = [p for p in dashboard["panels"] if p["type"] != "row"]
    assert len(panels) >= 20
    used: set[str] = set()
    for panel in panels:
        assert panel["targets"], f"panel {panel['title']!r} has no query"
        for target in panel["targets"]:
            names = set(METRIC.findall(target["expr"]))
            assert names, f"panel {panel['title']!r}: a query names no metric"
            unknown = names - _served()
            assert not unknown, f"panel {panel['title']!r} queries metrics the server does not serve: {unknown}"
            used |= names
    # The dashboard shows every documented metric somewhere (a metric nobody looks at is a metric to drop).
    shown = {name.removesuffix(part) if name.endswith(part) else name for name in used for part in HISTOGRAM_PARTS}
    unshown = {doc.exposed() for doc in CATALOGUE} - shown - used
    assert not unshown, f"documented metrics no panel shows: {unshown}"


@needs_promtool
async def test_promtool_finds_nothing_to_lint_in_a_scrape(client):
    """Prometheus's own naming lint (units, ``_total``, help text) over a real /metrics body."""
    body = (await client.get("/metrics")).text
    assert PROMTOOL is not None
    result = subprocess.run([PROMTOOL, "check", "metrics"], input=body, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and not result.stdout.strip() and not result.stderr.strip(), \
        result.stdout + result.stderr
