"""`scorekeeper serve`: the production server — gunicorn with gevent workers.

gevent lets one worker hold thousands of idle live streams (each a greenlet, not a thread);
several workers share the load, and the live watcher keeps their streams in step.
"""

from __future__ import annotations

import io
import ipaddress

import click
import qrcode


class Unservable(Exception):
    """What keeps the server from starting, in one line (the command says it: cli.Refusal)."""


def lan_url(host: str, port: int) -> str:
    from .web.links import lan_addresses

    if host in ("0.0.0.0", "::", ""):
        addresses = lan_addresses()
        host = addresses[0] if addresses else "127.0.0.1"
    if ":" in host and not host.startswith("["):  # an IPv6 address is bracketed in a URL
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def address_refusal(config, host: str, port: int) -> str | None:
    """ALLOWED_HOSTS without BASE_URL that leaves out the address serve prints (and puts in its
    QR code): every phone that opened it got a 400, "This server does not answer to that address"."""
    from urllib.parse import urlsplit

    allowed = config.get("ALLOWED_HOSTS")
    if not allowed or config.get("BASE_URL"):
        return None
    shown = urlsplit(lan_url(host, port)).hostname
    if shown in allowed:
        return None
    return (f"ALLOWED_HOSTS ({', '.join(sorted(allowed))}) leaves out {shown}, the address phones would be "
            f"shown, which would answer them 400: set BASE_URL to the address phones open (docs/deploy.md), "
            f"or add {shown} to ALLOWED_HOSTS")


def terminal_qr(text: str) -> str:
    code = qrcode.QRCode(border=1)
    code.add_data(text)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def tend_collector(freeze_every: float = 5.0, thaw_every: float = 600.0) -> None:
    """Keep Python's full garbage collections off the live streams (issue 18, docs/performance.md).

    A worker holding thousands of streams holds ~100 long-lived objects for each; a full
    collection walked all of them and stalled every stream of the worker for 0.1–0.8 s (the
    p99 of an update at 8000 phones). What has lived a few seconds here is a stream's or the
    app's, so it is moved out of the collector's sight (`gc.freeze`) every `freeze_every`
    seconds; it is still freed when its last reference goes. Cycles among such objects wait for
    the next thaw (`gc.unfreeze`, every `thaw_every` seconds), when one full collection sees all."""
    import atexit
    import gc
    import threading
    import time

    def tend() -> None:
        thawed = time.monotonic()
        while True:
            time.sleep(freeze_every)
            if time.monotonic() - thawed >= thaw_every:
                gc.unfreeze()
                thawed = time.monotonic()
            else:
                gc.freeze()

    threading.Thread(target=tend, name="gc-tender", daemon=True).start()
    # what is frozen at exit would be finalized after the modules it needs are gone
    atexit.register(lambda: (gc.unfreeze(), gc.collect()))


def warm_templates(env) -> None:
    """Load every page template in a new worker before the phones need it, giving way after
    each: a template's first use compiled it (15-60 ms, from the bytecode cache ~0.5 ms) while
    every request of the worker waited — the first board after a restart, the first history
    page or settlement; under an attack's opening second, dozens of them (issue 25)."""
    import gevent

    def warm() -> None:
        for name in env.list_templates(filter_func=lambda name: name.endswith(".html")):
            env.get_template(name)
            gevent.sleep(0)

    gevent.spawn(warm)


