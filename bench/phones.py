"""Thousands of phones holding a live board open: one asyncio process, one raw socket each.

Run by bench/fanout.py as `python -m bench.phones SPEC`: SPEC is a JSON file
{"port": …, "phones": [[path, cookie], …], "deadline_s": …, "out": …}. Each phone sends
GET path (with its cookie, as a browser's EventSource does), reads the chunked event
stream and notes, for every message, its `id:` and the monotonic clock (shared by every
process on this machine) when its last byte arrived.

Protocol on stdout/stdin: the process prints one JSON line when every phone is connected
and has had its first message (or has failed), then waits for "dump" on stdin, writes the
arrivals to `out`, prints "done" and exits. It also exits by itself at the deadline.
"""

from __future__ import annotations

import asyncio
import json
import resource
import sys
import time


class Phone(asyncio.Protocol):
    def __init__(self, index: int, request: bytes, ready: "Tally") -> None:
        self.index, self.request, self.tally = index, request, ready
        self.buffer = b""  # raw bytes not yet parsed (headers, then chunk framing)
        self.text = b""  # de-chunked stream not yet split into messages
        self.headers_done = False
        self.status = None
        self.chunk_left = 0
        self.need_crlf = False
        self.arrivals: list[tuple[int, int]] = []
        self.closed = False
        self.transport = None

    def connection_made(self, transport) -> None:
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        now = time.monotonic_ns()
        self.buffer += data
        if not self.headers_done:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head, self.buffer = self.buffer[:end], self.buffer[end + 4:]
            self.status = int(head.split(b" ", 2)[1])
            self.headers_done = True
            if self.status != 200:
                self.tally.failed(self, f"status {self.status}")
                self.transport.close()
                return
        while self.buffer:  # chunked transfer encoding: size line, data, CRLF
            if self.need_crlf:
                if len(self.buffer) < 2:
                    break
                self.buffer = self.buffer[2:]
                self.need_crlf = False
                continue
            if self.chunk_left == 0:
                line_end = self.buffer.find(b"\r\n")
                if line_end < 0:
                    break
                size = int(self.buffer[:line_end].split(b";")[0] or b"0", 16)
                self.buffer = self.buffer[line_end + 2:]
                if size == 0:
                    self.buffer = b""
                    break
                self.chunk_left = size
                continue
            take = self.buffer[:self.chunk_left]
            self.buffer = self.buffer[len(take):]
            self.chunk_left -= len(take)
            self.text += take
            self.need_crlf = self.chunk_left == 0
        while True:
            cut = self.text.find(b"\n\n")
            if cut < 0:
                break
            message, self.text = self.text[:cut], self.text[cut + 2:]
            if message.startswith(b"id: "):
                event_id = int(message[4:message.find(b"\n") if b"\n" in message else None])
                first = not self.arrivals
                self.arrivals.append((event_id, now))
                if first:
                    self.tally.got_first(self)

    def connection_lost(self, exc) -> None:
        self.closed = True
        self.tally.lost(self, repr(exc) if exc else "closed by server")


class Tally:
    def __init__(self, total: int) -> None:
        self.total = total
        self.first = 0
        self.failures: list[str] = []
        self.drops = 0
        self.all_in = asyncio.Event()
        self.settled = set()

    def _check(self) -> None:
        if len(self.settled) >= self.total:
            self.all_in.set()

    def got_first(self, phone: Phone) -> None:
        self.first += 1
        self.settled.add(phone.index)
        self._check()

    def failed(self, phone: Phone, why: str) -> None:
        self.failures.append(why)
        self.settled.add(phone.index)
        self._check()

    def lost(self, phone: Phone, why: str) -> None:
        if phone.index not in self.settled:
            self.failed(phone, why)
        else:
            self.drops += 1


async def main(spec: dict) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + spec["deadline_s"]
    port = spec["port"]
    entries = spec["phones"]
    tally = Tally(len(entries))
    phones: list[Phone] = []
    started = time.monotonic()
    gate = asyncio.Semaphore(spec.get("connect_concurrency", 200))

    async def connect(index: int, path: str, cookie: str) -> None:
        request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n"
                   f"Cache-Control: no-cache\r\n" + (f"Cookie: {cookie}\r\n" if cookie else "") + "\r\n").encode()
        phone = Phone(index, request, tally)
        phones.append(phone)
        async with gate:
            for attempt in range(5):
                try:
                    await asyncio.wait_for(loop.create_connection(lambda: phone, "127.0.0.1", port), 20)
                    break
                except (OSError, asyncio.TimeoutError) as error:
                    if attempt == 4:
                        tally.failed(phone, f"connect: {error!r}")
                        return
                    await asyncio.sleep(0.2 * (attempt + 1))
            # hold the gate until the first message: connecting phones do not pile up unserved
            for _ in range(600):
                if phone.arrivals or phone.closed or phone.index in tally.settled:
                    break
                await asyncio.sleep(0.05)

    tasks = [asyncio.create_task(connect(i, path, cookie)) for i, (path, cookie) in enumerate(entries)]
    try:
        await asyncio.wait_for(tally.all_in.wait(), min(spec.get("connect_timeout_s", 120),
                                                         max(1.0, deadline - loop.time())))
    except asyncio.TimeoutError:
        pass
    connected = sum(1 for p in phones if p.arrivals and not p.closed)
    print(json.dumps({"ready": True, "phones": len(entries), "connected": connected,
                      "failures": len(tally.failures), "failure_examples": tally.failures[:5],
                      "connect_s": round(time.monotonic() - started, 2),
                      "open_files": list(resource.getrlimit(resource.RLIMIT_NOFILE))}), flush=True)
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    try:
        await asyncio.wait_for(reader.readline(), max(1.0, deadline - loop.time()))
    except asyncio.TimeoutError:
        pass
    still = sum(1 for p in phones if not p.closed)
    with open(spec["out"], "w") as handle:
        json.dump({"arrivals": [p.arrivals for p in sorted(phones, key=lambda p: p.index)],
                   "still_connected": still, "drops": tally.drops, "failures": len(tally.failures)}, handle)
    for phone in phones:
        if phone.transport is not None:
            phone.transport.close()
    for task in tasks:
        task.cancel()
    print(json.dumps({"done": True}), flush=True)


if __name__ == "__main__":
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with open(sys.argv[1]) as handle:
        asyncio.run(main(json.load(handle)))
