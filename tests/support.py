"""The one set of test helpers: a phone on Flask's test client, and the real production server
in its own process. Unit, browser and reliability tests and the benchmarks (bench/) use them."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Iterator

from html import unescape
from html.parser import HTMLParser

from scorekeeper.games.base import RuleError

ROOT = Path(__file__).resolve().parents[1]


def accepts(verify, *args) -> bool:
    """Whether an engine's verify_* function takes these (the screens ask through the service)."""
    try:
        verify(*args)
    except RuleError:
        return False
    return True


class _Writes(HTMLParser):
    """Every element of a piece of HTML that writes (hx-post): its attributes and its text."""

    VOID = {"input", "img", "br", "hr", "meta", "link"}

    def __init__(self, html: str) -> None:
        super().__init__()
        self.found: list[dict] = []
        self.open: list[tuple[str, dict | None]] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        element = None
        if "hx-post" in attrs:
            vals = json.loads(attrs["hx-vals"]) if attrs.get("hx-vals") else {}
            element = {"tag": tag, "url": attrs["hx-post"], "vals": vals, "attrs": attrs, "text": ""}
            self.found.append(element)
        if tag not in self.VOID:
            self.open.append((tag, element))

    def handle_endtag(self, tag):
        while self.open:
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data):
        for _tag, element in self.open:
            if element is not None:
                element["text"] += data


def writes(html: str, path: str = "") -> list[dict]:
    """The buttons (and forms) of a page or an htmx answer that post to a URL ending in `path`,
    as htmx sends them: each a dict of its `url`, its `vals` (hx-vals, read as JSON), its
    `attrs` and its `text` (stripped)."""
    found = [element for element in _Writes(html).found if element["url"].endswith(path)]
    for element in found:
        element["text"] = " ".join(element["text"].split())
    return found


class _Fields(HTMLParser):
    """What a form would send (its inputs as they stand: checked boxes only, none disabled)."""

    def __init__(self, html: str, form_id: str) -> None:
        super().__init__()
        self.form_id = form_id
        self.depth = 0  # inside the form: its nesting depth (0: outside)
        self.fields: dict[str, list[str]] = {}
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and attrs.get("id") == self.form_id:
            self.depth = 1
            return
        if self.depth and tag not in _Writes.VOID:
            self.depth += 1
        if tag != "input" or not (self.depth or attrs.get("form") == self.form_id):
            return
        if "disabled" in attrs or not attrs.get("name"):
            return
        if attrs.get("type") in ("checkbox", "radio") and "checked" not in attrs:
            return
        self.fields.setdefault(attrs["name"], []).append(attrs.get("value") or ("on" if attrs.get("type") in (
            "checkbox", "radio") else ""))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self.depth and tag not in _Writes.VOID:
            self.depth -= 1

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1


