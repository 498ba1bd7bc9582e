"""The reliability suite's shared pieces: the production server as real processes, a phone that
speaks plain HTTP to it, a check of a whole database, and the figures each test reports.

The figures (entries acknowledged, crashes survived, fuzz cases, refusals …) are merged into
build/reliability.json (or $SCOREKEEPER_FIGURES) when the session ends;
`python tests/reliability/figures.py` copies them into docs/reliability.md.
"""

from __future__ import annotations

import fcntl
import html
import http.client
import json
import os
import re
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlencode

import pytest

from tests.support import Server, free_port

ROOT = Path(__file__).resolve().parents[2]
FIGURES = Path(os.environ.get("SCOREKEEPER_FIGURES") or ROOT / "build" / "reliability.json")
LOGS = ROOT / "tests" / "logs"


# --- figures -------------------------------------------------------------------------------------


class Figures:
    """Counters per guarantee; each test adds to its section.

    The processes of one run (pytest-xdist's workers, and `make test`'s second pass for the
    tests marked `alone`: $SCOREKEEPER_RUN) add their counts to the same sections of the file;
    a new run replaces them."""

    def __init__(self) -> None:
        self.sections: dict[str, dict] = {}
        self.fixed: set[tuple[str, str]] = set()  # (section, key) set, not added
        self.lock = threading.Lock()

    def add(self, section: str, key: str, amount: int | float = 1) -> None:
        with self.lock:
            counts = self.sections.setdefault(section, {})
            counts[key] = counts.get(key, 0) + amount

    def set(self, section: str, key: str, value) -> None:
        with self.lock:
            self.sections.setdefault(section, {})[key] = value
            self.fixed.add((section, key))

    def write(self) -> None:
        if not self.sections:
            return
        run = os.environ.get("SCOREKEEPER_RUN") or os.environ.get("PYTEST_XDIST_TESTRUNUID") or str(os.getpid())
        FIGURES.parent.mkdir(parents=True, exist_ok=True)
        with open(FIGURES.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another process of the run may be writing its own
            try:
                old = json.loads(FIGURES.read_text())
            except (OSError, ValueError):
                old = {}
            stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
            for name, counts in self.sections.items():
                merged = old.get(name, {}) if old.get(name, {}).get("run") == run else {}
                for key, value in counts.items():
                    if (name, key) not in self.fixed and isinstance(merged.get(key), (int, float)):
                        value += merged[key]
                    merged[key] = round(value, 1) if isinstance(value, float) else value
                old[name] = {**merged, "run_at": stamp, "run": run}
            FIGURES.write_text(json.dumps(old, indent=1, sort_keys=True) + "\n")


_figures = Figures()
_controller = False  # pytest-xdist's controller: its workers count their own tests' seconds


def pytest_configure(config):
    global _controller
    _controller = config.pluginmanager.hasplugin("dsession")


@pytest.fixture(scope="session")
def figures():
    return _figures


def pytest_sessionfinish(session):
    _figures.write()


def pytest_runtest_logreport(report):
    """Each test's time (setup, call and teardown) goes to the section named by its module."""
    module = report.nodeid.split("::", 1)[0].rsplit("/", 1)[-1].removesuffix(".py")
    if not _controller and module.startswith("test_") and module != "test_report":
        _figures.add(module.removeprefix("test_"), "seconds", report.duration)


# --- the production server -----------------------------------------------------------------------




# --- a phone over real HTTP ----------------------------------------------------------------------

MESSAGE = re.compile(r'role="alert"[^>]*>(.*?)</p>|<h1>[^<]*</h1>\s*<p>(.*?)</p>', re.S)


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    text: str
    elapsed: float = 0.0

    @property
    def location(self) -> str:
        return self.headers.get("Location", "")

    @property
    def message(self) -> str:
        """The refusal's message as a person reads it (tags stripped, entities decoded)."""
        found = MESSAGE.search(self.text)
        raw = next((g for g in found.groups() if g), "") if found else ""
        return html.unescape(re.sub(r"<[^>]+>", "", raw)).strip()


@dataclass
class WebPhone:
    """One device talking HTTP/1.1 to a server: its own signed cookie and CSRF token. A new
    connection per request, so a phone's requests spread over the worker processes."""

    base: str
    timeout: float = 20
    cookie: str | None = None
    csrf: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def request(self, method: str, path: str, fields=None, headers=None, fetch: bool = True) -> Reply:
        host, port = self.base.removeprefix("http://").split(":")
        body = urlencode(fields or {}, doseq=True) if fields is not None else None
        sent = {"Connection": "close", **(headers or {})}
        if fetch:  # as htmx sends it
            sent.setdefault("HX-Request", "true")
        if body is not None:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        with self.lock:
            if self.cookie:
                sent.setdefault("Cookie", self.cookie)
        started = time.monotonic()
        conn = http.client.HTTPConnection(host, int(port), timeout=self.timeout)
        try:
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            text = response.read().decode("utf-8", "replace")
        finally:
            conn.close()
        reply = Reply(response.status, response.headers, text, time.monotonic() - started)
        for header in response.headers.get_all("Set-Cookie") or []:
            if header.startswith("session="):
                with self.lock:
                    self.cookie = header.split(";", 1)[0]
        found = re.search(r'<meta name="csrf" content="([^"]+)"', text)
        if found:
            with self.lock:
                self.csrf = found.group(1)
        return reply

    def get(self, path: str, **kwargs) -> Reply:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, fields=None, fetch: bool = True, csrf: bool = True) -> Reply:
        if self.csrf is None:
            self.get("/")
        data = dict(fields or {})
        if csrf:
            data.setdefault("csrf", self.csrf)
        return self.request("POST", path, data, fetch=fetch)

    # -- the moves of a table --

    def open_table(self, game: str, players, rules=None, scribe: str | None = None) -> dict:
        data = {"player": list(players)}
        for key, value in (rules or {}).items():
            data[f"rule_{key}"] = json.dumps(value) if isinstance(value, bool) else str(value)
        if scribe:
            data.update(seating="scribe", scribe=scribe)
        reply = self.post(f"/new/{game}", data, fetch=False)
        assert reply.status == 303, (reply.status, reply.message)
        token = reply.location.rsplit("/", 1)[-1]
        page = self.get(f"/t/{token}").text
        return {"token": token, "board": re.search(r'/b/([\w-]+)', page).group(1),
                "code": re.search(r"Code <b>([A-Z0-9]{6})</b>", page).group(1)}

    def seat_id(self, token: str, name: str) -> str:
        page = self.get(f"/t/{token}").text
        found = re.search(rf'{{"seat": (\d+)}}[^>]*>{re.escape(html.escape(name))}<', page)
        assert found, f"no free seat for {name}"
        return found.group(1)

    def join(self, token: str, name: str) -> Reply:
        reply = self.post(f"/t/{token}/join", {"seat": self.seat_id(token, name), "change": self.change(token)},
                          fetch=False)
        assert reply.status == 303, (reply.status, reply.message)
        return reply

    def change(self, token: str) -> str:
        """The change this phone's board shows now (the stamp every write of the page includes);
        `token`: a join token, or a table's URL ("/b/<board token>")."""
        base = token if token.startswith("/") else f"/t/{token}"
        found = re.search(r'data-change="(\d+)"', self.get(f"{base}/board").text)
        return found.group(1) if found else ""

    def write(self, path: str, fields=None, change=None) -> Reply:
        """A write of a table (`path`: /t/<token>/… or /b/<token>/…) as the page sends it: with
        the change its board shows (read now, unless given)."""
        table = re.match(r"(/[tb]/[^/]+)/", path)
        if change is None and table:
            change = self.change(table.group(1))
        return self.post(path, {"change": "" if change is None else str(change), **(fields or {})})

    def tray(self, token: str, fields=None) -> Reply:
        """This phone's tray for what it tapped (GET …/tray, as htmx asks)."""
        return self.get(f"/t/{token}/tray?{urlencode(fields or {}, doseq=True)}", headers={"HX-Request": "true"})

    def enter(self, token: str, event: dict, idem: str | None = None, **extra) -> Reply:
        extra.setdefault("change", self.change(token))
        data = {"event": json.dumps(event), **{k: str(v) for k, v in extra.items()}}
        if idem:
            data["idem"] = idem
        return self.post(f"/t/{token}/entries", data)


