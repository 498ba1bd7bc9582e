"""Area 5, attack: does a request from anyone slow another table's entry? (issue 16: "no request
from anyone slows another table's entry past 25 ms p99")

`scorekeeper serve` (gunicorn, gevent workers, SCOREKEEPER_TIMING=1, the limits on) with a few
victim tables whose seated phones enter results at a steady rate, open loop, each entry posted by
the phone of the player on turn with `seen` as the page sends it, each table's game begun at a
point of its own so that games end as often in either phase (`staggered`) — first alone (the baseline of
the same run), then while attackers, in a process of their own, do what the issue lists, each as
fast as the server answers (closed loops). Every phone has a loopback address of its own
(127.0.1.x), the attackers a few others (127.0.0.2 …), so the limits and the caps of
scorekeeper/worker.py count each apart, as on a pub's Wi-Fi:

- open tables and import game logs, a new device each time it is refused for the device, until
  the limits answer 429, and on (every refusal is a request too); the logs are the largest the
  server takes: a Euchre game padded to 2,000 events with redeals;
- GET /players, with the devices that imported those logs (their statistics fold them);
- POST deeply nested JSON to the victim's table and wrong codes to /join;
- slowloris: many sockets from one address sending a request's headers one line every few seconds,
  never ending;
- POSTs that promise more body than they send;
- the history loop (issue 25): the padded Euchre log imported once, its history page, the
  board's earlier entries and a page further back of each fetched by its importer (the host:
  rows with their corrections) in closed loops;
- fan-out amplification (issue 25): thousands of live streams from 20 addresses on the
  attacker's own table, half on its join link and half on its board link, each refused one
  opened again every two seconds, while the attacker's host enters a cell and undoes it 8 times
  a second (every undo a whole board).

Reported: the victim's entry p50/p99 (server, from Server-Timing, and client) under attack
against the baseline; a bare durable commit's p99 at the same moments (timing.py: a scratch
database on the same disk, posted at a quarter of the victim's rate), which tells the disk's
own stalls from what the attack does; what each attack got back (how many requests each limit
refused), the server errors (5xx and tracebacks in its log: 0), the slow sockets the server
still held at the end, and the machine's CPU (other load shares the two cores).

    python -m bench --only attack            (part of the full run; --smoke runs it in seconds)
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
from collections import Counter
from urllib.parse import urlencode

from .common import (ROOT, board_change, Connection, CpuMeter, Instance, Server, Turns, escalero_plan, form, raise_open_files,
                     summary)
from tests.support import Nginx, free_port, nginx_config

ATTACKERS = ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"]  # the victim's phones are 127.0.1.x
SLOW_FROM = "127.0.0.6"  # slowloris: one address, as the issue found it
BODIES_FROM = "127.0.0.7"  # the bodies promised and never sent
FANOUT_HOST = "127.0.3.100"  # the host of the attacker's table, entering and undoing
FANOUT_FROM = "127.0.3.{}"  # the streams on it: 127.0.3.1 …
PADDED_EVENTS = 2000  # service.MAX_LOG_EVENTS: the largest log the server takes


def padded_log() -> bytes:
    """A real Euchre game padded with redeals to the most events a log may have."""
    with open(os.path.join(ROOT, "tests", "logs", "euchre", "full-game.json")) as handle:
        doc = json.load(handle)
    doc["events"] = [{"type": "redeal"}] * (PADDED_EVENTS - len(doc["events"])) + doc["events"]
    return json.dumps(doc, separators=(",", ":")).encode()


# --- the victim: seated phones entering results ---------------------------------------------------


async def victim(port: int, tables, phones: dict, plans: dict, position: dict, rate: float, seconds: float,
                 warmup: float = 1.0) -> dict:
    """Entries at `rate` per second over the victim tables for warmup + seconds, each from the
    phone of the player on turn; a rematch from a seated phone when a pad is full. `position`:
    each table's entries so far, and (under "change:<token>") the change its board shows, which
    the next entry names as the page does; kept from one phase to the next."""
    sources = {device: f"127.0.{1 + n // 250}.{1 + n % 250}" for n, device in enumerate(phones)}  # an address each
    connections: dict[str, From] = {}
    turns = Turns(tables)
    samples: list = []
    errors: list[str] = []

    async def post(device: str, path: str, headers: dict, body: bytes):
        """The phone's request on its own keep-alive connection (one at a time: one per table)."""
        connection = connections.pop(device, None) or From(port, sources[device])
        try:
            reply = await connection.request("POST", path, headers, body)
        except Exception as error:  # a dropped connection is an error of the run, not a crash
            connection.close()
            return None, repr(error)
        if connection.writer is not None:
            connections[device] = connection
        return reply, None

    async def one(table, measured: bool) -> None:
        plan = plans[table.token]
        at = position[table.token]
        try:
            if at >= len(plan):
                device = table.phones[0]
                kind, path, body = "rematch", f"/t/{table.token}/rematch", form({"change": position.get(f"change:{table.token}", "0")})
            else:
                event = plan[at]
                device = table.phones[table.players.index(event["player"])]
                kind, path, body = "entry", f"/t/{table.token}/entries", form(
                    {"event": event, "change": position.get(f"change:{table.token}", "0"), "idem": secrets.token_urlsafe(9)})
            phone = phones[device]
            headers = {"Cookie": phone["cookie"], "X-CSRF-Token": phone["csrf"], "HX-Request": "true",
                       "Content-Type": "application/x-www-form-urlencoded"}
            reply, error = await post(device, path, headers, body)
            if reply is None or reply.status >= 300:
                errors.append(error or f"{kind} {reply.status}: {reply.text()[:120]}")
                return
            position[table.token] = 0 if kind == "rematch" else at + 1
            position[f"change:{table.token}"] = board_change(reply.text())
            if measured and kind == "entry":
                samples.append((reply.server_ms, reply.client_ms, reply.headers.get("x-worker"),
                                round((reply.started / 1e9) - start, 3)))
        finally:
            turns.done(table)

    # the disk's own moments: a bare durable commit (timing.py, a scratch database on the same
    # disk) at a quarter of the rate, one at a time, from an address of its own
    commits: list = []
    probe = {"busy": False, "connection": None}

    async def one_commit(measured: bool) -> None:
        probe["busy"] = True
        try:
            connection = probe["connection"] or From(port, "127.0.2.250")
            probe["connection"] = None
            try:
                reply = await connection.request("POST", "/_bench/commit", {}, b"")
            except Exception as error:
                connection.close()
                errors.append(f"commit: {error!r}")
                return
            if connection.writer is not None:
                probe["connection"] = connection
            if measured and reply.status == 200:
                commits.append((reply.server_ms, reply.client_ms, None, round((reply.started / 1e9) - start, 3)))
        finally:
            probe["busy"] = False

    tasks = []
    start = time.monotonic()
    skipped = 0
    for k in range(int((warmup + seconds) * rate)):
        await asyncio.sleep(max(0.0, start + k / rate - time.monotonic()))
        if k % 4 == 0 and not probe["busy"]:
            tasks.append(asyncio.create_task(one_commit(k >= warmup * rate)))
        table = turns.next()  # the next table with no entry in flight
        if table is None:
            skipped += 1
            continue
        tasks.append(asyncio.create_task(one(table, k >= warmup * rate)))
        if len(tasks) > 1000:
            tasks = [t for t in tasks if not t.done()]
    pending = [t for t in tasks if not t.done()]
    if pending:
        await asyncio.wait(pending, timeout=60)
    for connection in [*connections.values(), *filter(None, [probe["connection"]])]:
        connection.close()
    return {"samples": samples, "commits": commits, "errors": errors, "skipped": skipped,
            "seconds": time.monotonic() - start}


