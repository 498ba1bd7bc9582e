"""docs/reliability.md: every claim points to a test that exists, and the table is the one
tests/reliability/report.py renders (so the doc and the tests cannot drift apart)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "reliability.md"


def load_report():
    spec = importlib.util.spec_from_file_location("reliability_report", Path(__file__).with_name("report.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def table_rows(doc: str) -> list[str]:
    report = load_report()
    inside = doc.split(report.START, 1)[1].split(report.END, 1)[0]
    return [line for line in inside.splitlines() if line.startswith("| ") and not line.startswith("| Guarantee")]


def test_every_claim_points_to_a_test_that_exists():
    doc = DOC.read_text()
    rows = table_rows(doc)
    assert len(rows) >= 15
    for row in rows:
        references = re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", row)
        assert references, f"a guarantee without its test: {row[:80]}"
        for path, name in references:
            assert re.search(rf"^def {name}\(", (ROOT / path).read_text(), re.M), f"{path}::{name} does not exist"


def test_the_doc_shows_the_guarantees_the_report_renders_with_figures_of_a_real_run():
    report = load_report()
    rows = table_rows(DOC.read_text())
    expected = [line for line in report.render({}).splitlines() if line.startswith("| ") and not line.startswith("| Guarantee")]
    assert [r.rsplit(" | ", 1)[0] for r in rows] == [e.rsplit(" | ", 1)[0] for e in expected], \
        "docs/reliability.md is out of date: run tests/reliability/report.py"
    figures = [r.rsplit(" | ", 1)[1] for r in rows]
    assert not any("?" in f for f in figures), "the doc shows no figures of a real run"
    assert any(re.search(r"\d{3,}", f) for f in figures)
