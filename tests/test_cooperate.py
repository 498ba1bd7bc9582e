"""A worker's long work lets its other requests in (gamelog.cooperate, Pace), in gevent as
`scorekeeper serve` runs it: a process with gevent's patches answers pings on a socket while a
greenlet folds for two seconds, pacing itself as a fold of a big imported game does, and this
process, unpatched, times the pings' round trips. With a sleep of 0 between the fold's slices,
as cooperate was, a ping waited 256 ms: gevent looked at its sockets every 50 slices."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

from tests.support import ROOT

WORKER = r"""
from gevent import monkey
monkey.patch_all()
import time
from gevent.server import StreamServer
from scorekeeper.gamelog import Pace

def echo(sock, _):
    while (data := sock.recv(16)):
        sock.sendall(data)

server = StreamServer(("127.0.0.1", 0), echo)
server.start()
print(server.server_port, flush=True)
time.sleep(0.3)  # the pinger connects
pace = Pace()
for _ in range(10000):  # a fold of two seconds, a step of 0.2 ms at a time
    pace()
    ends = time.perf_counter() + 0.0002
    while time.perf_counter() < ends:
        pass
print("done", flush=True)
time.sleep(10)  # still answering until the pinger has stopped
"""


def test_a_long_fold_in_a_gevent_worker_lets_a_request_in_every_few_milliseconds():
    worker = subprocess.Popen([sys.executable, "-c", WORKER], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                              env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    try:
        port = int(worker.stdout.readline())
        trips = []
        with socket.create_connection(("127.0.0.1", port), timeout=10) as ping:
            ends = time.monotonic() + 2.6  # the fold: from 0.3 s to some 2.3 s
            while time.monotonic() < ends:
                began = time.perf_counter()
                ping.sendall(b"x")
                assert ping.recv(16) == b"x"
                trips.append(time.perf_counter() - began)
                time.sleep(0.01)
        assert worker.stdout.readline().strip() == "done"
    finally:
        worker.kill()
        worker.wait()
        worker.stdout.close()
    # a ping waits a slice (5 ms), a pause and the machine's noise: 7–16 ms here
    assert len(trips) > 40, trips
    assert max(trips) < 0.1, f"a ping waited {max(trips) * 1000:.0f} ms"