def digest(samples: list) -> dict:
    return {"server_ms": summary(s[0] for s in samples if s[0] is not None),
            "client_ms": summary(s[1] for s in samples),
            "per_worker": sorted(Counter(s[2] for s in samples).values(), reverse=True)}


# --- the attackers (their own process) --------------------------------------------------------------


class From(Connection):
    """A keep-alive connection from another loopback address."""

    def __init__(self, port: int, source: str) -> None:
        super().__init__(port)
        self.source = source

    async def open(self) -> "From":
        self.reader, self.writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", self.port, local_addr=(self.source, 0)), 10)
        return self


class Slow(asyncio.Protocol):
    """A socket that sends a request slowly and never finishes it; knows when the server hangs up."""

    def __init__(self) -> None:
        self.transport = None
        self.closed_at: float | None = None
        self.answered = b""

    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.answered += data[:64]

    def connection_lost(self, exc) -> None:
        self.closed_at = time.monotonic()


async def attack(spec: dict) -> dict:
    port, seconds, concurrency = spec["port"], spec["seconds"], spec["concurrency"]
    instance = Instance(spec["instance"])  # the server's secret key: devices as GET / would make them
    log = padded_log()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    counts: dict[str, Counter] = {kind: Counter() for kind in ("tables", "imports", "players", "nested", "codes")}
    slowest: dict[str, float] = {}
    importers: list[dict] = []  # devices whose statistics hold the padded imports

    async def loop_of(kind: str, source: str, make) -> None:
        """One closed loop: a request, its answer, the next request, until the deadline."""
        connection = From(port, source)
        while loop.time() < deadline:
            method, path, headers, body = make()
            started = time.monotonic()
            try:
                reply = await connection.request(method, path, headers, body, timeout=max(1.0, deadline - loop.time() + 5))
                status = str(reply.status)
                if reply.status == 429 and reply.body.startswith(b"Too many "):  # scorekeeper/worker.py
                    status += " requests" if b"requests" in reply.body[:30] else " connections"
                counts[kind][status] += 1
            except Exception as error:  # a refused or dropped connection is counted, not fatal
                counts[kind][type(error).__name__] += 1
                connection.close()
                connection = From(port, source)
                await asyncio.sleep(0.05)
            slowest[kind] = max(slowest.get(kind, 0.0), time.monotonic() - started)
        connection.close()

    def rotating(per_device: int):
        """A device used `per_device` times, then a new one (the per-device limit is then no help)."""
        state = {"device": instance.device(), "used": 0}

        def next_device() -> dict:
            if state["used"] >= per_device:
                state["device"], state["used"] = instance.device(), 0
            state["used"] += 1
            return state["device"]
        return next_device

    def headers_of(device: dict, content_type: str = "application/x-www-form-urlencoded") -> dict:
        return {"Cookie": device["cookie"], "X-CSRF-Token": device["csrf"], "Content-Type": content_type}

    def tables_maker():
        device = rotating(20)
        body = urlencode([("player", "A"), ("player", "B")]).encode()
        return lambda: ("POST", "/new/escalero", headers_of(device()), body)

    def imports_maker():
        device = rotating(10)
        boundary = "bench" + secrets.token_hex(8)
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"log\"; filename=\"log.json\"\r\n"
                f"Content-Type: application/json\r\n\r\n").encode() + log + f"\r\n--{boundary}--\r\n".encode()

        def make():
            chosen = device()
            if chosen not in importers:
                importers.append(chosen)
            return "POST", "/import", headers_of(chosen, f"multipart/form-data; boundary={boundary}"), body
        return make

    def players_maker():
        turn = {"n": 0}

        def make():
            turn["n"] += 1
            chosen = importers[turn["n"] % len(importers)] if importers else instance.device()
            return "GET", "/players", {"Cookie": chosen["cookie"]}, b""
        return make

    def nested_maker():
        deep = "[" * 999 + "]" * 999
        body = form({"event": deep, "change": "0"})
        target = f"/t/{spec['victim']}/entries"
        return lambda: ("POST", target, {**headers_of(instance.device()), "HX-Request": "true"}, body)

    def codes_maker():
        alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
        return lambda: ("POST", "/join", headers_of(instance.device()),
                        form({"code": "".join(secrets.choice(alphabet) for _ in range(6))}))

    makers = {"tables": tables_maker, "imports": imports_maker, "players": players_maker,
              "nested": nested_maker, "codes": codes_maker}
    kinds = spec.get("kinds") or list(makers) + ["history", "fanout", "slow"]
    tasks = []
    for kind, make in makers.items():
        if kind not in kinds:
            continue
        for n in range(concurrency):
            tasks.append(asyncio.create_task(loop_of(kind, ATTACKERS[n % len(ATTACKERS)], make())))

    # the history loop: one padded log imported, its pages fetched by its importer, round and round
    history = {"pages": []}
    counts["history"] = Counter()

    async def history_attack() -> None:
        importer = instance.device()
        boundary = "bench" + secrets.token_hex(8)
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"log\"; filename=\"log.json\"\r\n"
                f"Content-Type: application/json\r\n\r\n").encode() + log + f"\r\n--{boundary}--\r\n".encode()
        connection = From(port, ATTACKERS[-1])
        headers = {"Cookie": importer["cookie"], "X-CSRF-Token": importer["csrf"]}
        try:
            reply = await connection.request("POST", "/import", {
                **headers, "Content-Type": f"multipart/form-data; boundary={boundary}"}, body)
            if reply.status != 303:
                counts["history"][f"import {reply.status}"] += 1
                return
            token = reply.headers["location"].split("/")[2]
            for path in (f"/t/{token}/history", f"/t/{token}/board/earlier"):
                history["pages"].append(path)
                reply = await connection.request("GET", path, {**headers, "HX-Request": "true"})
                found = re.search(r'data-more hx-get="([^"]+)"', reply.text())
                if found:
                    history["pages"].append(found.group(1).replace("&amp;", "&"))
        except Exception as error:  # noted; the other attacks go on
            counts["history"][f"setup {type(error).__name__}"] += 1
            return
        finally:
            connection.close()
        turn = {"n": 0}

        def make():
            turn["n"] += 1
            return "GET", history["pages"][turn["n"] % len(history["pages"])], {**headers, "HX-Request": "true"}, b""

        await asyncio.gather(*(loop_of("history", ATTACKERS[n % len(ATTACKERS)], make) for n in range(2)))

    if "history" in kinds:
        tasks.append(asyncio.create_task(history_attack()))

    # fan-out amplification: streams on the attacker's own table while its host enters and undoes
    fan = {"opened": 0, "refused": 0, "failed": 0, "held": 0, "most_held": 0, "bytes": 0, "whole_boards": 0,
           "writes": Counter(), "write_ms": []}

    async def hold_stream(source: str, path: str) -> None:
        """A live stream, read and thrown away until the deadline; opened again two seconds
        after a refusal, as a persistent attacker would."""
        while loop.time() < deadline:
            writer = None
            try:
                reader, writer = await asyncio.wait_for(asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(source, 0)), 10)
                writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
                head = await asyncio.wait_for(reader.readuntil(b"\r\n"), max(1.0, deadline - loop.time()))
                if not head.startswith(b"HTTP/1.1 200"):
                    fan["refused"] += 1
                    writer.close()
                    await asyncio.sleep(2.0)
                    continue
                fan["opened"] += 1
                fan["held"] += 1
                fan["most_held"] = max(fan["most_held"], fan["held"])
                whole, carry = b'class="board-inner"', b""
                try:
                    while loop.time() < deadline:
                        chunk = await asyncio.wait_for(reader.read(65536), max(0.1, deadline - loop.time()))
                        if not chunk:
                            break
                        fan["bytes"] += len(chunk)
                        fan["whole_boards"] += (carry + chunk).count(whole)  # a board split between reads counts once
                        carry = (carry + chunk)[1 - len(whole):]
                finally:
                    fan["held"] -= 1
            except (asyncio.TimeoutError, OSError, asyncio.IncompleteReadError):
                if loop.time() < deadline:
                    fan["failed"] += 1
                    await asyncio.sleep(0.5)
            finally:
                if writer is not None:
                    writer.close()

    async def fanout_attack() -> None:
        host = instance.device()
        connection = From(port, FANOUT_HOST)
        headers = {"Cookie": host["cookie"], "X-CSRF-Token": host["csrf"], "Content-Type": "application/x-www-form-urlencoded"}
        try:
            reply = await connection.request("POST", "/new/escalero", headers, urlencode([("player", "A"), ("player", "B")]).encode())
            token = reply.headers["location"].rsplit("/", 1)[-1]
            page = (await connection.request("GET", f"/t/{token}", {"Cookie": host["cookie"]})).text()
            board_token = re.search(r'href="/b/([\w-]+)"', page).group(1)
            change = board_change(page)
        except Exception as error:
            fan["writes"][f"setup {type(error).__name__}"] += 1
            return
        addresses = spec["fanout_addresses"]
        streams = [asyncio.create_task(hold_stream(FANOUT_FROM.format(1 + n % addresses),
                                                   f"/t/{token}/live" if n % 2 else f"/b/{board_token}/live"))
                   for n in range(spec["fanout_streams"])]
        cell = {"type": "score", "player": "A", "column": 1, "row": "1", "value": 3}
        started, k, target = loop.time(), 0, None
        while loop.time() < deadline:  # enter, undo, enter, undo … 8 a second, open loop
            await asyncio.sleep(max(0.0, started + k / spec["fanout_rate"] - loop.time()))
            k += 1
            if target is None:
                path, fields = f"/t/{token}/entries", {"event": cell, "change": change, "idem": secrets.token_urlsafe(9)}
            else:
                path, fields = f"/t/{token}/undo", {"target": str(target), "change": change, "idem": secrets.token_urlsafe(9)}
            try:
                reply = await connection.request("POST", path, {**headers, "HX-Request": "true"}, form(fields))
            except Exception as error:
                fan["writes"][type(error).__name__] += 1
                connection.close()
                connection = From(port, FANOUT_HOST)
                continue
            fan["writes"][f"{path.rsplit('/', 1)[-1]} {reply.status}"] += 1
            fan["write_ms"].append(reply.client_ms)
            if reply.status < 300:
                html = reply.text()
                change = board_change(html) or change
                found = re.search(r"/undo\" hx-vals='[^']*\"target\": (\d+)", html)
                target = int(found.group(1)) if found and target is None else None
        connection.close()
        await asyncio.gather(*streams, return_exceptions=True)

    if "fanout" in kinds:
        tasks.append(asyncio.create_task(fanout_attack()))

    # slowloris: request heads a line at a time; and bodies promised but never sent
    slow: list[Slow] = []
    bodies: list[Slow] = []
    failed = Counter()

    async def open_slow(count: int, into: list, first: bytes, source: str) -> None:
        for n in range(count):
            if loop.time() >= deadline:
                break
            try:
                _, protocol = await asyncio.wait_for(loop.create_connection(
                    Slow, "127.0.0.1", port, local_addr=(source, 0)), 5)
            except Exception as error:
                failed[type(error).__name__] += 1
                continue
            protocol.transport.write(first)
            into.append(protocol)
            if n % 100 == 99:
                await asyncio.sleep(0.02)  # a few thousand a second, not all in one burst

    head = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode()
    device = instance.device()
    promise = (f"POST /import HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {device['cookie']}\r\n"
               f"X-CSRF-Token: {device['csrf']}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
               f"Content-Length: 60000\r\n\r\ntext=%7B").encode()
    opened = time.monotonic()
    if "slow" in kinds:
        tasks.append(asyncio.create_task(open_slow(spec["slowloris"], slow, head, SLOW_FROM)))
        tasks.append(asyncio.create_task(open_slow(spec["slow_bodies"], bodies, promise, BODIES_FROM)))

    async def drip() -> None:
        line = 0
        while loop.time() < deadline:
            await asyncio.sleep(min(spec["drip_s"], max(0.0, deadline - loop.time())))
            line += 1
            for protocol in slow:
                if protocol.closed_at is None:
                    protocol.transport.write(f"X-Slow-{line}: 1\r\n".encode())

    tasks.append(asyncio.create_task(drip()))
    print("ready", flush=True)
    await asyncio.wait(tasks, timeout=seconds + 30)
    held = {"slowloris": sum(p.closed_at is None for p in slow), "slow_bodies": sum(p.closed_at is None for p in bodies)}
    cut = [p.closed_at - opened for p in slow + bodies if p.closed_at is not None]
    answers = Counter(p.answered.split(b"\r\n", 1)[0].decode("latin-1")[:40] for p in slow + bodies if p.answered)
    for protocol in slow + bodies:
        protocol.transport.abort()
    fan["write_ms"] = summary(fan["write_ms"])
    fan["writes"] = dict(fan["writes"])
    return {"requests": {kind: dict(sorted((str(k), v) for k, v in c.items())) for kind, c in counts.items()},
            "history_pages": history["pages"], "fanout": fan,
            "slowest_s": {k: round(v, 3) for k, v in slowest.items()},
            "slowloris": {"opened": len(slow), "still_held_at_end": held["slowloris"], "drip_s": spec["drip_s"]},
            "slow_bodies": {"opened": len(bodies), "still_held_at_end": held["slow_bodies"]},
            "slow_connect_failures": dict(failed), "slow_cut_after_s": summary(cut), "slow_answers": dict(answers),
            "importers": len(importers), "seconds": seconds}


