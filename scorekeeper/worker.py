"""The gevent worker of `scorekeeper serve`: caps on the connections one address holds and on
the requests it makes, counted across the server's workers; a bound on the wait for a request's
body; a cap on a worker's connections below its open-files limit.

gunicorn's gevent worker holds up to `worker_connections` connections, each a greenlet, and
stops accepting when they are all taken. Request heads must arrive within `keepalive` seconds,
but nothing else bounds a slow client: one address that opens thousands of half-sent requests
(slowloris) or POSTs that never send their promised body takes every connection, and the server
answers nobody (issue 16: 21,000 from one address). Here the open connections of each address
(IPv6 by its /64, like the limits) are counted, and a connection past the cap is answered with
a 429 and closed at once, before anything is read: one address holds at most `cap` connections
of the whole server. A phone needs a few (its live board and a request or two); a pub's phones
have an address each on its Wi-Fi.

Requests, too: one address that sends them as fast as the server answers (bench/attack.py:
thousands of refused tables, statistics pages or garbage a minute from one attacker) takes the
CPU the other tables' entries need. A bucket per address holds `rate` requests a second with a
`burst` (a phone opening a page asks for a dozen files); past it a request gets a 429 before the
app sees it — after a second's wait, holding its connection (so an attacker that waits for
answers slows to a request a second a connection, and one that does not runs into the cap on
connections) — and its connection is closed. A new connection from an address already past it
gets the same without a byte of it read: its first request would (issue 25: ~800 refused
connections a second cost the workers half a core). Its requests for files (FILES) take from a
bucket of their own, larger (FILES_SCALE), as behind nginx: a page's styles and scripts refused
left a phone with a page that did nothing.

Live streams, too: each is a connection held for minutes that every change of its table writes
to, so one address's streams are capped apart (`streams`, fewer than its connections; board-link
streams included, `LIVE`), and so are one link's (`link_streams`: a table's join link and its
board link, each): a stream is counted while its request is served, and the one past a cap gets
a 429 in the words of its Accept-Language before the app sees it — the phone polls instead
(static/app.js). Issue 25: 2,521 streams from 20 addresses on an attacker's table; each change
of one table costs a worker ~60 µs a stream, all at once, so the link's cap bounds what one
table's writes hold the others' requests for (64 streams: ~4 ms a change, at most four a second).
Refused in the app, a stream cost a table's context and a page (~1 ms, 300 a second).

All three are counted in `AddressTable`, in memory the master shares with the workers it forks
(issue 25: counted per worker, two workers gave an address twice both).

A request's body must arrive within `body_seconds` of its head (`SCOREKEEPER_BODY_SECONDS`,
default 20): it is read before the app sees the request, and one that does not come in time is
answered with a 408 and its connection closed (a POST that never sent its body was still open
after 420 s). A body past `MAX_BODY` gets a 413 at once (the app takes 64 KB).

A worker serves at most `most_open` connections (below its open-files limit, which `serve`
raises to the hard limit, with room for SQLite's files and the refusals themselves); past it a
503 with words, where running out of descriptors left phones waiting for nothing.

Behind a reverse proxy every connection comes from the proxy: the caps per address are off
there (the proxy limits connections and requests per client address, docs/nginx.conf); the cap
on a link's streams is not one of them, and stays.
`SCOREKEEPER_CONNECTIONS_PER_ADDRESS` sets the connection cap (0: off, and the streams' too),
`SCOREKEEPER_STREAMS_PER_ADDRESS` the live streams' (0: off) and `SCOREKEEPER_REQUESTS_PER_ADDRESS`
the request rate as "rate/burst" ("0": off).
"""

from __future__ import annotations

import fcntl
import hashlib
import io
import ipaddress
import mmap
import os
import re
import resource
import struct
import tempfile
import time
from functools import lru_cache
from html import escape

import gevent
from gunicorn.http import wsgi
from gunicorn.http.body import Body, LengthReader
from gunicorn.workers.ggevent import GeventWorker

from . import metrics

