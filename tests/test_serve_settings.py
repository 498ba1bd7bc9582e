"""`scorekeeper serve`'s settings for replication and metrics: checked before anything starts."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from scorekeeper import replica, serve
from tests.support import ROOT, free_port


def test_a_replica_url_is_a_folder_or_a_url():
    assert replica.replica_url("s3://bucket/pub?endpoint=http://127.0.0.1:9000") == "s3://bucket/pub?endpoint=http://127.0.0.1:9000"
    assert replica.replica_url("backups/pub") == "file://" + os.path.abspath("backups/pub")
    text = replica.config("/srv/scorekeeper.db", 's3://b/p?endpoint=http://x&region="eu"', "1s")
    assert '      url: "s3://b/p?endpoint=http://x&region=\\"eu\\""' in text  # quoted, nothing of it read as YAML
    assert "    monitor-interval: 1s" in text and "      sync-interval: 1s" in text


@pytest.mark.parametrize("sync", ["1 s", "fast", "200", "1s\ndbs: []"])
def test_a_sync_interval_is_a_duration(sync):
    with pytest.raises(RuntimeError, match="REPLICA_SYNC must be a duration"):
        replica.config("/srv/scorekeeper.db", "/backups", sync)


def test_the_metrics_port_is_another_port():
    assert serve.metrics_refusal(9100, 8000) is None
    assert "the server's own port" in serve.metrics_refusal(8000, 8000)
    assert "must be a port number" in serve.metrics_refusal(70000, 8000)


@pytest.mark.parametrize("env, says", [
    ({"SCOREKEEPER_REPLICA_URL": "{tmp}/replica", "SCOREKEEPER_REPLICA_SYNC": "soon"}, "REPLICA_SYNC must be a duration"),
    # how often to replicate without where to: the server ran unreplicated without a word
    ({"SCOREKEEPER_REPLICA_SYNC": "1s"}, "REPLICA_SYNC is set but REPLICA_URL is not"),
    # a scheme Litestream has no replica for: the server said "Replicating" while Litestream
    # exited at once, again and again, and nothing was replicated
    ({"SCOREKEEPER_REPLICA_URL": "ftp://backup.example/pub"}, "REPLICA_URL must be a folder or a URL"),
    ({"SCOREKEEPER_METRICS_PORT": "{port}"}, "the server's own port"),
    # the address it printed and put in its QR code answered every phone 400
    ({"SCOREKEEPER_ALLOWED_HOSTS": "scores.example"}, "ALLOWED_HOSTS (scores.example) leaves out 127.0.0.1, the address phones would be shown"),
    # a typo in a limit fell back to the default without a word
    ({"SCOREKEEPER_CONNECTIONS_PER_ADDRESS": "5O"}, "SCOREKEEPER_CONNECTIONS_PER_ADDRESS must be a whole number"),
    ({"SCOREKEEPER_REQUESTS_PER_ADDRESS": "20 per second"}, "must be requests a second"),
    ({"SCOREKEEPER_BODY_SECONDS": "0"}, "SCOREKEEPER_BODY_SECONDS must be a number of seconds above 0"),
])
def test_serve_refuses_bad_settings_in_one_line(tmp_path, env, says):
    port = free_port()
    env = {key: value.format(tmp=tmp_path, port=port) for key, value in env.items()}
    done = subprocess.run([sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1", "--port", str(port)],
                          env={**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path / "instance"), **env},
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not done.stderr.startswith("Error:"), done.stderr
    assert not (tmp_path / "instance" / "litestream.yml").exists()


def test_every_limit_that_reads_is_taken(monkeypatch):
    from scorekeeper.worker import limits_refusal

    for name, value in (("SCOREKEEPER_CONNECTIONS_PER_ADDRESS", "0"), ("SCOREKEEPER_STREAMS_PER_LINK", " 40 "),
                        ("SCOREKEEPER_REQUESTS_PER_ADDRESS", "20/100"), ("SCOREKEEPER_REQUESTS_PER_ADDRESS", "0"),
                        ("SCOREKEEPER_BODY_SECONDS", "2.5")):
        monkeypatch.setenv(name, value)
        assert limits_refusal() is None, (name, value)
    monkeypatch.setenv("SCOREKEEPER_STREAMS_PER_ADDRESS", "-1")
    assert "SCOREKEEPER_STREAMS_PER_ADDRESS must be a whole number" in limits_refusal()
