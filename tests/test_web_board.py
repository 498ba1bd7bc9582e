"""An entry's answer and a live update carry only the parts of the board an entry touched
(web/board.py): applied to the board a phone showed, they must make exactly the board the
phone would get whole — for every game, every kind of viewer, every entry of a game."""

from __future__ import annotations

import json
import re
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

from scorekeeper import service, store
from scorekeeper.games import GAMES
from tests.games import SUPPORT
from tests.support import writes

LOGS = Path(__file__).parent / "logs"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Elements(HTMLParser):
    """Every element of a piece of HTML: its tag, attributes and where it starts, where its
    start tag ends and where it ends."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=False)
        self.lines = [0]
        for line in html.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.open: list[dict] = []
        self.found: list[dict] = []
        self.feed(html)
        self.close()

    def position(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag, attrs):
        start = self.position()
        element = {"tag": tag, "attrs": dict(attrs), "start": start,
                   "inside": start + len(self.get_starttag_text()), "depth": len(self.open)}
        self.found.append(element)
        if tag in VOID:
            element["end"] = element["inside"]
        else:
            self.open.append(element)

    def handle_endtag(self, tag):
        end = self.position() + len(f"</{tag}>")
        while self.open:
            element = self.open.pop()
            element["end"] = end
            if element["tag"] == tag:
                break

    def by_id(self, id_: str) -> dict:
        found = [element for element in self.found if element["attrs"].get("id") == id_]
        assert len(found) == 1, f"#{id_} is on the board {len(found)} times"
        return found[0]


def apply(board: str, message: str) -> str:
    """A message of parts applied to a whole board, as htmx swaps its <hx-partial>s, one after
    another. The board is parsed again only when a part needs what an earlier part changed
    (parsing is most of this test's time)."""
    elements, edits = Elements(board), []  # edits: (start, end, text) on the board as parsed

    def touched(start: int, end: int) -> bool:
        return any(start < e and s < end or (start == end or s == e) and max(s, start) <= min(e, end)
                   for s, e, _ in edits)

    def edited(edits) -> str:
        done = board
        for start, end, text in sorted(edits, reverse=True):
            done = done[:start] + text + done[end:]
        return done

    for element in Elements(message).found:
        if element["depth"]:
            continue
        assert element["tag"] == "hx-partial", f"{element['tag']} outside a partial"
        if element["attrs"]["id"] == "said":  # a screen reader's words, beside the board (table.html)
            continue
        # the page's default (base.html); the words after the first scroll, and change nothing
        how = element["attrs"].get("hx-swap", "outerHTML").split()[0]
        while True:
            inner = message[element["inside"]:element["end"] - len("</hx-partial>")]
            ids = [element["attrs"]["id"]] + re.findall(r'<div id="([^"]+)" hx-preserve></div>', inner)
            found = [[e for e in elements.found if e["attrs"].get("id") == id_] for id_ in ids]
            if edits and (any(len(each) != 1 or touched(each[0]["start"], each[0]["end"]) for each in found)):
                board = edited(edits)  # the earlier parts first
                elements, edits = Elements(board), []
                continue
            break
        target = elements.by_id(ids[0])
        # hx-preserve: an element the board has already stays as it is (the dice pad's faces)
        for kept in re.finditer(r'<div id="([^"]+)" hx-preserve></div>', inner):
            old = elements.by_id(kept.group(1))
            inner = inner.replace(kept.group(0), board[old["start"]:old["end"]])
        if how == "innerHTML":
            edits.append((target["inside"], target["end"] - len(f"</{target['tag']}>"), inner))
        elif how == "outerHTML":
            edits.append((target["start"], target["end"], inner))
        elif how == "delete":
            edits.append((target["start"], target["end"], ""))
        elif how == "beforeend":
            end = target["end"] - len(f"</{target['tag']}>")
            edits.append((end, end, inner))
        else:
            assert how == "afterbegin", how
            edits.append((target["inside"], target["inside"], inner))
    return edited(edits)


SHOW_SETTLEMENT = '<hx-partial id="board" hx-swap="innerHTML show:top showTarget:#settle">'
TO_THE_TOP = '<hx-partial id="board" hx-swap="innerHTML scroll:top scrollTarget:window">'


def replaced(message: str) -> list[str]:
    return re.findall(r'<hx-partial id="([^"]+)">', message)


def answered(response) -> str:
    """A write's answer: the board's parts as a live update carries them (a refusal shown
    before is cleared by the page itself, static/app.js)."""
    html = response.get_data(as_text=True)
    assert 'id="message"' not in html, html[:200]
    return html


def same(html: str) -> str:
    html = re.sub(r' data-base="\d+"', "", html)
    # a button's idempotency key starts with the change its part was rendered at (writes.idem_key):
    # a part an entry did not touch keeps the key of the board it came with
    html = re.sub(r'("idem": ")\d+-', r"\1-", html)
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", html)).strip()


def board(phone, token, since=None):
    url = f"/t/{token}/board" + (f"?since={since}" if since is not None else "")
    return phone.get(url, headers={"HX-Request": "true"}).get_data(as_text=True)


def change_of(html: str) -> int:
    return int(re.search(r'id="stamp"[^>]*data-change="(\d+)"', html).group(1))


def entries_of(html: str) -> int:
    return int(re.search(r'id="stamp"[^>]*data-entries="(\d+)"', html).group(1))


def parts_make_the_board(token: str, viewers: dict, boards: dict, response, writer: str) -> None:
    """A write that every phone in `viewers` (name: phone, each showing `boards[name]`) gets as
    parts — the `writer`'s answer, the others' live update —, each making exactly the board
    the phone would get whole (`boards` then holds those) — but the writer's tray, which its
    answer makes with what it tapped (its own form's fields: the pad it had open)."""
    assert response.status_code == 200, response.get_data(as_text=True)
    for name, viewer in viewers.items():
        message = answered(response) if name == writer else board(viewer, token, change_of(boards[name]))
        whole = board(viewer, token)
        assert 'data-base="' in message and "board-inner" not in message, (name, message[:300])
        made = apply(boards[name], message)
        if name == writer:
            assert same(TRAY.sub("", made)) == same(TRAY.sub("", whole)), name
        else:
            assert same(made) == same(whole), name
        boards[name] = whole


TRAY = re.compile(r'<form id="tray".*?</form>', re.S)


# a log of every registered game (tests/games/<game>.py), played entry by entry
LOGS_PLAYED = [f"{game}/{SUPPORT[game].BOARD_LOG}" for game in GAMES]


@pytest.mark.parametrize("log", LOGS_PLAYED)
def test_a_finished_game_s_board_says_nobody_is_on_turn(phone, log):
    """The game over, a hidden turn line still said "None's turn" on a seated phone, "Your
    turn!" or "Your turn (None)!" on the host's: words a page reader or a search finds."""
    doc = json.loads((LOGS / f"{log}.json").read_text())
    host = phone()
    imported = host.post("/import", {"text": json.dumps(doc)}, fetch=False)
    token = imported.headers["Location"].rstrip("/").split("/")[-2]
    seat = phone()
    seat.join(token, doc["players"][0])
    for viewer in (host, seat):
        words = re.sub(r"<[^>]+>", " ", board(viewer, token))
        assert "settle" in board(viewer, token) and not re.search(r"\bNone\b|turn!|'s turn", words), words


@pytest.mark.parametrize("log", LOGS_PLAYED)
def test_the_parts_of_every_entry_make_the_whole_board(phone, app, log):
    """Every entry, and the undo of a game's first, middle and last entry (issue 25: every undo
    was a whole board for every phone), goes as parts that, applied to the board a phone had,
    make exactly the board it would get whole — for the host, a seat and strangers; also to
    phones that catch up on an entry and its undo at once, on an undo and the entry made
    instead, or on all three (a table's streams get a message at most every 250 ms). The seat
    writes every other entry where it may: its rows carry its own Undo and Correct buttons,
    which the game's end takes away (only the host changes a finished game)."""
    doc = json.loads((LOGS / f"{log}.json").read_text())
    host = phone()
    token = host.open_table(doc["game"], players=doc["players"], **doc["rules"])
    seat = phone()
    seat.join(token, doc["players"][1])
    viewers = {"host": host, "seat": seat, "stranger": phone(), "entry and undo": phone(),
               "undo and entry": phone(), "all three": phone()}
    boards = {name: board(viewer, token) for name, viewer in viewers.items()}
    wholes, shown = [], []

    def check(response, what, *skipped, writer="host") -> None:
        assert response.status_code == 200, response.get_data(as_text=True)
        for name, viewer in viewers.items():
            if name in skipped:
                continue
            message = answered(response) if name == writer else board(viewer, token, change_of(boards[name]))
            whole = board(viewer, token)
            if "show:top" in message:  # the settlement scrolled into view
                shown.append((name, what))
                assert 'hx-swap="outerHTML show:top">' in message or SHOW_SETTLEMENT in message
                message = message.replace(" show:top showTarget:#settle", "")
            if 'data-base="' in message:
                assert "board-inner" not in message
                assert same(apply(boards[name], message)) == same(whole), (name, what)
            else:
                wholes.append((name, what))
                # the end, as a whole board: a screen reader is told who won beside it (#said)
                message, said = re.subn(r'<hx-partial id="said" hx-swap="innerHTML">[^<]+</hx-partial>$', "", message)
                assert said == ((name, what) in shown and name != writer), (name, what)
                assert same(message) == same(whole)
            boards[name] = whole

    def enter(event, writer="host"):
        return viewers[writer].post(f"/t/{token}/entries", {"event": json.dumps(event),
                                                            "change": str(change_of(boards[writer]))})

    def enter_by_turns(number, event, *skipped):
        """Every other entry from the seat, where the game lets it write this one."""
        if number % 2:
            response = enter(event, "seat")
            if response.status_code == 200:
                return check(response, event, *skipped, writer="seat")
            assert response.status_code == 403, response.get_data(as_text=True)
        check(enter(event), event, *skipped)

    db = store.connect(app.config["DATABASE"], app.extensions["scorekeeper.folds"])
    table = service.by_join_token(db, token)
    taken_back = {0, len(doc["events"]) // 2, len(doc["events"]) - 1}
    for number, event in enumerate(doc["events"]):
        event = {k: v for k, v in event.items() if k not in ("at", "by")}
        if number not in taken_back:
            enter_by_turns(number, event)
            continue
        enter_by_turns(number, event, "entry and undo", "all three")
        target = service.load(db, service.current_game(db, table["id"])).entries[-1][0].id
        check(host.post(f"/t/{token}/undo", {"target": target, "change": str(change_of(boards["host"]))}),
              ("undo", event), "undo and entry", "all three")
        check(enter(event), ("again", event))
    # every entry and undo goes as parts, to every viewer: the first entry (and its undo) with
    # the host's seat list and the join form of the host and of a phone without a seat, the
    # last (and its undo) with the settlement (issue 25) — but to the seat, whose own entries
    # the end makes the host's alone to change: the whole board, at the end and its undo
    assert wholes == [("seat", event), ("seat", ("undo", event)), ("seat", ("again", event))]
    # the game's end, and nothing else, brings the settlement into view on every phone (a pad of
    # 15 rows left it under the fold): each that sees the end, the writer's answer too
    assert shown == [(name, event) for name in viewers if name not in ("entry and undo", "all three")] + [
        (name, ("again", event)) for name in viewers]
    # a board of the game over sent again for anything else (the host's new seats wait for a
    # yes, before the rematch) leaves every phone where it is
    assert host.post(f"/t/{token}/settings", {"approve_seats": "on"}).status_code == 200
    assert not [name for name, viewer in viewers.items() if "show:" in board(viewer, token, change_of(boards[name]))]
    # the rematch takes every phone to the top of the new game, its pad and tray (a host's page,
    # long with the seat list and QR code, stayed at the settlement, the new tray out of sight)
    boards = {name: board(viewer, token) for name, viewer in viewers.items()}
    rematch = host.post(f"/t/{token}/rematch", {"change": str(change_of(boards["host"]))})
    assert rematch.status_code == 200 and TO_THE_TOP in answered(rematch)
    assert all(TO_THE_TOP in board(viewer, token, change_of(boards[name])) for name, viewer in viewers.items())


def test_an_escalero_entry_sends_its_cell_the_totals_and_the_turn(phone):
    host = phone()
    token = host.open_table(players=("Anna", "Ben", "Cleo", "Dora"), stake="0.10")
    ben = phone()
    ben.join(token, "Ben")
    for column, row, value in ((1, "1", 3), (1, "1", 2)):
        html = board(host, token)
        response = host.post(f"/t/{token}/entries", {
            "event": json.dumps({"type": "score", "column": column, "row": row, "value": value}),
            "change": str(change_of(html))})
    message = answered(response)
    # the turn line is in the tray; the points stand as they were (Anna still leads column 1)
    assert replaced(message) == ["stamp", "tray", "c1-1-1", "t1-1"]
    assert 'undo-1' not in message  # the last entry's Undo is in the tray, not on its row
    assert '<hx-partial id="history-rows" hx-swap="afterbegin"><li id="h2"' in message
    assert f'data-base="{change_of(html)}"' in message
    assert 'data-on="2"' in message and 'data-w="2"' in message  # Cleo throws, the host writes for her
    # Ben's turn ended: his phone gets its dice closed (the tray, swapped whole), and only what changed
    update = board(ben, token, change_of(html))
    assert replaced(update) == ["stamp", "tray", "c1-1-1", "t1-1"]
    assert "#undo-" not in update  # Ben had no Undo of the host's entry
    assert "dice-pad" not in update and 'data-w=""' in update


def test_a_phone_too_far_behind_gets_the_whole_board_and_an_undo_its_parts(phone):
    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    first = board(host, token)
    for i in range(20):
        html = board(host, token)
        state = json.dumps({"type": "score", "column": 1 + i % 3, "row": "1234"[i // 6],
                            "value": 0})
        assert host.post(f"/t/{token}/entries", {"event": state, "change": str(change_of(html))}).status_code == 200
    assert "board-inner" in board(host, token, change_of(first))  # 20 changes behind
    assert "board-inner" not in board(host, token, change_of(html))
    last = writes(board(host, token), "/undo")[0]["vals"]["target"]
    html = board(host, token)
    undo = host.post(f"/t/{token}/undo", {"target": last, "change": str(change_of(html))})
    message = answered(undo)
    # Ben's cell open again (a cross: no sum moved), the undo's row, the entry's row struck through (issue 25)
    assert "board-inner" not in message and f'data-base="{change_of(html)}"' in message
    assert 'id="c1-2-4"' in message
    assert "undid entry" in message
    assert f'id="h{last}" class="entry undone"' in message
    assert same(apply(html, message)) == same(board(host, token))
    # a write that does not say which board it was made on is refused (service.stale_refusal)
    refused = host.post(f"/t/{token}/entries", {"event": json.dumps({"type": "score", "column": 3, "row": "4",
                                                                      "value": 0})})
    assert refused.status_code == 400 and "board-inner" not in refused.get_data(as_text=True)
    assert entries_of(board(host, token)) == entries_of(html) - 1  # the undo, and nothing added


def test_a_live_stream_is_one_gzip_stream_of_messages_made_once(phone):
    """Chromium asks for gzip: the stream is compressed as sent, each message deflated alone
    (the same bytes for every phone) and the whole a valid gzip stream when it ends."""
    import gzip
    import zlib

    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    html = board(host, token)
    host.post(f"/t/{token}/entries", {"event": json.dumps({"type": "score", "column": 1, "row": "1", "value": 3}),
                                      "change": str(change_of(html))})
    html = board(host, token)
    host.post(f"/t/{token}/entries", {"event": json.dumps({"type": "score", "column": 1, "row": "1", "value": 2}),
                                      "change": str(change_of(html))})
    response = host.client.get(f"/t/{token}/live", headers={"Accept-Encoding": "gzip", "HX-Request": "true",
                                                             "Last-Event-ID": str(change_of(html))})
    assert response.headers["Content-Encoding"] == "gzip"
    packed = response.get_data()
    text = gzip.decompress(packed).decode()  # whole, with its trailer: the stream ended
    assert text.startswith("retry: 1000\n\n") and 'data-base="' in text and "board-inner" not in text
    # decoded as it arrives: the message is readable before the stream ends
    assert "data-base" in zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(packed[:-10]).decode()
    plain = host.client.get(f"/t/{token}/live", headers={"Last-Event-ID": str(change_of(html))})
    quiet = lambda stream: stream.replace("event: alive\ndata:\n\n", "")  # keep-alives come with time
    assert "Content-Encoding" not in plain.headers and quiet(plain.get_data(as_text=True)) == quiet(text)


def test_parts_never_claim_a_change_older_than_the_state_they_show(phone, app):
    """Another process may write between the change a message names and the fold it renders:
    such parts would add that entry's history row twice; the whole board is sent instead."""
    from flask import g

    from scorekeeper.web import board as boards

    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    changes = []
    for seen, value in enumerate((3, 2, 1, 4)):
        changes.append(change_of(board(host, token)))
        assert host.post(f"/t/{token}/entries", {"event": json.dumps({"type": "score", "column": 1 + seen // 2,
                                                                       "row": "1", "value": value}),
                                                  "change": str(changes[-1])}).status_code == 200
    last = change_of(board(host, token))
    with app.test_request_context(f"/t/{token}/board"):
        app.preprocess_request()
        assert boards.parts(g.ctx, changes[-1], last) is not None  # the newest entry: its parts
        assert boards.parts(g.ctx.again(g.ctx.db), changes[-2], changes[-1]) is None  # the state is past it


# --- what one table's changes cost its streams (issue 25) ---------------------------------------


def first_message(phone, url: str, headers: dict) -> tuple[int, str, float]:
    """A live stream's first message (its id, its data, the seconds it took), the stream then
    closed as a phone that goes away closes it."""
    import time
    import zlib

    started = time.monotonic()
    response = phone.client.get(url, headers=headers, buffered=False)
    unzip = zlib.decompressobj(16 + zlib.MAX_WBITS) if response.headers.get("Content-Encoding") == "gzip" else None
    text = ""
    try:
        for chunk in response.response:
            text += unzip.decompress(chunk).decode() if unzip else chunk.decode()
            found = re.search(r"id: (\d+)\n((?:data: .*\n)+)\n", text)
            if found:
                took = time.monotonic() - started
                return int(found.group(1)), "".join(line[6:] for line in found.group(2).splitlines(True)), took
    finally:
        response.close()
    raise AssertionError(f"no message: {text[:200]}")


def undone(host, token) -> int:
    """Undo the table's last entry; the change after it."""
    last = writes(board(host, token), "/undo")[0]["vals"]["target"]
    response = host.post(f"/t/{token}/undo", {"target": last, "change": str(change_of(board(host, token)))})
    return change_of(answered(response))


def test_many_streams_of_one_kind_get_one_render_and_one_deflate(phone, app, monkeypatch):
    """Every undo sent the whole board to every stream of the table, deflated for each (issue
    25): a message is rendered and deflated once for every stream of one kind — here the whole
    board of streams that show nothing yet (an undo now sends its parts)."""
    from scorekeeper import live
    from scorekeeper.web import board as boards

    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    for row in ("1", "2"):
        assert host.enter(token, {"type": "score", "column": 1, "row": row, "value": 0}).status_code == 200
    change = undone(host, token)
    renders, deflates = [], []
    real_whole, real_deflate = boards.whole, live.deflate
    monkeypatch.setattr(boards, "whole", lambda *args, **kwargs: renders.append(1) or real_whole(*args, **kwargs))
    monkeypatch.setattr(live, "deflate", lambda data: deflates.append(len(data)) or real_deflate(data))
    strangers = [phone() for _ in range(6)]  # one kind of viewer: not seated
    sent = {first_message(stranger, f"/t/{token}/live", {"Accept-Encoding": "gzip"})[:2] for stranger in strangers}
    assert len(sent) == 1 and next(iter(sent))[0] == change and "board-inner" in next(iter(sent))[1]
    assert len(renders) == 1 and len(deflates) == 1


@pytest.mark.alone
def test_a_table_s_streams_get_a_message_at_most_every_so_often(phone, app):
    """A table's streams get a message at most every Hub.send_every: a change sooner waits,
    and the changes meanwhile come with it (an attacker's host undid a cell 8 times a second,
    every undo then a whole board); a table that changes less often never waits."""
    hub = app.extensions["scorekeeper.hub"]
    hub.send_every = 0.6
    host, watcher = phone(), phone()
    token = host.open_table(players=("Anna", "Ben"))
    for row in ("1", "2", "3"):
        assert host.enter(token, {"type": "score", "column": 1, "row": row, "value": 0}).status_code == 200
    before = change_of(board(host, token))
    first = undone(host, token)
    assert first_message(watcher, f"/t/{token}/live", {"Last-Event-ID": str(before)})[0] == first  # at once
    later = undone(host, token)  # another, at once after the first
    assert host.enter(token, {"type": "score", "column": 1, "row": "6", "value": 0}).status_code == 200
    newest = change_of(board(host, token))
    sent, html, took = first_message(watcher, f"/t/{token}/live", {"Last-Event-ID": str(first)})
    assert sent == newest > later and 'data-base="' in html and 0.3 < took < 0.9  # the undo and the entry, together
    time.sleep(0.6)
    entry = change_of(answered(host.post(f"/t/{token}/entries", {
        "event": json.dumps({"type": "score", "column": 1, "row": "5", "value": 0}), "change": str(newest)})))
    sent, html, took = first_message(watcher, f"/t/{token}/live", {"Last-Event-ID": str(newest)})
    assert sent == entry and "board-inner" not in html and took < 0.3  # its parts, at once


def test_the_live_watcher_reads_only_the_changes_since_its_last_look(app):
    """Every worker's watcher looks for new changes 40 times a second: it reads a range of the
    rowid, not every change the database ever kept (grouped by the (table_id, id) index it
    read them all: 23 ms a look at 200,000 changes)."""
    from scorekeeper import live, store

    db = store.connect(app.config["DATABASE"])
    plan = " ".join(row[3] for row in db.execute("EXPLAIN QUERY PLAN " + live.NEW_CHANGES, [0]).fetchall())
    assert "USING INTEGER PRIMARY KEY (rowid>?)" in plan and "INDEX" not in plan, plan
    db.conn.close()


def an_entry_to_make(phone, app, poll: bool = False):
    """A table's hub, what a phone's entry there (and its poll after) is answered, and the
    entry (and poll) to make, in a thread of the test's own."""
    anna = phone()
    token = anna.open_table(players=("Anna", "Ben"))
    change = anna.board_change(token)
    answers = {}

    def enter() -> None:
        answers["entry"] = anna.enter(token, {"type": "score", "player": "Anna", "column": 1, "row": "1", "value": 3},
                                      change=change)
        if poll:
            answers["poll"] = anna.client.get(f"/t/{token}/board?since={change}", headers={"HX-Request": "true"})

    return app.extensions["scorekeeper.hub"], answers, enter


def test_an_answer_never_waits_for_the_live_streams_connection(app, phone):
    """Issue 25: a write's answer (and a phone's poll) is read with the request's own connection,
    not the one the live streams share: behind an attacker's hundreds of streams an honest
    entry's answer waited 100–300 ms in line for that one. Here the streams' connection is held
    (as a stream rendering a whole board holds it) while a phone enters and polls."""
    import threading

    shared, answers, enter = an_entry_to_make(phone, app, poll=True)
    shared.query(lambda db: None)  # the streams' connection, opened as the first stream opens it
    with shared._db_lock:
        phone_ = threading.Thread(target=enter, daemon=True)
        phone_.start()
        phone_.join(10)
        assert not phone_.is_alive(), "the answer waited for the live streams' connection"
    assert answers["entry"].status_code == 200 and 'id="stamp"' in answers["entry"].get_data(as_text=True)
    assert answers["poll"].status_code == 200 and "<hx-partial" in answers["poll"].get_data(as_text=True)


def test_an_answer_never_waits_for_the_first_stream_starting_the_watcher(app, phone):
    """Issue 25: a worker's first live stream starts its watcher, which reads through the
    streams' shared connection, and held the hub's own lock meanwhile: every answer of the
    worker (each wakes the table's streams through the hub) waited for the stream that held the
    connection rendering a board, 150 ms at an attack's start."""
    import threading

    shared, answers, enter = an_entry_to_make(phone, app)
    shared.query(lambda db: None)
    assert shared._watcher is None
    with shared._db_lock:  # a stream renders a board with the shared connection
        stream = threading.Thread(target=shared.wait, args=(1, 0.01), daemon=True)  # the first stream
        stream.start()
        stream.join(0.2)
        assert stream.is_alive()  # starting the watcher: waiting for the connection
        phone_ = threading.Thread(target=enter, daemon=True)
        phone_.start()
        phone_.join(10)
        assert not phone_.is_alive(), "the answer waited for the watcher to start"
    stream.join(10)
    assert shared._watcher is not None and shared._watcher.is_alive()
    assert answers["entry"].status_code == 200 and 'id="stamp"' in answers["entry"].get_data(as_text=True)


def test_a_whole_board_answer_lets_other_requests_in_less_often_than_a_stream(app, phone, monkeypatch):
    """Issue 25: a phone's own answer that is a whole board (here a correction's) paces its render in
    ANSWER_SLICE slices, long enough that it ends before it: each chance for other requests
    came back 30–150 ms later under an attack. A page or a stream keeps gamelog's SLICE."""
    from scorekeeper import gamelog
    from scorekeeper.web import board

    slices = []

    class Recorded(gamelog.Pace):
        def __init__(self, slice_=None):
            slices.append(slice_)
            super().__init__(slice_)

    monkeypatch.setattr(gamelog, "Pace", Recorded)
    anna = phone()
    token = anna.open_table(players=("Anna", "Ben"))
    entered = anna.enter(token, {"type": "score", "player": "Anna", "column": 1, "row": "1", "value": 3},
                         change=anna.board_change(token)).get_data(as_text=True)
    target = re.search(r"/undo\" hx-vals='[^']*\"target\": (\d+)", entered).group(1)
    slices.clear()
    corrected = anna.write(f"/t/{token}/correct", {"target": target, "event": json.dumps({"value": 2}),
                                                   "change": str(change_of(entered))})
    assert 'hx-partial id="board"' in corrected.get_data(as_text=True)  # the whole board
    assert board.ANSWER_SLICE in slices and board.ANSWER_SLICE > gamelog.SLICE
    slices.clear()
    anna.get(f"/t/{token}")
    assert slices and board.ANSWER_SLICE not in slices


ANNAS_TURN = {"type": "turn", "player": "Anna", "throws": [{"dice": [1, 5, 2, 3, 4, 6], "keep": [1, 5]},
                                                           {"dice": [1, 1, 2, 3], "keep": [1, 1]}]}


def a_kaques_table(phone, players):
    """A Kaques table with Ben seated and Anna's turn of two throws entered: (host, ben, token)."""
    host, ben = phone(), phone()
    token = host.open_table("kaques", players=players)
    ben.join(token, "Ben")
    assert host.enter(token, ANNAS_TURN).status_code == 200
    return host, ben, token


def reopen_last_turn(app, by, token):
    """`by` taps "Undo last throw" on the game's last turn (Kaques's reopen)."""
    db = store.connect(app.config["DATABASE"], app.extensions["scorekeeper.folds"])
    try:
        table = service.by_join_token(db, token)
        entry = service.load(db, service.current_game(db, table["id"])).entries[-1][0].id
    finally:
        db.conn.close()
    return by.write(f"/t/{token}/kaques/turn", {"action": "reopen", "target": str(entry),
                                                 "change": str(change_of(board(by, token)))})


def test_an_undo_with_the_turn_put_back_as_a_draft(phone, app):
    """Kaques's reopen takes a turn back and puts it on the table again without its last throw,
    in one change: its parts (the game whole, with the draft) make the whole board."""
    host, ben, token = a_kaques_table(phone, ("Anna", "Ben"))
    shown = board(ben, token)
    reopened = reopen_last_turn(app, host, token)
    assert reopened.status_code == 200
    message = board(ben, token, change_of(shown))
    whole = board(ben, token)
    assert "Throw 2" in whole or "kq-throws" in whole
    if 'data-base="' in message:
        assert same(apply(shown, message)) == same(whole)
    else:
        assert same(message) == same(whole)


def test_a_reopen_and_the_total_entered_instead_reach_a_phone_as_parts(phone, app):
    """Kaques's reopen of a Kaque and the total typed instead (tests/browser/test_kaques.py):
    a phone that catches up on both at once, or on the total alone, gets parts that make the
    whole board."""
    host, ben, token = a_kaques_table(phone, ("Anna", "Ben", "Cleo"))
    kaque = {"type": "turn", "player": "Ben", "throws": [{"dice": [2, 2, 3, 4, 6, 6], "keep": []}]}
    assert ben.enter(token, kaque).status_code == 200
    shown = board(host, token)
    reopened = reopen_last_turn(app, ben, token)
    assert reopened.status_code == 200, reopened.get_data(as_text=True)
    middle = board(host, token)
    total = ben.write(f"/t/{token}/kaques/turn", {"action": "total", "points": "450",
                                                  "change": str(change_of(board(ben, token)))})
    assert total.status_code == 200, total.get_data(as_text=True)
    whole = board(host, token)
    assert "450" in whole
    for since, was in ((change_of(shown), shown), (change_of(middle), middle)):
        message = board(host, token, since)
        assert 'data-base="' in message, "parts, not the whole board"
        assert same(apply(was, message)) == same(whole), since


def test_a_tray_asked_for_before_an_entry_comes_without_the_old_taps(phone):
    """A tray asked for with five dice on a board that an entry has left behind since (sent
    again after a proxy's 429, or answered after the entry's own answer) put those dice back on
    the phone, which then took no more. What was tapped belonged to a turn now entered: the tray
    comes fresh. A change that is no entry (a phone sitting down) keeps the throw."""
    host = phone()
    token = host.open_table(players=("Anna", "Ben"))
    change = host.board_change(token)
    thrown = 'data-for="6,6,6,1,2"'
    assert thrown in host.tray(token, {"dice": "6,6,6,1,2", "change": change})
    phone().join(token, "Ben")
    assert host.board_change(token) > change and thrown in host.tray(token, {"dice": "6,6,6,1,2", "change": change})
    assert host.enter(token, {"type": "score", "player": "Anna", "column": 1, "row": "6", "value": 18}).status_code == 200
    late = host.tray(token, {"dice": "6,6,6,1,2", "change": change})
    assert thrown not in late and 'name="dice" value=""' in late
    assert thrown in host.tray(token, {"dice": "6,6,6,1,2", "change": host.board_change(token)})  # Ben's throw now


def test_a_writer_s_own_answer_does_not_read_its_entry_back(phone):
    """#said tells a screen reader what another phone wrote and whose turn it is now. The answer
    to a phone's own entry left alone carries none: the player chose what it wrote, and its
    focus, back on the tray its turn line names, says whose turn it is (said twice, and the
    answer went past 1 KB). A poll from the same board tells it; so does an answer bringing
    another phone's entry with it (`board.parts`: the entries of the write's own change are left out)."""
    host = phone()
    token = host.open_table("escalero", players=("Anna", "Ben"))
    anna, ben = phone(), phone()
    anna.join(token, "Anna")
    ben.join(token, "Ben")
    before = change_of(board(anna, token))
    F30 = {"type": "score", "column": 1, "row": "F", "value": 30}
    answer = anna.write(f"/t/{token}/entries", {"event": json.dumps(F30)}, headers={"HX-Request": "true"})
    text = answer.get_data(as_text=True)
    assert answer.status_code == 200 and 'id="stamp"' in text and 'id="said"' not in text
    polled = board(ben, token, since=before)
    assert re.search(r'<hx-partial id="said"[^>]*>Anna: .*?Your turn', polled)