DEFAULT_CAP = 64  # connections one address holds of the server
DEFAULT_STREAMS = 16  # live streams one address holds of the server (a phone has one a table it shows)
DEFAULT_LINK_STREAMS = 64  # live streams on one table's link (its phones, screens and onlookers)
DEFAULT_RATE = (10.0, 20.0)  # requests a second one address makes of the server, and its burst
# its requests for files (styles, scripts, icons: FILES) have a bucket of their own, this many
# times the rate and the burst, as nginx's (docs/nginx.conf): a pub's phones share its router's
# address on the internet, and four opening a table at once ask for ~50 things, ~30 of them files
FILES_SCALE = (2.0, 5.0)
FILES = "/static/"  # where the files' paths begin
TARPIT = 1.0  # seconds a request past the rate waits for its 429: a client that waits for answers slows down
BODY_SECONDS = 20.0  # how long a request's body may take to arrive after its head
MAX_BODY = 128 * 1024  # bytes of a request's body (the app takes 64 KB; nginx 128 KB)
MOST_CONNECTIONS = 10000  # connections a worker serves, where its open-files limit allows

def answer(status: str, words: bytes, *headers: bytes, kind: bytes = b"text/plain") -> bytes:
    """A whole HTTP answer with words, that closes its connection."""
    return (b"HTTP/1.1 " + status.encode() + b"\r\nContent-Type: " + kind + b"; charset=utf-8\r\n"
            + b"".join(header + b"\r\n" for header in headers)
            + b"Connection: close\r\nContent-Length: " + str(len(words)).encode() + b"\r\n\r\n" + words)


def N_(text: str) -> str:
    """A message for the catalogs (`make messages` collects it), translated when it is sent."""
    return text


STREAMS_FULL = N_("Too many live boards are open from this address: this one updates every few seconds "
                  "instead.")
LINK_FULL = N_("Too many live boards of this table are open: this one updates every few seconds instead.")
LIVE = re.compile(r"/[tb]/([^/]+)/live")  # a live stream's path (web/table.py), the join link's or the board's


def translated(message: str) -> dict[str, str]:
    """`message` in every language of the catalogs."""
    from babel.support import Translations

    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "translations")
    words = {"en": message}
    for language in sorted(os.listdir(folder)):
        if os.path.isfile(os.path.join(folder, language, "LC_MESSAGES", "messages.mo")):
            words[language] = Translations.load(folder, [language]).gettext(message)
    return words


def stream_refusals(message: str = STREAMS_FULL) -> dict[str, bytes]:
    """The answer to a stream past a cap, `message`, in every language of the catalogs."""
    return {language: answer("429 Too Many Requests", (text + "\n").encode(), b"Retry-After: 30",
                             b"Content-Language: " + language.encode())
            for language, text in translated(message).items()}


BIG = N_("That is too much to send at once.")


def too_big_pages() -> dict[str, bytes]:
    """The 413 of a body past MAX_BODY in every language: a page, as a phone shows it (a file
    picked on the import page comes to it), not a desktop-wide line of English."""
    return {language: answer("413 Content Too Large", (
        f'<!doctype html><html lang="{language}"><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><title>413</title>'
        f'<p style="font: 1.1rem/1.4 system-ui, sans-serif; margin: 24px">{escape(text)}</p></html>\n').encode(),
        b"Content-Language: " + language.encode(), kind=b"text/html") for language, text in translated(BIG).items()}


REFUSAL = answer("429 Too Many Requests",
                 b"Too many connections from this address. Close some, or try again soon.\n")
TOO_FAST = answer("429 Too Many Requests",
                  b"Too many requests from this address. Wait a moment, then reload the page.\n",
                  b"Retry-After: 5")
TOO_SLOW = answer("408 Request Timeout", b"The request did not arrive in time. Try again.\n")
FULL = answer("503 Service Unavailable", b"The server is full right now. Try again in a moment.\n",
              b"Retry-After: 5")


