"""Live updates: wake a table's streams when it changes, in this process and across workers.

A writer wakes its own process's streams at once; a light watcher in every process looks for
new rows in `changes` (one query per tick for all tables) and wakes the rest, so any number
of worker processes stay in step without another server. Streams hold no database
connection: they share the hub's one connection and a per-table cache of the rendered board.
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict
from typing import Callable

from . import store


class Hub:
    def __init__(self, database: str, interval: float = 0.05, folds: store.FoldCache | None = None) -> None:
        self.database = database
        self.folds = folds
        self.interval = interval
        self._lock = threading.Lock()
        self._waiters: dict[int, threading.Event] = {}
        self._db = None
        self._db_lock = threading.Lock()
        self._watcher: threading.Thread | None = None
        self._seen = 0
        self._boards: OrderedDict[tuple, str] = OrderedDict()

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
        with self._lock:
            event = self._waiters.pop(table_id, None)
        if event is not None:
            event.set()

    def _ensure_watcher(self) -> None:
        if self._watcher is None or not self._watcher.is_alive():
            with self._lock:
                if self._watcher is None or not self._watcher.is_alive():
                    self._seen = self.query(lambda db: db.execute(
                        "SELECT coalesce(max(id), 0) FROM changes").fetchone()[0])
                    self._watcher = threading.Thread(target=self._watch, name="live-watcher", daemon=True)
                    self._watcher.start()

    def _watch(self) -> None:
        stop = threading.Event()
        while not stop.wait(self.interval):
            try:
                rows = self.query(lambda db: db.execute(
                    "SELECT table_id, max(id) FROM changes WHERE id > ? GROUP BY table_id",
                    [self._seen]).fetchall())
            except Exception:  # a locked or vanished file must not kill the watcher
                continue
            for table_id, last in rows:
                self._seen = max(self._seen, last)
                self.notify(table_id)

    # -- the shared connection and board cache ------------------------------------------

    def query(self, work: Callable):
        with self._db_lock:
            if self._db is None:
                self._db = store.connect(self.database, self.folds)
            return work(self._db)

    def board(self, key: tuple, render: Callable[[], str]) -> str:
        """The rendered board for key (table, change id, kind), rendered once per process."""
        with self._lock:
            html = self._boards.get(key)
            if html is not None:
                self._boards.move_to_end(key)
                return html
        html = render()
        with self._lock:
            self._boards[key] = html
            while len(self._boards) > 512:
                self._boards.popitem(last=False)
        return html


    def forget(self) -> None:
        """Drop every rendered board (the bench's first request of a worker)."""
        with self._lock:
            self._boards.clear()


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
