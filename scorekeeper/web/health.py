"""`/healthz` for a load balancer: 200 when this worker can serve, 503 (and what is wrong) when not.

Answered before the app (no host check, session, cookie or language): a load balancer asks by
the node's own address. Three things are checked, each cheaply enough to be asked every second:
the database takes a write (one row of `hits`, kind "health", committed and synced), its
migrations are those of this code (none pending, none unknown), and the live watcher that
wakes this worker's streams runs and has looked at the changes in the last 2 s.

The path is public: a worker writes at most once every WRITTEN_SECONDS for it, however many ask
(a stranger asking it a thousand times a second made a thousand synced writes, each one the
other tables' entries waited behind); a write that failed is tried again at the next asking.
"""

from __future__ import annotations

import json
import sqlite3
import time

from flask import Flask

from .. import store

PATH = "/healthz"
WROTE = "scorekeeper.health_wrote"  # when this worker's last write for a probe went through
LOCK_SECONDS = 2.0  # a write lock held longer than this is an unhealthy database for a probe
WRITTEN_SECONDS = 1.0  # a write this recent answers for the database (a probe asks every second)


def check(app: Flask) -> dict[str, str]:
    """What is wrong, by part (empty: healthy)."""
    problems = {}
    try:
        db = store.connect(app.config["DATABASE"])
    except sqlite3.Error as error:
        return {"database": f"cannot open: {error}"}
    try:
        try:
            if time.monotonic() - app.extensions.get(WROTE, -WRITTEN_SECONDS) >= WRITTEN_SECONDS:
                write_one_row(db, app.config.get("NODE") or "")
                app.extensions[WROTE] = time.monotonic()
        except sqlite3.Error as error:
            app.extensions.pop(WROTE, None)
            problems["database"] = f"not writable: {error}"
        try:
            pending = [m.name for m in store.migrations.pending(db)]
            # sqlite-utils keeps no public list of the migrations it knows
            known = {m.name for m in getattr(store.migrations, "_migrations", [])}
            unknown = [m.name for m in store.migrations.applied(db) if known and m.name not in known]
            if pending:
                problems["migrations"] = "pending: " + ", ".join(pending)
            elif unknown:
                problems["migrations"] = "newer than this code: " + ", ".join(unknown)
        except sqlite3.Error as error:
            problems["migrations"] = f"cannot be read: {error}"
    finally:
        db.conn.close()
    try:
        if not app.extensions["scorekeeper.hub"].watching():
            problems["live"] = "the watcher has not read the changes for 2 s"
    except Exception as error:  # whatever stops it is the answer
        problems["live"] = f"the watcher does not start: {error}"
    return problems


def write_one_row(db: store.Database, node: str) -> None:
    """One committed, synced write, waiting at most LOCK_SECONDS for the write lock (in steps
    that let a gevent worker's other requests run, like `store.immediate`)."""
    conn = db.conn
    conn.execute("PRAGMA busy_timeout = 0")
    began, delay = time.monotonic(), 0.001
    while True:
        try:
            conn.execute("BEGIN IMMEDIATE")
            break
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() - began >= LOCK_SECONDS:
                raise
        time.sleep(delay)
        delay = min(delay * 2, 0.05)
    try:
        conn.execute("DELETE FROM hits WHERE kind = 'health'")
        conn.execute("INSERT INTO hits (kind, key, at) VALUES ('health', ?, ?)", [node, time.time()])
        conn.execute("COMMIT")
    except sqlite3.Error:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def answer(app: Flask) -> tuple[str, bytes]:
    problems = check(app)
    body = {"ok": not problems, **(problems or {"database": "writable", "migrations": "current",
                                               "live": "watching"})}
    if app.config.get("NODE"):
        body["node"] = app.config["NODE"]
    status = "200 OK" if not problems else "503 Service Unavailable"
    return status, (json.dumps(body) + "\n").encode()


def init_app(app: Flask) -> None:
    inner = app.wsgi_app

    def healthz(environ, start_response):
        if environ.get("PATH_INFO") != PATH:
            return inner(environ, start_response)
        status, body = answer(app)
        start_response(status, [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                                ("Cache-Control", "no-store")])
        return [body] if environ.get("REQUEST_METHOD") != "HEAD" else []

    app.wsgi_app = healthz
