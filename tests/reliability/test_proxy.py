"""docs/nginx.conf in front of the real server (run only where nginx is installed): pages and
live streams come through, a client that sends its request slowly is cut off, the limits
count each phone's own address rather than the proxy's (yet a pub's phones behind one address join
at once, and watch their live boards while they write), and what nginx refuses is not logged."""

from __future__ import annotations

import http.client
import os
import re
import shutil
import socket
import subprocess
import time
import urllib.parse

import pytest

from scorekeeper import service
from tests.support import NGINX, ROOT, Nginx, Server, free_port, nginx_config

pytestmark = pytest.mark.skipif(not os.path.exists(NGINX), reason="nginx is not installed")


@pytest.fixture(scope="module")
def proxied(tmp_path_factory):
    folder = tmp_path_factory.mktemp("proxy")
    server = Server(folder / "instance", workers=1,
                    env={"SCOREKEEPER_TRUSTED_PROXIES": "1", "SCOREKEEPER_ALLOWED_HOSTS": "scores.example",
                         "SCOREKEEPER_BASE_URL": "http://scores.example", "SCOREKEEPER_LIMITS": ""})
    port = free_port()
    # the file's timeouts shortened for a test
    config = nginx_config("nginx.conf", port, {"127.0.0.1:8000": server.port})
    nginx = Nginx(folder, port, config.replace("client_header_timeout 10s;", "client_header_timeout 1s;"))
    yield port, server
    nginx.stop()
    server.stop()


def request(port: int, method: str, path: str, body: dict | list | None = None, source: str = "127.0.0.1",
            cookie: str = "", stream: bool = False) -> tuple[int, dict, str]:
    """(status, headers, body) of one request through the proxy from `source`; of a stream,
    its first bytes only."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    try:
        headers = {"Host": "scores.example", "Cookie": cookie}
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        text = (response.read1(4096) if stream else response.read()).decode(errors="replace")
        return response.status, {k.lower(): v for k, v in response.getheaders()}, text
    finally:
        connection.close()


def session(port: int, source: str) -> tuple[str, str]:
    """A phone's cookie and CSRF token, from its first page."""
    _, headers, page = request(port, "GET", "/", source=source)
    cookie = headers["set-cookie"].split(";", 1)[0]
    return cookie, re.search(r'name="csrf" content="([^"]+)"', page).group(1)


def test_pages_and_live_streams_come_through(proxied):
    port, server = proxied
    cookie, csrf = session(port, "127.0.0.1")
    status, headers, _ = request(port, "POST", "/new/escalero", {"csrf": csrf, "player": "Anna"}, cookie=cookie)
    assert status == 303
    token = headers["location"].rsplit("/", 1)[-1]
    _, headers, page = request(port, "GET", f"/t/{token}", cookie=cookie)
    assert f"http://scores.example/t/{token}" in page  # the join link: the configured address
    assert headers["server"] == "nginx"  # no version (server_tokens off), and not the app's server
    status, headers, first = request(port, "GET", f"/t/{token}/live?since=0", cookie=cookie, stream=True)
    assert status == 200 and headers["content-type"].startswith("text/event-stream")
    assert "retry:" in first  # unbuffered: the first bytes arrive at once


def test_a_slow_client_is_cut_off(proxied):
    port, _ = proxied
    slow = socket.create_connection(("127.0.0.1", port), timeout=5)
    slow.sendall(b"GET / HTTP/1.1\r\nHost: scores.example\r\n")  # ... and never the rest
    started = time.monotonic()
    try:
        answer = slow.recv(4096)
    except (ConnectionResetError, socket.timeout):
        answer = b""
    assert time.monotonic() - started < 4 and (answer == b"" or b"408" in answer)
    slow.close()


