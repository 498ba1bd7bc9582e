"""Area 3, page weight: the bytes a phone receives (compressed as served, headers included)
for the first load of its table screen — the page, every script, style sheet and image it
names, and the live stream's opening — and for one entry's response. Also checks that
static files are compressed and cached for a year.

The baseline of the same run is the floor any htmx page of ours pays: a bare "hello" answer
plus htmx and its SSE extension, served by the same server.
"""

from __future__ import annotations

import asyncio
import html.parser
import os
import re
import shutil
import zlib

from . import answers
from .common import Connection, Instance, Server, escalero_plan, form, post_headers, summary

BROWSER = {"Accept-Encoding": "gzip, deflate, br", "Accept": "text/html,*/*"}


class Assets(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[tuple[str, str]] = []
        self.live: str | None = None

    def handle_starttag(self, tag, attrs) -> None:
        a = dict(attrs)
        if tag == "link" and a.get("href") and ("stylesheet" in (a.get("rel") or "") or "icon" in (a.get("rel") or "")):
            self.urls.append(("style" if "stylesheet" in a["rel"] else "icon", a["href"]))
        elif tag == "script" and a.get("src"):
            self.urls.append(("script", a["src"]))
        elif tag == "img" and a.get("src") and not a["src"].startswith("data:"):
            self.urls.append(("image", a["src"]))
        for key, value in a.items():
            if key.startswith("hx-sse") and value:
                self.live = value


async def first_load(port: int, token: str, phone: dict) -> dict:
    connection = await Connection(port).open()
    headers = {**BROWSER, "Cookie": phone["cookie"]}
    page = await connection.request("GET", f"/t/{token}", headers)
    parser = Assets()
    parser.feed(page.text())
    items = [{"what": "page", "url": f"/t/{token}", "wire": page.wire, "body": len(page.body),
              "encoding": page.headers.get("content-encoding", "-")}]
    static = []
    for kind, url in parser.urls:
        reply = await connection.request("GET", url, headers)
        item = {"what": kind, "url": url.split("?")[0], "wire": reply.wire, "body": len(reply.body),
                "encoding": reply.headers.get("content-encoding", "-"),
                "cache": reply.headers.get("cache-control", "-"), "status": reply.status}
        items.append(item)
        if "/static/" in url:
            static.append(item)
    if parser.live:  # the live stream's opening: what it sends before the table changes
        items.append(await stream_opening(port, parser.live, phone))
    connection.close()
    year = 365 * 24 * 3600
    return {"items": items, "total_wire": sum(i["wire"] for i in items),
            "static_all_gzip": all(i["encoding"] == "gzip" for i in static if not i["url"].endswith(".png")),
            "static_cached_a_year": all(f"max-age={year}" in i.get("cache", "") for i in static),
            "live_url": parser.live}


async def stream_opening(port: int, path: str, phone: dict, wait: float = 0.5) -> dict:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                  f"Cookie: {phone['cookie']}\r\n\r\n").encode())
    got = b""
    try:
        for _ in range(1000):
            got += await asyncio.wait_for(reader.read(65536), wait)
    except (asyncio.TimeoutError, ConnectionError):
        pass
    writer.close()
    return {"what": "live stream (first 0.5 s)", "url": path.split("?")[0], "wire": len(got),
            "body": len(got), "encoding": "-", "board_sent": b"board-inner" in got}


async def entries(port: int, token: str, host: dict, plan: list, count: int, updates: "Stream | None" = None,
                  start: int = 0) -> list:
    """The host's entries as the page posts them (with the change its board
    shows); with `updates`, also what each one costs a seated phone's live stream."""
    connection = await Connection(port).open()
    board = await connection.request("GET", f"/t/{token}/board", post_headers(host))
    change = stamp(board.text())
    out = []
    for event in plan[start:start + count]:
        reply = await connection.request("POST", f"/t/{token}/entries", post_headers(host),
                                         form({"event": event, "change": change}))
        assert reply.status == 200, reply.text()[:200]
        change = stamp(reply.text())
        made = {"wire": reply.wire, "body": len(reply.body), "encoding": reply.headers.get("content-encoding"),
                "parts": "data-base=" in reply.text()}
        if updates is not None:
            made["update"] = await updates.next_message(change)
        out.append(made)
    connection.close()
    return out


def stamp(html: str) -> str:
    found = re.search(r'id="stamp"[^>]*data-change="(\d+)"', html)
    return found.group(1) if found else ""