def limits_refusal() -> str | None:
    """Why a limit's setting cannot be read, in one line (None: each is unset or reads): a typo
    ("5O", "20 per second") fell back to the default without a word, and the pub ran on limits
    nobody chose. `serve` asks before anything starts."""
    for name in ("SCOREKEEPER_CONNECTIONS_PER_ADDRESS", "SCOREKEEPER_STREAMS_PER_ADDRESS",
                 "SCOREKEEPER_STREAMS_PER_LINK"):
        if (os.environ.get(name) or "").strip() and _whole_number(name) is None:
            return f"{name} must be a whole number (0: no cap), not {os.environ[name]!r}"
    value = (os.environ.get("SCOREKEEPER_REQUESTS_PER_ADDRESS") or "").strip()
    if value and not all(_number(part) is not None for part in value.split("/", 1)):
        return (f"SCOREKEEPER_REQUESTS_PER_ADDRESS must be requests a second, with a burst after a slash "
                f"(\"20/100\"; 0: no limit), not {value!r}")
    value = (os.environ.get("SCOREKEEPER_BODY_SECONDS") or "").strip()
    if value and not (_number(value) or 0) > 0:
        return f"SCOREKEEPER_BODY_SECONDS must be a number of seconds above 0, not {value!r}"
    return None


def _number(text: str) -> float | None:
    try:
        number = float(text)
    except ValueError:
        return None
    return number if number >= 0 and number != float("inf") else None


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


def _whole_number(name: str) -> int | None:
    """An environment variable's whole number (the digits 0-9 only), when it holds one."""
    value = (os.environ.get(name) or "").strip()
    return int(value) if value.isascii() and value.isdigit() else None


def cap_from_environment(trusted_proxies: int) -> int:
    """The cap: SCOREKEEPER_CONNECTIONS_PER_ADDRESS, else DEFAULT_CAP, and 0 (none) behind a
    trusted proxy, whose address every connection has."""
    value = _whole_number("SCOREKEEPER_CONNECTIONS_PER_ADDRESS")
    if value is not None:
        return value
    return 0 if trusted_proxies else DEFAULT_CAP


def streams_from_environment(cap: int) -> int:
    """The cap on one address's live streams: SCOREKEEPER_STREAMS_PER_ADDRESS, else
    DEFAULT_STREAMS; none when connections are not capped (behind a proxy: `cap` 0)."""
    value = _whole_number("SCOREKEEPER_STREAMS_PER_ADDRESS")
    if value is not None:
        return value
    return min(DEFAULT_STREAMS, cap) if cap else 0


def link_streams_from_environment(cap: int, trusted_proxies: int = 0) -> int:
    """The cap on one link's live streams: SCOREKEEPER_STREAMS_PER_LINK, else
    DEFAULT_LINK_STREAMS; none when connections are not capped (the test and bench servers),
    unless that is because a proxy is in front: the proxy caps each address's connections, but
    a table's link is ours to bound (issue 25: through docs/nginx.conf, 20 addresses held 400
    streams on one table, each sent every change)."""
    value = _whole_number("SCOREKEEPER_STREAMS_PER_LINK")
    if value is not None:
        return value
    return DEFAULT_LINK_STREAMS if cap or trusted_proxies else 0


def body_seconds_from_environment() -> float:
    """SCOREKEEPER_BODY_SECONDS, else BODY_SECONDS."""
    try:
        seconds = float(os.environ.get("SCOREKEEPER_BODY_SECONDS") or BODY_SECONDS)
    except ValueError:
        return BODY_SECONDS
    return seconds if seconds > 0 else BODY_SECONDS


def raise_open_files_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit (workers inherit it); the
    limit now. The common soft 1,024 ran out with 24 addresses' connections (issue 25)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return soft if soft != resource.RLIM_INFINITY else wanted
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ValueError, OSError):
        return soft
    return wanted


