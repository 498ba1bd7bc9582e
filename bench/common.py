"""What every part of the benchmark shares: the server under test, seeded tables and phones,
signed cookies, a small asyncio HTTP/1.1 client, memory of a process tree and percentiles.

Servers listen on 127.0.0.1 only; every wait here is bounded in time.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import re
import resource
import secrets
import sys
import time
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tests import support  # noqa: E402  (the tests' own server helper, after ROOT is on the path)


# --- the machine ---------------------------------------------------------------------------


def raise_open_files() -> tuple[int, int]:
    """Raise this process's open-files limit as far as the machine allows (children inherit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = 1 << 20
    if soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def machine() -> dict:
    info = {"cpus": os.cpu_count(), "python": sys.version.split()[0], "platform": sys.platform}
    try:
        with open("/proc/cpuinfo") as handle:
            names = [line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")]
        info["cpu"] = names[0] if names else "?"
    except OSError:
        pass
    try:
        with open("/proc/meminfo") as handle:
            info["memory_gib"] = round(int(handle.readline().split()[1]) / 2**20, 1)
    except OSError:
        pass
    info["kernel"] = os.uname().release
    info["open_files"] = list(resource.getrlimit(resource.RLIMIT_NOFILE))
    return info


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(p) for p in handle.read().split()]
    except OSError:
        return []


def memory_kib(pid: int) -> dict:
    """Rss and Pss of one process (KiB), from smaps_rollup."""
    out = {"rss": 0, "pss": 0}
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                key, _, rest = line.partition(":")
                if key in ("Rss", "Pss"):
                    out[key.lower()] = int(rest.split()[0])
    except OSError:
        pass
    return out


class CpuMeter:
    """CPU used on the machine during a run: by the given processes, and by everything else
    (other load shares the two cores and shows in the tail latencies)."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self.start = (time.monotonic(), self._busy(), self._ours())

    @staticmethod
    def _busy() -> int:
        try:
            with open("/proc/stat") as handle:
                fields = [int(x) for x in handle.readline().split()[1:]]
        except OSError:
            return 0
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
        return sum(fields[:8]) - idle

    def _ours(self) -> int:
        total = 0
        for pid in self.pids:
            try:
                with open(f"/proc/{pid}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])  # utime, stime
            except (OSError, IndexError, ValueError):
                pass
        return total

    def stop(self) -> dict:
        began, busy, ours = self.start
        seconds = max(1e-6, time.monotonic() - began)
        tick = os.sysconf("SC_CLK_TCK")
        busy_cores = (self._busy() - busy) / tick / seconds
        our_cores = (self._ours() - ours) / tick / seconds
        return {"machine_cores_busy": round(busy_cores, 2), "bench_and_server_cores": round(our_cores, 2),
                "other_cores": round(max(0.0, busy_cores - our_cores), 2)}


def percentile(values, p: float) -> float | None:
    """Nearest-rank percentile (p in 0..100)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-len(ordered) * p // 100))))
    return ordered[rank - 1]


def summary(values) -> dict:
    values = list(values)
    if not values:
        return {"n": 0}
    return {"n": len(values), "p50": percentile(values, 50), "p95": percentile(values, 95),
            "p99": percentile(values, 99), "max": max(values), "mean": sum(values) / len(values)}


# --- the server under test ---------------------------------------------------------------------


class Server(support.Server):
    """`scorekeeper serve` (tests/support.py) with its timing switched on, started once its
    workers answer; or any other command line that takes {port}."""

    ready_path = "/_bench/hello"

    def __init__(self, instance: str, workers: int = 2, command: list[str] | None = None,
                 env: dict | None = None, log: str | None = None) -> None:
        super().__init__(instance, workers, {"SCOREKEEPER_TIMING": "1", **(env or {})}, command, log)

    def ready(self) -> bool:
        return len(self.worker_pids()) >= self.workers

    def worker_pids(self) -> list[int]:
        return children(self.process.pid)

    def memory(self) -> dict:
        """Summed Rss and Pss of the worker processes, in KiB."""
        total = {"rss": 0, "pss": 0}
        for pid in self.worker_pids():
            for key, value in memory_kib(pid).items():
                total[key] += value
        return total


