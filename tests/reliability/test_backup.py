"""Backups: `scorekeeper backup FILE` copies a live database consistently, and the copy restores.

Three tables take entries through the production server while `scorekeeper backup` runs
beside it, as a separate process, several times. Every copy passes SQLite's integrity check,
every game in it folds through its rules, it holds every entry acknowledged before the backup
started, and each table's entries in it are exactly the first entries of the live table (a
snapshot, never a mixture). The last copy, restored into a fresh instance folder, serves the same
tables: the same rows, the same game logs, the same boards.
"""

from __future__ import annotations

import json
import re
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
import uuid

import pytest

SECTION = "backup"
TABLES = ("tables", "seats", "games", "events", "drafts", "changes")


def run_backup(instance, target) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scorekeeper", "backup", str(target)],
                          env={**os.environ, "SCOREKEEPER_INSTANCE": str(instance)},
                          capture_output=True, text=True, timeout=60)


def entry_keys(database, token) -> list[str]:
    conn = sqlite3.connect(database)
    try:
        return [idem for (idem,) in conn.execute(
            "SELECT e.idem FROM events e JOIN games g ON g.id = e.game_id JOIN tables t ON t.id = g.table_id "
            "WHERE t.join_token = ? ORDER BY e.id", [token])]
    finally:
        conn.close()


def rows(database) -> dict[str, list]:
    conn = sqlite3.connect(database)
    try:
        return {name: conn.execute(f"SELECT * FROM {name} ORDER BY rowid").fetchall() for name in TABLES}
    finally:
        conn.close()


class Writer(threading.Thread):
    """The host keeps score for one Jaques le Kaques table: a quick total per turn, acknowledged ones kept."""

    def __init__(self, kit, server) -> None:
        super().__init__(daemon=True)
        self.host = kit.WebPhone(server.url)
        opened = self.host.open_table("kaques", ["Anna", "Ben"])
        self.token, self.board = opened["token"], opened["board"]
        self.acked: list[str] = []
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.error = None

    def run(self) -> None:
        deadline = time.monotonic() + 60
        try:
            while not self.stop.is_set() and time.monotonic() < deadline:
                idem = uuid.uuid4().hex
                reply = self.host.enter(self.token, {"type": "turn", "points": 50}, idem=idem)
                assert reply.status == 200, reply.message
                with self.lock:
                    self.acked.append(idem)
        except BaseException as error:  # reported by the test
            self.error = error

    def acknowledged(self) -> list[str]:
        with self.lock:
            return list(self.acked)


def test_backup_of_a_live_database_is_consistent_and_restores(kit, tmp_path, figures):
    server = kit.Server(tmp_path / "live", workers=2)
    writers = [Writer(kit, server) for _ in range(3)]
    copies = 0
    snapshots = []  # (writer, the entry keys a copy held)
    try:
        for writer in writers:
            writer.start()
        target = tmp_path / "backups" / "scorekeeper-backup.db"
        target.parent.mkdir()
        for _ in range(4):
            time.sleep(0.4)
            before = {w.token: w.acknowledged() for w in writers}
            done = run_backup(server.instance, target)
            assert done.returncode == 0 and done.stdout.strip() == f"Backed up to {target}", done.stderr
            copies += 1
            counts = kit.check_database(target)  # integrity, foreign keys, every game folds
            assert not (tmp_path / "backups" / "scorekeeper-backup.db-wal").exists()  # one self-contained file
            for writer in writers:
                copied = [key.split(":", 1)[1] for key in entry_keys(target, writer.token)]
                acked = before[writer.token]
                assert copied[:len(acked)] == acked, "an entry acknowledged before the backup is missing"
                snapshots.append((writer, copied))
                figures.add(SECTION, "entries_in_copies", len(copied))
            assert counts["tables"] == 3
        for writer in writers:
            writer.stop.set()
        for writer in writers:
            writer.join(30)
            assert writer.error is None, writer.error
        # the live tables hold exactly what was acknowledged, and every copy held a beginning of it
        for writer in writers:
            live = [key.split(":", 1)[1] for key in entry_keys(server.database, writer.token)]
            assert live == writer.acknowledged()
        for writer, copied in snapshots:
            assert copied == writer.acknowledged()[:len(copied)], "a copy is not a snapshot of the live table"
        final = tmp_path / "backups" / "final.db"
        assert run_backup(server.instance, final).returncode == 0
        copies += 1
        reader = kit.WebPhone(server.url)
        original = {w.token: (reader.get(f"/t/{w.token}/games/1/log.json", fetch=False).text,
                              reader.get(f"/b/{w.board}/board").text) for w in writers}
    finally:
        for writer in writers:
            writer.stop.set()
        server.stop()
    assert rows(final) == rows(server.database)  # a copy taken at rest is the database, row for row
    # restore: the copy becomes the database of a new instance folder, and a server serves it
    restored_instance = tmp_path / "restored"
    restored_instance.mkdir()
    shutil.copy(final, restored_instance / "scorekeeper.db")
    shutil.copy(server.instance / "secret_key", restored_instance / "secret_key")
    restored = kit.Server(restored_instance, workers=1)
    try:
        reader = kit.WebPhone(restored.url)
        for writer in writers:
            log, board = original[writer.token]
            assert json.loads(reader.get(f"/t/{writer.token}/games/1/log.json", fetch=False).text) == json.loads(log)
            assert reader.get(f"/b/{writer.board}/board").text == board
            figures.add(SECTION, "tables_restored")
    finally:
        restored.stop()
    figures.add(SECTION, "backups_taken_while_writing", copies - 1)
    figures.add(SECTION, "entries_restored", sum(len(w.acknowledged()) for w in writers))


