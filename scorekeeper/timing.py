"""Server-side timing for the benchmark (bench/), switched on by SCOREKEEPER_TIMING=1 only.

`instrument(app)` wraps the WSGI app so every response carries `Server-Timing: app;dur=<ms>`
(from the request entering Flask to its status and headers being ready: the view, its
database work and rendering, the after-request hooks and compression) and `X-Worker: <pid>`
(which worker process answered). It also mounts a bare Flask app, served by the same
gunicorn gevent workers, with the baselines an entry's time is compared with: "hello" at
/_bench/hello, and one durable SQLite commit at POST /_bench/commit. Nothing here runs in
normal operation.
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


def bare_hello(instance: str) -> Flask:
    """The baselines: "hello", and one durable SQLite commit (the floor of any entry) in a
    scratch database of the instance folder, with the app's own durability settings."""
    from . import store

    hello = Flask("hello")
    scratch: list = []

    @hello.get(HELLO)
    def index():
        return "hello"

    @hello.post(COMMIT)
    def commit():
        if not scratch:
            db = store.connect(os.path.join(instance, "bench-commit.db"))
            db.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, at REAL)")
            scratch.append(db)
        with store.immediate(scratch[0]):
            scratch[0].execute("INSERT INTO t (at) VALUES (?)", [time.time()])
        return "committed"

    return hello


def instrument(app: Flask):
    return ServerTiming(app, bare_hello(app.instance_path))
