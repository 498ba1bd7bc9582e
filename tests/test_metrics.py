"""Prometheus metrics: off by default; on, entries, refusals, 429s by limit and the fold cache are
counted where they happen once (tests/reliability/test_metrics.py: across worker processes)."""

from __future__ import annotations

import pytest
from prometheus_client.parser import text_string_to_metric_families

from scorekeeper import create_app, metrics, service

F35 = {"type": "score", "player": "Anna", "column": 1, "row": "F", "value": 35}


def samples() -> dict[tuple, float]:
    """{(sample name, sorted labels): value} of what a scrape reads now."""
    body, _ = metrics.exposition()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(body.decode()) for s in family.samples}


def value(name: str, **labels) -> float:
    return samples().get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture
def counting(tmp_path):
    metrics.start()
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "m.db"), "SECRET_KEY": "test",
                      "LIMITS": {"table": (2, 100, 0)}})
    yield app
    metrics.stop()


def test_off_by_default_nothing_is_counted(phone):
    assert not metrics.enabled()
    host = phone()
    host.enter(host.open_table(), F35)  # no error, nothing kept: each call is one check of a flag


def test_entries_refusals_limits_and_the_fold_cache(counting):
    from tests.support import Phone

    host = Phone(counting)
    token = host.open_table("escalero", players=("Anna", "Ben"))
    assert host.enter(token, F35).status_code == 200
    ben = {"type": "score", "player": "Ben", "column": 1, "row": "F", "value": 30}
    assert host.enter(token, ben).status_code == 200
    assert value("scorekeeper_entries_total", kind="entry") == 2
    # a refusal answered to the phone, by its English template and status
    stranger = Phone(counting)
    assert stranger.enter(token, F35).status_code == 403
    refusals = {labels: n for (name, labels), n in samples().items() if name == "scorekeeper_refusals_total"}
    assert sum(refusals.values()) >= 1 and all(dict(labels)["status"].isdigit() for labels in refusals)
    assert any(dict(labels)["status"] == "403" for labels in refusals)
    # the app's limits answer 429 and are counted by their kind: two tables a phone here
    assert host.open_table() and host.post("/new/escalero", {"player": ["Anna"]}, fetch=False).status_code == 429
    assert value("scorekeeper_limited_total", limit="table") == 1
    # and wrong codes by theirs: the refusal names its limit (metrics reads no table of messages)
    guesser = Phone(counting)
    for _ in range(service.JOIN_ATTEMPTS):
        assert guesser.post("/join", {"code": "ZZZZZZ"}, fetch=False).status_code == 404
    assert guesser.post("/join", {"code": "ZZZZZZ"}, fetch=False).status_code == 429
    assert value("scorekeeper_limited_total", limit="code") == 1
    assert value("scorekeeper_refusals_total", status="429",
                 reason="This phone has opened many tables in the last hour. Wait a while, or play at one of them.") == 1
    # folds: the first page folds the game, later ones find it in the cache
    assert value("scorekeeper_fold_cache_total", outcome="miss") >= 1
    assert value("scorekeeper_fold_cache_total", outcome="hit") >= 1


def test_the_worker_s_own_turnaways_are_counted_by_cap(counting):
    for cap in ("requests", "connections", "full"):
        metrics.limited(cap)
    assert [value("scorekeeper_limited_total", limit=cap) for cap in ("requests", "connections", "full")] == [1, 1, 1]


def test_fan_out_lag_is_taken_from_the_wake_to_each_stream_s_update(counting):
    metrics.woken(7)
    metrics.sent(7, 0)  # a stream's first message follows no change: not a fan-out
    metrics.sent(8, 12)  # a table this process was never told of
    assert value("scorekeeper_fanout_lag_seconds_count") == 0
    metrics.sent(7, 12)
    metrics.sent(7, 12)
    assert value("scorekeeper_fanout_lag_seconds_count") == 2
    assert value("scorekeeper_fanout_lag_seconds_bucket", le="0.05") == 2


def test_refusal_reasons_are_bounded(counting, monkeypatch):
    """A message made with its values inside (not a template) cannot add labels without end."""
    from scorekeeper import service

    monkeypatch.setattr(metrics, "MOST_REASONS", 3)
    monkeypatch.setattr(metrics, "_reasons", set())
    for number in range(6):
        metrics.refused(service.Refused(f"{number} is not a seat", 400))
    reasons = {dict(labels)["reason"] for (name, labels) in samples() if name == "scorekeeper_refusals_total"}
    assert reasons == {"0 is not a seat", "1 is not a seat", "2 is not a seat", "other"}
    assert value("scorekeeper_refusals_total", reason="other", status="400") == 3
