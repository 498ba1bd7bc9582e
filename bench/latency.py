"""Area 1, entry latency: `scorekeeper serve` with N active tables and a steady stream of
entries (open loop, a fixed rate), each an htmx POST answered with the board fragment; side
by side, at the same rate, a bare Flask "hello" route served by the same gunicorn gevent
workers; at a quarter of the rate, a durable commit of one row on the bare app (the baseline of
the target) and the same commit behind our own app's hooks and table context (our floor of an
entry: scorekeeper/timing.py). Times are taken inside the server (Server-Timing) and by the client.

Each table is an Escalero game of four; the host's device enters its cells in turn and starts
a rematch when the pad is full (rematches are timed apart from entries).
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import time

from .common import (board_change, Connection, CpuMeter, Instance, Server, Turns, escalero_plan, form, post_headers,
                     summary)


class Pool:
    """Keep-alive connections, opened as needed (at most `limit`)."""

    def __init__(self, port: int, limit: int = 32) -> None:
        self.port, self.limit = port, limit
        self.free: list[Connection] = []
        self.count = 0
        self.available = asyncio.Condition()

    async def take(self) -> Connection:
        async with self.available:
            for _ in range(10_000):
                if self.free:
                    return self.free.pop()
                if self.count < self.limit:
                    self.count += 1
                    return Connection(self.port)
                await asyncio.wait_for(self.available.wait(), 30)
        raise RuntimeError("no connection became free")

    async def give(self, connection: Connection, broken: bool = False) -> None:
        async with self.available:
            if broken:
                connection.close()
                self.count -= 1
            else:
                self.free.append(connection)
            self.available.notify()

    def close(self) -> None:
        for connection in self.free:
            connection.close()


async def timed(pool: Pool, method: str, path: str, headers: dict, body: bytes = b""):
    connection = await pool.take()
    try:
        reply = await connection.request(method, path, headers, body)
    except Exception as error:  # a dropped connection is an error of the run, not a crash
        await pool.give(connection, broken=True)
        return None, repr(error)
    await pool.give(connection, broken=connection.writer is None)
    return reply, None


async def drive(port: int, host: dict, tables, plans, rate: float, seconds: float,
                warmup: float = 1.0) -> dict:
    """Entries and hellos at `rate` each per second for warmup + seconds; returns samples."""
    entries, hellos = Pool(port), Pool(port, 8)
    position = {t.token: 0 for t in tables}
    shown: dict[str, str] = {}  # the change each table's board shows, sent as the page sends it
    order = list(tables)
    random.Random(7).shuffle(order)
    turns = Turns(order)
    samples: dict[str, list] = {"entry": [], "rematch": [], "hello": [], "commit": [], "floor": []}
    errors: list[str] = []

    async def one_entry(table, measured: bool) -> None:
        plan = plans[table.token]
        at = position[table.token]
        try:
            if at >= len(plan):
                kind, path, body = "rematch", f"/t/{table.token}/rematch", form({"change": shown.get(table.token, "0")})
            else:
                kind, path, body = "entry", f"/t/{table.token}/entries", form(
                    {"event": plan[at], "change": shown.get(table.token, "0"),
                     "idem": f"{table.token}-{time.monotonic_ns()}"})
            reply, error = await timed(entries, "POST", path, post_headers(host), body)
            if reply is None or reply.status >= 300:
                errors.append(error or f"{kind} {reply.status}: {reply.text()[:120]}")
                return
            position[table.token] = 0 if kind == "rematch" else at + 1
            shown[table.token] = board_change(reply.text())
            if measured:
                samples[kind].append((reply.server_ms, reply.client_ms, reply.wire, len(reply.body),
                                      reply.headers.get("x-worker")))
        finally:
            turns.done(table)

    async def one_hello(measured: bool) -> None:
        reply, error = await timed(hellos, "GET", "/_bench/hello", {"Accept-Encoding": "gzip"})
        if reply is None or reply.status != 200:
            errors.append(error or f"hello {reply.status}")
        elif measured:
            samples["hello"].append((reply.server_ms, reply.client_ms, reply.wire, len(reply.body),
                                     reply.headers.get("x-worker")))

    async def one_commit(measured: bool) -> None:
        reply, error = await timed(hellos, "POST", "/_bench/commit", {}, b"")
        if reply is None or reply.status != 200:
            errors.append(error or f"commit {reply.status}")
        elif measured:
            samples["commit"].append((reply.server_ms, reply.client_ms, reply.wire, len(reply.body),
                                      reply.headers.get("x-worker")))

    async def one_floor(table, measured: bool) -> None:
        """Our own stack's floor of an entry (scorekeeper/timing.py): the app's hooks, the table
        context and the same durable commit, nothing of the game."""
        reply, error = await timed(hellos, "POST", f"/_bench/floor/{table.token}", post_headers(host), b"")
        if reply is None or reply.status != 200:
            errors.append(error or f"floor {reply.status}")
        elif measured:
            samples["floor"].append((reply.server_ms, reply.client_ms, reply.wire, len(reply.body),
                                     reply.headers.get("x-worker")))

    # each table's board as its page shows it: an entry then names the change it was made on
    for table in tables:
        reply, error = await timed(entries, "GET", f"/t/{table.token}/board", post_headers(host))
        if reply is None or reply.status != 200:
            errors.append(error or f"board {reply.status}")
        else:
            shown[table.token] = board_change(reply.text())

    tasks = []
    start = time.monotonic()
    total = int((warmup + seconds) * rate)
    skipped = 0
    for k in range(total):
        due = start + k / rate
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        measured = k >= warmup * rate
        table = turns.next()  # the next table with no entry in flight
        if table is None:
            skipped += 1
        else:
            tasks.append(asyncio.create_task(one_entry(table, measured)))
        await asyncio.sleep(max(0.0, due + 0.5 / rate - time.monotonic()))
        tasks.append(asyncio.create_task(one_hello(measured)))
        if k % 4 == 0:  # a durable commit, the floor of an entry, at a quarter of the rate
            tasks.append(asyncio.create_task(one_commit(measured)))
        if k % 4 == 2:  # and the same commit behind our own hooks and table context
            tasks.append(asyncio.create_task(one_floor(order[k % len(order)], measured)))
        if len(tasks) > 2000:
            tasks = [t for t in tasks if not t.done()]
    pending = [t for t in tasks if not t.done()]
    if pending:
        await asyncio.wait(pending, timeout=30)
    took = time.monotonic() - start
    entries.close()
    hellos.close()
    return {"samples": samples, "errors": errors, "skipped": skipped, "seconds": took}


def digest(samples: list) -> dict:
    workers: dict[str, int] = {}
    for sample in samples:
        workers[sample[4]] = workers.get(sample[4], 0) + 1
    return {"server_ms": summary(s[0] for s in samples if s[0] is not None),
            "client_ms": summary(s[1] for s in samples),
            "wire_bytes": summary(s[2] for s in samples),
            "body_bytes": summary(s[3] for s in samples),
            "per_worker": sorted(workers.values(), reverse=True)}


def run(work: str, counts=(10, 100, 1000), rate: float = 100.0, seconds: float = 20.0,
        workers: int = 2, players: int = 4, profile: str | None = None, log=print) -> dict:
    """profile: a folder; py-spy then samples the workers during the run with the middle N."""
    out = {"rate_per_s": rate, "seconds": seconds, "workers": workers, "players_per_table": players,
           "runs": []}
    for count in counts:
        path = os.path.join(work, f"latency-{count}")
        shutil.rmtree(path, ignore_errors=True)
        instance = Instance(path)
        tables, _ = instance.seed(count, [players])
        plan = escalero_plan(tables[0].players)
        plans = {t.token: plan for t in tables}
        server = Server(path, workers=workers)
        spy = None
        if profile and count == counts[len(counts) // 2]:
            from .profile import Spy

            os.makedirs(profile, exist_ok=True)
            spy = Spy(server.worker_pids(), max(1.0, seconds - 2), profile, delay=2.0)
        meter = CpuMeter([os.getpid(), server.process.pid, *server.worker_pids()])
        try:
            result = asyncio.run(drive(server.port, instance.host, tables, plans, rate, seconds))
            cpu = meter.stop()
        finally:
            server.stop()
        entry, hello = digest(result["samples"]["entry"]), digest(result["samples"]["hello"])
        row = {"tables": count, "entry": entry, "hello": hello, "commit": digest(result["samples"]["commit"]),
               "floor": digest(result["samples"]["floor"]),
               "cpu": cpu,
               "rematch": digest(result["samples"]["rematch"]),
               "errors": len(result["errors"]), "error_examples": result["errors"][:5],
               "skipped": result["skipped"], "wall_s": round(result["seconds"], 1)}
        if spy is not None:
            row["profile"] = spy.summary()
            log("  profile (share of busy worker time, inclusive):")
            for pct, name in row["profile"]["inclusive_pct"][:25]:
                log(f"    {pct:5.1f}%  {name}")
        if entry["server_ms"].get("n") and hello["server_ms"].get("n"):
            row["ratio_p50"] = entry["server_ms"]["p50"] / hello["server_ms"]["p50"]
            row["ratio_p99"] = entry["server_ms"]["p99"] / hello["server_ms"]["p99"]
        out["runs"].append(row)
        log(f"  latency N={count}: entry p50 {entry['server_ms'].get('p50', 0):.2f} ms "
            f"p99 {entry['server_ms'].get('p99', 0):.2f} ms · hello p50 {hello['server_ms'].get('p50', 0):.3f} ms "
            f"· commit p50 {row['commit']['server_ms'].get('p50', 0):.3f} ms "
            f"· our floor p50 {row['floor']['server_ms'].get('p50', 0):.3f} ms · errors {row['errors']} "
            f"· other load {cpu['other_cores']} cores")
        shutil.rmtree(path, ignore_errors=True)
    return out
