"""Health and metrics of the production server: /healthz answers, and the Prometheus metrics on
METRICS_PORT (loopback only) add up what every worker process counted."""

from __future__ import annotations

import http.client
import json
import time
import urllib.request
import uuid
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

SECTION = "metrics"


def scrape(port: int) -> dict[tuple, float]:
    body = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(body) for s in family.samples}


def listening_on(port: int) -> set[str]:
    """The local addresses (hex, as /proc/net/tcp writes them) listening on a port."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.rsplit(":", 1)
            if state == "0A" and int(hex_port, 16) == port:  # LISTEN
                found.add(address)
    return found


def test_health_and_metrics_across_workers(kit, tmp_path, figures):
    port = kit.free_port()
    server = kit.Server(tmp_path / "instance", workers=2, env={"SCOREKEEPER_METRICS_PORT": str(port)})
    stream = None
    try:
        health = urllib.request.urlopen(server.url + "/healthz", timeout=10)
        assert health.status == 200 and json.loads(health.read())["ok"] is True
        assert listening_on(port) == {"0100007F"}  # 127.0.0.1 only
        host = kit.WebPhone(server.url)
        table = host.open_table("kaques", ["Anna", "Ben"])
        # a phone's live stream, held open while the entries are made
        stream = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        stream.request("GET", f"/t/{table['token']}/live", headers={"Cookie": host.cookie})
        live = stream.getresponse()
        assert live.status == 200
        live.read1(65536)  # its first message: the board as it is
        time.sleep(0.3)
        entries = 24
        for _ in range(entries):  # a new connection each: both workers take some
            reply = host.enter(table["token"], {"type": "turn", "points": 50}, idem=uuid.uuid4().hex)
            assert reply.status == 200, reply.message
        assert b"id:" in live.read1(65536)  # an update arrived
        time.sleep(0.3)
        found = scrape(port)
        assert found[("scorekeeper_entries_total", (("kind", "entry"),))] == entries
        assert found[("scorekeeper_live_streams", ())] == 1
        assert found[("scorekeeper_fanout_lag_seconds_count", ())] >= 1
        assert found[("scorekeeper_fold_cache_total", (("outcome", "hit"),))] >= 1
        # summed over files of both workers, in the master's folder in the instance
        folder = server.instance / f".metrics-{server.process.pid}"
        pids = {name.stem.rsplit("_", 1)[1] for name in folder.glob("counter_*.db")}
        assert len(pids) >= 2, pids
        figures.add(SECTION, "entries_counted", entries)
        figures.set(SECTION, "workers_summed", len(pids))
        stream.close()
        stream = None
        server.stop()
        assert not folder.exists()  # the metrics folder goes with the server
    finally:
        if stream is not None:
            stream.close()
        server.stop()


def test_the_worker_s_caps_on_live_streams_are_counted(kit, tmp_path):
    """A live stream past an address's cap or a link's is the worker's 429 like the other caps,
    and the page polls instead: it was counted nowhere, and a dashboard showed no refusal."""
    port = kit.free_port()
    server = kit.Server(tmp_path / "instance", workers=1, env={
        "SCOREKEEPER_METRICS_PORT": str(port), "SCOREKEEPER_STREAMS_PER_ADDRESS": "2",
        "SCOREKEEPER_STREAMS_PER_LINK": "1"})
    held = []
    try:
        host = kit.WebPhone(server.url)
        tables = [host.open_table("kaques", ["Anna", "Ben"]) for _ in range(3)]

        def live(table) -> int:
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            connection.request("GET", f"/t/{table['token']}/live", headers={"Cookie": host.cookie})
            held.append(connection)
            return connection.getresponse().status

        assert [live(tables[0]), live(tables[0])] == [200, 429]  # the link's one
        assert [live(tables[1]), live(tables[2])] == [200, 429]  # the address's two
        found = scrape(port)
        assert found[("scorekeeper_limited_total", (("limit", "link"),))] == 1
        assert found[("scorekeeper_limited_total", (("limit", "streams"),))] == 1
    finally:
        for connection in held:
            connection.close()
        server.stop()