def form_fields(html: str, form_id: str = "tray") -> dict[str, list[str]]:
    """The fields the form `form_id` of `html` sends as it stands (name -> its values)."""
    return _Fields(html, form_id).fields


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Phone:
    """A Flask test client acting as one device: it keeps its cookie and CSRF token."""

    def __init__(self, app):
        self.app = app
        self.client = app.test_client()
        self.csrf = None

    def get(self, url, **kwargs):
        response = self.client.get(url, **kwargs)
        found = re.search(r'name="csrf" content="([^"]+)"', response.get_data(as_text=True))
        if found:
            self.csrf = found.group(1)
        return response

    def post(self, url, data=None, fetch=True, headers=None, **kwargs):
        """A POST as the page makes it: with the CSRF token, as htmx does unless `fetch` is
        false (a plain form)."""
        if self.csrf is None:
            self.get("/", headers=headers)
        data = {"csrf": self.csrf, **(data or {})}
        headers = {**({"HX-Request": "true"} if fetch else {}), **(headers or {})}
        return self.client.post(url, data=data, headers=headers, **kwargs)

    @property
    def cookie(self) -> str:
        return self.client.get_cookie("session").value

    def speaking(self, lang: str) -> "Phone":
        """This phone with its language chosen on the switcher (its cookie keeps it)."""
        self.post("/language", {"lang": lang}, fetch=False)
        return self

    def open_table(self, game="escalero", players=("Anna", "Ben"), **rules):
        data = {"player": list(players), **{f"rule_{k}": str(v) for k, v in rules.items()}}
        response = self.post(f"/new/{game}", data, fetch=False)
        assert response.status_code == 303, response.get_data(as_text=True)
        return response.headers["Location"].rsplit("/", 1)[-1]

    def join(self, token, name):
        page = self.get(f"/t/{token}").get_data(as_text=True)
        seat = re.search(rf'{{"seat": (\d+)}}[^>]*>{re.escape(name)}[< ]', page)
        assert seat, f"no free seat for {name}"
        response = self.post(f"/t/{token}/join", {"seat": seat.group(1), "change": self.board_change(token)},
                             fetch=False)
        assert response.status_code == 303
        return response

    def board_change(self, token) -> str:
        """The change this phone's board shows now (the stamp every write includes); `token`
        is a join token, or a table's URL ("/b/<board token>")."""
        base = token if token.startswith("/") else f"/t/{token}"
        board = self.client.get(f"{base}/board", headers={"HX-Request": "true"}).get_data(as_text=True)
        found = re.search(r'data-change="(\d+)"', board)
        return found.group(1) if found else ""

    def write(self, url, data=None, change=None, **kwargs):
        """POST a write of a table (`url`: /t/<token>/… or /b/<token>/…) as the page does: with
        the change its board shows (read from the board now, unless `change` is given)."""
        table = re.match(r"(/[tb]/[^/]+)/", url)
        if change is None and table:
            change = self.board_change(table.group(1))
        return self.post(url, {"change": str(change if change is not None else ""), **(data or {})}, **kwargs)

    def heard(self, token, since) -> str | None:
        """What #said tells this phone of the changes after `since` (its board asked for again,
        as polling does), in the words a screen reader reads; None when it says nothing."""
        told = self.get(f"/t/{token}/board?since={since}", headers={"HX-Request": "true"}).get_data(as_text=True)
        found = re.search(r'<hx-partial id="said"[^>]*>(.*?)</hx-partial>', told, re.S)
        return " ".join(unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split()).replace(" .", ".") \
            if found else None

    def tray(self, token, fields=None, **more) -> str:
        """This phone's tray as the server renders it for what the phone tapped (GET …/tray,
        as htmx asks when the tray's form changes): `fields` (a dict, values may be lists)."""
        response = self.client.get(f"/t/{token}/tray", query_string={**(fields or {}), **more},
                                   headers={"HX-Request": "true"})
        assert response.status_code == 200, response.get_data(as_text=True)
        return response.get_data(as_text=True)

    def press(self, token, button: dict, form: str | None = None, change=None, **more):
        """Tap a button `writes()` found, as htmx sends it: its hx-vals, the fields of the tray
        it sits in (`form`, the tray's HTML), the board's change (read now, unless given) and
        `more`."""
        data: dict = {name: values for name, values in (form_fields(form) if form else {}).items()}
        for name, value in button["vals"].items():
            data[name] = value if isinstance(value, str) else json.dumps(value)
        data["change"] = str(self.board_change(token) if change is None else change)
        data.update({name: value if isinstance(value, (str, list)) else json.dumps(value)
                     for name, value in more.items()})
        return self.post(button["url"], data)

    def enter(self, token, event, idem=None, change=None):
        """POST an entry as the page does: with the change its board showed (read from the
        board now, unless `change` is given)."""
        if change is None:
            change = self.board_change(token)
        data = {"event": json.dumps(event), "change": str(change)}
        if idem:
            data["idem"] = idem
        return self.post(f"/t/{token}/entries", data)