def connections_within(open_files: int) -> int:
    """How many connections a worker serves under `open_files` descriptors: a quarter (at least
    128) stays for the rest — SQLite's files of the requests in flight (three a connection),
    the listening socket, logs — and 64 for answering the connections past it (`REFUSING`)."""
    return max(16, min(MOST_CONNECTIONS, open_files - max(128, open_files // 4) - REFUSING))


REFUSING = 64  # connections a worker holds beyond `most_open` to answer them with a 503


def address_key(addr) -> str:
    """Whose connection this is: the peer's address, an IPv6 address by its /64."""
    return _address_key(addr[0] if isinstance(addr, tuple) and addr else str(addr))


# Performance (issue 25): a connection asks its address's key three times (its cap, its
# requests', its streams'), and an attacker's refused ones come hundreds a second
@lru_cache(maxsize=4096)
def _address_key(host: str) -> str:
    try:
        parsed = ipaddress.ip_address(host)
    except ValueError:
        return str(host)
    if parsed.version == 6:
        if parsed.ipv4_mapped:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


class AddressTable:
    """The caps' counts per address, shared by a server's processes: made by the master before
    it forks its workers (an anonymous shared mapping), so that one address gets `cap`
    connections and `rate` requests a second of the whole server.

    A slot per address (found among WINDOW slots by a 64-bit hash of it): its request bucket
    (tokens, when), its open connections and its live streams, in a column per worker. A worker that dies (killed
    at its timeout, say) leaves counts no close takes back: the master clears its column when it
    reaps it (`release`), and a starting worker clears the column of any worker not alive. Every
    change holds a POSIX lock on a temporary file: the kernel lets go of it when its holder
    dies, and a worker holds it for microseconds, never across a gevent switch. A slot is taken
    again when its address holds no connection and its bucket is full; when every slot of an
    address's window is busy, that address is not counted (the caps fail open: a server with
    thousands of busy addresses at once is not a pub's)."""

    WINDOW = 16
    EMPTY = 0

    def __init__(self, workers: int, rate: float, burst: float, slots: int = 16384) -> None:
        self.rate, self.burst = rate, burst
        self.slots = slots
        self.columns = min(256, max(8, 4 * workers))  # a reload starts new workers before the old ones go
        self._pids = 0
        self._keys = self._pids + 8 * self.columns
        self._buckets = self._keys + 8 * slots
        self._connections = self._buckets + 16 * slots
        self._streams = self._connections + 2 * slots * self.columns
        self.memory = mmap.mmap(-1, self._streams + 2 * slots * self.columns)  # shared, zeroed
        self._lock_file = tempfile.TemporaryFile(prefix="scorekeeper-caps-")
        self.column: int | None = None  # this process's, once claimed

    def close(self) -> None:
        self.memory.close()
        self._lock_file.close()

    # -- the lock -------------------------------------------------------------------------------

    def __enter__(self) -> "AddressTable":
        fcntl.lockf(self._lock_file, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc) -> None:
        fcntl.lockf(self._lock_file, fcntl.LOCK_UN)

    # -- a worker's column ----------------------------------------------------------------------

    def claim(self, pid: int) -> int | None:
        """A column for the worker `pid` (None: none free), clearing those of dead workers."""
        with self:
            for column in range(self.columns):
                owner = self._owner(column)
                if owner and (owner == pid or not process_alive(owner)):
                    self._clear(column)
            for column in range(self.columns):
                if not self._owner(column):
                    struct.pack_into("q", self.memory, self._pids + 8 * column, pid)
                    self.column = column
                    return column
        return None

    def release(self, pid: int) -> None:
        """The worker `pid` is gone: its connections are no longer counted."""
        with self:
            for column in range(self.columns):
                if self._owner(column) == pid:
                    self._clear(column)

    def _owner(self, column: int) -> int:
        return struct.unpack_from("q", self.memory, self._pids + 8 * column)[0]

    def _clear(self, column: int) -> None:
        for block in (self._connections, self._streams):
            start = block + 2 * self.slots * column
            self.memory[start:start + 2 * self.slots] = bytes(2 * self.slots)
        struct.pack_into("q", self.memory, self._pids + 8 * column, 0)

    # -- counting -------------------------------------------------------------------------------

    def connect(self, key: str, cap: int) -> int | None | bool:
        """Count a connection of `key` when it holds fewer than `cap`: its slot (give it back
        to `disconnect`), None when not counted; False past the cap."""
        return self._take(self._connections, key, cap)

    def disconnect(self, slot: int) -> None:
        with self:
            self._add(self._connections, slot, -1)

    def open_stream(self, key: str, cap: int) -> int | None | bool:
        """Count a live stream of `key` when it holds fewer than `cap`: its slot (give it back
        to `close_stream`), None when not counted; False past the cap."""
        return self._take(self._streams, key, cap)

    def _take(self, block: int, key: str, cap: int) -> int | None | bool:
        """One more of `key` in `block` (connections, streams), every worker's counted."""
        if self.column is None:
            return None
        with self:
            slot = self._slot(key, time.monotonic())
            if slot is None:
                return None
            if self._count(block, slot) >= cap:
                return False
            self._add(block, slot, 1)
            return slot

    def close_stream(self, slot: int) -> None:
        with self:
            self._add(self._streams, slot, -1)

    def open_streams(self, key: str) -> int:
        with self:
            slot = self._find(_hash(key))
            return 0 if slot is None else self._count(self._streams, slot)

    def _add(self, block: int, slot: int, step: int) -> None:
        """Count one more (or, -1, one fewer) in this worker's column of `block`."""
        where = block + 2 * (self.slots * self.column + slot)
        held = struct.unpack_from("H", self.memory, where)[0]
        struct.pack_into("H", self.memory, where, min(0xFFFF, max(0, held + step)))

    def _count(self, block: int, slot: int) -> int:
        """A slot's count in `block`, every worker's column summed."""
        return sum(struct.unpack_from("H", self.memory, block + 2 * (self.slots * column + slot))[0]
                   for column in range(self.columns))

    def request(self, key: str, scale: tuple[float, float] = (1.0, 1.0)) -> bool:
        """Take one request from `key`'s bucket (of `scale` times the rate and the burst); False
        when it is empty."""
        now = time.monotonic()
        with self:
            slot = self._slot(key, now, self.burst * scale[1])
            if slot is None:
                return True
            where = self._buckets + 16 * slot
            tokens = self._tokens(slot, now, self.rate * scale[0], self.burst * scale[1])
            if tokens < 1:
                struct.pack_into("dd", self.memory, where, tokens, now)
                return False
            struct.pack_into("dd", self.memory, where, tokens - 1, now)
            return True

    def empty(self, key: str) -> bool:
        """Whether `key`'s bucket has no request left now (taking none)."""
        now = time.monotonic()
        with self:
            slot = self._find(_hash(key))
            return slot is not None and self._tokens(slot, now) < 1

    def _tokens(self, slot: int, now: float, rate: float | None = None, burst: float | None = None) -> float:
        """The requests a slot's bucket holds `now` (refilled at `rate`, up to `burst`: the
        table's unless given)."""
        rate, burst = self.rate if rate is None else rate, self.burst if burst is None else burst
        tokens, then = struct.unpack_from("dd", self.memory, self._buckets + 16 * slot)
        return min(burst, tokens + (now - then) * rate)

    def open_connections(self, key: str) -> int:
        with self:
            slot = self._find(_hash(key))
            return 0 if slot is None else self._open(slot)

    def _open(self, slot: int) -> int:
        return self._count(self._connections, slot)

    def _find(self, hashed: int) -> int | None:
        first = hashed % (self.slots - self.WINDOW + 1)
        keys = struct.unpack_from(f"{self.WINDOW}Q", self.memory, self._keys + 8 * first)
        for offset, key in enumerate(keys):
            if key == hashed:
                return first + offset
        return None

    def _slot(self, key: str, now: float, burst: float | None = None) -> int | None:
        """`key`'s slot, taking a free one for a new address, its bucket full with `burst` (the
        table's unless given; None: its window is busy)."""
        hashed = _hash(key)
        found = self._find(hashed)
        if found is not None:
            return found
        first = hashed % (self.slots - self.WINDOW + 1)
        for slot in range(first, first + self.WINDOW):
            if self._idle(slot, now):
                struct.pack_into("Q", self.memory, self._keys + 8 * slot, hashed)
                struct.pack_into("dd", self.memory, self._buckets + 16 * slot,
                                 self.burst if burst is None else burst, now)
                return slot
        return None

    def _idle(self, slot: int, now: float) -> bool:
        if struct.unpack_from("Q", self.memory, self._keys + 8 * slot)[0] == self.EMPTY:
            return True
        if self._open(slot):
            return False
        return not self.rate or self._tokens(slot, now) >= self.burst


@lru_cache(maxsize=4096)
def _hash(key: str) -> int:
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "little") or 1


def process_alive(pid: int) -> bool:
    """Whether a process `pid` runs (one of another user's counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


GUNICORN_HEADERS = wsgi.Response.default_headers


def unsigned_headers(response) -> list[str]:
    """gunicorn's own headers of an answer without its Server line: a stranger who finds the
    server is not told what runs it, and every answer is 18 bytes shorter (issue 26: an entry's
    answer within 1 KB on the wire)."""
    return [line for line in GUNICORN_HEADERS(response) if not line.startswith("Server:")]


class CappedGeventWorker(GeventWorker):
    """gunicorn's gevent worker, refusing an address's connections past `cap` and its requests
    past `rate` a second (with a `burst`), counted in the `table` the master shares; a request
    whose body takes longer than `body_seconds`; connections past `most_open`. Class
    attributes, set by `scorekeeper serve` before it forks."""

    cap = DEFAULT_CAP
    streams: int | None = None  # live streams an address holds (None: from the environment, at start)
    link_streams: int | None = None  # live streams on one link (None: from the environment, at start)
    rate, burst = DEFAULT_RATE
    body_seconds = BODY_SECONDS
    most_open = MOST_CONNECTIONS
    table: AddressTable | None = None

    def init_process(self) -> None:
        if self.table is None:  # a worker on its own (not forked by `serve`): a table of its own
            type(self).table = AddressTable(1, self.rate, self.burst)
        if self.streams is None:
            type(self).streams = streams_from_environment(self.cap)
        if self.link_streams is None:
            type(self).link_streams = link_streams_from_environment(self.cap)
        self.table.claim(os.getpid())
        self.quitting = False
        self.open_total = 0
        self.refused_connections = self.refused_requests = self.refused_full = self.refused_streams = 0
        self.worded = {"address": stream_refusals(STREAMS_FULL), "link": stream_refusals(LINK_FULL),
                       "big": too_big_pages()}
        wsgi.Response.default_headers = unsigned_headers
        super().init_process()

    def handle_quit(self, sig, frame) -> None:
        """Quit once. A terminal's Ctrl-C reaches a worker twice — the terminal's SIGINT to the
        whole process group, then the master's SIGQUIT — and the second quit's sys.exit ran
        while the worker was already exiting: a traceback on the terminal for every worker."""
        if getattr(self, "quitting", False):
            return
        self.quitting = True
        super().handle_quit(sig, frame)

    def in_language(self, req, kind: str) -> bytes:
        """A refusal of `kind` — past a streams' cap ("address" or "link"), a body too big ("big")
        — in the first language of the request's Accept-Language the catalogs have (else English)."""
        refusals = self.worded[kind]
        header = next((value for name, value in req.headers if name == "ACCEPT-LANGUAGE"), "")
        for tag in header.split(","):
            language = tag.split(";", 1)[0].strip()[:2].lower()
            if language in refusals:
                return refusals[language]
        return refusals["en"]

    def open_stream(self, req, addr) -> tuple[list[int], bytes | None]:
        """Count a live stream for its address and its link: the slots counted (give them back
        when it ends), and the refusal when a cap is reached (nothing then counted)."""
        live = LIVE.fullmatch(req.path or "") if req.method == "GET" else None
        if live is None:
            return [], None
        held = []
        for key, cap, kind in ((address_key(addr), self.streams, "address"),
                               ("link " + live.group(1), self.link_streams, "link")):
            if not cap:
                continue
            slot = self.table.open_stream(key, cap)
            if slot is False:
                for taken in held:
                    self.table.close_stream(taken)
                self.refused_streams += 1
                metrics.limited("streams" if kind == "address" else "link")
                return [], self.in_language(req, kind)
            if slot is not None:
                held.append(slot)
        return held, None

    def allowed(self, key: str, path: str = "") -> bool:
        """Take one request from the address's bucket, or from its files' for a file; False when
        it is empty."""
        if path.startswith(FILES):
            return self.table.request("files " + key, FILES_SCALE)
        return self.table.request(key)

    def handle_request(self, listener_name, req, sock, addr):
        if self.rate and not self.allowed(address_key(addr), req.path or ""):
            self.too_fast()
            try:
                sock.sendall(TOO_FAST)
            except OSError:
                pass
            raise StopIteration()  # gunicorn closes the connection
        refusal = self.read_body(req, sock)
        streams: list[int] = []
        if not refusal:
            streams, refusal = self.open_stream(req, addr)
        if refusal:
            try:
                sock.sendall(refusal)
            except OSError:
                pass
            raise StopIteration()
        try:  # a stream is served within its request: counted until it ends
            return super().handle_request(listener_name, req, sock, addr)
        finally:
            for slot in streams:
                self.table.close_stream(slot)

    def too_fast(self) -> None:
        """A request past its address's rate: counted, and its 429 held for TARPIT seconds
        (gevent's sleep in the worker: only this connection waits)."""
        self.refused_requests += 1
        metrics.limited("requests")
        time.sleep(TARPIT)

    def read_body(self, req, sock) -> bytes | None:
        """Read the request's whole body within `body_seconds` and hand it to the app from
        memory; the answer that closes the connection when it is too slow or too big."""
        reader = req.body.reader
        if isinstance(reader, LengthReader):
            if reader.length == 0:
                return None
            if reader.length > MAX_BODY:
                return self.in_language(req, "big")
        if getattr(req, "_expected_100_continue", False):  # the client waits for it to send the body
            sock.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
            req._expected_100_continue = False  # gunicorn would send it again
        timeout = gevent.Timeout(self.body_seconds)
        timeout.start()
        try:
            data = req.body.read(MAX_BODY + 1)
        except gevent.Timeout as error:
            if error is not timeout:
                raise
            return TOO_SLOW
        finally:
            timeout.close()
        if len(data) > MAX_BODY:
            return self.in_language(req, "big")
        req.body = Body(io.BytesIO(data))
        return None

    def handle(self, listener, client, addr) -> None:
        if self.open_total >= self.most_open:
            self.refused_full += 1
            metrics.limited("full")
            return self.refuse(client, FULL)
        slot = None
        key = address_key(addr)
        if self.cap:
            slot = self.table.connect(key, self.cap)
            if slot is False:
                self.refused_connections += 1
                metrics.limited("connections")
                return self.refuse(client, REFUSAL)
        self.open_total += 1
        try:
            if self.rate and self.table.empty(key):
                # its first request would wait for its 429 (`handle_request`): it waits without
                # being read and parsed (issue 25: an attacker's refused streams, ~800 a second,
                # cost the server half a core, ~0.5 ms each)
                self.too_fast()
                return self.refuse(client, TOO_FAST)
            return super().handle(listener, client, addr)
        finally:
            self.open_total -= 1
            if slot is not None:
                self.table.disconnect(slot)

    @staticmethod
    def refuse(client, words: bytes) -> None:
        """Answer with `words` and close, reading nothing but what has already arrived: closed
        with unread bytes, the connection would be reset, and the client might never read them."""
        try:
            client.sendall(words)
            client.setblocking(False)
            client.recv(65536)
        except OSError:
            pass
        finally:
            client.close()

