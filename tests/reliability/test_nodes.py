"""Two nodes behind one address: docs/nginx-nodes.conf in front of two `scorekeeper serve`, each
with its own instance folder and NODE (run only where nginx is installed). Tables opened through
the proxy land on either node; their phones join, play and get live updates through the proxy;
a code typed on either node's home page finds the table, on whichever node it lives."""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import sqlite3
import urllib.parse
import uuid

import pytest

from tests.support import NGINX, Nginx, Server, free_port, nginx_config

pytestmark = pytest.mark.skipif(not os.path.exists(NGINX), reason="nginx is not installed (Debian's nginx)")
SECTION = "nodes"
HOST = "scores.example"


@pytest.fixture(scope="module")
def nodes(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nodes")
    key = secrets.token_bytes(32)  # one secret key for every node: a phone's cookie is good on each
    servers = {}
    try:
        for node in ("A", "B"):
            instance = folder / f"node-{node}"
            instance.mkdir()
            (instance / "secret_key").write_bytes(key)
            servers[node] = Server(instance, workers=1, env={
                "SCOREKEEPER_NODE": node, "SCOREKEEPER_TRUSTED_PROXIES": "1", "SCOREKEEPER_ALLOWED_HOSTS": HOST,
                "SCOREKEEPER_BASE_URL": f"http://{HOST}"})
        port = free_port()
        nginx = Nginx(folder, port, nginx_config("nginx-nodes.conf", port, {
            "127.0.0.1:8001": servers["A"].port, "127.0.0.1:8002": servers["B"].port}, HOST))
        try:
            yield port, servers
        finally:
            nginx.stop()
    finally:
        for server in servers.values():
            server.stop()


class Phone:
    """One phone on its own loopback address, speaking to `port` (the proxy, or a node itself)."""

    def __init__(self, port: int, source: str) -> None:
        self.port, self.source = port, source
        self.cookie = self.csrf = ""

    def request(self, method: str, path: str, body: dict | None = None, port: int | None = None,
                headers: dict | None = None) -> tuple[int, dict, str]:
        connection = http.client.HTTPConnection("127.0.0.1", port or self.port, timeout=10,
                                                source_address=(self.source, 0))
        try:
            sent = {"Host": HOST, "Cookie": self.cookie, **(headers or {})}
            data = None
            if body is not None:
                data = urllib.parse.urlencode({"csrf": self.csrf, **body}, doseq=True)
                sent["Content-Type"] = "application/x-www-form-urlencoded"
            connection.request(method, path, body=data, headers=sent)
            response = connection.getresponse()
            text = response.read().decode(errors="replace")
        finally:
            connection.close()
        got = {k.lower(): v for k, v in response.getheaders()}
        if "set-cookie" in got and got["set-cookie"].startswith("session="):
            self.cookie = got["set-cookie"].split(";", 1)[0]
        found = re.search(r'name="csrf" content="([^"]+)"', text)
        if found:
            self.csrf = found.group(1)
        return response.status, got, text

    def start(self) -> None:
        self.request("GET", "/")

    def change(self, token: str) -> str:
        return re.search(r'data-change="(\d+)"', self.request("GET", f"/t/{token}/board",
                                                               headers={"HX-Request": "true"})[2]).group(1)


def open_tables(port: int) -> dict[str, dict]:
    """Tables opened through the proxy by phones of several addresses, until each node has one."""
    tables = {}
    for last in range(2, 60):
        host = Phone(port, f"127.0.0.{last}")
        host.start()
        status, headers, _ = host.request("POST", "/new/kaques", {"player": ["Anna", "Ben"]})
        assert status == 303, status
        token = headers["location"].rsplit("/", 1)[-1]
        node = token.split(".", 1)[0]
        if node not in tables:
            _, _, page = host.request("GET", f"/t/{token}")
            code = re.search(r"Code <b>([A-Z0-9]+)</b>", page).group(1)
            tables[node] = {"host": host, "token": token, "code": code}
        if len(tables) == 2:
            return tables
    pytest.fail(f"every table opened on {set(tables)}")


def test_two_nodes_serve_tables_side_by_side(nodes, figures):
    port, servers = nodes
    tables = open_tables(port)
    assert set(tables) == {"A", "B"}
    for node, table in tables.items():
        token, host = table["token"], table["host"]
        assert table["code"][0] == node and len(table["code"]) == 7
        # a guest joins through the proxy and holds the table's live stream
        guest = Phone(port, "127.0.1.1")
        guest.start()
        _, _, page = guest.request("GET", f"/t/{token}")
        seat = re.search(r'\{"seat": (\d+)\}[^>]*>Ben<', page).group(1)
        assert guest.request("POST", f"/t/{token}/join", {"seat": seat})[0] == 303
        change = guest.change(token)
        stream = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=("127.0.1.1", 0))
        try:
            stream.request("GET", f"/t/{token}/live?since={change}", headers={"Host": HOST, "Cookie": guest.cookie})
            live = stream.getresponse()
            assert live.status == 200 and "retry:" in live.read1(4096).decode()
            # the host enters through the proxy; the update reaches the guest's phone through it
            status, _, answer = host.request("POST", f"/t/{token}/entries", {
                "event": json.dumps({"type": "turn", "points": 50}), "change": host.change(token),
                "idem": uuid.uuid4().hex}, headers={"HX-Request": "true"})
            assert status == 200, answer
            update = live.read1(65536).decode()
            assert "id:" in update and "data:" in update
        finally:
            stream.close()
        # it is written on its own node's database only
        for other, server in servers.items():
            conn = sqlite3.connect(server.database)
            try:
                held = conn.execute("SELECT count(*) FROM events e JOIN games g ON g.id = e.game_id JOIN tables t "
                                    "ON t.id = g.table_id WHERE t.join_token = ?", [token]).fetchone()[0]
            finally:
                conn.close()
            assert held == (1 if other == node else 0)
        figures.add(SECTION, "tables_played")


def test_a_code_typed_on_either_node_finds_the_table(nodes, figures):
    port, servers = nodes
    tables = open_tables(port)
    for node, table in tables.items():
        for home, server in servers.items():
            phone = Phone(port, "127.0.2.1")
            phone.start()
            # typed on this node's home page (the proxy sent the phone there)
            status, headers, _ = phone.request("POST", "/join", {"code": table["code"]}, port=server.port)
            if home == node:
                assert status == 303 and headers["location"].endswith(f"/t/{table['token']}")
                continue
            assert status == 307 and headers["location"] == f"/n/{node}/join"
            # the browser sends the same POST there: the proxy routes it to the table's node
            status, headers, _ = phone.request("POST", headers["location"], {"code": table["code"]})
            assert status == 303 and headers["location"].endswith(f"/t/{table['token']}"), status
            status, _, page = phone.request("GET", urllib.parse.urlparse(headers["location"]).path)
            assert status == 200 and table["code"] in page
            figures.add(SECTION, "codes_sent_on")