# --- checking a whole database ---------------------------------------------------------------------


def check_database(path: Path) -> dict:
    """Open a database as a restarted server would and check that nothing is half-written:
    SQLite's own integrity and foreign keys, every table with its seats and a first game, every
    game's log folding through the rules, every idempotency key once. Returns counts."""
    from scorekeeper import service

    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        counts = {"tables": 0, "games": 0, "entries": 0, "events": 0}
        for table_id, code, join_token, board_token in conn.execute(
                "SELECT id, code, join_token, board_token FROM tables"):
            counts["tables"] += 1
            assert len(join_token) >= 22 and len(board_token) >= 22 and len(code) == 6
            positions = [p for (p,) in conn.execute(
                "SELECT position FROM seats WHERE table_id = ? ORDER BY position", [table_id])]
            assert positions == list(range(1, len(positions) + 1)), positions
            numbers = [n for (n,) in conn.execute(
                "SELECT number FROM games WHERE table_id = ? ORDER BY number", [table_id])]
            assert numbers == list(range(1, len(numbers) + 1)) and numbers, numbers
        columns = ["id", "table_id", "number", "game", "header", "created_at"]
        for row in conn.execute(f"SELECT {', '.join(columns)} FROM games"):
            game_row = dict(zip(columns, row))
            history = service.history_of(conn, game_row["id"])
            played = service.fold(game_row, history, history[-1].id if history else 0)  # raises if illegal
            counts["games"] += 1
            counts["entries"] += len(played.entries)
            counts["events"] += len(history)
        duplicates = conn.execute("SELECT idem, count(*) FROM events WHERE idem IS NOT NULL "
                                  "GROUP BY idem HAVING count(*) > 1").fetchall()
        assert duplicates == []
        return counts
    finally:
        conn.close()