# --- seeding: tables, seats and signed cookies, written through the tables service ------------


@dataclass
class Seeded:
    token: str  # join token
    table_id: int
    players: list[str]
    phones: list[str] = field(default_factory=list)  # device ids seated, in seat order


class Instance:
    """An instance folder with its database and secret key, and the means to make phones."""

    def __init__(self, path: str) -> None:
        os.makedirs(path, exist_ok=True)
        self.path = path
        key_path = os.path.join(path, "secret_key")
        if not os.path.exists(key_path):
            with open(key_path, "wb") as handle:
                handle.write(secrets.token_bytes(32))
        with open(key_path, "rb") as handle:
            key = handle.read()
        from scorekeeper import create_app

        self.database = os.path.join(path, "scorekeeper.db")
        self.app = create_app({"SECRET_KEY": key, "DATABASE": self.database})
        self.serializer = self.app.session_interface.get_signing_serializer(self.app)
        self.host = self.device()

    def device(self) -> dict:
        """A new phone: its device id, CSRF token and signed session cookie."""
        device, csrf = secrets.token_urlsafe(16), secrets.token_urlsafe(32)
        cookie = self.serializer.dumps({"device": device, "csrf": csrf, "_permanent": True})
        return {"device": device, "csrf": csrf, "cookie": f"session={cookie}"}

    def seed(self, count: int, sizes: list[int], game: str = "escalero", rules: dict | None = None,
             seat_phones: bool = False) -> tuple[list[Seeded], dict[str, dict]]:
        """`count` tables opened by the host device, table i with sizes[i % len(sizes)] players;
        with seat_phones each seat gets a phone of its own. Returns the tables and the phones."""
        from scorekeeper import service, store

        db = store.connect(self.database)
        db.conn.execute("PRAGMA synchronous = OFF")  # seeding only: the server keeps FULL
        made, phones = [], {}
        for i in range(count):
            size = sizes[i % len(sizes)]
            players = [f"P{j + 1}" for j in range(size)]
            row = service.create_table(db, self.host["device"], game, rules or {}, players)
            seeded = Seeded(row["join_token"], row["id"], players)
            if seat_phones:
                for seat in service.seats(db, row["id"]):
                    phone = self.device()
                    service.join(db, row, phone["device"], seat_id=seat["id"])
                    phones[phone["device"]] = phone
                    seeded.phones.append(phone["device"])
            made.append(seeded)
        db.conn.close()
        return made, phones


def escalero_plan(players: list[str], rules: dict | None = None) -> list[dict]:
    """A whole game of Escalero as the score events a host would enter, cell by cell."""
    from scorekeeper.gamelog import FORMAT, read_header
    from scorekeeper.games.escalero import allowed_values

    game = read_header({"format": FORMAT, "game": "escalero", "players": players, "rules": rules or {},
                        "events": []})
    state = game.start()
    plan = []
    for turn in range(10_000):
        side = state.side_on_turn
        if side is None:
            break
        column, row = state.open_cells(side)[(turn * 7) % len(state.open_cells(side))]
        values = allowed_values(row, state.rules)
        value = values[(turn % (len(values) - 1)) + 1] if turn % 5 and len(values) > 1 else values[0]
        event = {"type": "score", "player": state.setup.side(side).members[0], "column": column,
                 "row": row.value, "value": value}
        state = game.apply(state, event)
        plan.append(event)
    return plan


# --- a small HTTP/1.1 client on asyncio streams (keep-alive, Content-Length or chunked) -------


