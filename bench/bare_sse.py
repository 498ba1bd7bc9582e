"""The fan-out baseline: a bare-bones gevent SSE server doing exactly what the app's live
layer does, and nothing else — the prototype DESIGN.md describes.

Two gunicorn gevent workers (the same settings as `scorekeeper serve`); an entry is a POST
that appends a row to `changes` in SQLite (WAL, synchronous=FULL, BEGIN IMMEDIATE) and
wakes the table's streams in its own process; a watcher in every process polls `changes`
every 50 ms (one query for all tables, one shared connection per process) and wakes the
others. Each wake sends a fixed payload of BARE_PAYLOAD bytes. No Flask, no templates, no
sessions.

    python -m bench.bare_sse PORT   (instance folder in SCOREKEEPER_INSTANCE)
"""

from __future__ import annotations

import os
import sqlite3
import sys
import time


def connect(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    return conn


def create(conn: sqlite3.Connection) -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS changes (id INTEGER PRIMARY KEY, table_id INTEGER)")
    conn.execute("CREATE INDEX IF NOT EXISTS changes_table ON changes (table_id, id)")


def make_app(database: str, payload: int, interval: float = 0.05, keepalive: float = 15.0):
    from gevent.event import Event
    import gevent

    state = {"conn": None, "seen": 0, "watcher": None}
    waiters: dict[int, Event] = {}
    body = "data: " + ("x" * max(0, payload - 20))

    def db() -> sqlite3.Connection:
        if state["conn"] is None:
            state["conn"] = connect(database)
        return state["conn"]

    def notify(table: int) -> None:
        event = waiters.pop(table, None)
        if event is not None:
            event.set()

    def watch() -> None:
        for _ in range(10**9):
            gevent.sleep(interval)
            try:
                rows = db().execute("SELECT table_id, max(id) FROM changes WHERE id > ? GROUP BY table_id",
                                    [state["seen"]]).fetchall()
            except sqlite3.Error:
                continue
            for table, last in rows:
                state["seen"] = max(state["seen"], last)
                notify(table)

    def ensure_watcher() -> None:
        if state["watcher"] is None:
            state["seen"] = db().execute("SELECT coalesce(max(id), 0) FROM changes").fetchone()[0]
            state["watcher"] = gevent.spawn(watch)

    def last_change(table: int) -> int:
        return db().execute("SELECT coalesce(max(id), 0) FROM changes WHERE table_id = ?", [table]).fetchone()[0]

    def app(environ, start_response):
        started = time.perf_counter()
        path = environ.get("PATH_INFO", "")
        pid = str(os.getpid())

        def reply(status, headers, content: bytes):
            took = (time.perf_counter() - started) * 1000
            start_response(status, headers + [("Content-Length", str(len(content))),
                                              ("Server-Timing", f"app;dur={took:.3f}"), ("X-Worker", pid)])
            return [content]

        if path == "/_bench/hello":
            return reply("200 OK", [("Content-Type", "text/plain")], b"hello")
        if path.startswith("/entry/") and environ["REQUEST_METHOD"] == "POST":
            table = int(path.rsplit("/", 1)[1])
            conn = db()  # nothing yields inside the transaction: the shared connection will do
            conn.execute("BEGIN IMMEDIATE")
            try:
                change = conn.execute("INSERT INTO changes (table_id) VALUES (?)", [table]).lastrowid
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            notify(table)
            return reply("200 OK", [("Content-Type", "text/html")],
                         f'<div class="board-inner" data-change="{change}"></div>'.encode())
        if path.startswith("/live/"):
            table = int(path.rsplit("/", 1)[1])
            try:
                seen = int(environ.get("HTTP_LAST_EVENT_ID") or 0)
            except ValueError:
                seen = 0
            ensure_watcher()

            def events():
                nonlocal seen
                yield b"retry: 1000\n\n"
                ends = time.monotonic() + 300
                while time.monotonic() < ends:
                    change = last_change(table)
                    if change > seen:
                        seen = change
                        yield f"id: {change}\n{body}\n\n".encode()
                        continue
                    event = waiters.get(table)
                    if event is None:
                        event = waiters[table] = Event()
                    if not event.wait(keepalive):
                        yield b": still here\n\n"

            start_response("200 OK", [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"),
                                      ("X-Worker", pid)])
            return events()
        return reply("404 Not Found", [("Content-Type", "text/plain")], b"not found")

    return app


def main(port: int, workers: int = 2) -> None:
    from gunicorn.app.base import BaseApplication

    instance = os.environ["SCOREKEEPER_INSTANCE"]
    database = os.path.join(instance, "bare.db")
    conn = connect(database)
    create(conn)
    conn.close()
    payload = int(os.environ.get("BARE_PAYLOAD", "3000"))

    class Server(BaseApplication):
        def load_config(self) -> None:  # as scorekeeper/serve.py
            self.cfg.set("bind", f"127.0.0.1:{port}")
            self.cfg.set("workers", workers)
            self.cfg.set("worker_class", "gevent")
            self.cfg.set("worker_connections", 10000)
            self.cfg.set("timeout", 60)
            self.cfg.set("graceful_timeout", 5)
            self.cfg.set("keepalive", 75)
            self.cfg.set("accesslog", None)
            self.cfg.set("errorlog", "-")
            self.cfg.set("loglevel", "warning")

        def load(self):
            return make_app(database, payload)

    Server().run()


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 2)
