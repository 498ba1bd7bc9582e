"""/healthz: 200 with a short JSON body when the worker can serve, 503 saying what is wrong."""

from __future__ import annotations

import sqlite3
import threading
import time

from scorekeeper import create_app
from scorekeeper.web import health


def test_a_healthy_server_says_so_to_any_host_without_a_cookie(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "h.db"), "SECRET_KEY": "test",
                      "ALLOWED_HOSTS": "scores.example", "NODE": "B"})
    # a load balancer asks by the node's own address, which is no allowed host
    response = app.test_client().get("/healthz", headers={"Host": "10.0.0.7:8000"})
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.get_json() == {"ok": True, "database": "writable", "migrations": "current",
                                   "live": "watching", "node": "B"}
    assert "Set-Cookie" not in response.headers and response.headers["Cache-Control"] == "no-store"
    assert app.test_client().get("/", headers={"Host": "10.0.0.7:8000"}).status_code == 400  # the app still checks
    # the probe's write is one row, however often it asks
    app.test_client().get("/healthz")
    conn = sqlite3.connect(tmp_path / "h.db")
    assert conn.execute("SELECT count(*), max(key) FROM hits WHERE kind = 'health'").fetchone() == (1, "B")


def test_a_database_that_takes_no_write_is_a_503(app, monkeypatch):
    monkeypatch.setattr(health, "LOCK_SECONDS", 0.2)
    holder = sqlite3.connect(app.config["DATABASE"], isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock (a stuck writer)
    try:
        response = app.test_client().get("/healthz")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert response.status_code == 503
    body = response.get_json()
    assert body["ok"] is False and body["database"].startswith("not writable") and "locked" in body["database"]
    assert app.test_client().get("/healthz").status_code == 200  # and well again once it is released


def test_migrations_that_are_not_this_code_s_are_a_503(app):
    conn = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = 'm007_drafts_keep_their_key'")
    response = app.test_client().get("/healthz")
    assert response.status_code == 503 and response.get_json()["migrations"] == "pending: m007_drafts_keep_their_key"
    conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
                 "VALUES ('scorekeeper', 'm007_drafts_keep_their_key', '2026'), ('scorekeeper', 'm099_from_the_future', '2026')")
    response = app.test_client().get("/healthz")
    assert response.status_code == 503 and response.get_json()["migrations"] == "newer than this code: m099_from_the_future"


def test_a_live_watcher_that_cannot_run_is_a_503(app):
    hub = app.extensions["scorekeeper.hub"]
    hub.database = "/nonexistent/folder/scorekeeper.db"  # its connection cannot open: no watcher
    response = app.test_client().get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["live"].startswith("the watcher does not start")


def test_the_watcher_it_reports_is_the_one_that_wakes_streams(app):
    hub = app.extensions["scorekeeper.hub"]
    assert hub.watching() and hub._watcher.name == "live-watcher"
    woke = threading.Event()
    threading.Thread(target=lambda: hub.wait(1, 5) and woke.set(), daemon=True).start()
    from scorekeeper import store
    db = store.connect(app.config["DATABASE"])
    with store.immediate(db):
        store.changed(db, 1)
    assert woke.wait(5)  # the watcher saw the change in the database and woke the stream


def test_a_watcher_that_stopped_looking_is_a_503(app, monkeypatch):
    """Alive is not enough: a watcher stuck (its connection held by a query that never ends)
    wakes no stream; it must have read the changes within 2 s."""
    hub = app.extensions["scorekeeper.hub"]
    assert app.test_client().get("/healthz").status_code == 200
    hub._db_lock.acquire()  # what a stuck query would hold
    try:
        time.sleep(0.4)
        monkeypatch.setattr(hub, "watching", lambda within=0.3: type(hub).watching(hub, within))
        response = app.test_client().get("/healthz")
    finally:
        hub._db_lock.release()
    assert response.status_code == 503 and response.get_json()["live"] == "the watcher has not read the changes for 2 s"


def test_a_stream_asks_a_watcher_that_looked_just_now_nothing_and_starts_a_dead_one_again(app):
    """Every stream makes sure of the watcher at each wait: one that read the changes within
    the last second runs, and is not asked (asking takes its lock: issue 25, 400 streams on a
    table asked at every change); one that died is started again."""
    from scorekeeper.live import Hub

    hub = Hub(app.config["DATABASE"], interval=60)  # its watcher looks only when the test says it did
    hub.wait(1, 0.01)
    running, asked = hub._watcher, []

    class Asked:
        def is_alive(self):
            asked.append(1)
            return running.is_alive()

    hub._watcher, hub.looked = Asked(), time.monotonic()
    hub.wait(1, 0.01)
    assert asked == []
    dead = threading.Thread(target=lambda: None)
    dead.start()
    dead.join()
    hub._watcher, hub.looked = dead, time.monotonic() - 1.5  # its last look before it died
    hub.wait(1, 0.01)
    assert hub._watcher is not dead and hub._watcher.is_alive() and hub._watcher.name == "live-watcher"


def test_a_full_or_read_only_disk_is_a_503_with_words_not_a_500(app, monkeypatch):
    """With the disk full, a phone opening a table got a 500 ("That did not work") and the log a
    traceback. SQLite rolls the write back whole; the phone is told why in words, the page still
    usable, and the log gets one line. Any other database error stays what it was."""
    from scorekeeper import service
    from tests.support import Phone

    host = Phone(app)
    token = host.open_table("escalero", players=("Anna", "Ben"))

    def full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(service, "create_table", full)
    monkeypatch.setattr(service, "submit", lambda *a, **k: (_ for _ in ()).throw(
        sqlite3.OperationalError("attempt to write a readonly database")))
    opened = host.post("/new/escalero", {"player": ["Anna", "Ben"]}, fetch=False)
    page = opened.get_data(as_text=True)
    assert opened.status_code == 503 and "its disk is full or read-only" in page and "<html" in page
    entry = host.enter(token, {"type": "score", "player": "Anna", "column": 1, "row": "F", "value": 30})
    assert entry.status_code == 503 and "Nothing was changed" in entry.get_data(as_text=True)
    monkeypatch.setattr(service, "create_table", lambda *a, **k: (_ for _ in ()).throw(
        sqlite3.OperationalError("no such table: tables")))
    try:
        host.post("/new/escalero", {"player": ["Anna", "Ben"]}, fetch=False)
    except sqlite3.OperationalError:
        pass  # a test app lets the error through where a server answers 500
    else:
        raise AssertionError("another database error was taken for a full disk")


def test_a_stranger_asking_again_and_again_makes_one_write_a_second(app, monkeypatch):
    """The path is public, and every asking made a synced write that other tables' entries
    waited behind: a worker writes for it at most once a second, whoever asks how often."""
    client = app.test_client()
    conn = sqlite3.connect(app.config["DATABASE"])
    written = lambda: conn.execute("SELECT at FROM hits WHERE kind = 'health'").fetchone()[0]
    assert client.get("/healthz").status_code == 200
    first = written()
    for _ in range(50):
        assert client.get("/healthz").get_json()["database"] == "writable"
    assert written() == first
    monkeypatch.setattr(health, "WRITTEN_SECONDS", 0.0)  # a second later: the next asking writes
    assert client.get("/healthz").status_code == 200 and written() > first