def test_the_limits_count_the_phone_not_the_proxy(proxied):
    port, _ = proxied
    cookie, csrf = session(port, "127.0.0.2")
    for _ in range(service.JOIN_ATTEMPTS):
        request(port, "POST", "/join", {"csrf": csrf, "code": "ZZZZZZ"}, source="127.0.0.2", cookie=cookie)
    status, _, _ = request(port, "POST", "/join", {"csrf": csrf, "code": "ZZZZZZ"}, source="127.0.0.2", cookie=cookie)
    assert status == 429
    cookie, csrf = session(port, "127.0.0.3")  # another phone, another address: not locked out
    status, _, _ = request(port, "POST", "/join", {"csrf": csrf, "code": "ZZZZZZ"}, source="127.0.0.3", cookie=cookie)
    assert status == 404


def test_a_phone_keeps_its_connection_while_thousands_of_heads_are_half_sent(proxied):
    """Short of connections, nginx closes the idle keep-alive connections first: behind the
    attack's 2,000 slowloris heads and its streams, honest phones lost entries on a connection
    nginx had closed under them (issue 25). The file gives nginx room for an attack's worth."""
    import resource

    port, _ = proxied
    heads_count = 5000  # past the 4,096 connections nginx had
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard < heads_count + 1000:
        pytest.skip(f"this machine lets a process open {hard} files, not the {heads_count} heads and nginx's own")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, heads_count + 1000)), hard))
    phone = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=("127.0.1.1", 0))
    heads = []
    try:
        phone.request("GET", "/rules/escalero", headers={"Host": "scores.example"})
        assert phone.getresponse().read() and phone.sock is not None  # kept open
        for n in range(heads_count):  # from 250 addresses: under nginx's 20 connections an address
            sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(f"127.0.4.{1 + n % 250}", 0))
            sock.sendall(b"GET / HTTP/1.1\r\nHost: scores.example\r\n")
            heads.append(sock)
        phone.request("GET", "/rules/escalero", headers={"Host": "scores.example"})
        assert phone.getresponse().status == 200
    finally:
        phone.close()
        for sock in heads:
            sock.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_an_attack_s_refusals_write_nothing_to_the_logs(proxied):
    """What nginx refuses (429) or cuts off itself (a head sent too slowly, the test before this)
    is neither an error nor worth a line of the access log: under an attack they come a
    thousand a second, and two lines each (~350 bytes) fill a small server's disk in a day."""
    port, server = proxied
    folder = server.instance.parent / "logs"  # nginx's, beside the server's instance (`proxied`)

    def logged() -> int:
        return sum(path.stat().st_size for path in folder.glob("*.log"))

    before = logged()
    statuses: dict[int, int] = {}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=("127.0.2.50", 0))
    for _ in range(300):  # as fast as the proxy answers, from one address: 10 a second pass (a burst of 40)
        connection.request("GET", "/no-such-page", headers={"Host": "scores.example"})
        response = connection.getresponse()
        response.read()
        statuses[response.status] = statuses.get(response.status, 0) + 1
    connection.close()
    refused = statuses.get(429, 0)
    assert refused >= 250, statuses
    written = logged() - before
    assert written < 300 * (300 - refused) + 1000, (written, statuses)  # the requests let through: a line each