def test_backup_refuses_in_one_line_and_never_leaves_half_a_file(tmp_path, figures):
    instance = tmp_path / "instance"
    log = os.path.join(os.path.dirname(__file__), "..", "logs", "escalero", "sweep.json")
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(instance)}
    assert subprocess.run([sys.executable, "-m", "scorekeeper", "import", log], env=env,
                          capture_output=True, timeout=60).returncode == 0
    for target, says in ((tmp_path / "no" / "such" / "dir.db", "cannot write"),
                         (instance / "scorekeeper.db", "is the live database itself")):
        done = run_backup(instance, target)
        assert done.returncode == 2 and done.stdout == "", done
        assert len(done.stderr.splitlines()) == 1 and says in done.stderr and "Traceback" not in done.stderr
        figures.add(SECTION, "bad_targets_refused")
    # an older file in the way (here: not even a database) is replaced by a whole copy
    existing = tmp_path / "old.db"
    existing.write_text("yesterday's notes")
    done = run_backup(instance, existing)
    assert done.returncode == 0, done.stderr
    copy = sqlite3.connect(existing)
    assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert copy.execute("SELECT count(*) FROM events").fetchone()[0] == 60
    copy.close()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".backup-")] == []  # no temporary left


def run_restore(instance, backup) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scorekeeper", "restore", str(backup)],
                          env={**os.environ, "SCOREKEEPER_INSTANCE": str(instance)},
                          capture_output=True, text=True, timeout=60)


def test_restore_after_a_crash_gives_back_exactly_the_backup(kit, tmp_path, figures):
    """Backup, more writes, `kill -9` (a -wal full of newer pages stays beside the database),
    restore: SQLite used to replay that stale -wal into the restored file (a malformed
    database, 500s). `scorekeeper restore` refuses while the server runs, removes the stale
    -wal and -shm, and the server starts on exactly the backup."""
    server = kit.Server(tmp_path / "live", workers=2)
    writer = Writer(kit, server)
    backup = tmp_path / "backup.db"
    try:
        writer.start()
        time.sleep(0.5)
        assert run_backup(server.instance, backup).returncode == 0
        refused = run_restore(server.instance, backup)  # the server runs: refused, nothing touched
        assert refused.returncode == 2 and "stop it first" in refused.stderr
        time.sleep(0.5)  # more entries after the backup ...
        writer.stop.set()
        writer.join(30)
        assert writer.error is None, writer.error
    finally:
        writer.stop.set()
        server.kill()  # ... and a power cut
    assert (server.instance / "scorekeeper.db-wal").exists()
    assert len(entry_keys(backup, writer.token)) < len(writer.acknowledged())
    done = run_restore(server.instance, backup)
    assert done.returncode == 0, done.stderr
    assert not (server.instance / "scorekeeper.db-wal").exists()
    restored, copied = rows(server.database), rows(backup)
    # exactly the backup, and one change a table (and a marker) newer than any before the crash
    added = restored["changes"][len(copied["changes"]):]
    assert {**restored, "changes": restored["changes"][:len(copied["changes"])]} == copied
    assert [row[1] for row in added] == [None] + [table_id for table_id, *_ in copied["tables"]]
    assert sqlite3.connect(server.database).execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    restarted = kit.Server(server.instance, workers=1)
    try:
        reader = kit.WebPhone(restarted.url)
        assert reader.get(f"/b/{writer.board}/board").status == 200
        assert reader.get("/players").status == 200
        assert not restarted.server_errors()
    finally:
        restarted.stop()
    figures.add(SECTION, "restores_after_a_crash")
    bad = tmp_path / "not-a-database.db"
    bad.write_text("hello")
    refused = run_restore(server.instance, bad)
    assert refused.returncode == 2 and "not a whole Scorekeeper database" in refused.stderr


