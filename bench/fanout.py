"""Area 2, live fan-out: M phones hold the live board of their table open (tables of 4–6),
a host enters results at a steady rate through every worker process, and each update's
arrival at every phone of its table is timed from the entry's 2xx. The same phones and
entries run against the bare gevent SSE server (bench/bare_sse.py) in the same run.

The phones live in their own process (bench/phones.py, asyncio raw sockets); both
processes read the machine's monotonic clock. Memory is the workers' summed PSS before
the phones connect and after, per connected phone.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

from . import bare_sse
from .common import (ROOT, Connection, CpuMeter, Instance, Server, escalero_plan, form, post_headers, summary)

SIZES = [4, 5, 6]  # phones (and players) per table, in turn


class Target:
    """What the phones open and how an entry is made, for the app or the bare baseline."""

    name = "?"

    def live_path(self, table: int, phone: int) -> tuple[str, str]:
        raise NotImplementedError

    def entry(self, table: int) -> tuple[str, dict, bytes]:
        raise NotImplementedError

    def entered(self, table: int, change: int | None = None) -> None:
        pass


class App(Target):
    name = "app"

    def __init__(self, instance: Instance, tables, phones) -> None:
        self.instance, self.tables, self.phones = instance, tables, phones
        self.plans = {size: escalero_plan([f"P{j + 1}" for j in range(size)]) for size in SIZES}
        self.position = [0] * len(tables)
        self.shown = ["0"] * len(tables)  # the change each table's board shows, sent as the page sends it

    def live_path(self, table: int, phone: int):
        device = self.tables[table].phones[phone]
        return f"/t/{self.tables[table].token}/live", self.phones[device]["cookie"]

    def entry(self, table: int):
        seeded = self.tables[table]
        plan = self.plans[len(seeded.players)]
        at = self.position[table] % len(plan)
        return (f"/t/{seeded.token}/entries", post_headers(self.instance.host),  # change: as the page sends it
                form({"event": plan[at], "change": self.shown[table],
                      "idem": f"{table}-{time.monotonic_ns()}"}))

    def entered(self, table: int, change: int | None = None) -> None:
        self.position[table] += 1
        self.shown[table] = str(change or self.shown[table])


class Bare(Target):
    name = "bare"

    def live_path(self, table: int, phone: int):
        return f"/live/{table + 1}", ""

    def entry(self, table: int):
        return f"/entry/{table + 1}", {}, b""


async def worker_connections(port: int, workers: int, per_worker: int = 3) -> dict[str, list[Connection]]:
    """Keep-alive connections grouped by the worker process that accepted them."""
    found: dict[str, list[Connection]] = {}
    for _ in range(60):
        connection = await Connection(port).open()
        reply = await connection.request("GET", "/_bench/hello")
        pid = reply.headers.get("x-worker", "?")
        if len(found.setdefault(pid, [])) < per_worker:
            found[pid].append(connection)
        else:
            connection.close()
        if len(found) >= workers and all(len(c) >= per_worker for c in found.values()):
            break
    return found


async def make_entries(port: int, target: Target, table_count: int, workers: int, rate: float,
                       seconds: float, warmup: bool = False) -> dict:
    """Entries at `rate` per second, alternating over the worker processes, each on a table
    that has had none for a second (so that one table's updates do not merge)."""
    by_worker = await worker_connections(port, workers)
    pids = sorted(by_worker)
    free = {pid: list(conns) for pid, conns in by_worker.items()}
    last_at = [0.0] * table_count
    busy: set[int] = set()
    made, errors = [], []
    rng = random.Random(11)

    async def one(table: int, pid: str) -> None:
        connection = free[pid].pop()
        path, headers, body = target.entry(table)
        try:
            reply = await connection.request("POST", path, headers, body)
            if reply.status >= 300:
                errors.append(f"{reply.status}: {reply.text()[:120]}")
                return
            found = re.search(r'data-change="(\d+)"', reply.text())
            target.entered(table, int(found.group(1)) if found else None)
            made.append({"table": table, "change": int(found.group(1)) if found else None,
                         "ok_ns": reply.ended, "worker": reply.headers.get("x-worker"),
                         "server_ms": reply.server_ms, "wire": reply.wire})
        except Exception as error:  # noted, and the connection replaced
            errors.append(repr(error))
            connection.close()
            connection = Connection(port)
        finally:
            free[pid].append(connection)
            busy.discard(table)
            last_at[table] = time.monotonic()

    tasks = []
    start = time.monotonic()
    total = int(rate * seconds)
    skipped = 0
    for k in range(total):
        await asyncio.sleep(max(0.0, start + k / rate - time.monotonic()))
        pid = pids[k % len(pids)]
        if not free[pid]:
            skipped += 1
            continue
        now = time.monotonic()
        table = None
        for _ in range(50):
            candidate = rng.randrange(table_count)
            if candidate not in busy and now - last_at[candidate] > 1.0:
                table = candidate
                break
        if table is None:
            skipped += 1
            continue
        busy.add(table)
        tasks.append(asyncio.create_task(one(table, pid)))
    if tasks:
        await asyncio.wait(tasks, timeout=30)
    for conns in free.values():
        for connection in conns:
            connection.close()
    return {"made": made, "errors": errors, "skipped": skipped, "workers": pids}


def run_one(target_name: str, work: str, phones_total: int, rate: float, seconds: float,
            workers: int = 2, log=print) -> dict:
    path = os.path.join(work, f"fanout-{target_name}-{phones_total}")
    shutil.rmtree(path, ignore_errors=True)
    sizes, remaining = [], phones_total
    while remaining > 0:  # tables of 4, 5 and 6 phones in turn (the last one takes the rest)
        size = SIZES[len(sizes) % len(SIZES)]
        if remaining - size < 4 and remaining - size != 0:
            size = remaining if remaining <= 6 else remaining - 4
        sizes.append(size)
        remaining -= size
    instance = Instance(path)
    if target_name == "app":
        tables, phones = instance.seed(len(sizes), sizes, seat_phones=True)
        target: Target = App(instance, tables, phones)
        server = Server(path, workers=workers)
    else:
        target = Bare()
        conn = bare_sse.connect(os.path.join(path, "bare.db"))  # each table opened: one change
        bare_sse.create(conn)
        conn.executemany("INSERT INTO changes (table_id) VALUES (?)", [(t + 1,) for t in range(len(sizes))])
        conn.close()
        server = Server(path, workers=workers,
                        command=[sys.executable, "-m", "bench.bare_sse", "{port}", str(workers)])
    members = []  # (table, phone index) per phone, in the order given to the phones process
    for table, size in enumerate(sizes):
        members += [(table, j) for j in range(size)]
    result = {"target": target_name, "phones": phones_total, "tables": len(sizes),
              "rate_per_s": rate, "seconds": seconds, "workers": workers}
    phones_proc = None
    try:
        # warm both workers up (templates compiled, caches made) before memory is read
        asyncio.run(make_entries(server.port, target, len(sizes), workers, rate=10, seconds=1.0))
        time.sleep(0.5)
        memory_before = server.memory()
        spec = {"port": server.port, "phones": [target.live_path(t, j) for t, j in members],
                "deadline_s": 300 + seconds, "connect_timeout_s": 60 + phones_total / 50, "out": os.path.join(path, "arrivals.json"),
                "connect_concurrency": 200}
        with open(os.path.join(path, "spec.json"), "w") as handle:
            json.dump(spec, handle)
        phones_proc = subprocess.Popen([sys.executable, "-m", "bench.phones", os.path.join(path, "spec.json")],
                                       cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        ready = json.loads(phones_proc.stdout.readline() or "{}")
        time.sleep(1.0)  # let the first boards settle
        memory_after = server.memory()
        result["connect"] = ready
        connected = ready.get("connected", 0)
        result["memory_kib"] = {"before": memory_before, "after": memory_after}
        if connected:
            result["kib_per_phone_pss"] = (memory_after["pss"] - memory_before["pss"]) / connected
            result["kib_per_phone_rss"] = (memory_after["rss"] - memory_before["rss"]) / connected
        # the machine's other load during the entries (two shared cores: it shows in the tails)
        meter = CpuMeter([os.getpid(), server.process.pid, phones_proc.pid, *server.worker_pids()])
        entries = asyncio.run(make_entries(server.port, target, len(sizes), workers, rate, seconds))
        result["cpu"] = meter.stop()
        time.sleep(2.0)  # the stragglers
        phones_proc.stdin.write("dump\n")
        phones_proc.stdin.flush()
        phones_proc.stdout.readline()
        phones_proc.wait(60)
        with open(spec["out"]) as handle:
            arrivals = json.load(handle)
    finally:
        if phones_proc is not None and phones_proc.poll() is None:
            phones_proc.kill()
            phones_proc.wait()
        server.stop()
    by_table: dict[int, list[int]] = {}
    for index, (table, _) in enumerate(members):
        by_table.setdefault(table, []).append(index)
    every, each, missing = [], [], 0
    per_worker: dict[str, list[float]] = {}
    for made in entries["made"]:
        if made["change"] is None:
            continue
        took = []
        for index in by_table[made["table"]]:
            times = [t for change, t in arrivals["arrivals"][index] if change >= made["change"]]
            if times:  # an update that came before the 2xx counts as 0 ms
                took.append(max(0.0, (min(times) - made["ok_ns"]) / 1e6))
            else:
                missing += 1
        each += took
        if len(took) == len(by_table[made["table"]]):
            every.append(max(took))
            per_worker.setdefault(made["worker"], []).append(max(took))
    result.update({
        "entries": len(entries["made"]), "entry_errors": len(entries["errors"]),
        "entry_error_examples": entries["errors"][:5], "skipped": entries["skipped"],
        "entries_per_worker": {pid: len(v) for pid, v in per_worker.items()},
        "every_phone_ms": summary(every), "each_phone_ms": summary(each),
        "per_worker_p95_ms": {pid: summary(v)["p95"] for pid, v in per_worker.items()},
        "entry_server_ms": summary(m["server_ms"] for m in entries["made"] if m["server_ms"] is not None),
        "missing_updates": missing, "drops": arrivals.get("drops", 0),
        "still_connected": arrivals.get("still_connected", 0),
        "server_log_errors": server_log_errors(str(server.log_path)),
        "server_log_tail": server.log_tail(40) if server_log_errors(str(server.log_path)) else "",
    })
    log(f"  fan-out {target_name} M={phones_total}: connected {result['connect'].get('connected')}"
        f" in {result['connect'].get('connect_s')} s · every phone p95 {result['every_phone_ms'].get('p95')} ms"
        f" · {result.get('kib_per_phone_pss', 0):.1f} KiB/phone · missing {missing} · errors"
        f" {result['entry_errors'] + result['connect'].get('failures', 0)}"
        f" · other load {result.get('cpu', {}).get('other_cores')} cores")
    shutil.rmtree(path, ignore_errors=True)
    return result


def server_log_errors(path: str) -> int:
    try:
        with open(path, errors="replace") as handle:
            return sum(1 for line in handle if "Traceback" in line or "[ERROR]" in line)
    except OSError:
        return 0


def run(work: str, counts=(60, 600, 3000, 8000), rate: float = 20.0, seconds: float = 20.0,
        workers: int = 2, log=print) -> dict:
    runs = []
    for count in counts:
        for name in ("bare", "app"):
            runs.append(run_one(name, work, count, rate, seconds, workers, log))
    return {"rate_per_s": rate, "seconds": seconds, "workers": workers, "runs": runs}
