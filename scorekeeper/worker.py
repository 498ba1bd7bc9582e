"""The gevent worker of `scorekeeper serve`: a cap on the connections one address holds, and on
the requests it makes.

gunicorn's gevent worker holds up to `worker_connections` connections, each a greenlet, and
stops accepting when they are all taken. Request heads must arrive within `keepalive` seconds,
but nothing else bounds a slow client: one address that opens thousands of half-sent requests
(slowloris) or POSTs that never send their promised body takes every connection, and the server
answers nobody (issue 16: 21,000 from one address). Here each worker process counts the open
connections of each address (IPv6 by its /64, like the limits) and answers a connection past the
cap with a 429 and closes it at once, before reading anything: one address then holds at most
`cap` connections of each worker. A phone needs a few (its live board and a request or two); a
pub's phones have an address each on its Wi-Fi.

Requests, too: one address that sends them as fast as the server answers (bench/attack.py:
thousands of refused tables, statistics pages or garbage a minute from one attacker) takes the
CPU the other tables' entries need. Each worker keeps a bucket per address, `rate` requests a
second with a `burst` (a phone opening a page asks for a dozen files); past it a request gets a
429 before the app sees it — after a second's wait, holding its connection (so an attacker that
waits for answers slows to a request a second a connection, and one that does not runs into
the cap on connections) — and its connection is closed.

Behind a reverse proxy every connection comes from the proxy: both caps are off there (the
proxy limits connections and requests per client address, docs/nginx.conf).
`SCOREKEEPER_CONNECTIONS_PER_ADDRESS` sets the connection cap (0: off) and
`SCOREKEEPER_REQUESTS_PER_ADDRESS` the request rate as "rate/burst" ("0": off).
"""

from __future__ import annotations

import ipaddress
import os
import time
from collections import Counter

from gunicorn.workers.ggevent import GeventWorker

DEFAULT_CAP = 64  # connections one address holds in one worker process
DEFAULT_RATE = (10.0, 20.0)  # requests a second one address makes of one worker process, and its burst
TARPIT = 1.0  # seconds a request past the rate waits for its 429: a client that waits for answers slows down

_WORDS = b"Too many connections from this address. Close some, or try again soon.\n"
REFUSAL = (b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain; charset=utf-8\r\n"
           b"Connection: close\r\nContent-Length: " + str(len(_WORDS)).encode() + b"\r\n\r\n" + _WORDS)


_TOO_FAST = b"Too many requests from this address. Wait a moment, then reload the page.\n"
TOO_FAST = (b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain; charset=utf-8\r\n"
            b"Retry-After: 5\r\nConnection: close\r\nContent-Length: " + str(len(_TOO_FAST)).encode()
            + b"\r\n\r\n" + _TOO_FAST)


def rate_from_environment(trusted_proxies: int) -> tuple[float, float]:
    """(rate, burst): SCOREKEEPER_REQUESTS_PER_ADDRESS ("20/100"; "0": none), else DEFAULT_RATE,
    and none behind a trusted proxy."""
    value = (os.environ.get("SCOREKEEPER_REQUESTS_PER_ADDRESS") or "").strip()
    if value:
        try:
            rate, _, burst = value.partition("/")
            rate = float(rate)
            return (rate, float(burst) if burst else rate * 5) if rate > 0 else (0.0, 0.0)
        except ValueError:
            pass
    return (0.0, 0.0) if trusted_proxies else DEFAULT_RATE


def cap_from_environment(trusted_proxies: int) -> int:
    """The cap: SCOREKEEPER_CONNECTIONS_PER_ADDRESS, else DEFAULT_CAP, and 0 (none) behind a
    trusted proxy, whose address every connection has."""
    value = os.environ.get("SCOREKEEPER_CONNECTIONS_PER_ADDRESS")
    if value is not None and value.strip().isdigit():
        return int(value)
    return 0 if trusted_proxies else DEFAULT_CAP


def address_key(addr) -> str:
    """Whose connection this is: the peer's address, an IPv6 address by its /64."""
    host = addr[0] if isinstance(addr, tuple) and addr else str(addr)
    try:
        parsed = ipaddress.ip_address(host)
    except ValueError:
        return str(host)
    if parsed.version == 6:
        if parsed.ipv4_mapped:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


class CappedGeventWorker(GeventWorker):
    """gunicorn's gevent worker, refusing an address's connections past `cap` and its requests
    past `rate` a second (with a `burst`); class attributes, set by `scorekeeper serve`."""

    cap = DEFAULT_CAP
    rate, burst = DEFAULT_RATE

    def init_process(self) -> None:
        self.open_per_address: Counter = Counter()
        self.buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)
        self.refused_connections = self.refused_requests = 0
        super().init_process()

    def allowed(self, key: str) -> bool:
        """Take one request from the address's bucket; False when it is empty."""
        now = time.monotonic()
        tokens, then = self.buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1:
            self.buckets[key] = (tokens, now)
            return False
        if len(self.buckets) > 10_000:  # forget the addresses whose buckets are full again
            full = self.burst / self.rate
            self.buckets = {k: v for k, v in self.buckets.items() if now - v[1] < full}
        self.buckets[key] = (tokens - 1, now)
        return True

    def handle_request(self, listener_name, req, sock, addr):
        if self.rate and not self.allowed(address_key(addr)):
            self.refused_requests += 1
            try:
                time.sleep(TARPIT)  # gevent's sleep in the worker: only this connection waits
                sock.sendall(TOO_FAST)
            except OSError:
                pass
            raise StopIteration()  # gunicorn closes the connection
        return super().handle_request(listener_name, req, sock, addr)

    def handle(self, listener, client, addr) -> None:
        if not self.cap:
            return super().handle(listener, client, addr)
        key = address_key(addr)
        if self.open_per_address[key] >= self.cap:
            self.refused_connections += 1
            try:
                client.sendall(REFUSAL)
            except OSError:
                pass
            finally:
                client.close()
            return None
        self.open_per_address[key] += 1
        try:
            return super().handle(listener, client, addr)
        finally:
            self.open_per_address[key] -= 1
            if not self.open_per_address[key]:
                del self.open_per_address[key]