# --- what one table's changes cost: a worker's CPU for each message to each of its streams -------------


def message_cost(work: str, streams: tuple[int, ...] = (0, 200, 800), changes: int = 24) -> dict:
    """One worker, one table whose host enters and undoes a cell every 300 ms (every change a
    message: the table's streams are sent at most one every 250 ms, scorekeeper/live.py), with
    `streams` live streams on it (half its board link's): the worker's CPU per change, the
    difference per stream, and when the last stream had each message."""

    def cpu(pid: int) -> float:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    async def one(count: int) -> dict:
        path = os.path.join(work, f"cost-{count}")
        shutil.rmtree(path, ignore_errors=True)
        instance = Instance(path)
        server = Server(path, workers=1)
        try:
            worker = server.worker_pids()[0]
            host = instance.device()
            connection = Connection(server.port)
            headers = {"Cookie": host["cookie"], "X-CSRF-Token": host["csrf"], "HX-Request": "true",
                       "Content-Type": "application/x-www-form-urlencoded"}
            reply = await connection.request("POST", "/new/escalero", headers, b"player=A&player=B")
            token = reply.headers["location"].rsplit("/", 1)[-1]
            page = (await connection.request("GET", f"/t/{token}", {"Cookie": host["cookie"]})).text()
            board_token = re.search(r'href="/b/([\w-]+)"', page).group(1)
            change = board_change(page)
            arrived: list[float] = []

            async def stream(n: int) -> None:
                reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
                writer.write(f"GET /{'t' if n % 2 else 'b'}/{token if n % 2 else board_token}/live HTTP/1.1\r\n"
                             f"Host: 127.0.0.1\r\n\r\n".encode())
                while await reader.read(65536):
                    arrived.append(time.monotonic())

            tasks = [asyncio.create_task(stream(n)) for n in range(count)]
            await asyncio.sleep(2 + count / 400)
            cell = {"type": "score", "player": "A", "column": 1, "row": "1", "value": 3}
            target, lags, began = None, [], cpu(worker)
            for _ in range(changes):
                if target is None:
                    path_, fields = f"/t/{token}/entries", {"event": cell, "change": change, "idem": secrets.token_urlsafe(9)}
                else:
                    path_, fields = f"/t/{token}/undo", {"target": str(target), "change": change, "idem": secrets.token_urlsafe(9)}
                reply = await connection.request("POST", path_, headers, form(fields))
                done, mark = time.monotonic(), len(arrived)
                html = reply.text()
                change = board_change(html) or change
                found = re.search(r"/undo\" hx-vals='[^']*\"target\": (\d+)", html)
                target = int(found.group(1)) if found and target is None else None
                await asyncio.sleep(0.3)
                if len(arrived) > mark:
                    lags.append((max(arrived[mark:]) - done) * 1000)
            spent = (cpu(worker) - began) / changes * 1000
            for task in tasks:
                task.cancel()
            connection.close()
            return {"streams": count, "worker_ms_a_change": round(spent, 2), "last_arrival_ms": summary(lags)}
        finally:
            server.stop()
            shutil.rmtree(path, ignore_errors=True)

    runs = [asyncio.run(one(count)) for count in streams]
    for fewer, run in zip(runs, runs[1:]):  # the slope: what each stream more costs
        run["us_a_stream"] = round((run["worker_ms_a_change"] - fewer["worker_ms_a_change"]) * 1000
                                   / (run["streams"] - fewer["streams"]), 1)
    return {"runs": runs}