def is_loopback(host: str) -> bool:
    """Whether `host` (a bind address) takes connections from this machine only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


FIREWALLED = "SCOREKEEPER_FIREWALLED_TO_PROXY"


def proxies_refusal(hops: int, host: str, port: int, firewalled: bool) -> str | None:
    """Why trusted proxies may not be believed on this bind, in one line (None: they may).
    `TRUSTED_PROXIES` believes X-Forwarded-For: on a port anyone reaches, anyone forges it and
    every limit that counts addresses is off (issue 25: 25 wrong codes, 40 tables in seconds)."""
    if not hops or is_loopback(host) or firewalled:
        return None
    return (f"TRUSTED_PROXIES believes X-Forwarded-For, which anyone reaching {host}:{port} can forge: "
            f"serve on --host 127.0.0.1 behind the proxy, or add --firewalled-to-proxy ({FIREWALLED}=1) "
            f"when a firewall lets only the proxy reach this port")


BIND_TRIES = 10  # a port held for a moment (a connection's own end of it) is asked again, as gunicorn does
BIND_WAIT = 0.5  # seconds between two tries


def bind_refusal(host: str, port: int, tries: int = BIND_TRIES) -> str | None:
    """Why the server cannot listen on host:port, in one line (None: it can), asked before
    anything is started or printed: a second server on a port in use printed "Scorekeeper is
    running" and a QR code of the first one's address, then gunicorn's five tries, and exited.
    A port some server listens on is refused at once; one in use otherwise (the end of a
    connection for a moment) is tried again for a few seconds."""
    import errno
    import socket
    import time

    try:
        found = socket.getaddrinfo(host.strip("[]") or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        return f"cannot listen on {host}: {error.strerror}"
    family, kind, protocol, _, address = found[0]
    in_use = (f"port {port} is in use on {host}: another server (Scorekeeper already running?) listens there; "
              f"stop it, or choose another with --port")
    for attempt in range(tries):
        with socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds
            try:
                probe.bind(address)
                return None
            except OSError as error:
                if error.errno == errno.EADDRNOTAVAIL:
                    return f"{host} is not an address of this machine: choose another with --host"
                if error.errno == errno.EACCES:
                    return f"port {port} is reserved for root: choose one above 1023 with --port"
                if error.errno != errno.EADDRINUSE:
                    return f"cannot listen on {host}:{port}: {error.strerror or error}"
        if listening(family, address):
            return in_use
        time.sleep(BIND_WAIT)
    return in_use


def listening(family, address) -> bool:
    """Whether a server answers on the bind address's port (a wildcard's: on the loopback)."""
    import ipaddress
    import socket

    host, port = address[0], address[1]
    if ipaddress.ip_address(host.split("%")[0]).is_unspecified:
        host = "::1" if family == socket.AF_INET6 else "127.0.0.1"
    try:
        socket.create_connection((host, port), timeout=1).close()
        return True
    except OSError:
        return False


def metrics_refusal(port: int, server_port: int) -> str | None:
    """Why METRICS_PORT cannot be served, in one line (None: it can)."""
    if not 0 < port < 65536:
        return f"METRICS_PORT must be a port number, not {port}"
    if port == server_port:
        return f"METRICS_PORT {port} is the server's own port: choose another"
    return None


def metrics_folder(instance: str) -> str:
    """A new folder for the workers' metrics files, `.metrics-<this pid>` in the instance folder;
    those of servers no longer running (a kill -9 leaves them) go."""
    import os
    import shutil

    from .worker import process_alive

    for name in os.listdir(instance):
        pid = name[9:]
        if name.startswith(".metrics-") and pid.isascii() and pid.isdigit() and not process_alive(int(pid)):
            shutil.rmtree(os.path.join(instance, name), ignore_errors=True)
    folder = os.path.join(instance, f".metrics-{os.getpid()}")
    shutil.rmtree(folder, ignore_errors=True)
    os.mkdir(folder, 0o700)
    return folder


def run(host: str, port: int, workers: int, firewalled: bool = False) -> None:
    import os
    import shutil

    from gunicorn.app.base import BaseApplication

    from . import create_app, metrics, replica, store
    from .worker import (
        REFUSING,
        AddressTable,
        CappedGeventWorker,
        body_seconds_from_environment,
        cap_from_environment,
        connections_within,
        link_streams_from_environment,
        limits_refusal,
        raise_open_files_limit,
        rate_from_environment,
    )

    config = create_app().config
    hops = config["TRUSTED_PROXIES"]  # a whole number: create_app checked it
    refusal = proxies_refusal(hops, host, port, firewalled or os.environ.get(FIREWALLED, "") not in ("", "0"))
    if refusal:
        raise Unservable(refusal)
    refusal = address_refusal(config, host, port) or limits_refusal() or bind_refusal(host, port)
    if refusal:
        raise Unservable(refusal)
    # one address holds at most so many connections of the server and makes so many requests a
    # second (not behind a proxy, whose address every connection has, and which limits both):
    # a phone's slowloris or flood no longer takes every connection or the CPU (scorekeeper/worker.py);
    # counted in memory shared by every worker, made here, before they are forked
    CappedGeventWorker.cap = cap_from_environment(hops)
    CappedGeventWorker.link_streams = link_streams_from_environment(CappedGeventWorker.cap, hops)
    CappedGeventWorker.rate, CappedGeventWorker.burst = rate_from_environment(hops)
    CappedGeventWorker.body_seconds = body_seconds_from_environment()
    CappedGeventWorker.table = table = AddressTable(workers, CappedGeventWorker.rate, CappedGeventWorker.burst)
    metrics_port = int(config.get("METRICS_PORT") or 0)
    refusal = metrics_refusal(metrics_port, port) if metrics_port else None
    if refusal:
        raise Unservable(refusal)
    # a worker's connections stay below its open-files limit (raised to the hard limit here, for
    # the workers to inherit): past them a 503 with words, not a server out of descriptors
    CappedGeventWorker.most_open = connections_within(raise_open_files_limit())

    class Server(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", f"[{host}]:{port}" if ":" in host else f"{host}:{port}")
            self.cfg.set("workers", workers)
            self.cfg.set("worker_class", CappedGeventWorker)
            self.cfg.set("worker_connections", CappedGeventWorker.most_open + REFUSING)
            self.cfg.set("timeout", 60)
            self.cfg.set("graceful_timeout", 5)
            self.cfg.set("keepalive", 75)
            self.cfg.set("accesslog", None)
            self.cfg.set("errorlog", "-")
            self.cfg.set("loglevel", "warning")
            self.cfg.set("post_worker_init", lambda worker: tend_collector())
            self.cfg.set("child_exit", lambda server, worker: (table.release(worker.pid),
                                                              metrics.process_gone(worker.pid)))

        def load(self):
            app = create_app()
            warm_templates(app.jinja_env)
            from . import timing
            if timing.enabled():  # the benchmark's Server-Timing header and hello baseline
                return timing.instrument(app)
            return app

    # held for the server's life, shared with its workers (and any other server on the same
    # database): `scorekeeper restore` refuses while it is held
    if store.serving_lock(config["DATABASE"]) is None:
        raise Unservable("the database is being restored: try again in a moment")
    # Litestream streams the database off the machine (REPLICA_URL), started before the workers
    # and stopped after them: its last sync ships the last entries (scorekeeper/replica.py)
    replication = None
    if config.get("REPLICA_SYNC") and not config.get("REPLICA_URL"):
        # a pub that set how often to replicate, and not where to: it believed it was replicated
        raise Unservable("REPLICA_SYNC is set but REPLICA_URL is not: nothing would be replicated "
                         "(set REPLICA_URL, docs/deploy.md, or remove REPLICA_SYNC)")
    if config.get("REPLICA_URL"):
        try:
            replication = replica.Replication(config["DATABASE"], config["REPLICA_URL"],
                                              config.get("REPLICA_SYNC") or replica.DEFAULT_SYNC)
        except (RuntimeError, OSError) as error:
            raise Unservable(str(error)) from None
    # the workers count in files of a folder of the master's; the master serves their sum on
    # the loopback (scorekeeper/metrics.py)
    counted = None
    if metrics_port:
        counted = metrics_folder(os.path.dirname(os.path.abspath(config["DATABASE"])))
        metrics.start(counted)
        try:
            metrics.serve_http(metrics_port)
        except OSError as error:
            shutil.rmtree(counted, ignore_errors=True)
            if replication:
                replication.stop()
            raise Unservable(f"cannot serve the metrics on 127.0.0.1:{metrics_port}: "
                             f"{error.strerror or error}") from None
    # the address phones should open: BASE_URL's when set (a proxy's, say: the app's QR codes
    # and links carry it too), else this machine's on the LAN
    base = config.get("BASE_URL")
    url = base.rstrip("/") + "/" if base else lan_url(host, port)
    click.echo(f"Scorekeeper is running. Phones open: {url}")
    if replication:
        click.echo(f"Replicating the database to {config['REPLICA_URL']} (Litestream)")
    if metrics_port:
        click.echo(f"Metrics: http://127.0.0.1:{metrics_port}/metrics")
    click.echo(terminal_qr(url))
    try:
        Server().run()
    finally:
        if replication:
            replication.stop()
        if counted:
            shutil.rmtree(counted, ignore_errors=True)