def first_message(url: str, path: str, headers: dict, timeout: float = 10) -> tuple[int, str, float]:
    """The first message of a live stream over HTTP: (its id, its data, seconds it took)."""
    import http.client

    host, port = url.removeprefix("http://").split(":")
    started = time.monotonic()
    conn = http.client.HTTPConnection(host, int(port), timeout=timeout)
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        assert response.status == 200, response.status
        sent, data = None, []
        while True:
            line = response.readline().decode()
            assert line, "the stream ended without a message"
            line = line.rstrip("\n")
            if line.startswith("id: "):
                sent = int(line[4:])
            elif line.startswith("data: "):
                data.append(line[6:])
            elif not line and sent is not None:
                return sent, "\n".join(data), time.monotonic() - started
    finally:
        conn.close()


@pytest.mark.alone
def test_a_restore_never_takes_a_phones_clock_back(kit, tmp_path, figures):
    """Issue 25: after `scorekeeper restore` the newest change id went back (5902 → 5355): a phone
    whose live stream reconnected with `Last-Event-ID: 5902` got no message, even after new
    entries, and its page drops any board older than the one it shows. Now every table's change
    after a restore is above any id sent before it; the phone that saw the entries the backup
    lacks gets the whole board at once, as restored, and every later change is newer still."""
    server = kit.Server(tmp_path / "live", workers=2)
    try:
        host = kit.WebPhone(server.url)
        tables = [host.open_table("kaques", ["Anna", "Ben"]) for _ in range(2)]
        for table in tables:
            assert host.enter(table["token"], {"type": "turn", "points": 50}).status == 200
        backup = tmp_path / "backup.db"
        assert run_backup(server.instance, backup).returncode == 0
        for _ in range(5):  # entries the backup will not have
            assert host.enter(tables[0]["token"], {"type": "turn", "points": 100}).status == 200
        board = host.get(f"/t/{tables[0]['token']}/board").text
        shown = int(re.search(r'data-change="(\d+)"', board).group(1))  # what the phone's page shows
        behind = int(re.search(r'data-change="(\d+)"', host.get(f"/t/{tables[1]['token']}/board").text).group(1))
    finally:
        server.kill()  # a crash: the restore is what comes next
    done = run_restore(server.instance, backup)
    assert done.returncode == 0, done.stderr
    restarted = kit.Server(server.instance, workers=2)
    try:
        host = kit.WebPhone(restarted.url, cookie=host.cookie)  # the same phone, on the restarted server
        cookie = {"Cookie": host.cookie}
        # the phone that saw the lost entries, and one at the other table, reconnect with their ids
        for table, last_id, entries in ((tables[0], shown, 1), (tables[1], behind, 1)):
            sent, html, took = first_message(restarted.url, f"/t/{table['token']}/live",
                                             {**cookie, "Last-Event-ID": str(last_id)})
            assert sent > shown and took < 3, (sent, shown, took)
            assert "board-inner" in html and f'data-entries="{entries}"' in html and not re.search(r'id="stamp"[^>]*data-base', html)
            figures.add(SECTION, "phones_back_after_a_restore")
        # a new entry is newer than anything sent before the restore, and the stream sends it
        sent, _, _ = first_message(restarted.url, f"/t/{tables[0]['token']}/live", {**cookie, "Last-Event-ID": str(shown)})
        assert host.enter(tables[0]["token"], {"type": "turn", "points": 150}).status == 200
        later, parts, _ = first_message(restarted.url, f"/t/{tables[0]['token']}/live",
                                        {**cookie, "Last-Event-ID": str(sent)})
        assert later > sent > shown and f'data-base="{sent}"' in parts
        assert not restarted.server_errors()
    finally:
        restarted.stop()
    figures.add(SECTION, "restores_keeping_the_clock")
