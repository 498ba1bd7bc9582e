"""The SQLite store: tables, seats, games and each game's append-only event log.

Schema changes only through `sqlite_utils.Migrations`. Every write commits synchronously
in WAL mode, so an acknowledged entry survives `kill -9` and a power cut.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import sqlite3
import tempfile
import threading
import time
from collections import OrderedDict
from typing import Any

import sqlite_utils
from sqlite_utils import Migrations

migrations = Migrations("scorekeeper")


@migrations()
def m001_tables_seats_games_events(db: sqlite_utils.Database) -> None:
    db["tables"].create({
        "id": int, "code": str, "join_token": str, "board_token": str,
        "host_device": str, "created_at": str,
    }, pk="id", not_null={"code", "join_token", "board_token", "host_device", "created_at"})
    db["tables"].create_index(["code"], unique=True)
    db["tables"].create_index(["join_token"], unique=True)
    db["tables"].create_index(["board_token"], unique=True)
    db["seats"].create({
        "id": int, "table_id": int, "position": int, "name": str,
        "role": str,  # "player", or "scribe": writes for every side, is no side itself
        "device": str, "joined_at": str,
    }, pk="id", foreign_keys=[("table_id", "tables", "id")],
        not_null={"table_id", "position", "name", "role"})
    db["seats"].create_index(["table_id", "position"], unique=True)
    db["seats"].create_index(["device"])
    db["games"].create({
        "id": int, "table_id": int, "number": int, "game": str,
        "header": str,  # the log document without its events, as JSON
        "created_at": str,
    }, pk="id", foreign_keys=[("table_id", "tables", "id")],
        not_null={"table_id", "number", "game", "header", "created_at"})
    db["games"].create_index(["table_id", "number"], unique=True)
    db["events"].create({
        "id": int, "game_id": int,
        "kind": str,  # "entry", "undo" (cancels target) or "correct" (replaces target)
        "payload": str,  # the scorekeeper-log/1 event, as JSON (entry and correct)
        "target": int,  # the entry an undo or correction is about
        "seat_id": int, "by": str, "device": str, "at": str,
        "idem": str,  # the client's idempotency key, namespaced by device
    }, pk="id", foreign_keys=[("game_id", "games", "id")],
        not_null={"game_id", "kind", "at"})
    db["events"].create_index(["game_id", "id"])
    db["events"].create_index(["idem"], unique=True)
    # one row per change of a table (entry, seat, teams, rematch): the live streams' clock
    db["changes"].create({"id": int, "table_id": int}, pk="id")
    db["changes"].create_index(["table_id", "id"])
    # a turn being entered step by step (a push-your-luck game's throws), shared live until it
    # becomes one event of the log
    db["drafts"].create({"game_id": int, "payload": str, "by": str, "device": str, "at": str},
                        pk="game_id", foreign_keys=[("game_id", "games", "id")])
    db["join_attempts"].create({"id": int, "address": str, "at": float}, pk="id")
    db["join_attempts"].create_index(["address", "at"])


class Memo:
    """The `size` most recently put values by key, for any thread or greenlet."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Any, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Any, default: Any = None) -> Any:
        with self._lock:
            return self._items.get(key, default)

    def put(self, key: Any, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


class FoldCache:
    """Folded games of one database by game id, the most recently used kept, bounded by an
    estimate of their bytes (what the table service says each fold holds)."""

    def __init__(self, budget: int = 64 << 20) -> None:
        self.budget = budget
        self.bytes = 0
        self._items: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.derived = Memo(256)  # what is worked out from several folds, by what it depends on

    def get(self, key: Any) -> Any:
        with self._lock:
            found = self._items.get(key)
            if found is None:
                return None
            self._items.move_to_end(key)
            return found[0]

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.bytes = 0
        self.derived = Memo(self.derived.size)

    def put(self, key: Any, value: Any, size: int) -> None:
        if size > self.budget:
            return  # larger than the whole cache: made again when asked for
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._items[key] = (value, size)
            self.bytes += size
            while self.bytes > self.budget:
                _, (_, dropped) = self._items.popitem(last=False)
                self.bytes -= dropped


class Database(sqlite_utils.Database):
    """A connection, and the cache of folded games its app shares between its connections
    (the folds of one database never mix with another's: game ids restart in every file)."""

    def __init__(self, conn: sqlite3.Connection, folds: FoldCache | None = None,
                 limits: dict[str, Any] | None = None, node: str = "") -> None:
        super().__init__(conn)
        self.folds = folds if folds is not None else FoldCache()
        self.limits = limits or {}  # kind -> service.Limit, where the app sets its own
        self.node = node  # the node this database is ("": the only one), named in its tables' links and codes
        self.committed: Any = None  # what its last write committed (service.Committed), for that write's answer


@migrations()
def m002_moderation_and_limits(db: sqlite_utils.Database) -> None:
    # the host's say over the table: new seats wait for approval when asked, removed phones
    # stay out, and an imported table is marked (its money is not a real evening's)
    db["tables"].add_column("approve_seats", int, not_null_default=0)
    db["tables"].add_column("imported", int, not_null_default=0)
    db["seats"].add_column("approved", int, not_null_default=1)
    db["seats"].add_column("added", int, not_null_default=0)  # a phone added it by its name
    db["bans"].create({"table_id": int, "device": str}, pk=("table_id", "device"),
                      foreign_keys=[("table_id", "tables", "id")])
    # join links the host replaced: a phone seated at the table is sent on to the new one
    db["retired_links"].create({"token": str, "table_id": int, "at": str}, pk="token",
                               foreign_keys=[("table_id", "tables", "id")])
    # what a device or an address did lately, for the limits (tables and imports per hour …)
    db["hits"].create({"id": int, "kind": str, "key": str, "at": float}, pk="id")
    db["hits"].create_index(["kind", "key", "at"])


@migrations()
def m003_changes_name_their_event(db: sqlite_utils.Database) -> None:
    # a change that wrote one event of the log names it: the live board sends a phone only the
    # parts that event touched (web/board.py); a change without one (seats, teams, a rematch, a
    # draft) sends the whole board
    db["changes"].add_column("event_id", int)


@migrations()
def m004_claims(db: sqlite_utils.Database) -> None:
    # an imported game that names the real table it was played at: its money counts in the
    # statistics once that table's host confirms it (issue 16)
    db["claims"].create({
        "id": int,
        "table_id": int,  # the real table the importer named
        "code": str,  # the code the importer typed (the table's code may change since)
        "game_id": int,  # the imported game
        "last_event": int,  # the imported game's last event: a later change voids the claim
        "digest": str,  # the game's players, rules and entries: the same game twice is found
        "device": str,  # the importing device
        "status": str,  # "open", "confirmed" or "dismissed"
        "at": str, "answered_at": str,
    }, pk="id", foreign_keys=[("table_id", "tables", "id"), ("game_id", "games", "id")],
        not_null={"table_id", "code", "game_id", "last_event", "digest", "status", "at"})
    db["claims"].create_index(["table_id", "status"])
    db["claims"].create_index(["game_id"], unique=True)


@migrations()
def m005_summaries(db: sqlite_utils.Database) -> None:
    # a game's statistics (stats.to_json) as of its last event, kept when it is imported: every
    # worker's statistics page reads it instead of folding the log (bench/attack.py: 2,000-event
    # imports folded once per worker held each worker ~40 ms per game)
    db["summaries"].create({"game_id": int, "last_event": int, "summary": str}, pk="game_id",
                           foreign_keys=[("game_id", "games", "id")], not_null={"last_event", "summary"})


@migrations()
def m006_changes_say_who_and_what(db: sqlite_utils.Database) -> None:
    # every write names the change its board showed; a change by another phone that changed
    # the game since makes it stale (service.stale_refusal): the one rule for every game
    db["changes"].add_column("device", str)
    db["changes"].add_column("game", int, not_null_default=0)


@migrations()
def m007_drafts_keep_their_key(db: sqlite_utils.Database) -> None:
    # a step of a turn ("throw again", "take the throw back") answers a retry with the same
    # idempotency key once, like an entry; a dropped draft keeps its row without a payload
    db["drafts"].add_column("idem", str)
    db["drafts"].create_index(["idem"])


@migrations()
def m008_guarded_seats(db: sqlite_utils.Database) -> None:
    # the seat of a phone the host removed: whoever takes it next waits for the host's yes
    db["seats"].add_column("guarded", int, not_null_default=0)


@migrations()
def m009_every_step_keeps_its_key(db: sqlite_utils.Database) -> None:
    # the key of every step of a turn, not only the last one's (the draft's): a step's retry
    # sent after later steps — its answer lost, an offline queue sending again — was applied
    # a second time, on the turn after too (service.write; STEP_KEYS_KEPT)
    db["step_keys"].create({"idem": str, "at": float}, pk="idem")
    db["step_keys"].create_index(["at"])


@migrations()
def m010_a_phone_turned_away_is_told(db: sqlite_utils.Database) -> None:
    # the host's no to a waiting seat, kept until the phone sits down again: it was shown the
    # join form back without a word (policy.viewer, templates/_join.html)
    db["turned_away"].create({"table_id": int, "device": str, "at": float}, pk=("table_id", "device"))


@migrations()
def m011_the_host_can_change(db: sqlite_utils.Database) -> None:
    # the host is the phone that hosts now (`host_device`): the one that opened the table
    # (`opened_by`, which may always take it back), a seated phone it handed the table to, or
    # one that took over once the host's phone had been away a while (policy.HOST_GONE)
    db["tables"].add_column("opened_by", str)
    db.execute("UPDATE tables SET opened_by = host_device")
    # when the host's phone was last at the table (time.time()): no state of the table, as the
    # limits' `hits` are none (service.host_here)
    db["host_seen"].create({"table_id": int, "at": float}, pk="table_id")
    # a table in play as this runs: its host counts as there now (not taken over at once)
    db.execute("INSERT INTO host_seen (table_id, at) SELECT id, ? FROM tables", [time.time()])


@migrations()
def m012_the_evening_goes_on(db: sqlite_utils.Database) -> None:
    # the next table of the evening, opened from this table's settlement by a phone that may
    # (policy "follow_on"; service.follow_on says who may move it); `next_after_game`, the game of this table it follows
    # (its card shows while that game is this table's current one: service.next_table)
    db["tables"].add_column("next_table", int)
    db["tables"].add_column("next_after_game", int)


@migrations()
def m013_the_evening_s_tables(db: sqlite_utils.Database) -> None:
    # the tables an evening came from, walked back from its last (service.evening_tables)
    db["tables"].create_index(["next_table"])


@migrations()
def m014_where_a_phone_sat(db: sqlite_utils.Database) -> None:
    # the tables a phone sat at, let in, kept when its seat is freed: its statistics and its way
    # back (service.tables_of) counted the seats it holds now, so a seat freed after play took
    # those games out of them. Kept by triggers on seats, so that every way a phone sits down
    # counts; a phone removed for good leaves it (service.release_seat)
    db["sat_at"].create({"table_id": int, "device": str}, pk=("table_id", "device"))
    db["sat_at"].create_index(["device"])
    for name, event in (("seat_taken", "INSERT"), ("seat_changed", "UPDATE OF device, approved")):
        db.execute(f"CREATE TRIGGER {name} AFTER {event} ON seats WHEN NEW.device IS NOT NULL AND NEW.approved = 1 "
                   "BEGIN INSERT OR IGNORE INTO sat_at (table_id, device) VALUES (NEW.table_id, NEW.device); END")
    db.execute("INSERT OR IGNORE INTO sat_at (table_id, device) "
               "SELECT table_id, device FROM seats WHERE device IS NOT NULL AND approved = 1")


def connect(path: str, folds: FoldCache | None = None, limits: dict[str, Any] | None = None,
            node: str = "") -> Database:
    """A connection with the durability settings every process must use; `folds`, the fold
    cache to share with the app's other connections to the same file (a new one if None);
    `limits`, the app's own numbers for the service's limits; `node`, the app's NODE."""
    if path != ":memory:" and not path.startswith("file:"):
        create_private(path)
    conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
    conn.execute("PRAGMA foreign_keys = ON")
    db = Database(conn, folds, limits, node)
    wal(conn)
    conn.execute("PRAGMA synchronous = FULL")  # fsync at every commit, WAL included
    return db


WAL_TRIES = 100  # times 20 ms: two seconds


def wal(conn: sqlite3.Connection) -> None:
    """Switch a new database to WAL (one made before is in WAL already: a read says so). Two
    processes starting at once on a new database each hold a read lock and want the write lock
    the switch needs: SQLite breaks that deadlock by refusing one at once, whatever the busy
    timeout ("database is locked": a server's second worker, or a command run beside it, died
    at its start; tests/reliability/test_moderation.py saw it), so it is asked again."""
    for attempt in range(WAL_TRIES):
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                conn.execute("PRAGMA journal_mode = wal")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or attempt == WAL_TRIES - 1:
                raise
            time.sleep(0.02)


PRIVATE = 0o600  # the database holds every table's devices and join tokens: its owner's only


def create_private(path: str) -> None:
    """Create the database file, readable and writable by its owner only, before SQLite does
    (with 0644, world-readable); SQLite gives its -wal and -shm the database's mode."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE))
    except FileExistsError:
        pass


def keep_private(database: str) -> None:
    """Make a database made before (and its -wal, -shm) its owner's only, at every start."""
    for path in (database, database + "-wal", database + "-shm"):
        try:
            if os.stat(path).st_mode & 0o077:
                os.chmod(path, PRIVATE)
        except (FileNotFoundError, PermissionError):
            pass


def serving_lock(database: str, exclusive: bool = False) -> int | None:
    """The lock on `<database>.serving`, held for as long as the returned descriptor stays open
    (forked workers share it): every running server holds it shared; `restore` needs it
    alone (`exclusive`), and gets None while any server runs on this database."""
    descriptor = os.open(database + ".serving", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
    except OSError:
        os.close(descriptor)
        return None
    return descriptor


def last_change_ever(database: str) -> int | None:
    """The highest change id the database at `database` has given: the newest id any phone's
    live stream may have been sent (read with its -wal, where a crash leaves the newest). 0
    when there is no database; None when it cannot be read (a damaged file)."""
    if not os.path.exists(database):
        return 0
    try:
        conn = sqlite3.connect(database, timeout=5)
        try:
            return conn.execute("SELECT coalesce(max(id), 0) FROM changes").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return None


def carry_the_clock(conn: sqlite3.Connection, floor: int) -> int:
    """In a restored database: every table gets a change above `floor` (and above the file's
    own), so that no change id goes back for a phone. A phone's stream reconnecting with the
    id it saw before the restore then gets the whole board at once, as the restored file has it
    (entries the backup lacks are gone from it), with an id above any it was sent, and every
    later change is newer still: `changes.id` is an INTEGER PRIMARY KEY, the next one is the
    largest plus 1, and nothing deletes changes. A marker row (no table) holds the clock in a
    file without tables. Returns the newest change id."""
    start = max(floor, conn.execute("SELECT coalesce(max(id), 0) FROM changes").fetchone()[0]) + 1
    tables = [table_id for (table_id,) in conn.execute("SELECT id FROM tables ORDER BY id")]
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO changes (id, table_id) VALUES (?, NULL)", [start])
    conn.executemany("INSERT INTO changes (id, table_id) VALUES (?, ?)",
                     ((start + number, table_id) for number, table_id in enumerate(tables, 1)))
    conn.execute("COMMIT")
    return start + len(tables)


def restore(backup: str, database: str, behind: bool = False) -> None:
    """Put a backup in the place of the database, while no server runs on it: the backup must
    pass SQLite's integrity check; the database's stale -wal and -shm (a crash leaves them) go,
    or SQLite would replay them into the restored file; the copy is written beside the
    database, synced and renamed into place, so the database is always the old or the new one.
    The live streams' clock goes on from the replaced database's (`carry_the_clock`); when that
    one cannot be read, from the time in milliseconds, above any count of changes a server
    makes between two restores. `behind`: the copy may lack the last changes phones were sent
    (a replica: the machine that sent them is gone), so the clock goes on from the time in
    milliseconds too, when that is later. Litestream's state for the replaced database goes
    (a replicating server snapshots the restored one). RuntimeError (one line for the
    command) when it cannot."""
    descriptor = serving_lock(database, exclusive=True)
    if descriptor is None:
        raise RuntimeError("a server is running on this database: stop it first")
    try:
        check = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
        try:
            ok = check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            tables = {row[0] for row in check.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError:  # not SQLite at all
            ok, tables = False, set()
        finally:
            check.close()
        if not ok or not {"tables", "games", "events"} <= tables:
            raise RuntimeError(f"{backup} is not a whole Scorekeeper database (SQLite's integrity check)")
        floor = last_change_ever(database)
        if floor is None or behind:
            floor = max(floor or 0, time.time_ns() // 1_000_000)
        handle, temporary = tempfile.mkstemp(prefix=".restore-", suffix=".db", dir=os.path.dirname(database))
        os.close(handle)
        try:
            shutil.copyfile(backup, temporary)
            copy = sqlite3.connect(temporary, isolation_level=None)
            try:
                copy.execute("PRAGMA journal_mode = DELETE")  # the backup's own WAL state stays behind
                carry_the_clock(copy, floor)
            finally:
                copy.close()
            with open(temporary, "rb") as written:
                os.fsync(written.fileno())
            for stale in (database + "-wal", database + "-shm"):
                if os.path.exists(stale):
                    os.unlink(stale)
            folder, name = os.path.split(database)
            shutil.rmtree(os.path.join(folder, f".{name}-litestream"), ignore_errors=True)
            os.replace(temporary, database)
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)
        directory = os.open(os.path.dirname(database), os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    except (sqlite3.Error, OSError) as error:
        raise RuntimeError(f"cannot restore {backup}: {getattr(error, 'strerror', None) or error}") from None
    finally:
        os.close(descriptor)


def migrate(db: sqlite_utils.Database) -> None:
    """Bring the schema up to date, holding the write lock throughout: workers starting at the
    same moment on a new database take turns (they used to fail with "database is locked")."""
    with immediate(db):
        migrations.apply(db)


BUSY_MS = 30000  # how long a statement waits for a lock another connection holds
LOCK_WAIT = BUSY_MS / 1000
SPIN = 0.02  # seconds a write waits for SQLite's lock holding its worker (`immediate`)
SPIN_STEP = 0.0002  # seconds between two asks then
LONG_HOLD = 0.1  # seconds a process's writes do not spin once one found the lock held past SPIN

# a sleep of the whole process, also in a gevent worker (where `time.sleep` is gevent's, and
# lets the worker's other requests run)
try:
    from gevent.monkey import get_original
except ImportError:  # gevent is the server's: the command line runs without it
    blocking_sleep = time.sleep
else:
    blocking_sleep = get_original("time", "sleep")


class immediate:
    """A write transaction that takes SQLite's write lock at once (BEGIN IMMEDIATE), so a
    check made inside it still holds when its insert commits — across processes too.

    While another process holds the lock (a transaction here holds it for a few milliseconds,
    its commit's fsync included), it is asked for again every SPIN_STEP seconds for up to SPIN,
    the whole worker waiting: under an attacker's live streams a write that let the worker's
    other requests run meanwhile came back 15–160 ms later (issue 25). Past SPIN — a long
    transaction elsewhere — it sleeps letting them run (from 0.5 ms, doubling up to 10 ms, for
    up to LOCK_WAIT seconds), and the process's next writes do not spin for LONG_HOLD seconds:
    a worker is never frozen for long. Never in SQLite's own busy handler, which wakes in 1, 2,
    5, 10 … 25 ms steps (bench/attack.py: a 2,000-event import in one worker froze the other's
    requests)."""

    long_hold_seen = -1.0  # when this process last found the lock held past SPIN (time.monotonic)

    def __init__(self, db: sqlite_utils.Database) -> None:
        self.conn = db.conn

    def __enter__(self) -> None:
        conn = self.conn
        began, delay = time.monotonic(), 0.0005
        spin = began - immediate.long_hold_seen >= LONG_HOLD
        conn.execute("PRAGMA busy_timeout = 0")
        try:
            while True:
                try:
                    conn.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.OperationalError as error:
                    waited = time.monotonic() - began
                    if "locked" not in str(error) or waited >= LOCK_WAIT:
                        raise
                if spin and waited < SPIN:
                    blocking_sleep(SPIN_STEP)
                    continue
                if spin:
                    spin, immediate.long_hold_seen = False, time.monotonic()
                time.sleep(delay)
                delay = min(delay * 2, 0.01)
        finally:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")

    def __exit__(self, kind, error, traceback) -> None:
        if kind is None:
            self.conn.execute("COMMIT")
        elif self.conn.in_transaction:
            self.conn.execute("ROLLBACK")


# `changes.game`: what a change did to the table's current game (0: nothing)
GAME_CHANGED = 1  # its events, draft or header
NEW_GAME = 2  # a new game began
DRAFT = 3  # its draft alone, a step of the turn being entered (service.Write.noted)


def changed(db: sqlite_utils.Database, table_id: int, event_id: int | None = None, device: str | None = None,
            game: int = 0) -> int:
    """Note a change of a table inside the writer's transaction (`event_id`: the one event of
    the log it wrote, if that is all it wrote; `device`: who made it; `game`: what it did to
    the game, service.Write.noted — its events, its draft alone, its header, a new game, or
    nothing); the live streams of every worker process pick it up."""
    return db.execute("INSERT INTO changes (table_id, event_id, device, game) VALUES (?, ?, ?, ?)",
                      [table_id, event_id, device, int(game)]).lastrowid


# Performance (bench/, issue 18): an entry's own queries and inserts go straight to SQLite;
# sqlite-utils' rows_where and insert cost 15–30 µs each in look-ups of their own

def rows(db: sqlite_utils.Database, sql: str, params: Any = ()) -> list[dict]:
    """The rows of a query as dicts, as sqlite-utils' rows_where gives them."""
    cursor = db.execute(sql, params)
    keys = [column[0] for column in cursor.description]
    return [dict(zip(keys, row)) for row in cursor.fetchall()]


def insert(db: sqlite_utils.Database, table: str, row: dict) -> int:
    """Insert one row (keys are our own column names, never a player's input); its id."""
    return db.execute(f"INSERT INTO {table} ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                      list(row.values())).lastrowid


def changes_since(db: sqlite_utils.Database, table_id: int, since: int, until: int, limit: int) -> list:
    """(change id, event id or None, what it did to the game: `changed`) of a table's changes
    after `since` up to `until`, at most `limit` of them (the oldest)."""
    return db.execute("SELECT id, event_id, game FROM changes WHERE table_id = ? AND id > ? AND id <= ? "
                      "ORDER BY id LIMIT ?", [table_id, since, until, limit]).fetchall()


def game_changes_between(db: sqlite_utils.Database, table_id: int, since: int, until: int, new_game: int,
                         event_id: int | None) -> tuple[bool, bool]:
    """Of a table's changes after `since` up to `until`: whether one began a new game (its
    `game` is `new_game`), and whether one wrote the event `event_id`."""
    began, wrote = db.execute(
        "SELECT coalesce(max(game = ?), 0), coalesce(max(event_id = ?), 0) FROM changes "
        "WHERE table_id = ? AND id > ? AND id <= ?", [new_game, event_id, table_id, since, until]).fetchone()
    return bool(began), bool(wrote)


def last_change(db: sqlite_utils.Database, table_id: int) -> int:
    return db.execute("SELECT coalesce(max(id), 0) FROM changes WHERE table_id = ?", [table_id]).fetchone()[0]


def last_changes(db: sqlite_utils.Database, table_ids: list[int]) -> tuple[tuple[int, int], ...]:
    """(table id, its last change) of each of the tables that has one, in one query (an evening
    of 24 tables asked 24: service.ledger)."""
    marks = ", ".join("?" * len(table_ids))
    return tuple(db.execute(f"SELECT table_id, max(id) FROM changes WHERE table_id IN ({marks}) "
                            "GROUP BY table_id ORDER BY table_id", table_ids).fetchall())