# --- the run ---------------------------------------------------------------------------------------------


def staggered(instance: Instance, seeded, plan: list[dict]) -> dict:
    """Each victim table's game begun at a point of its own (table i of n at i/n of the plan),
    entered through the service before the server starts, and where each table stands (the
    victim's `position`). Begun together, every table ended its game and began the next within
    the same second of the attack, never in the baseline: ten whole boards with their settlement
    at once, measured under attack only. Spread out, the games end as often in the baseline as
    under attack, as a pub's tables do."""
    from scorekeeper import service, store

    db = store.connect(instance.database)
    db.conn.execute("PRAGMA synchronous = OFF")  # seeding only: the server keeps FULL
    position = {}
    for i, table in enumerate(seeded):
        row = service.table_by_id(db, table.table_id)
        done = i * len(plan) // len(seeded)
        for event in plan[:done]:
            device = table.phones[table.players.index(event["player"])]
            service.submit(db, row, service.viewer(db, row, device), event)
        position[table.token] = done
        position[f"change:{table.token}"] = str(store.last_change(db, table.table_id))
    db.conn.close()
    return position


def run(work: str, rate: float = 50.0, baseline: float = 15.0, seconds: float = 30.0, tables: int = 10,
        players: int = 4, workers: int = 2, concurrency: int = 2, slowloris: int = 2000, slow_bodies: int = 200,
        drip_s: float = 5.0, kinds: tuple[str, ...] = (), cap: int | None = None, requests: str | None = None,
        fanout_streams: int = 2520, fanout_addresses: int = 20, fanout_rate: float = 8.0, profile: str | None = None,
        cost_streams: tuple[int, ...] = (0, 200, 800), proxy: bool | None = None, log=print) -> dict:
    """`kinds`: some of tables, imports, players, nested, codes, history, fanout and slow (all
    when empty; BENCH_ATTACK_KINDS="history,fanout" chooses from the command line); `cap`: the
    connections one address may hold of the server, `requests` its requests a second
    ("rate/burst") (None: the production defaults, scorekeeper/worker.py; 0, "0": none);
    `fanout_streams` from `fanout_addresses` addresses on the attacker's table, whose host
    enters and undoes `fanout_rate` times a second, and what a message costs a worker for each
    stream of a table (`message_cost` with `cost_streams`). `profile`: a folder; py-spy then
    samples the workers during the attack (`python -m bench --only attack --profile`). `proxy`:
    the phones and the attackers reach the server through docs/nginx.conf, as on the open
    internet (docs/deploy.md), the caps per address then nginx's (None: BENCH_ATTACK_PROXY=nginx)."""
    kinds = kinds or tuple(k for k in os.environ.get("BENCH_ATTACK_KINDS", "").split(",") if k)
    if proxy is None:
        proxy = os.environ.get("BENCH_ATTACK_PROXY", "") == "nginx"
    path = os.path.join(work, "attack")
    shutil.rmtree(path, ignore_errors=True)
    instance = Instance(path)
    seeded, phones = instance.seed(tables, [players], seat_phones=True)
    plan = escalero_plan(seeded[0].players)
    plans = {t.token: plan for t in seeded}
    position = staggered(instance, seeded, plan)
    from scorekeeper.worker import DEFAULT_CAP, DEFAULT_RATE

    cap = DEFAULT_CAP if cap is None else cap
    requests = "%g/%g" % DEFAULT_RATE if requests is None else requests
    # as in production: the limits and the caps on (the test and bench servers switch them off);
    # behind the proxy, the caps per address are nginx's (scorekeeper/worker.py)
    if proxy:
        server = Server(path, workers=workers, env={"SCOREKEEPER_LIMITS": "on", "SCOREKEEPER_TRUSTED_PROXIES": "1",
                                                    "SCOREKEEPER_CONNECTIONS_PER_ADDRESS": "",
                                                    "SCOREKEEPER_REQUESTS_PER_ADDRESS": ""})
        port = free_port()
        try:
            front = Nginx(os.path.join(path, "nginx"), port, nginx_config("nginx.conf", port, {"127.0.0.1:8000": server.port}))
        except (OSError, RuntimeError):
            server.stop()
            raise
        front_pids = [front.process.pid]
    else:
        server = Server(path, workers=workers, env={"SCOREKEEPER_LIMITS": "on", "SCOREKEEPER_CONNECTIONS_PER_ADDRESS": str(cap),
                                                    "SCOREKEEPER_REQUESTS_PER_ADDRESS": requests})
        front, port, front_pids = None, server.port, []
    out = {"connections_per_address": cap, "requests_per_address": requests, "rate_per_s": rate, "baseline_s": baseline, "attack_s": seconds, "victim_tables": tables,
           "kinds": list(kinds) or "all",
           "workers": workers, "concurrency_per_attack": concurrency, "padded_log_events": PADDED_EVENTS,
           "fanout_streams": fanout_streams, "fanout_addresses": fanout_addresses, "fanout_rate": fanout_rate}
    if proxy:  # the caps per address are nginx's then: 20 connections, 10 requests a second (burst 20)
        out.update({"proxy": "docs/nginx.conf", "connections_per_address": "nginx's", "requests_per_address": "nginx's"})
    attacker = None
    try:
        meter = CpuMeter([os.getpid(), server.process.pid, *server.worker_pids(), *front_pids])
        alone = asyncio.run(victim(port, seeded, phones, plans, position, rate, baseline))
        out["cpu_baseline"] = meter.stop()
        spec = {"port": port, "seconds": seconds + 1.0, "concurrency": concurrency, "instance": path,
                "victim": seeded[0].token, "slowloris": slowloris, "slow_bodies": slow_bodies, "drip_s": drip_s,
                "kinds": list(kinds), "fanout_streams": fanout_streams, "fanout_addresses": fanout_addresses,
                "fanout_rate": fanout_rate}
        # the attackers' own CPU is not the server's: on these two shared cores they run niced,
        # and send what the CPU left to them lets them (their request counts are reported)
        attacker = subprocess.Popen([sys.executable, "-m", "bench.attack", "--attacker", json.dumps(spec)],
                                    cwd=ROOT, stdout=subprocess.PIPE, text=True, preexec_fn=lambda: os.nice(19))
        ready = attacker.stdout.readline().strip()
        if ready != "ready":
            raise RuntimeError(f"the attackers did not start: {ready!r}")
        spy = None
        if profile:
            from .profile import Spy

            os.makedirs(profile, exist_ok=True)
            spy = Spy(server.worker_pids(), max(1.0, seconds - 4), profile, delay=3.0)
        meter = CpuMeter([os.getpid(), server.process.pid, attacker.pid, *server.worker_pids(), *front_pids])
        served = CpuMeter([server.process.pid, *server.worker_pids(), *front_pids])
        attackers = CpuMeter([attacker.pid])
        attacked = asyncio.run(victim(port, seeded, phones, plans, position, rate, seconds))
        out["cpu_attack"] = {**meter.stop(), "server_cores": served.stop()["bench_and_server_cores"],
                             "attacker_cores": attackers.stop()["bench_and_server_cores"]}
        report, _ = attacker.communicate(timeout=seconds + 90)
        out["attack"] = json.loads(report.strip().splitlines()[-1])
        if spy is not None:
            out["profile"] = spy.summary()
            log("  profile (share of busy worker time, inclusive):")
            for pct, name in out["profile"]["inclusive_pct"][:30]:
                log(f"    {pct:5.1f} %  {name}")
        after = asyncio.run(victim(port, seeded, phones, plans, position, rate, min(baseline, 5.0)))
    finally:
        if attacker is not None and attacker.poll() is None:
            attacker.kill()
            attacker.wait(10)
        if front is not None:
            front.stop()
        errors_logged = server.server_errors()
        server.stop()
    shutil.rmtree(path, ignore_errors=True)
    out["baseline"] = {**digest(alone["samples"]),
                       "commit_ms": summary(c[0] for c in alone["commits"] if c[0] is not None),
                       "errors": len(alone["errors"]), "skipped": alone["skipped"]}
    out["under_attack"] = {**digest(attacked["samples"]),
                           "commit_ms": summary(c[0] for c in attacked["commits"] if c[0] is not None),
                           "slowest_commits": sorted(attacked["commits"], key=lambda c: -(c[0] or 0))[:5],
                           "errors": len(attacked["errors"]),
                           "slowest": sorted(attacked["samples"], key=lambda s: -(s[0] or 0))[:10],
                           "slowest_client": sorted(attacked["samples"], key=lambda s: -s[1])[:10],
                           "error_examples": attacked["errors"][:5], "skipped": attacked["skipped"]}
    # once the limits refuse every table and import (the first seconds), what is left of the attack
    out["under_attack_after_5s"] = digest([sample for sample in attacked["samples"] if sample[3] >= 5 + 1.0])
    out["after_attack"] = {**digest(after["samples"]), "errors": len(after["errors"])}
    requests = {kind: out["attack"]["requests"].get(kind, {})
                for kind in ("tables", "imports", "players", "nested", "codes", "history")}
    out["server_errors"] = sum(v for kind in requests.values() for k, v in kind.items() if k.isdigit() and int(k) >= 500)
    out["server_log_errors"] = len(errors_logged)
    out["refused"] = {"tables_429": requests["tables"].get("429", 0), "imports_429": requests["imports"].get("429", 0),
                      "codes_429": requests["codes"].get("429", 0), "nested_400": requests["nested"].get("400", 0),
                      "streams_429": out["attack"]["fanout"]["refused"],
                      "rate_429": sum(kind.get("429 requests", 0) for kind in requests.values()),
                      "connections_429": sum(kind.get("429 connections", 0) for kind in requests.values())}
    base, hit = out["baseline"]["server_ms"], out["under_attack"]["server_ms"]
    log(f"  attack: victim entry p50 {base.get('p50', 0):.2f} → {hit.get('p50', 0):.2f} ms, "
        f"p99 {base.get('p99', 0):.2f} → {hit.get('p99', 0):.2f} ms (server) · "
        f"client p99 {out['baseline']['client_ms'].get('p99', 0):.1f} → {out['under_attack']['client_ms'].get('p99', 0):.1f} ms · "
        f"bare commit p99 {out['baseline']['commit_ms'].get('p99', 0):.1f} → "
        f"{out['under_attack']['commit_ms'].get('p99', 0):.1f} ms · "
        f"victim errors {out['under_attack']['errors']} · 5xx {out['server_errors']} · "
        f"other load {out['cpu_attack']['other_cores']} cores")
    log("  attack requests: " + "; ".join(f"{kind} {counts}" for kind, counts in requests.items()))
    if "fanout" in (kinds or ("fanout",)) and cost_streams:
        out["message_cost"] = message_cost(work, cost_streams)
        log("  a message to a table's streams: " + "; ".join(
            f"{run['streams']} streams {run['worker_ms_a_change']} ms of the worker a change"
            + (f" ({run['us_a_stream']} µs a stream, the last one had it after "
               f"{run['last_arrival_ms'].get('p50', 0):.0f} ms)" if "us_a_stream" in run else "")
            for run in out["message_cost"]["runs"]))
    fan = out["attack"]["fanout"]
    if fan["writes"]:
        log(f"  fan-out: {fan['most_held']} streams held at most (opened {fan['opened']}, refused {fan['refused']}, "
            f"failed {fan['failed']}), {fan['whole_boards']} whole boards and {fan['bytes'] / 1e6:.1f} MB sent them; "
            f"host's writes {fan['writes']}, p99 {fan['write_ms'].get('p99', 0):.1f} ms")
    log(f"  slow sockets held at the end: {out['attack']['slowloris']['still_held_at_end']}/"
        f"{out['attack']['slowloris']['opened']} heads, {out['attack']['slow_bodies']['still_held_at_end']}/"
        f"{out['attack']['slow_bodies']['opened']} bodies")
    return out


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--attacker":
        raise_open_files()
        print(json.dumps(asyncio.run(attack(json.loads(sys.argv[2])))), flush=True)
        return
    print(__doc__)


if __name__ == "__main__":
    main()
