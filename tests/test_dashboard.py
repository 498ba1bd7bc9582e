"""docs/grafana-dashboard.json asks Prometheus only for what the app exports: every metric a panel
names is one of the samples a scrape reads after an entry, a refusal and a 429 (or `up`), and a
renamed metric or label breaks this test before it breaks an operator's dashboard."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from scorekeeper import create_app, metrics

DASHBOARD = Path(__file__).parent.parent / "docs" / "grafana-dashboard.json"
F35 = {"type": "score", "player": "Anna", "column": 1, "row": "F", "value": 35}
SUFFIXES = {"counter": ("_total",), "gauge": ("",), "histogram": ("_bucket", "_sum", "_count")}
PROMQL_WORDS = {"and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring",
                "group_left", "group_right", "inf", "nan"}
TARGET_LABELS = {"job", "instance"}  # added by Prometheus to every sample it scrapes


@pytest.fixture(scope="module")
def scrape(tmp_path_factory) -> str:
    """The app's /metrics text once it has counted something of each kind: an entry, a refusal,
    a 429 (the fold cache and the histogram come with them)."""
    from tests.support import Phone

    metrics.start()
    try:
        app = create_app({"TESTING": True, "DATABASE": str(tmp_path_factory.mktemp("dash") / "d.db"),
                          "SECRET_KEY": "test", "LIMITS": {"table": (1, 100, 0)}})
        host = Phone(app)
        token = host.open_table("escalero", players=("Anna", "Ben"))
        assert host.enter(token, F35).status_code == 200
        assert Phone(app).enter(token, F35).status_code == 403
        assert host.post("/new/escalero", {"player": ["Anna"]}, fetch=False).status_code == 429
        body, _ = metrics.exposition()
    finally:
        metrics.stop()
    return body.decode()


def exported(text: str) -> dict[str, set[str]]:
    """{sample name: its label names} of a scrape, with the names a family of its type may have
    (a counter's `_total`, a histogram's `_bucket`, `_sum`, `_count`) though it has no sample yet."""
    found: dict[str, set[str]] = {}
    for family in text_string_to_metric_families(text):
        for suffix in SUFFIXES.get(family.type, ()):
            found.setdefault(family.name + suffix, set())
        for sample in family.samples:
            found.setdefault(sample.name, set()).update(sample.labels)
    return found


def panels() -> list[dict]:
    return json.loads(DASHBOARD.read_text())["panels"]


def metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression reads: its identifiers, less functions, keywords,
    label matchers, ranges and grouping clauses."""
    expr = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    expr = re.sub(r"\{[^}]*\}|\[[^\]]*\]", "", expr)
    expr = re.sub(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", expr)
    names = set()
    for word in re.finditer(r"(?<![\w.$])[A-Za-z_:][\w:]*", expr):
        if not expr[word.end():].lstrip().startswith("(") and word.group() not in PROMQL_WORDS:
            names.add(word.group())
    return names


def grouped_by(expr: str) -> set[str]:
    return {label.strip() for group in re.findall(r"\bby\s*\(([^)]*)\)", expr)
            for label in group.split(",") if label.strip()}


def test_the_dashboard_parses_and_reads_its_prometheus_from_a_variable():
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["schemaVersion"] >= 36 and dashboard["title"]
    variables = {v["name"]: v for v in dashboard["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource" and variables["datasource"]["query"] == "prometheus"
    for panel in panels():
        for target in panel["targets"]:
            assert target["datasource"] == {"type": "prometheus", "uid": "${datasource}"}, panel["title"]


def test_every_panel_has_a_title_a_unit_and_a_query():
    for panel in panels():
        assert panel.get("title"), panel
        assert panel["fieldConfig"]["defaults"].get("unit"), panel["title"]
        assert panel["targets"] and all(target["expr"].strip() for target in panel["targets"]), panel["title"]


def test_the_panels_name_only_metrics_and_labels_the_app_exports(scrape):
    names_exported = exported(scrape)
    shown = set()
    for panel in panels():
        for target in panel["targets"]:
            names = metric_names(target["expr"])
            assert names, (panel["title"], target["expr"])
            unknown = names - set(names_exported) - {"up"}
            assert not unknown, f"{panel['title']}: {sorted(unknown)} not among {sorted(names_exported)}"
            labels = set().union(*(names_exported.get(name, set()) for name in names)) | TARGET_LABELS
            assert grouped_by(target["expr"]) <= labels, (panel["title"], target["expr"])
            shown |= names
    assert "up" in shown
    # and every metric the app exports is on a panel (prometheus-client's `_created` aside)
    families = {family.name for family in text_string_to_metric_families(scrape)
                if not family.name.endswith("_created")}
    assert families and all(any(name.startswith(family) for name in shown) for family in families), \
        sorted(families)


def test_the_expression_reader_sees_metric_names_only():
    expr = ('histogram_quantile(0.95, sum by (le) (rate(x_bucket{job=~"$job", a="b(c)"}[$__rate_interval])))'
            " / ignoring(le) group_left sum(y_total offset 5m) or up")
    assert metric_names(expr) == {"x_bucket", "y_total", "up"}
    assert grouped_by(expr) == {"le"}