def played_of(path: Path, token: str):
    """The current game of a table, folded from the rows on disk (no process cache)."""
    from scorekeeper import service

    conn = sqlite3.connect(path)
    try:
        columns = ["id", "table_id", "number", "game", "header", "created_at"]
        row = conn.execute(f"SELECT {', '.join('g.' + c for c in columns)} FROM games g JOIN tables t "
                           "ON t.id = g.table_id WHERE t.join_token = ? ORDER BY g.number DESC LIMIT 1",
                           [token]).fetchone()
        game_row = dict(zip(columns, row))
        history = service.history_of(conn, game_row["id"])
    finally:
        conn.close()
    return service.fold(game_row, history, history[-1].id if history else 0)


def worker_cpu(server: Server) -> dict[int, int]:
    """CPU ticks (user + system) of each worker process of a running server (Linux /proc)."""
    ticks = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == server.process.pid:  # ppid: a worker of this master
            ticks[int(stat.parent.name)] = int(fields[11]) + int(fields[12])
    return ticks


def race(calls, timeout: float = 30) -> list:
    """Run every call at the same moment (one thread each, released by a barrier); their results."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index: int) -> None:
        barrier.wait(timeout)
        try:
            results[index] = calls[index]()
        except BaseException as error:  # reported to the test as the result
            results[index] = error

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
        assert not thread.is_alive(), "a racing request hung"
    return results


def idems(path: Path) -> dict[str, tuple[int, str]]:
    """Every stored idempotency key (without its device prefix) -> (event id, kind)."""
    conn = sqlite3.connect(path)
    try:
        return {idem.split(":", 1)[1]: (event_id, kind) for event_id, kind, idem in conn.execute(
            "SELECT id, kind, idem FROM events WHERE idem IS NOT NULL")}
    finally:
        conn.close()


def load_log(game: str, name: str) -> dict:
    return json.loads((LOGS / game / f"{name}.json").read_text())


@pytest.fixture(scope="session")
def kit():
    """The helpers above, for the test modules (conftest is not importable under importlib)."""
    return SimpleNamespace(Server=Server, WebPhone=WebPhone, Reply=Reply, check_database=check_database,
                           idems=idems, load_log=load_log, free_port=free_port,
                           played_of=played_of, worker_cpu=worker_cpu, race=race)
