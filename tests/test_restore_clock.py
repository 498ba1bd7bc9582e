"""A restore never makes time go backwards for a phone (issue 25): the change ids a phone's live
stream is sent (its Last-Event-ID, the board's `data-change`) stay above any id sent before
`scorekeeper restore`, and a phone that comes back with an id above its table's change — the
restore lost entries it saw — gets the whole board at once, never silence.

The same through the production server, with a crash and a real restore: tests/reliability/test_backup.py.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time

from scorekeeper import create_app, store
from tests.support import Phone


def new_app(database) -> object:
    return create_app({"TESTING": True, "DATABASE": str(database), "SECRET_KEY": "clock",
                       "STREAM_SECONDS": 0.3, "KEEPALIVE_SECONDS": 0.1})


def score(phone, token, seen, row):
    # every write names the change its board shows (issue 23's race token; `seen` is gone)
    response = phone.post(f"/t/{token}/entries", {"change": phone.board_change(token), "event": json.dumps(
        {"type": "score", "column": 1, "row": row, "value": 0})})
    assert response.status_code == 200, response.get_data(as_text=True)


def change_of(html: str) -> int:
    return int(re.search(r'id="stamp"[^>]*data-change="(\d+)"', html).group(1))


def messages(response) -> list[tuple[int, str]]:
    """(id, data) of every message of a finished live stream."""
    found = []
    for block in response.get_data(as_text=True).split("\n\n"):
        lines = block.splitlines()
        ids = [int(line[4:]) for line in lines if line.startswith("id: ")]
        if ids:
            found.append((ids[0], "\n".join(line[6:] for line in lines if line.startswith("data: "))))
    return found


def last_changes(database) -> dict[int, int]:
    conn = sqlite3.connect(database)
    try:
        return dict(conn.execute("SELECT table_id, max(id) FROM changes WHERE table_id IS NOT NULL "
                                 "GROUP BY table_id").fetchall())
    finally:
        conn.close()


def copy(database, target) -> None:
    source, into = sqlite3.connect(database), sqlite3.connect(target)
    source.backup(into)
    into.close()
    source.close()


def test_a_restore_carries_the_clock_and_every_phone_gets_the_whole_board(tmp_path):
    database, backup = tmp_path / "scorekeeper.db", tmp_path / "backup.db"
    app = new_app(database)
    host = Phone(app)
    tokens = [host.open_table(players=("Anna", "Ben")) for _ in range(2)]
    score(host, tokens[0], 0, "1")
    copy(database, backup)  # the backup: one entry at the first table
    for seen, row in enumerate(("1", "2", "2"), 1):
        score(host, tokens[0], seen, row)
    shown = change_of(host.get(f"/t/{tokens[0]}/board").get_data(as_text=True))  # what a phone's board shows
    newest = max(last_changes(database).values())
    assert shown == newest

    store.restore(str(backup), str(database))  # no server runs on it
    restored = last_changes(database)
    assert min(restored.values()) > newest  # every table's change is newer than anything sent before

    app = new_app(database)
    phone = Phone(app)
    # the phone that saw the lost entries comes back with its id: the whole board at once,
    # as the backup has it, claiming a change above the one it showed
    stream = phone.client.get(f"/t/{tokens[0]}/live", headers={"Last-Event-ID": str(shown)})
    (sent, html), *_ = messages(stream)
    assert sent == restored[app_table_id(database, tokens[0])] > shown
    assert 'data-entries="1"' in html and "board-inner" in html and not re.search(r'id="stamp"[^>]*data-base', html)
    # and the next entry is newer still: its parts, from the whole board the phone now shows
    score(same_device(app, host), tokens[0], 1, "2")
    stream = phone.client.get(f"/t/{tokens[0]}/live", headers={"Last-Event-ID": str(sent)})
    (later, parts), *_ = messages(stream)
    assert later > sent and f'data-base="{sent}"' in parts


def same_device(app, device: Phone) -> Phone:
    """The device (its signed cookie) on the restarted server."""
    again = Phone(app)
    again.client.set_cookie("session", device.cookie)
    again.get("/")
    return again


def app_table_id(database, token) -> int:
    conn = sqlite3.connect(database)
    try:
        return conn.execute("SELECT id FROM tables WHERE join_token = ?", [token]).fetchone()[0]
    finally:
        conn.close()


def test_a_stream_past_its_tables_change_gets_the_whole_board_at_once(tmp_path):
    """Before, a stream whose Last-Event-ID (or `since`) was above the table's change waited,
    silent, until the table caught up with it."""
    app = new_app(tmp_path / "scorekeeper.db")
    host = Phone(app)
    token = host.open_table(players=("Anna", "Ben"))
    score(host, token, 0, "1")
    change = change_of(host.get(f"/t/{token}/board").get_data(as_text=True))
    for ahead in (headers := {"Last-Event-ID": str(change + 500)}, {}):
        url = f"/t/{token}/live" + ("" if ahead else f"?since={change + 500}")
        started = time.monotonic()
        (sent, html), *rest = messages(host.client.get(url, headers=ahead))
        assert sent == change and "board-inner" in html and 'data-entries="1"' in html and not rest
        assert time.monotonic() - started < 1
    assert headers  # both ways a phone names its change: the header and `since`


def test_a_damaged_database_is_replaced_with_a_clock_from_the_time(tmp_path):
    """When the replaced database cannot be read (what a restore is for), the clock goes on
    from the time in milliseconds: above any count of changes between two restores."""
    database, backup = tmp_path / "scorekeeper.db", tmp_path / "backup.db"
    Phone(new_app(tmp_path / "live.db")).open_table(players=("Anna", "Ben"))
    copy(tmp_path / "live.db", backup)
    database.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)  # a damaged file
    before = time.time_ns() // 1_000_000
    store.restore(str(backup), str(database))
    assert min(last_changes(database).values()) > before
    assert store.last_change_ever(str(tmp_path / "none.db")) == 0  # no database: nothing was sent


def test_restoring_where_there_is_no_database_yet(tmp_path):
    backup = tmp_path / "backup.db"
    Phone(new_app(tmp_path / "live.db")).open_table(players=("Anna", "Ben"))
    copy(tmp_path / "live.db", backup)
    newest = max(last_changes(backup).values())
    (tmp_path / "new").mkdir()
    store.restore(str(backup), str(tmp_path / "new" / "scorekeeper.db"))
    assert list(last_changes(tmp_path / "new" / "scorekeeper.db").values()) == [newest + 2]  # the marker, then the table
