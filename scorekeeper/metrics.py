"""Prometheus metrics for an operator's dashboard: entries, refusals, limits, live streams,
fan-out lag and the fold cache — off until `start()` (a server with `METRICS_PORT`, a test).

Off, every function here is one check of a flag: nothing is imported, counted or written.
On under `scorekeeper serve`, the counts live in prometheus-client's multiprocess files (one
set per worker, in a folder of the master's), and the master serves their sum on the loopback
(`serve_http`), so a scrape sees the whole server, whichever worker did the work. The call
sites are few on purpose: the write path's `service.write` (entries), the refusal handlers
(refusals, and the 429s of the limits), the gunicorn worker (its own 429s and 503s),
`service.load` (fold cache), the live hub and stream (fan-out lag), and the WSGI wrapper
`count_streams` (open streams).
"""

from __future__ import annotations

import os
import time
from collections import OrderedDict
from typing import Any, Iterable

_on = False
_directory: str | None = None
_registry = None
ENTRIES = REFUSALS = LIMITED = STREAMS = LAG = FOLDS = None
_woken: OrderedDict[int, float] = OrderedDict()  # table id -> when this process learned it changed
LAG_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0)


def enabled() -> bool:
    return _on


def start(directory: str | None = None) -> None:
    """Count from now on; `directory`: prometheus-client's multiprocess folder, for a server of
    several worker processes (set before they fork: each writes its own files there). Once per
    process; a second call changes nothing."""
    global _on, _directory, _registry, ENTRIES, REFUSALS, LIMITED, STREAMS, LAG, FOLDS
    if _on:
        return
    from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, values

    if directory:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = directory
        # chosen when a value is made, from the environment read when prometheus-client was
        # first imported: made multiprocess here whatever imported it before
        values.ValueClass = values.MultiProcessValue()
    _directory = directory
    _registry = registry = CollectorRegistry()
    ENTRIES = Counter("scorekeeper_entries", "Events written to a game's log, by kind (entry, undo, correct).",
                      ["kind"], registry=registry)
    REFUSALS = Counter("scorekeeper_refusals", "Requests refused with a message, by the message's English "
                       "template and HTTP status.", ["reason", "status"], registry=registry)
    LIMITED = Counter("scorekeeper_limited", "Requests turned away by a limit: 429s of the app's limits "
                      "(table, import, seat, code; '/minute' for the minute's) and of the worker's caps "
                      "(connections, requests; streams: an address's live streams, link: a link's), and "
                      "the worker's 503 when full.", ["limit"], registry=registry)
    STREAMS = Gauge("scorekeeper_live_streams", "Live streams (server-sent events) open now.",
                    registry=registry, multiprocess_mode="livesum")
    LAG = Histogram("scorekeeper_fanout_lag_seconds", "From the moment a worker learns a table changed (at "
                    "once in the writer's, within the watcher's tick in the others) to each of the table's "
                    "streams handing its update to the server.", buckets=LAG_BUCKETS, registry=registry)
    FOLDS = Counter("scorekeeper_fold_cache", "Games asked of the fold cache: hit (up to date), partial (the "
                    "new entries applied to the cached fold), miss (folded from the whole log).",
                    ["outcome"], registry=registry)
    _on = True


def stop() -> None:
    """Counting off again (tests)."""
    global _on
    _on = False
    _woken.clear()


# --- what is counted -----------------------------------------------------------------------------


def wrote(kinds: Iterable[str]) -> None:
    """Events a committed write appended (service.write)."""
    if _on:
        for kind in kinds:
            ENTRIES.labels(kind).inc()


def refused(refusal: Any) -> None:
    """A refusal answered to a phone (service.Refused): by its template; a 429 also by its limit."""
    if not _on:
        return
    text = getattr(refusal, "text", None)
    template = getattr(text, "template", None) or str(refusal)
    status = getattr(refusal, "status", 0)
    REFUSALS.labels(_reason(template), str(status)).inc()
    if status == 429:
        LIMITED.labels(getattr(refusal, "limit", None) or "other").inc()


MOST_REASONS = 300  # distinct refusal templates a process labels; past them "other"
_reasons: set[str] = set()


def _reason(template: str) -> str:
    """A refusal's template as a label: the messages are a fixed set of templates, but a message
    made with its values inside would add a label per value (a fuzzer's, say): bounded."""
    template = template[:200]
    if template not in _reasons:
        if len(_reasons) >= MOST_REASONS:
            return "other"
        _reasons.add(template)
    return template


def limited(limit: str) -> None:
    """A request the gunicorn worker turned away itself (connections, requests, full)."""
    if _on:
        LIMITED.labels(limit).inc()


def fold(outcome: str) -> None:
    if _on:
        FOLDS.labels(outcome).inc()


def woken(table_id: int) -> None:
    """This process learned that a table changed (the live hub's notify)."""
    if _on:
        _woken[table_id] = time.monotonic()
        _woken.move_to_end(table_id)
        while len(_woken) > 65536:
            _woken.popitem(last=False)


def sent(table_id: int, since: Any) -> None:
    """A live stream handed over its update; `since`, the change it had sent before (none: a
    stream's first message, which follows no change and is no fan-out)."""
    if _on and since:
        at = _woken.get(table_id)
        if at is not None:
            LAG.observe(time.monotonic() - at)


# --- open streams ------------------------------------------------------------------------------------


def count_streams(app):
    """A WSGI wrapper counting the responses that are live streams while they are open (nothing
    is added to what a stream yields: only its close is seen)."""

    def counted(environ, start_response):
        streaming = False

        def start(status, headers, exc_info=None):
            nonlocal streaming
            streaming = any(name.lower() == "content-type" and value.startswith("text/event-stream")
                            for name, value in headers)
            return start_response(status, headers, exc_info)

        body = app(environ, start)
        if not streaming:
            return body
        STREAMS.inc()
        return _Stream(body)

    return counted


class _Stream:
    """A stream's body as it is, with a close that counts it gone."""

    __slots__ = ("body", "closed")

    def __init__(self, body) -> None:
        self.body = body
        self.closed = False

    def __iter__(self):
        return iter(self.body)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            STREAMS.dec()
        close = getattr(self.body, "close", None)
        if close is not None:
            close()


# --- reading them ----------------------------------------------------------------------------------


def exposition() -> tuple[bytes, str]:
    """The metrics as Prometheus reads them (body, content type): of every worker process when
    counted in multiprocess files, else of this process."""
    from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
    from prometheus_client import multiprocess

    if _directory:
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=_directory)
    else:
        registry = _registry
    return generate_latest(registry), CONTENT_TYPE_LATEST


def process_gone(pid: int) -> None:
    """A worker exited: its open streams no longer count (its counters still do)."""
    if _directory:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid, _directory)


def serve_http(port: int, host: str = "127.0.0.1"):
    """Serve /metrics on host:port from a thread of this process (the gunicorn master); the
    server, to shut down. Loopback only: `scorekeeper serve` refuses any other host."""
    import threading
    from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server
    from socketserver import ThreadingMixIn

    def application(environ, start_response):
        if environ.get("PATH_INFO") not in ("/metrics", "/"):
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"Not here: /metrics\n"]
        body, kind = exposition()
        start_response("200 OK", [("Content-Type", kind), ("Content-Length", str(len(body)))])
        return [body]

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args) -> None:
            pass

    class Server(ThreadingMixIn, WSGIServer):
        daemon_threads = True
        allow_reuse_address = True

    server = make_server(host, port, application, server_class=Server, handler_class=Quiet)
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
    return server