class Stream:
    """A seated phone's live stream as Chromium opens it (gzip), read message by message: the
    bytes on the wire (chunk framing included) that brought each one."""

    def __init__(self, port: int, path: str, phone: dict) -> None:
        self.port, self.path, self.phone = port, path, phone
        self.inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self.text = ""

    async def open(self) -> "Stream":
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write((f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                           f"Accept-Encoding: gzip, deflate, br\r\nHX-Request: true\r\n"
                           f"Cookie: {self.phone['cookie']}\r\n\r\n").encode())
        head = await self.reader.readuntil(b"\r\n\r\n")
        self.gzip = b"content-encoding: gzip" in head.lower()
        return self

    async def next_message(self, change: str, timeout: float = 5.0) -> dict:
        """Read until the message that brings the board to `change` has arrived."""
        wire = 0
        while f"id: {change}\n" not in self.text or not self.text.endswith("\n\n"):
            size_line = await asyncio.wait_for(self.reader.readuntil(b"\r\n"), timeout)
            chunk = await self.reader.readexactly(int(size_line.split(b";")[0], 16) + 2)
            wire += len(size_line) + len(chunk)
            data = self.inflate.decompress(chunk[:-2]) if self.gzip else chunk[:-2]
            self.text += data.decode()
        message = self.text[self.text.index(f"id: {change}\n"):]
        self.text = ""
        return {"wire": wire, "text": len(message), "parts": "data-base=" in message,
                "encoding": "gzip" if self.gzip else "-"}

    def close(self) -> None:
        self.writer.close()


async def baseline(port: int, page_urls: list[str]) -> dict:
    connection = await Connection(port).open()
    hello = await connection.request("GET", "/_bench/hello", BROWSER)
    total = hello.wire
    for url in page_urls:
        total += (await connection.request("GET", url, BROWSER)).wire
    connection.close()
    return {"hello_wire": hello.wire, "htmx_page_wire": total}


def run(work: str, players: int = 4, mid_game: int = 40, logs: str = "board", log=print) -> dict:
    path = os.path.join(work, "weight")
    shutil.rmtree(path, ignore_errors=True)
    instance = Instance(path)
    tables, phones = instance.seed(1, [players], seat_phones=True)
    table = tables[0]
    phone = phones[table.phones[1]]
    plan = escalero_plan(table.players)
    server = Server(path, workers=2)
    try:
        first_empty = asyncio.run(first_load(server.port, table.token, phone))
        made = asyncio.run(entries(server.port, table.token, instance.host, plan, len(plan)))
        # a rematch, then mid-game: the first load a phone joining a running game sees
        asyncio.run(_post(server.port, f"/t/{table.token}/rematch", instance.host))
        asyncio.run(entries(server.port, table.token, instance.host, plan, mid_game))
        first_mid = asyncio.run(first_load(server.port, table.token, phone))
        mid = asyncio.run(mid_game_entries(server.port, table.token, instance.host, phone, plan, mid_game))
        base = asyncio.run(baseline(server.port, [i["url"] for i in first_mid["items"] if "/vendor/" in i["url"]]))
    finally:
        server.stop()
    shutil.rmtree(path, ignore_errors=True)
    out = {
        "players": players, "mid_game_entries": mid_game,
        "first_load_new_game": first_empty, "first_load_mid_game": first_mid,
        "entry_wire": summary(m["wire"] for m in made), "entry_body": summary(m["body"] for m in made),
        # issue 18: mid-game, the host's entry answered with its parts, and the same entry's
        # live update at a seated phone (gzip as sent, framing included)
        "mid_entry_wire": summary(m["wire"] for m in mid), "mid_update_wire": summary(m["update"]["wire"] for m in mid),
        "mid_update_text": summary(m["update"]["text"] for m in mid),
        "mid_as_parts": sum(m["parts"] and m["update"]["parts"] for m in mid), "mid_entries": len(mid),
        "entry_encoding": sorted({m["encoding"] or "-" for m in made}),
        "baseline": base,
        "ratio_first_load": first_mid["total_wire"] / base["htmx_page_wire"],
        "ratio_entry_p50": summary(m["wire"] for m in made)["p50"] / base["hello_wire"],
        # every game's answers, entries and steps, through the Flask client (bench/answers.py):
        # the board log of each game, or every log of it
        "games": answers.run(work, log, logs),
    }
    log(f"  page weight: first load {first_mid['total_wire'] / 1024:.1f} KiB (mid-game) · entry p50 "
        f"{out['entry_wire']['p50']} B, max {out['entry_wire']['max']} B · mid-game entry p50 "
        f"{out['mid_entry_wire']['p50']} B, live update p50 {out['mid_update_wire']['p50']} B · htmx floor "
        f"{base['htmx_page_wire'] / 1024:.1f} KiB")
    return out


async def mid_game_entries(port: int, token: str, host: dict, phone: dict, plan: list, done: int,
                           count: int = 20) -> list:
    """The next `count` entries of a game `done` entries in, each with the live update a seated
    phone gets for it."""
    page = await (await Connection(port).open()).request("GET", f"/t/{token}", {**BROWSER, "Cookie": phone["cookie"]})
    parser = Assets()
    parser.feed(page.text())
    updates = await Stream(port, parser.live, phone).open()
    try:
        made = await entries(port, token, host, plan, count, updates, start=done)
    finally:
        updates.close()
    return made


async def _post(port: int, path: str, host: dict) -> None:
    """A write with no fields of its own (a rematch), naming the change its board shows."""
    connection = await Connection(port).open()
    board = await connection.request("GET", path.rsplit("/", 1)[0] + "/board", post_headers(host))
    reply = await connection.request("POST", path, post_headers(host), form({"change": stamp(board.text())}))
    assert reply.status == 200, reply.text()[:200]
    connection.close()