def test_a_pub_s_phones_behind_one_address_join_a_table_at_once(proxied):
    """On the internet a pub's phones share its router's address: four phones opening a table's
    link at once (its page, its files, its QR code) and taking their seats are all let through,
    where 10 requests a second with a burst of 20 for everything refused a phone's files
    (a page without its styles) and its seat."""
    port, _ = proxied
    pub = "127.0.2.60"
    cookie, csrf = session(port, pub)
    players = [("player", name) for name in ("Anna", "Ben", "Cleo", "Dora")]
    status, headers, _ = request(port, "POST", "/new/escalero", [("csrf", csrf), *players], source=pub, cookie=cookie)
    assert status == 303
    link = urllib.parse.urlsplit(headers["location"]).path
    statuses = []
    for name in ("Anna", "Ben", "Cleo", "Dora"):
        status, headers, page = request(port, "GET", link, source=pub)
        statuses.append(status)
        if status != 200:
            break
        cookie = headers["set-cookie"].split(";", 1)[0]
        csrf = re.search(r'name="csrf" content="([^"]+)"', page).group(1)
        files = re.findall(r'(?:href|src)="(/static/[^"]+)"', page)
        assert len(files) >= 5, files
        for path in [*files, f"{link}/qr.svg"]:
            statuses.append(request(port, "GET", path, source=pub, cookie=cookie)[0])
        seat = re.search(rf'{{"seat": (\d+)}}[^>]*>{name}<', page)
        status, _, _ = request(port, "POST", f"{link}/join", {"csrf": csrf, "seat": seat.group(1), "change": ""},
                               source=pub, cookie=cookie)
        statuses.append(status)
    assert statuses.count(303) == 4 and set(statuses) == {200, 303}, statuses  # every page and file, four seats


def test_a_pub_s_phones_behind_one_address_hold_their_live_boards_and_still_write(proxied):
    """A live board is a request held open: counted with the other requests of the address,
    twenty phones behind a pub's router watching their boards took every one of its 20, and an
    entry from any of them got a 429. The streams are counted apart (and capped higher)."""
    port, _ = proxied
    pub = "127.0.2.70"
    cookie, csrf = session(port, pub)
    status, headers, _ = request(port, "POST", "/new/escalero", [("csrf", csrf), ("player", "Anna"), ("player", "Ben")],
                                 source=pub, cookie=cookie)
    assert status == 303
    cookie = headers.get("set-cookie", cookie).split(";", 1)[0]  # the host's
    link = urllib.parse.urlsplit(headers["location"]).path
    streams = []
    try:
        for _ in range(30):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(pub, 0))
            sock.sendall(f"GET {link}/live?since=0 HTTP/1.1\r\nHost: scores.example\r\n\r\n".encode())
            streams.append(sock)
        assert [sock.recv(12) for sock in streams] == [b"HTTP/1.1 200"] * 30
        page = request(port, "GET", link, source=pub, cookie=cookie)[2]
        change = re.search(r'id="stamp"[^>]*data-change="(\d+)"', page).group(1)
        event = '{"type": "score", "player": "Anna", "column": 1, "row": "6", "value": 18}'
        status, _, answer = request(port, "POST", f"{link}/entries", {"csrf": csrf, "event": event, "change": change},
                                    source=pub, cookie=cookie)
        assert status == 303, answer  # written (a form without htmx goes back to the table)
        assert 'data-entries="1"' in request(port, "GET", link, source=pub, cookie=cookie)[2]
    finally:
        for sock in streams:
            sock.close()


@pytest.mark.parametrize("conf", ["nginx.conf", "nginx-nodes.conf"])
def test_the_whole_file_with_its_tls_lines_is_one_nginx_takes(conf, tmp_path):
    """The tests run the files without their TLS lines; a deployer copies them whole. `http2 on`
    stopped Debian 12's nginx (1.22) from starting."""
    if not shutil.which("openssl"):
        pytest.skip("openssl is not installed")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=scores.example",
                    "-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")],
                   check=True, capture_output=True)
    text = (ROOT / "docs" / conf).read_text()
    text = re.sub(r"/etc/letsencrypt/live/scores\.example/fullchain\.pem", str(tmp_path / "cert.pem"), text)
    text = re.sub(r"/etc/letsencrypt/live/scores\.example/privkey\.pem", str(tmp_path / "key.pem"), text)
    (tmp_path / "logs").mkdir()
    (tmp_path / "nginx.conf").write_text(text.replace("/var/log/nginx/", f"{tmp_path}/logs/"))
    checked = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"),
                              "-g", f"pid {tmp_path}/nginx.pid; error_log {tmp_path}/logs/error.log;"],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