class Server:
    """`scorekeeper serve` (gunicorn, gevent workers) on a free port of 127.0.0.1, with its own
    instance folder, in its own process group: `kill()` takes the master and every worker down
    at once, like a power cut; `stop()` is gunicorn's quick shutdown. `command` runs another
    server line that takes {port}; `env` adds to the environment."""

    ready_path = "/"

    def __init__(self, instance, workers: int = 1, env: dict | None = None, command: list[str] | None = None,
                 log: str | Path | None = None, timeout: float = 60) -> None:
        self.instance = Path(instance)
        self.instance.mkdir(parents=True, exist_ok=True)
        self.workers = workers
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database = self.instance / "scorekeeper.db"
        self.log_path = Path(log) if log else self.instance / "server.log"
        # the limits (tables an hour …) and the caps on one address's connections and requests
        # (every test phone is 127.0.0.1) have tests of their own
        self.env = {**os.environ, "SCOREKEEPER_INSTANCE": str(self.instance), "SCOREKEEPER_BASE_URL": self.url,
                    "SCOREKEEPER_LIMITS": "off", "SCOREKEEPER_CONNECTIONS_PER_ADDRESS": "0",
                    "SCOREKEEPER_REQUESTS_PER_ADDRESS": "0", "PYTHONPATH": str(ROOT), **(env or {})}
        self.command = command
        self.process: subprocess.Popen | None = None
        self.start(timeout)

    def start(self, timeout: float = 60) -> None:
        argv = self.command or [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1",
                                "--port", "{port}", "--workers", str(self.workers)]
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen([a.replace("{port}", str(self.port)) for a in argv], env=self.env,
                                            stdout=subprocess.DEVNULL, stderr=log, start_new_session=True, cwd=ROOT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log_tail()}")
            try:
                urllib.request.urlopen(self.url + self.ready_path, timeout=2).read()
                answered = True
            except urllib.error.HTTPError:  # an answer all the same (a host it refuses, say)
                answered = True
            except OSError:
                answered = False
            if answered and self.ready():
                return
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"the server did not start: {self.log_tail()}")

    def ready(self) -> bool:
        """Whether the server answers as wanted once its address does (a subclass may wait for more)."""
        return True

    def kill(self) -> None:
        """SIGKILL to the whole process group: no handler, no flush, no goodbye."""
        if self.process and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait(10)
        self._reap()

    def stop(self) -> None:
        """gunicorn's quick shutdown (live streams end now), then whatever is left is killed."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def _reap(self) -> None:
        """Wait (bounded) until no process of the group is left, so the next start binds freely."""
        if not self.process:
            return
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.killpg(self.process.pid, 0)
            except (ProcessLookupError, PermissionError):
                return
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                return
            time.sleep(0.02)

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def server_errors(self) -> list[str]:
        """Tracebacks the server logged (an exception in a view is logged at error level)."""
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return [line for line in text.splitlines() if "Traceback" in line or "Exception on" in line]


# --- nginx in front (docs/nginx.conf, docs/nginx-nodes.conf) -----------------------------------

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def nginx_config(conf: str, port: int, upstreams: dict[str, int], host: str = "scores.example") -> str:
    """docs/`conf` on plain HTTP (its TLS lines and redirect taken out), listening on `port` of
    127.0.0.1, each upstream address it names ("127.0.0.1:8000") put on a port of ours, its logs
    in the folder nginx runs in."""
    text = (ROOT / "docs" / conf).read_text()
    text = re.sub(r"    server \{\n        listen 80;.*?\n    \}\n\n", "", text, flags=re.S)  # the TLS redirect
    text = "\n".join(line for line in text.splitlines() if "# TLS" not in line)
    text = text.replace(f"server_name {host};", f"listen 127.0.0.1:{port};\n        server_name {host};")
    for address, upstream in upstreams.items():
        text = text.replace(address, f"127.0.0.1:{upstream}")
    return text.replace("/var/log/nginx/", "logs/")


def _open_files_to_the_hard_limit() -> None:
    """In a child about to start: as many open files as the machine lets it (the files' own
    worker_rlimit_nofile needs more rights than a test has)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Nginx:
    """nginx in the foreground, one process, with `config` written to `folder`: answering on
    `port` once the constructor returns; `stop()` ends it."""

    def __init__(self, folder, port: int, config: str, timeout: float = 10) -> None:
        folder = Path(folder)
        (folder / "logs").mkdir(parents=True, exist_ok=True)
        (folder / "nginx.conf").write_text(config)
        self.port = port
        self.process = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"),
                                         "-g", f"daemon off; master_process off; pid {folder}/nginx.pid; "
                                               f"error_log {folder}/logs/error.log;"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        preexec_fn=_open_files_to_the_hard_limit)
        deadline = time.monotonic() + timeout
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"nginx did not start: {self.process.stderr.read().decode()}") from None
                if time.monotonic() > deadline:
                    self.stop()
                    raise
                time.sleep(0.1)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.process.stderr.close()


# --- the largest logs an import takes ------------------------------------------------------------

LOGS = ROOT / "tests" / "logs"


def largest_log(game: str, most_bytes: int | None = None) -> dict:
    """The largest log of `game` an import takes: `service.MAX_LOG_EVENTS` events (or as many
    as fit in `most_bytes` of compact JSON, what /import's body allows): the header and the
    events its tests/games/<game>.py's `largest_events` gives (a real game's entries repeated
    with its target out of reach, never finished; or, where the pad ends the game, the whole
    pad of the most players). The issue's attack (`redeals=True`, bench/attack.py) pads a real game
    with redeals."""
    from scorekeeper import gamelog, service
    from tests.games import SUPPORT

    most = service.MAX_LOG_EVENTS
    doc, source = SUPPORT[game].largest_events(most)
    doc["events"], size = [], len(json.dumps({**doc, "events": []}, separators=(",", ":")))
    for event in source:
        size += len(json.dumps(event, separators=(",", ":"))) + 1
        if len(doc["events"]) >= most or (most_bytes is not None and size > most_bytes):
            break
        doc["events"].append(event)
    gamelog.replay(doc)  # a log the import takes
    return doc


def repeated_log(path: str, rules: dict, most: int) -> tuple[dict, Iterator[dict]]:
    """A real game's log (`path` under tests/logs/) with `rules` changed (its target out of
    reach), and its entries (without their times and writers) over and over, `most` in all."""
    doc = json.loads((LOGS / path).read_text())
    doc["rules"] = {**doc.get("rules", {}), **rules}
    entries = [{k: v for k, v in event.items() if k not in ("at", "by")} for event in doc["events"]]
    return doc, (entries[n % len(entries)] for n in range(most))


def padded_euchre_log() -> dict:
    """The issue's attack: a real Euchre game padded with redeals to `service.MAX_LOG_EVENTS`."""
    from scorekeeper import service

    doc = json.loads((LOGS / "euchre" / "full-game.json").read_text())
    doc["events"] = [{"type": "redeal"}] * (service.MAX_LOG_EVENTS - len(doc["events"])) + doc["events"]
    return doc
