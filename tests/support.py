"""The one set of test helpers: a phone on Flask's test client, and the real production server
in its own process. Unit, browser and reliability tests and the benchmarks (bench/) use them."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from scorekeeper.games.base import RuleError

ROOT = Path(__file__).resolve().parents[1]


def accepts(verify, *args) -> bool:
    """Whether an engine's verify_* function takes these (the screens ask through the service)."""
    try:
        verify(*args)
    except RuleError:
        return False
    return True


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Phone:
    """A Flask test client acting as one device: it keeps its cookie and CSRF token."""

    def __init__(self, app):
        self.app = app
        self.client = app.test_client()
        self.csrf = None

    def get(self, url, **kwargs):
        response = self.client.get(url, **kwargs)
        found = re.search(r'name="csrf" content="([^"]+)"', response.get_data(as_text=True))
        if found:
            self.csrf = found.group(1)
        return response

    def post(self, url, data=None, fetch=True, headers=None, **kwargs):
        """A POST as the page makes it: with the CSRF token, as a script's fetch unless `fetch`
        is false (a plain form)."""
        if self.csrf is None:
            self.get("/", headers=headers)
        data = {"csrf": self.csrf, **(data or {})}
        headers = {**({"X-Requested-With": "fetch"} if fetch else {}), **(headers or {})}
        return self.client.post(url, data=data, headers=headers, **kwargs)

    @property
    def cookie(self) -> str:
        return self.client.get_cookie("session").value

    def open_table(self, game="escalero", players=("Anna", "Ben"), **rules):
        data = {"player": list(players), **{f"rule_{k}": str(v) for k, v in rules.items()}}
        response = self.post(f"/new/{game}", data, fetch=False)
        assert response.status_code == 303, response.get_data(as_text=True)
        return response.headers["Location"].rsplit("/", 1)[-1]

    def join(self, token, name):
        page = self.get(f"/t/{token}").get_data(as_text=True)
        seat = re.search(rf'name="seat" value="(\d+)">{re.escape(name)}[< ]', page)
        assert seat, f"no free seat for {name}"
        response = self.post(f"/t/{token}/join", {"seat": seat.group(1)}, fetch=False)
        assert response.status_code == 303
        return response

    def enter(self, token, event, idem=None, seen=None):
        """POST an entry as the page's script does: with the entries the board showed (read
        from the board now, unless `seen` is given)."""
        if seen is None:
            board = self.client.get(f"/t/{token}/board").get_data(as_text=True)
            found = re.search(r'data-entries="(\d+)"', board)
            seen = found.group(1) if found else ""
        data = {"event": json.dumps(event), "seen": str(seen)}
        if idem:
            data["idem"] = idem
        return self.post(f"/t/{token}/entries", data)


class Server:
    """`scorekeeper serve` (gunicorn, gevent workers) on a free port of 127.0.0.1, with its own
    instance folder, in its own process group: `kill()` takes the master and every worker down
    at once, like a power cut; `stop()` is gunicorn's quick shutdown. `command` runs another
    server line that takes {port}; `env` adds to the environment."""

    ready_path = "/"

    def __init__(self, instance, workers: int = 1, env: dict | None = None, command: list[str] | None = None,
                 log: str | Path | None = None, timeout: float = 60) -> None:
        self.instance = Path(instance)
        self.instance.mkdir(parents=True, exist_ok=True)
        self.workers = workers
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database = self.instance / "scorekeeper.db"
        self.log_path = Path(log) if log else self.instance / "server.log"
        # the limits (tables an hour …) and the caps on one address's connections and requests
        # (every test phone is 127.0.0.1) have tests of their own
        self.env = {**os.environ, "SCOREKEEPER_INSTANCE": str(self.instance), "SCOREKEEPER_BASE_URL": self.url,
                    "SCOREKEEPER_LIMITS": "off", "SCOREKEEPER_CONNECTIONS_PER_ADDRESS": "0",
                    "SCOREKEEPER_REQUESTS_PER_ADDRESS": "0", "PYTHONPATH": str(ROOT), **(env or {})}
        self.command = command
        self.process: subprocess.Popen | None = None
        self.start(timeout)

    def start(self, timeout: float = 60) -> None:
        argv = self.command or [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1",
                                "--port", "{port}", "--workers", str(self.workers)]
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen([a.replace("{port}", str(self.port)) for a in argv], env=self.env,
                                            stdout=subprocess.DEVNULL, stderr=log, start_new_session=True, cwd=ROOT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log_tail()}")
            try:
                urllib.request.urlopen(self.url + self.ready_path, timeout=2).read()
                answered = True
            except urllib.error.HTTPError:  # an answer all the same (a host it refuses, say)
                answered = True
            except OSError:
                answered = False
            if answered and self.ready():
                return
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"the server did not start: {self.log_tail()}")

    def ready(self) -> bool:
        """Whether the server answers as wanted once its address does (a subclass may wait for more)."""
        return True

    def kill(self) -> None:
        """SIGKILL to the whole process group: no handler, no flush, no goodbye."""
        if self.process and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait(10)
        self._reap()

    def stop(self) -> None:
        """gunicorn's quick shutdown (live streams end now), then whatever is left is killed."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def _reap(self) -> None:
        """Wait (bounded) until no process of the group is left, so the next start binds freely."""
        if not self.process:
            return
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.killpg(self.process.pid, 0)
            except (ProcessLookupError, PermissionError):
                return
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                return
            time.sleep(0.02)

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def server_errors(self) -> list[str]:
        """Tracebacks the server logged (an exception in a view is logged at error level)."""
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return [line for line in text.splitlines() if "Traceback" in line or "Exception on" in line]
