"""Live updates: wake a table's streams when it changes, in this process and across workers.

A writer wakes its own process's streams at once; a light watcher in every process looks for
new rows in `changes` (one query per tick for all tables) and wakes the rest, so any number
of worker processes stay in step without another server. Streams hold no database
connection: they share the hub's one connection and a per-table cache of the rendered board.

What one table's changes cost is bounded however many streams it has (issue 25: 2,521 streams
on an attacker's table whose host entered and undid a cell 8 times a second): a message is
rendered once per process for every stream of one kind (`board`: the streams that ask while it
is being made wait for it), framed and deflated once (`packed`), and a table's streams get a
message at most every SEND_EVERY seconds (`send_wait`): the changes in between fold into the
next one — the parts of several entries, or the whole board. Only the bytes of each send are
the stream's own.
"""

from __future__ import annotations

import struct
import threading
import time
import zlib
from collections import OrderedDict
from typing import Callable

from . import metrics, store


# seconds between two looks of a process's watcher at `changes`: a phone whose stream is in
# another worker than the write waits for it, so it is most of that phone's wait (half of every
# table's p95 at the fan-out bench's 8,000 phones, issue 27); a look is one indexed query
LOOK_EVERY = 0.025
# the tables changed since the watcher's last look, and their last change: only the new rows
# (a range of the rowid). Left to itself, SQLite grouped by the (table_id, id) index and read
# every change the database ever kept: 23 ms a look at 200,000 changes, 15 µs now
NEW_CHANGES = "SELECT table_id, max(id) FROM changes NOT INDEXED WHERE id > ? GROUP BY table_id"
SEND_EVERY = 0.25  # seconds between two messages to one table's streams, at least (per process)
PACKED = 64  # framed and deflated messages kept: the ones many streams are sending right now
# rendered boards kept: the streams of one kind ask for theirs within moments of each other,
# and a phone's whole board is ~25 KB (issue 27: 512 of them were 13 MB of each worker, 3–13 KB
# a phone at the fan-out bench's sizes, where every seat is a kind of its own)
BOARDS = 64


