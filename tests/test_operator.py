"""What the engineer who runs a pub's server meets at the command line, as real processes: an
instance folder or database that cannot be used, a setting that makes no sense, a second server
on a port in use, a database too damaged to open put right with `restore`, and Ctrl-C. Each
refusal is one line and a non-zero exit, never a traceback."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support import ROOT, free_port

LOG = ROOT / "tests" / "logs" / "escalero" / "sweep.json"


def scorekeeper(*arguments: str, instance: Path, env: dict | None = None, timeout: float = 60):
    return subprocess.run([sys.executable, "-m", "scorekeeper", *arguments], capture_output=True, text=True,
                          env={**os.environ, "SCOREKEEPER_INSTANCE": str(instance), **(env or {})},
                          timeout=timeout, cwd=ROOT)


def one_line(done, status: int = 2) -> str:
    """The refusal's line, after checking it is one line on stderr and nothing else."""
    assert done.returncode == status, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and done.stdout == "", done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


COMMANDS = [["init-db"], ["import", str(LOG)], ["export", "ABCDEF"], ["backup", "{tmp}/copy.db"], ["serve"]]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command[0])
def test_an_instance_folder_that_cannot_be_made_is_one_line(tmp_path, command):
    """SCOREKEEPER_INSTANCE under a file (as root, whom no mode bit stops, the one way a folder
    cannot be made): every command that opens the database ended in a traceback."""
    (tmp_path / "a-file").write_text("")
    arguments = [a.replace("{tmp}", str(tmp_path)) for a in command]
    line = one_line(scorekeeper(*arguments, instance=tmp_path / "a-file" / "instance"))
    if command[0] in ("export", "backup"):  # they read a database, and make no folder for one
        assert line.startswith(f"there is no database at {tmp_path / 'a-file' / 'instance' / 'scorekeeper.db'}")
        return
    assert line == f"cannot use {tmp_path / 'a-file' / 'instance'}: Not a directory (the instance folder: SCOREKEEPER_INSTANCE)"


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command[0])
def test_a_database_that_cannot_be_opened_is_one_line(tmp_path, command):
    """A file that is no database where the database should be (a disk's damage, a wrong copy):
    the same, naming the instance folder."""
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "scorekeeper.db").write_text("these are not the pages of a database\n" * 200)
    arguments = [a.replace("{tmp}", str(tmp_path)) for a in command]
    line = one_line(scorekeeper(*arguments, instance=instance))
    assert line.startswith(f"cannot open the database {instance / 'scorekeeper.db'}: file is not a database")


@pytest.mark.parametrize("setting, value, says", [
    ("SCOREKEEPER_METRICS_PORT", "9100x", "METRICS_PORT must be a whole number, not '9100x'"),
    ("SCOREKEEPER_TRUSTED_PROXIES", "yes", "TRUSTED_PROXIES must be a whole number, not 'yes'"),
    ("SCOREKEEPER_NODE", "I", "NODE must be one character of ABCDEFGHJKLMNPQRSTUVWXYZ23456789, not 'I'"),
])
def test_a_setting_that_makes_no_sense_is_one_line(tmp_path, setting, value, says):
    for command in (["serve", "--port", str(free_port())], ["init-db"]):
        assert one_line(scorekeeper(*command, instance=tmp_path / "instance", env={setting: value})) == says


def test_restore_mends_a_database_too_damaged_to_open(tmp_path):
    """`restore` is for the day the database is lost or damaged; it made the whole app first,
    which opens and migrates the database, and so refused to replace one that would not open."""
    instance = tmp_path / "instance"
    assert scorekeeper("import", str(LOG), instance=instance).returncode == 0
    backup = tmp_path / "backup.db"
    assert scorekeeper("backup", str(backup), instance=instance).returncode == 0
    (instance / "scorekeeper.db").write_bytes(b"\0" * 4096 * 8)
    done = scorekeeper("restore", str(backup), instance=instance)
    assert done.returncode == 0 and done.stdout.startswith(f"Restored {backup} in "), done.stderr
    events = sqlite3.connect(instance / "scorekeeper.db").execute("SELECT count(*) FROM events").fetchone()[0]
    assert events == 60
    # onto a machine whose instance folder is not there yet: made, like every command's
    done = scorekeeper("restore", str(backup), instance=tmp_path / "new" / "instance")
    assert done.returncode == 0, done.stderr
    # the database put back over itself would lose its -wal (a crash's newest entries)
    line = one_line(scorekeeper("restore", str(instance / "scorekeeper.db"), instance=instance))
    assert line == f"{instance / 'scorekeeper.db'} is the database itself: name a backup made with `scorekeeper backup`"


