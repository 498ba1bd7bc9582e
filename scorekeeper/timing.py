"""Server-side timing for the benchmark (bench/), switched on by SCOREKEEPER_TIMING=1 only.

`instrument(app)` wraps the WSGI app so every response carries `Server-Timing: app;dur=<ms>`
(from the request entering Flask to its status and headers being ready: the view, its
database work and rendering, the after-request hooks and compression) and `X-Worker: <pid>`
(which worker process answered). It also mounts a bare Flask app, served by the same
gunicorn gevent workers, with the baselines an entry's time is compared with: "hello" at
/_bench/hello, and one durable SQLite commit at POST /_bench/commit. And on the app itself,
POST /_bench/floor/<join token>: the floor of an entry in our own stack — the app's request
hooks (host, CSRF, session, language), the table and its viewer loaded as every table route
loads them, and the same durable commit — with no game, no write of ours and nothing rendered.
Nothing here runs in normal operation.
"""

from __future__ import annotations

import os
import time

from flask import Flask

HELLO = "/_bench/hello"
COMMIT = "/_bench/commit"


def enabled() -> bool:
    return os.environ.get("SCOREKEEPER_TIMING") == "1"


class ServerTiming:
    def __init__(self, app, hello) -> None:
        self.app = app
        self.hello = hello

    def __call__(self, environ, start_response):
        started = time.perf_counter()
        pid = str(os.getpid())

        def timed(status, headers, exc_info=None):
            took = (time.perf_counter() - started) * 1000
            headers.append(("Server-Timing", f"app;dur={took:.3f}"))
            headers.append(("X-Worker", pid))
            return start_response(status, headers, exc_info)

        target = self.hello if environ.get("PATH_INFO") in (HELLO, COMMIT) else self.app
        return target(environ, timed)


class Scratch:
    """One durable SQLite commit of one small row, in a scratch database of the instance folder
    with the app's own durability settings: the floor of any entry."""

    def __init__(self, instance: str) -> None:
        self.path = os.path.join(instance, "bench-commit.db")
        self.db = None

    def commit(self) -> str:
        from . import store

        if self.db is None:
            self.db = store.connect(self.path)
            self.db.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, at REAL)")
        with store.immediate(self.db):
            self.db.execute("INSERT INTO t (at) VALUES (?)", [time.time()])
        return "committed"


def bare_hello(instance: str, scratch: Scratch | None = None) -> Flask:
    """The baselines: "hello", and one durable SQLite commit (`Scratch`)."""
    hello = Flask("hello")
    scratch = scratch or Scratch(instance)

    @hello.get(HELLO)
    def index():
        return "hello"

    hello.add_url_rule(COMMIT, "commit", scratch.commit, methods=["POST"])
    return hello


def floor(app: Flask, scratch: Scratch) -> None:
    """POST /_bench/floor/<join token> on the app: its hooks, the table context, the commit."""
    from .web.context import TableContext
    from .web.db import get_db

    @app.post(FLOOR + "/<token>")
    def bench_floor(token: str):
        TableContext.load(get_db(), "t", token)
        return scratch.commit()


FLOOR = "/_bench/floor"


def instrument(app: Flask):
    scratch = Scratch(app.instance_path)
    floor(app, scratch)
    return ServerTiming(app, bare_hello(app.instance_path, scratch))