class Hub:
    def __init__(self, database: str, interval: float = LOOK_EVERY, folds: store.FoldCache | None = None) -> None:
        self.database = database
        self.folds = folds
        self.interval = interval
        self._lock = threading.Lock()
        self._waiters: dict[int, threading.Event] = {}
        self._db = None
        self._db_lock = threading.Lock()
        self._watcher: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._seen = 0
        self.looked = 0.0  # when the watcher last read `changes` (time.monotonic): /healthz
        self._boards: OrderedDict[tuple, str] = OrderedDict()
        self._rendering: dict[tuple, threading.Event] = {}
        self._packed: OrderedDict[tuple, list] = OrderedDict()
        self._sent: dict[int, tuple[float, int]] = {}  # table -> (when, change) of its streams' last message
        self._notices: dict[int, int] = {}  # table -> how many times its streams were woken
        self._marks: dict[int, tuple[int, tuple[int, int]]] = {}  # table -> (notice, its marks then)
        self.send_every = SEND_EVERY

    # -- waking -------------------------------------------------------------------------

    def wait(self, table_id: int, timeout: float) -> bool:
        """Block until the table changes (True) or the timeout passes (False)."""
        self._ensure_watcher()
        with self._lock:
            event = self._waiters.get(table_id)
            if event is None:
                event = self._waiters[table_id] = threading.Event()
        return event.wait(timeout)

    def notify(self, table_id: int) -> None:
        metrics.woken(table_id)
        with self._lock:
            self._notices[table_id] = self._notices.get(table_id, 0) + 1
            event = self._waiters.pop(table_id, None)
        if event is not None:
            event.set()

    def watching(self, within: float = 2.0) -> bool:
        """Whether this process's watcher runs and has read the changes within `within` seconds
        (started now, and its first look awaited, if no stream had started it): /healthz."""
        self._ensure_watcher()
        deadline = time.monotonic() + within
        while time.monotonic() - self.looked > within and time.monotonic() < deadline:
            time.sleep(self.interval / 2)
        return self._watcher.is_alive() and time.monotonic() - self.looked <= within

    def marks(self, table_id: int) -> tuple[int, int]:
        """(the table's last change, its last change that was no event of its game and no step of
        a turn: a seat, a setting, a new link …, after which a stream reads who looks again),
        read once for every stream woken by the same notice: every change is noticed (`notify`)
        after its commit, by its writer in its own process and by the watcher in the others, so
        a mark read since the last notice is current. A stream asks it at every wake; with
        hundreds of streams on one table, a query each was most of what a change cost (issue 25)."""
        with self._lock:
            notice = self._notices.get(table_id, 0)
            found = self._marks.get(table_id)
            if found is not None and found[0] == notice:
                return found[1]
        marks = self.query(lambda db: db.execute(
            "SELECT coalesce(max(id), 0), coalesce(max(CASE WHEN event_id IS NULL AND game != ? THEN id END), 0) "
            "FROM changes WHERE table_id = ?", [store.DRAFT, table_id]).fetchone())
        with self._lock:
            if len(self._marks) > 10000:  # forgotten together: a mark is never kept past a notice
                self._marks.clear()
                self._notices.clear()
                notice = 0
            self._marks[table_id] = (notice, tuple(marks))
        return tuple(marks)

    def _ensure_watcher(self) -> None:
        # a watcher that has read the changes within the last second runs: asking the thread
        # takes its lock (gevent's, in `serve`), and every stream asks at every wait (issue 25:
        # 5 % of a worker sending one change to 400 streams)
        if self._watcher is not None and time.monotonic() - self.looked < 1.0:
            return
        if self._watcher is None or not self._watcher.is_alive():
            # a lock of its own: starting the watcher reads through the shared connection,
            # which a stream may hold while it renders a board (issue 25: under `_lock` every
            # answer of the worker waited 150 ms for the first stream at an attack's start)
            with self._start_lock:
                if self._watcher is None or not self._watcher.is_alive():
                    self._seen = self.query(lambda db: db.execute(
                        "SELECT coalesce(max(id), 0) FROM changes").fetchone()[0])
                    self._watcher = threading.Thread(target=self._watch, name="live-watcher", daemon=True)
                    self._watcher.start()

    def _watch(self) -> None:
        stop = threading.Event()
        while not stop.wait(self.interval):
            try:
                rows = self.query(lambda db: db.execute(NEW_CHANGES, [self._seen]).fetchall())
            except Exception:  # a locked or vanished file must not kill the watcher
                continue
            self.looked = time.monotonic()
            for table_id, last in rows:
                self._seen = max(self._seen, last)
                self.notify(table_id)

    # -- the shared connection and board cache ------------------------------------------

    def query(self, work: Callable):
        with self._db_lock:
            if self._db is None:
                self._db = store.connect(self.database, self.folds)
            return work(self._db)

    def board(self, key: tuple, render: Callable[[], str], wait: bool = True) -> str:
        """The rendered board for key (table, change id, kind), rendered once per process: a
        stream that asks while another renders it waits for that one's (a render lets other
        requests run between its pieces, web/board.py); with `wait` False (a phone's own
        request) it renders its own meanwhile."""
        while True:
            with self._lock:
                html = self._boards.get(key)
                if html is not None:
                    self._boards.move_to_end(key)
                    return html
                rendering = self._rendering.get(key)
                if rendering is None:
                    rendering = self._rendering[key] = threading.Event()
                    break
            if not wait:
                return self._keep(key, render())
            rendering.wait(10)
            with self._lock:
                if key not in self._boards and self._rendering.get(key) is rendering:
                    break  # the one rendering it failed or hangs: render it here
        try:
            html = self._keep(key, render())
        finally:
            with self._lock:
                if self._rendering.get(key) is rendering:
                    del self._rendering[key]
            rendering.set()
        return html

    def _keep(self, key: tuple, html: str) -> str:
        with self._lock:
            self._boards[key] = html
            while len(self._boards) > BOARDS:
                self._boards.popitem(last=False)
        return html

    def packed(self, key: tuple, html: str, event_id: int, deflated: bool) -> tuple[bytes, bytes | None]:
        """The message `html` (the board cached under `key`) as a stream sends it: its SSE
        frame, and that deflated (when asked: a gzip stream, live.Gzip), made once for every
        stream sending it."""
        with self._lock:
            found = self._packed.get(key)
            if found is not None:
                self._packed.move_to_end(key)
        if found is None:
            found = [sse_message(html, event_id).encode(), None]
        if deflated and found[1] is None:
            found[1] = deflate(found[0])
        with self._lock:
            self._packed[key] = found
            while len(self._packed) > PACKED:
                self._packed.popitem(last=False)
        return found[0], found[1]

    def send_wait(self, table_id: int, change: int) -> float:
        """How long a stream of this table waits before it may send what brings its phone to
        `change`: 0 when the table's streams were last sent that change, or nothing for
        SEND_EVERY (it is then noted as sent), else the time left until then. A table whose
        host writes 8 times a second costs its streams 4 messages a second; one that changes
        every few seconds, as a game does, never waits."""
        now = time.monotonic()
        with self._lock:
            at, sent = self._sent.get(table_id, (None, None))
            if sent == change:
                return 0.0
            if at is None or now - at >= self.send_every:
                self._sent[table_id] = (now, change)
                if len(self._sent) > 4096:  # tables long quiet are forgotten
                    for stale in [t for t, (when, _) in self._sent.items() if now - when >= self.send_every]:
                        del self._sent[stale]
                return 0.0
            return at + self.send_every - now

    def forget(self) -> None:
        """Drop every rendered board (the bench's first request of a worker)."""
        with self._lock:
            self._boards.clear()
            self._packed.clear()


def sse_message(html: str, event_id: int, event: str | None = None) -> str:
    lines = [f"id: {event_id}"]
    if event:
        lines.append(f"event: {event}")
    lines += [f"data: {line}" for line in html.splitlines() or [""]]
    return "\n".join(lines) + "\n\n"


class Gzip:
    """One gzip stream made of pieces deflated alone: no piece refers back to another (each
    ends on a sync flush, byte-aligned), so a stream keeps no compressor between messages (a
    deflate state is ~260 KB), only the CRC and length of what it sent; a message costs about
    its own size gzipped, a few hundred bytes for an entry's parts."""

    HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # no name, no time, unknown OS
    LAST = b"\x03\x00"  # an empty final block

    def __init__(self) -> None:
        self.crc = 0
        self.size = 0

    def send(self, data: bytes, deflated: bytes) -> bytes:
        self.crc = zlib.crc32(data, self.crc)
        self.size += len(data)
        return deflated

    def end(self) -> bytes:
        return self.LAST + struct.pack("<II", self.crc & 0xFFFFFFFF, self.size & 0xFFFFFFFF)


def deflate(data: bytes) -> bytes:
    """`data` as a piece of a Gzip stream."""
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush(zlib.Z_SYNC_FLUSH)