def test_a_second_server_on_a_port_in_use_says_so_and_starts_nothing(tmp_path):
    """It printed "Scorekeeper is running" and a QR code of the address the other server
    holds, started Litestream on the database, tried gunicorn's bind five times and exited."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = scorekeeper("serve", "--host", "127.0.0.1", "--port", str(port), instance=tmp_path / "instance",
                           env={"SCOREKEEPER_REPLICA_URL": str(tmp_path / "replica")})
    assert one_line(done) == (f"port {port} is in use on 127.0.0.1: another server (Scorekeeper already "
                                 f"running?) listens there; stop it, or choose another with --port")
    assert not (tmp_path / "instance" / "litestream.yml").exists() and not (tmp_path / "replica").exists()


def started(instance: Path, port: int, env: dict | None = None) -> subprocess.Popen:
    """`scorekeeper serve` on 127.0.0.1:port in a process group of its own, once it answers."""
    process = subprocess.Popen([sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1", "--port",
                                str(port), "--workers", "2"],
                               env={**os.environ, "SCOREKEEPER_INSTANCE": str(instance), **(env or {})},
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                               start_new_session=True)
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
            return process
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                os.killpg(process.pid, signal.SIGKILL)
                raise RuntimeError(f"the server did not start: {process.communicate()[1][-2000:]}") from None
            time.sleep(0.1)


def test_ctrl_c_stops_the_server_cleanly(tmp_path):
    """A terminal's Ctrl-C is SIGINT to the whole process group: every worker got it and then
    the master's SIGQUIT, and printed a traceback ("failed with SystemExit") for the second."""
    port = free_port()
    process = started(tmp_path / "instance", port, {"SCOREKEEPER_BASE_URL": "https://scores.example"})
    os.killpg(process.pid, signal.SIGINT)
    try:
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 0, err
    assert "Traceback" not in err and "SystemExit" not in err, err
    # the address printed is the one phones open: BASE_URL's when it is set, as in the app's QR codes
    assert out.startswith("Scorekeeper is running. Phones open: https://scores.example/\n"), out


def test_a_folder_replica_that_cannot_be_written_is_refused_at_the_start(tmp_path):
    """Litestream started on it and logged an error at every sync for as long as the server
    ran, replicating nothing, while the server said "Replicating the database"."""
    (tmp_path / "a-file").write_text("")
    done = scorekeeper("serve", "--host", "127.0.0.1", "--port", str(free_port()), instance=tmp_path / "instance",
                       env={"SCOREKEEPER_REPLICA_URL": str(tmp_path / "a-file" / "replica")})
    assert one_line(done) == f"REPLICA_URL {tmp_path / 'a-file' / 'replica'} cannot be written: Not a directory"
    assert not (tmp_path / "instance" / "litestream.yml").exists()


def test_a_port_held_for_a_moment_is_tried_again():
    """A port bound by no server, but by a connection's end for a moment (a free port picked
    while others connect), is asked again for a few seconds, as gunicorn does; one a server
    listens on is refused at once."""
    import threading

    from scorekeeper.serve import bind_refusal

    held = socket.socket()
    held.bind(("127.0.0.1", 0))
    port = held.getsockname()[1]
    threading.Timer(0.7, held.close).start()
    began = time.monotonic()
    assert bind_refusal("127.0.0.1", port) is None and 0.5 < time.monotonic() - began < 3
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        began = time.monotonic()
        assert "is in use on 0.0.0.0" in bind_refusal("0.0.0.0", server.getsockname()[1])
        assert time.monotonic() - began < 1.5