@dataclass
class Reply:
    status: int
    headers: dict
    body: bytes  # as it came over the wire (compressed if the server compressed it)
    wire: int  # bytes received: status line, headers and body
    started: int  # monotonic ns before the request was written
    ended: int  # monotonic ns when the last byte was read

    @property
    def client_ms(self) -> float:
        return (self.ended - self.started) / 1e6

    @property
    def server_ms(self) -> float | None:
        found = re.search(r"dur=([\d.]+)", self.headers.get("server-timing", ""))
        return float(found.group(1)) if found else None

    def text(self) -> str:
        body = gzip.decompress(self.body) if self.headers.get("content-encoding") == "gzip" else self.body
        return body.decode("utf-8", "replace")


class Connection:
    def __init__(self, port: int) -> None:
        self.port = port
        self.reader = self.writer = None

    async def open(self) -> "Connection":
        self.reader, self.writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", self.port), 10)
        return self

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    async def request(self, method: str, path: str, headers: dict | None = None, body: bytes = b"",
                      timeout: float = 30) -> Reply:
        started = time.monotonic_ns()  # a connection opened for the request is part of its wait
        if self.writer is None:
            await self.open()
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        for key, value in (headers or {}).items():
            lines.append(f"{key}: {value}")
        if body or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        reply = await asyncio.wait_for(self._read(started), timeout)
        if reply.headers.get("connection", "").lower() == "close":
            self.close()
        return reply

    async def _read(self, started: int) -> Reply:
        head = await self.reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        # the bench's own headers (SCOREKEEPER_TIMING: Server-Timing, X-Worker) are not counted:
        # a production server sends none
        wire = len(head) - sum(len(line) + 2 for line in header_lines
                               if line.lower().startswith(("server-timing:", "x-worker:")))
        status = int(status_line.split()[1])
        headers: dict[str, str] = {}
        for line in header_lines:
            if ":" in line:
                key, value = line.split(":", 1)
                key = key.strip().lower()
                headers[key] = (headers[key] + ", " if key in headers else "") + value.strip()
        if "content-length" in headers:
            body = await self.reader.readexactly(int(headers["content-length"]))
            wire += len(body)
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            for _ in range(100_000):
                size_line = await self.reader.readuntil(b"\r\n")
                size = int(size_line.split(b";")[0], 16)
                chunk = await self.reader.readexactly(size + 2)
                wire += len(size_line) + len(chunk)
                if size == 0:
                    break
                parts.append(chunk[:-2])
            body = b"".join(parts)
        else:
            body = await self.reader.read()
            wire += len(body)
            self.close()
        return Reply(status, headers, body, wire, started, time.monotonic_ns())


def form(fields: dict) -> bytes:
    from urllib.parse import urlencode

    return urlencode({k: v if isinstance(v, str) else json.dumps(v) for k, v in fields.items()}).encode()


def board_change(html: str) -> str:
    """The change a board (or its parts) brings a phone to: the next write's `change`."""
    found = re.search(r'id="stamp"[^>]*data-change="(\d+)"', html)
    return found.group(1) if found else ""


def post_headers(phone: dict, gzip_ok: bool = True) -> dict:
    headers = {"Cookie": phone["cookie"], "X-CSRF-Token": phone["csrf"], "HX-Request": "true",
               "Content-Type": "application/x-www-form-urlencoded"}
    if gzip_ok:
        headers["Accept-Encoding"] = "gzip, deflate, br"
    return headers


class Turns:
    """The tables in a fixed order, round and round: the next one with no entry in flight."""

    def __init__(self, tables) -> None:
        self.tables, self.cursor, self.busy = list(tables), 0, set()

    def next(self):
        for _ in range(len(self.tables)):
            candidate = self.tables[self.cursor % len(self.tables)]
            self.cursor += 1
            if candidate.token not in self.busy:
                self.busy.add(candidate.token)
                return candidate
        return None

    def done(self, table) -> None:
        self.busy.discard(table.token)
