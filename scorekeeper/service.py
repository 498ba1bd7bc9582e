"""The table service: open a table, seat players, record entries, fold them into games.

No Flask here: the web views and the CLI call these functions with a database. A table's
state is never stored, only its events; `load` folds them through the game's engine (kept
in the database's fold cache by the game's last event id). Everything written goes through
`write`, one transaction; who may do what is decided by the `*_refusal` functions, which the
screens ask too.
"""

from __future__ import annotations

import bisect
import hashlib
import ipaddress
import json
import random
import secrets
import sqlite3
import time
from dataclasses import dataclass, field, fields, is_dataclass, replace
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from enum import Enum
from functools import cached_property
from typing import Any, Callable, Iterable, Mapping, TypeVar

import sqlite_utils

from . import metrics, stats, store
from .gamelog import FORMAT, Game, LogError, Pace, clean_event, cooperate, read_header
from .names import clean_name, look_alike, skeleton
from .games import ENGINES
from .games.base import Both, Either, RuleError, Text, describe
from .games.settle import fewest_transfers, text_cents
from .policy import HOST_WRITER, Refused, Viewer, require, sentence, viewer, writer  # noqa: F401 (the service's names too)
from .policy import refusal as refusal_of
from .store import DRAFT, GAME_CHANGED, NEW_GAME, FoldCache, changed, immediate

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
MAX_SEATS = 12
JOIN_ATTEMPTS = 10  # wrong short codes allowed per address ...
JOIN_WINDOW = 600  # ... in this many seconds
# ... and per IPv6 /48 or IPv4 /24 in all: a /48 holds 65,536 /64s (an address there,
# web/security.client_address), and a free tunnel broker's guessed 655,360 codes in ten minutes
NETWORK_ATTEMPTS = 10 * JOIN_ATTEMPTS
CODE_HOURS = 24  # a short code finds its table this long after it opened (the QR code always)
MAX_LOG_EVENTS = 2000  # events in one imported log, redeals included (a long evening has ~300)

T = TypeVar("T")


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def token(node: str = "") -> str:
    """An unguessable link token: 128 bits, URL-safe; a node's (one of many behind a proxy,
    web/nodes.py) after "<node>.", which the proxy routes by."""
    return f"{node}.{secrets.token_urlsafe(16)}" if node else secrets.token_urlsafe(16)


# --- who is looking, and what they may do: scorekeeper/policy.py ---------------------------


# --- the one write path ----------------------------------------------------------------------


class Write:
    """What a change of a table is handed inside its transaction: the table, who writes, the
    current game (folded when first asked for) and the operations that append to it."""

    def __init__(self, db: sqlite_utils.Database, table: dict | None, who: Viewer | None,
                 key: str | None, may_defer: bool = False) -> None:
        self.db, self.table, self.who, self.key = db, table, who, key
        self.may_defer = may_defer  # a long check may be made outside the lock (`Deferred`)
        self._wrote = False  # events of this transaction are not cached until it commits
        self.events: list[int] = []  # the events this change appended
        self.kinds: list[str] = []  # and their kinds (metrics, once committed)
        self.game_changed = False  # the game's events, draft, header or a new game (see `stale_refusal`)
        self.new_game = False  # a new game began (a rematch): no form of the game before is good for it
        self.drafted = self.header_set = False  # the game's draft kept, its header changed (`noted`)
        # the entry this change appended, with the game before it and the state it made, when
        # nothing followed it: the game it leaves is kept in the fold cache once the change
        # commits, for its answer and live updates (made then, not holding the write lock)
        self.after: tuple[Played, Recorded, Any] | None = None
        self.appended: dict | None = None  # the row of the event appended last

    @cached_property
    def game(self) -> dict:
        return current_game(self.db, self.table["id"])

    @cached_property
    def played(self) -> Played:
        # Performance (issue 25): a game not in the fold cache, or to be folded whole again (a
        # correction another process made), is folded without the write lock — every table's
        # writes waited 30–70 ms for a game of 2,000 events — and the write is tried again
        # (`Deferred`); a fold of the cache's (an entry or an undo since) is a step or two
        played = load(self.db, self.game, remember=not self._wrote, whole=not self.may_defer or self._wrote)
        if played is None:
            game = self.game
            raise Deferred(lambda: load(self.db, game))
        return played

    def reload(self) -> None:
        for name in ("game", "played"):
            self.__dict__.pop(name, None)

    def event(self, kind: str, payload: dict | None = None, target: int | None = None) -> int:
        """Append an entry, undo or correction to the current game. A write that appends events
        changes the game alone (its draft at most besides), never the table or its seats: its
        answer relies on it (`Committed`)."""
        who = self.who
        row = {"game_id": self.game["id"], "kind": kind,
               "payload": json.dumps(payload) if payload is not None else None, "target": target,
               "seat_id": who.seat["id"] if who.seat else None, "idem": self.key,
               "by": who.label, "device": who.device, "at": now()}
        self.key = None  # one key names one event
        self._wrote = self.game_changed = True
        self.__dict__.pop("played", None)
        self.after = None
        event_id = store.insert(self.db, "events", row)
        self.events.append(event_id)
        self.kinds.append(kind)
        self.appended = row
        return event_id

    # -- entries ----------------------------------------------------------------------------

    def submit(self, event: Any) -> int:
        if not isinstance(event, dict):
            raise Refused("That entry could not be read. Tap the cell again.", 400)
        played = self.played
        event = _check_writer(played, self.who, dict(event))
        try:
            # cleaned once and applied once (issue 26): the state it makes is the game's next
            event = clean_event(played.engine, event)
            state = played.engine.apply(played.state, event)
        except RuleError as error:
            raise Refused(error.text) from None
        self.db.execute("DELETE FROM drafts WHERE game_id = ?", [self.game["id"]])
        event_id = self.event("entry", {k: v for k, v in event.items() if k not in ("at", "by")})
        row = self.appended
        self.after = (played, Recorded(event_id, "entry", json.loads(row["payload"]), None, row["by"], row["at"],
                                       row["device"], row["seat_id"]), state)
        return event_id

    def undo(self, target: Any) -> int:
        played = self.played
        if not played.entries:
            raise Refused("There is nothing to undo.")
        last = played.entries[-1][0]
        if str(target) != str(last.id):
            raise Refused("Only the last entry can be undone. An older one can be corrected, by the phone "
                          "that wrote it or by the host.")
        require("undo", self.who, played, last)
        return self.event("undo", target=last.id)

    def correct(self, target: Any, event: Any) -> int:
        if not isinstance(event, dict):
            raise Refused("That correction could not be read.", 400)
        played = self.played
        index = played.index_of(target)
        require("correct", self.who, played, None if index is None else played.entries[index][0])
        recorded, old = played.entries[index]
        if _changes_whose_or_what(old, event, played.engine.events):
            raise Refused("A correction keeps whose entry it is and what kind. The last entry can be undone and "
                          "entered again.", 400)
        replacement = {k: v for k, v in {**old, **event}.items() if v is not None and k not in ("at", "by")}
        mark = (played.row["id"], played.last_event_id, index, json.dumps(replacement, sort_keys=True))
        misfit = CHECKED.get(mark, ...)
        if misfit is ...:
            if self.may_defer and len(played.entries) > DEFER_REFOLDING:
                # Performance (issue 25): the whole game is folded again with the entry replaced;
                # with 2,000 entries not while every table's writes wait (`Deferred`)
                raise Deferred(lambda: CHECKED.put(mark, played.misfit(index, replacement, Pace())))
            misfit = played.misfit(index, replacement)
        if misfit is not None:
            if misfit.number == index + 1:
                raise Refused(misfit.error.text)
            # named as its row in the history is (#45), not by its place among the entries
            raise Refused("%(error)s (entry #%(number)s would no longer fit)", error=misfit.error.text,
                          number=played.number(played.entries[misfit.number - 1][0].id))
        return self.event("correct", replacement, target=recorded.id)

    def save_draft(self, payload: Any) -> None:
        """Keep (or, with None, drop) the turn being entered step by step, as the engine's
        `verify_draft` allows it, so every phone sees only legal steps. Two phones changing it
        at once: the write's board version (`stale_refusal`) refuses the later one."""
        played = self.played
        verify = played.engine.verify_draft
        if verify is None:
            raise Refused("This game is entered in one go.", 400)
        _check_writer(played, self.who, {"type": next(iter(played.engine.events))})
        self.game_changed = self.drafted = True
        if payload is not None:
            try:
                verify(played.state, payload)
            except RuleError as error:
                raise Refused(error.text) from None
        self.db["drafts"].upsert({"game_id": self.game["id"],
                                  "payload": json.dumps(payload) if payload is not None else None,
                                  "by": self.who.label,
                                  "device": self.who.device, "at": now(), "idem": self.key}, pk="game_id")
        self.key_done()

    def key_done(self) -> None:
        """A write that makes no event (a step, a rematch) keeps its key apart: a retry of it
        answers as done, however many steps and turns later."""
        if self.key:
            moment = time.time()
            self.db.execute("INSERT OR IGNORE INTO step_keys (idem, at) VALUES (?, ?)", [self.key, moment])
            self.db.execute("DELETE FROM step_keys WHERE at < ?", [moment - STEP_KEYS_KEPT])
        self.key = None

    @property
    def noted(self) -> int:
        """What the change is noted as (`changes.game`): a new game, a step of a turn alone (the
        draft, no event and no header: the board sends a few parts, web/board.py, and the live
        streams read nobody's seat again), another change of the game, or none."""
        if self.new_game:
            return NEW_GAME
        if self.drafted and not self.events and not self.header_set:
            return DRAFT
        return GAME_CHANGED if self.game_changed else 0

    # -- tables, seats and games ------------------------------------------------------------

    def open_table(self, device: str, game: str, header: dict, seating: Iterable[tuple[str, str]]) -> dict:
        """A new table with its first game (no entries): the rows every table has."""
        table_id = self.db["tables"].insert({
            "code": _free_code(self.db), "join_token": token(node_of(self.db)), "board_token": token(node_of(self.db)),
            "host_device": device, "opened_by": device, "created_at": now()}).last_pk
        for position, (name, role) in enumerate(seating, 1):
            self.db["seats"].insert({"table_id": table_id, "position": position, "name": name,
                                     "role": role, "device": None, "joined_at": None})
        self.db["games"].insert({"table_id": table_id, "number": 1, "game": game,
                                 "header": json.dumps(header), "created_at": now()})
        self.db["host_seen"].insert({"table_id": table_id, "at": time.time()})
        self.table = self.db["tables"].get(table_id)
        return self.table

    def set_header(self, header: dict) -> None:
        self.db["games"].update(self.game["id"], {"header": json.dumps(header)})
        self.game_changed = self.header_set = True
        self.after = None
        self.reload()



def write(db: sqlite_utils.Database, table: dict | None, who: Viewer | None,
          work: Callable[[Write], T], idem: str | None = None, board: Any = ..., adds: bool = True) -> T | int:
    """The one way anything of a table is written: a single BEGIN IMMEDIATE transaction (so a
    check made in `work` still holds when it commits, across processes too). A retry with the
    same idempotency key returns the id of the event the first try wrote, doing nothing else;
    `board`, the change the writer's board showed, refuses a write of the game made on a board
    the game has moved on from (`stale_refusal`; the seats and settings check the state they
    change instead); every change is noted for the live streams of every worker, with who made
    it and whether it changed the game. `adds`: the write adds to the game (an entry, a step),
    or changes what is there (an undo, a correction): a refusal of a stale one says which."""
    key = f"{who.device}:{idem}" if idem and who else None
    db.committed = None
    for attempt in range(WRITE_ATTEMPTS):
        try:
            with immediate(db):
                if key:
                    rows = db.execute("SELECT id FROM events WHERE idem = ?", [key]).fetchall()
                    if rows:
                        return rows[0][0]
                    if db.execute("SELECT 1 FROM step_keys WHERE idem = ?", [key]).fetchone():
                        return None  # a step of a turn taken already (a double tap on "throw again")
                if who is not None and who.host and table is not None and not still_hosts(db, table, who):
                    # `who` was read before the lock: the host's part changed hands since (take_host)
                    raise Refused("Another phone hosts this table now: check the board. Nothing was changed.", 409)
                if board is not ... and table is not None:
                    # who first, then what: a write of the game from a phone that may write
                    # nothing here (removed, waiting) was told "nothing to undo", or whose turn it is
                    refusal = (who and refusal_of("at_table", who)) or stale_refusal(db, table, who, board, adds)
                    if refusal:
                        raise refusal
                change = Write(db, table, who, key, may_defer=attempt < WRITE_ATTEMPTS - 1)
                answer = work(change)
                if change.table is not None:
                    # a new game is noted as such (2): a form of the game before it is stale for
                    # every phone, the one that started it too (`stale_refusal`)
                    number = changed(db, change.table["id"], change.events[0] if len(change.events) == 1 else None,
                                     who.device if who else None, change.noted)
                    if change.game_changed and change.table.get("imported"):
                        _claimed_tables_changed(db, change.table["id"], who)
                    if change.table.get("next_table") and _settled_changed(change):
                        _later_tables_changed(db, change.table, who)
            # committed: the game as the entry left it is the fold the answer and the live
            # updates read (issue 26: not read again and its entry applied a second time)
            after = None
            if change.after is not None and change.events == [change.after[1].id]:
                before, recorded, state = change.after
                after = before.followed_by(recorded, state)
                db.folds.put(after.row["id"], after, after.size)
            if change.table is not None:
                db.committed = Committed(change.table["id"], number, tuple(change.kinds), after)
            metrics.wrote(change.kinds)
            return answer
        except Deferred as deferred:  # rolled back: the long check runs without the lock, then again
            deferred.check()
    raise AssertionError("the last attempt defers nothing")


def _settled_changed(change: Write) -> bool:
    """Whether a write may have changed the money of a finished game: a correction or an undo,
    or the entry that ends a game."""
    if any(kind in ("correct", "undo") for kind in change.kinds):
        return True
    if change.after is None or change.events != [change.after[1].id]:
        return False
    before, _, state = change.after
    return bool(before.engine.result(state).get("finished"))


def _later_tables_changed(db: sqlite_utils.Database, table: dict, who: Viewer | None) -> None:
    """A finished game's money changed at a table the evening went on from: the tables after it
    (`tables.next_table`), whose ledgers add it up (`ledger`), change too, and their phones get
    the board again — the last settlement's "who pays whom tonight" with it."""
    later, seen = table.get("next_table"), 0
    while later and seen < EVENING_TABLES:
        changed(db, later, None, who.device if who else None)
        row = db.execute("SELECT next_table FROM tables WHERE id = ?", [later]).fetchone()
        later, seen = (row[0] if row and row[0] and row[0] > later else None), seen + 1


def _claimed_tables_changed(db: sqlite_utils.Database, table_id: int, who: Viewer | None) -> None:
    """An imported game confirmed at another table changed at its own: that table's ledger (its
    finished board's "evening so far", made once per change of it) no longer counts it, so the
    table changes too, and its phones get the board again."""
    for (claimed_at,) in db.execute("SELECT c.table_id FROM claims c JOIN games g ON g.id = c.game_id "
                                    "WHERE g.table_id = ? AND c.status = 'confirmed'", [table_id]).fetchall():
        changed(db, claimed_at, None, who.device if who else None)


@dataclass(frozen=True)
class Committed:
    """What a connection's last write committed (`Database.committed`), for its answer
    (web/writes.answer) to show without reading it again (issue 26)."""

    table_id: int
    change: int  # the change it made (`changes.id`)
    kinds: tuple[str, ...]  # the events it appended: with any, it changed the game alone (`Write.event`)
    played: Played | None  # the game as it left it, when the write kept it (one entry)


STEP_KEYS_KEPT = 24 * 3600  # seconds a step's key answers its retries: past an evening's play
WRITE_ATTEMPTS = 3  # a write whose long check was made outside the lock (`Deferred`) is tried again


class Deferred(Exception):
    """A check too long to make holding SQLite's write lock (refolding a game of 2,000 entries
    with one of them corrected): `write` rolls back, makes it (`check`) with the worker's other
    requests running between its steps, and tries the write again, which finds it made — or,
    if the game moved on meanwhile, defers again, and on its last attempt checks inside."""

    def __init__(self, check: Callable[[], None]) -> None:
        super().__init__("a check made outside the write lock")
        self.check = check


def stale_refusal(db: sqlite_utils.Database, table: dict, who: Viewer | None, board: Any,
                  adds: bool = True) -> Refused | None:
    """The one rule for a write made on a board that is out of date: every write of the game
    names the change its board showed (the stamp's `change`); when another phone has changed
    the game since — an entry, an undo or correction, a step of a turn, the teams, a new game
    — the write is refused and says what happened, instead of counting twice or landing on
    the next turn. This phone's own changes since do not count (quick taps, an offline queue:
    its idempotency keys keep a retry from counting twice) — but a new game since is, whoever
    started it: a form of a finished game (a page kept open, the back button) wrote into the
    rematch. It speaks of the first change since (the write ran into it: a phone asleep through
    several entries was told of the last one's writer, not of whom entered its turn). None: the
    write may go on."""
    if not isinstance(board, int) or isinstance(board, bool) or board < 0:
        return Refused("This does not say which board it was made on: reload the page and try again.", 400)
    rows = db.execute("SELECT e.kind, e.by, e.device, c.game, e.seat_id FROM changes c "
                      "LEFT JOIN events e ON e.id = c.event_id "
                      "WHERE c.table_id = ? AND c.id > ? "
                      "AND (c.game = ? OR (c.game IN (?, ?) AND coalesce(c.device, '') != ?)) "
                      "ORDER BY c.game = ? DESC, c.id LIMIT 1",
                      [table["id"], board, NEW_GAME, GAME_CHANGED, DRAFT, who.device if who else "",
                       NEW_GAME]).fetchall()
    if not rows:
        return None
    kind, by, device, game, seat = rows[0]
    # named as its history row names it: "host" written from no seat is a host's (policy.writer)
    by = by and writer(by, device, table, seated=seat is not None)
    if game == NEW_GAME:
        return Refused("A new game has started since: check the board. Nothing was changed.")
    # the host by its role, with its article: "Das hat Gastgeber schon eingetragen" lacked one
    host = by is HOST_WRITER
    if kind == "entry" and not adds:  # an undo or a correction: "nothing was added" was no answer to it
        if host:
            return Refused("The host entered a result meanwhile: check the board. Nothing was changed.")
        if by:
            return Refused("%(name)s entered a result meanwhile: check the board. Nothing was changed.", name=by)
        return Refused("A result was entered meanwhile: check the board. Nothing was changed.")
    if kind == "entry":
        if host:
            return Refused("The host already entered this: check the board. Nothing was added.")
        if by:
            return Refused("This was already entered by %(name)s: check the board. Nothing was added.", name=by)
        return Refused("This was already entered: check the board. Nothing was added.")
    if kind == "correct":  # of any entry, not the last one only: "the last entry" named one left as it was
        if host:
            return Refused("The host corrected an entry meanwhile: check the board, then tap again.")
        if by:
            return Refused("%(name)s corrected an entry meanwhile: check the board, then tap again.", name=by)
        return Refused("An entry was corrected meanwhile: check the board, then tap again.")
    if kind == "undo" and not adds:  # an undo or a correction ran into it: "enter it again" was no answer
        if host:
            return Refused("The host undid the last entry meanwhile: check the board. Nothing was changed.")
        if by:
            return Refused("%(name)s undid the last entry meanwhile: check the board. Nothing was changed.",
                           name=by)
        return Refused("The last entry was undone meanwhile: check the board. Nothing was changed.")
    if kind == "undo":
        return Refused("The last entry was undone or corrected meanwhile: check the board and enter it again.")
    return Refused("Another phone changed this at the same moment: check the board, and tap again if yours "
                   "was another one.")


def submit(db: sqlite_utils.Database, table: dict, who: Viewer, event: Any, idem: str | None = None,
           board: Any = ...) -> int:
    """Record one entry of the current game; returns its event id. `board`: the change the
    phone's board showed (see `stale_refusal`)."""
    return write(db, table, who, lambda change: change.submit(event), idem, board)


def save_draft(db: sqlite_utils.Database, table: dict, who: Viewer, payload: Any, board: Any = ...) -> None:
    write(db, table, who, lambda change: change.save_draft(payload), board=board)


def undo(db: sqlite_utils.Database, table: dict, who: Viewer, target: Any, idem: str | None = None,
         board: Any = ...) -> int:
    """Take back the last entry (see policy: "undo")."""
    return write(db, table, who, lambda change: change.undo(target), idem, board, adds=False)


def correct(db: sqlite_utils.Database, table: dict, who: Viewer, target: Any, event: Any,
            idem: str | None = None, board: Any = ...) -> int:
    """Replace an entry (see policy: "correct"); the whole game must still follow
    the rules afterwards."""
    return write(db, table, who, lambda change: change.correct(target, event), idem, board, adds=False)


def _check_writer(played: Played, who: Viewer, event: dict) -> dict:
    """Fill in who writes and refuse a device that may not write this entry."""
    require("write", who, played)
    writers = played.writers()
    kind = event.get("type")  # not yet checked: a list here used to be a TypeError, a 500 (test_fuzz.py)
    takes_player = isinstance(kind, str) and "player" in played.engine.events.get(kind, ())
    if takes_player and not event.get("player") and writers:
        ordered = [p for p in played.game.setup.players if p in writers]
        event["player"] = who.name if who.name in writers else ordered[0]
    if who.writes_for_all or writers is None:
        return event
    if who.name not in writers:
        raise Refused("It is not your turn: %(names)s writes now.", 403, names=Either(sorted(writers)))
    if takes_player and event.get("player") and event["player"] != who.name:
        try:
            named = played.game.setup.player(event["player"])
        except RuleError:
            named = event["player"]
        if named != who.name:
            raise Refused("You can only write for your own side.", 403)
    return event


# --- limits ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Limit:
    """At most `most` of `kind` per device and per address in `window` seconds, and at most
    `burst` of them per device and per address in a minute (0: no such limit); past either, a
    429 with its message (for players, translated on the screens)."""

    kind: str
    most_per_device: int
    most_per_address: int
    window: float
    message: Text
    burst: int = 0
    burst_message: Text | None = None


BURST_WINDOW = 60.0  # seconds
# the burst limits (bench/attack.py): 60 imports of 2,000 events landing in the first seconds of
# an attack from two addresses held both workers; a pub imports a few logs at a time
NEW_TABLES = Limit("table", 20, 60, 3600, Text("This phone has opened many tables in the last hour. Wait a "
                                               "while, or play at one of them."),
                   10, Text("This phone has opened many tables in the last minute. Wait a minute, or play at "
                            "one of them."))
IMPORTS = Limit("import", 10, 30, 3600, Text("Many game logs came from this phone in the last hour. Wait a "
                                             "while before importing more."),
                5, Text("Many game logs came from this phone in the last minute. Wait a minute before "
                        "importing more."))
NEW_SEATS = Limit("seat", 3, 12, 3600, Text("Many new seats came from this network in the last hour. Ask the "
                                            "host to enter your name."))
LIMITS = {limit.kind: limit for limit in (NEW_TABLES, IMPORTS, NEW_SEATS)}


def spend(db: sqlite_utils.Database, limit: Limit, device: str | None, address: str | None) -> None:
    """Count one more of `limit.kind` for this device and address, inside the writer's
    transaction (a refused or failed write counts nothing); Refused (429) past the limit.
    The database's `limits` (store.Database) may set other numbers for a kind."""
    limit = getattr(db, "limits", {}).get(limit.kind, limit)
    now_ = time.time()
    db.execute("DELETE FROM hits WHERE kind = ? AND at < ?", [limit.kind, now_ - limit.window])
    _refuse_past(db, limit, device, address, now_)
    for key, _ in _limit_keys(limit, device, address):
        db["hits"].insert({"kind": limit.kind, "key": key, "at": now_})


def check_limit(db: sqlite_utils.Database, limit: Limit, device: str | None, address: str | None) -> None:
    """Refused (429) when this device or address is past the limit already: read only, before
    any costly work and without the write lock (bench/attack.py: thousands of refusals a minute
    each took the write lock, and a refused import folded its log first). `spend` still counts,
    inside the writer's transaction."""
    _refuse_past(db, getattr(db, "limits", {}).get(limit.kind, limit), device, address, time.time())


def _refuse_past(db: sqlite_utils.Database, limit: Limit, device: str | None, address: str | None,
                 now_: float) -> None:
    for key, most in _limit_keys(limit, device, address):
        for window, most_, message, kind in ((limit.window, most, limit.message, limit.kind),
                                             (BURST_WINDOW, limit.burst, limit.burst_message, f"{limit.kind}/minute")):
            if not most_:
                continue
            # the most recent `most_` in the window: once the oldest of them leaves it, one more may come
            recent = [row[0] for row in db.execute(
                "SELECT at FROM hits WHERE kind = ? AND key = ? AND at >= ? ORDER BY at DESC LIMIT ?",
                [limit.kind, key, now_ - window, most_]).fetchall()]
            if len(recent) >= most_:
                raise Refused(message, 429, retry_after=recent[-1] + window - now_, limit=kind)


def _limit_keys(limit: Limit, device: str | None, address: str | None) -> list[tuple[str, int]]:
    keys = [(f"device:{device}", limit.most_per_device)] if device else []
    return keys + ([(f"address:{address}", limit.most_per_address)] if address else [])


# --- opening a table -------------------------------------------------------------------


def _changes_whose_or_what(old: dict, change: dict, kinds: Any) -> bool:
    """Whether a correction would make an entry another player's (the log's `player`) or a kind
    the game does not have (`type`: a hand may become a redeal, a score stays a score), which no
    correction does: the engine said so in its own words ("type must be score"), or wrote it
    as the other player's."""
    given = change.get("type")
    if given is not None and given != old.get("type") and (not isinstance(given, str) or given not in kinds):
        return True
    given = change.get("player")
    if given is None or "player" not in old:
        return False
    return not isinstance(given, str) or given.strip().casefold() != str(old["player"]).casefold()


def create_table(db: sqlite_utils.Database, device: str, game: str, rules: Any,
                 names: Iterable[str], scribe: str | None = None,
                 teams: list[dict[str, Any]] | None = None, address: str | None = None) -> dict:
    """A new table with its first game; `names` in seat order (may be empty: players add
    themselves when they join). RuleError-free: bad input is Refused with a message."""
    engine = ENGINES.get(game)
    if engine is None:
        raise Refused("There is no game called %(game)s.", 400, game=repr(game))
    names = [clean_name(n) for n in names if n and clean_name(n)]
    seating = [(n, "player") for n in names]
    if scribe and clean_name(scribe):
        seating.append((clean_name(scribe), "scribe"))
    _check_names([n for n, _ in seating])
    header = {"format": FORMAT, "game": game, "players": names, "rules": rules or {}}
    teams = _clean_teams(teams) or _default_teams(engine, names, header["rules"])
    if teams:
        header["teams"] = teams
    _check_header(header, allow_unseated=True)
    _check_team_names(teams)
    if address is not None:
        check_limit(db, NEW_TABLES, device, address)

    def open_table(change: Write) -> dict:
        if address is not None:  # a phone's request (the CLI and the service's own callers are not limited)
            spend(change.db, NEW_TABLES, device, address)
        return change.open_table(device, game, header, seating)

    return write(db, None, None, open_table)


def node_of(db: sqlite_utils.Database) -> str:
    """The node whose database this is ("": the only one; store.Database.node)."""
    return getattr(db, "node", "")


def _free_code(db: sqlite_utils.Database) -> str:
    """Six random characters; a node's code has the node's character first (web/nodes.py)."""
    while True:
        code = node_of(db) + "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
        if not db["tables"].count_where("code = ?", [code]):
            return code


def _check_names(names: list[str]) -> None:
    """Refuse too many names, long ones, and two that look the same (`names.look_alike`:
    "Anna" beside a Cyrillic "Аnna", "ANNA", "Ánna" or "Anna" with a Hangul filler; "Ali"
    beside "AIi", "Sam" beside "Sarn"). Players at table creation, joins and imports alike;
    the names are cleaned already (`names.clean_name`)."""
    if len(names) > MAX_SEATS:
        raise Refused("A table has at most %(seats)s seats.", 400, seats=MAX_SEATS)
    for number, name in enumerate(names):
        if len(name) > 40:
            raise Refused("The name %(name)s… is longer than 40 characters.", 400, name=repr(name[:40]))
        first = next((earlier for earlier in names[:number] if look_alike(earlier, name)), None)
        if first is None:
            continue
        if first == name:
            raise Refused("%(name)s is at the table twice: give each player their own name.", 400, name=name)
        if first.casefold() == name.casefold():
            raise Refused("%(names)s are at the table twice: give each player their own name.", 400,
                          names=Both((first, name)))
        raise Refused("%(names)s look the same at the table: give each player a name of their own.", 400,
                      names=Both((first, name)))


def _clean_teams(teams: Any) -> Any:
    """Teams as the host or a log gave them, their names and members cleaned like players'
    names (anything else is left for the log's checks to refuse)."""
    if not isinstance(teams, list):
        return teams
    cleaned = []
    for team in teams:
        if isinstance(team, dict):
            team = dict(team)
            if isinstance(team.get("name"), str):
                team["name"] = clean_name(team["name"])
            if isinstance(team.get("players"), list):
                team["players"] = [clean_name(p) if isinstance(p, str) else p for p in team["players"]]
        cleaned.append(team)
    return cleaned


def _check_team_names(teams: Any) -> None:
    """Refuse two teams whose names look the same (after the log's own checks: two teams of
    one name, ignoring case, are refused there)."""
    names = [team["name"] for team in teams or () if isinstance(team, dict) and isinstance(team.get("name"), str)]
    for number, name in enumerate(names):
        first = next((earlier for earlier in names[:number] if look_alike(earlier, name)), None)
        if first is not None:
            raise Refused("The teams %(names)s look the same: give each team a name of its own.", 400,
                          names=Both((first, name)))


def _check_header(header: dict, allow_unseated: bool = False) -> Game | None:
    """Check players, teams and rules as the log loader would; a table still waiting for
    its players (allow_unseated) may have too few of them for now."""
    try:
        return read_header({**header, "events": []})
    except LogError as error:
        if allow_unseated and error.seating:
            return None
        raise Refused(error.text, 400) from None


def by_join_token(db: sqlite_utils.Database, value: str) -> dict:
    return _one(db, "join_token", value)


def by_board_token(db: sqlite_utils.Database, value: str) -> dict:
    return _one(db, "board_token", value)


def table_by_id(db: sqlite_utils.Database, table_id: int) -> dict:
    """A table as it stands now (after a write; each message of a live stream)."""
    return _one(db, "id", table_id)


def _one(db: sqlite_utils.Database, column: str, value: str | int) -> dict:
    rows = store.rows(db, f"SELECT * FROM tables WHERE {column} = ? LIMIT 1", [value]) if value else []
    if not rows:
        raise Refused("There is no such table. Check the link or ask the host for the code.", 404)
    return rows[0]


def by_code(db: sqlite_utils.Database, code: str, address: str) -> dict:
    """The table with this short code, for typing in; wrong guesses are rate-limited per
    address (the stored attempts are shared by every worker process)."""
    opened_since = datetime.fromtimestamp(time.time() - CODE_HOURS * 3600, timezone.utc).isoformat(timespec="seconds")
    return _by_code(db, code, address, opened_since)


# the refusals of an address past JOIN_ATTEMPTS wrong codes (metrics counts them as the "code"
# limit): the address's, not the device's — every phone on the pub's Wi-Fi is refused with them,
# and "from this device" told a friend who had typed nothing that they had
WRONG_CODES = Text("Too many wrong codes from this network. Wait ten minutes, or scan the QR code.")
WRONG_CODES_IMPORTING = Text("Too many wrong codes from this network. Wait ten minutes, or import the game "
                             "without a table's code.")


def guessed_from(address: str) -> list[tuple[str, int]]:
    """Whom a wrong code counts against, each with its allowance: the address, and its wider
    network too — an IPv6 /64's /48, an IPv4 address's /24: one holder's many addresses (a
    wrong code is kept once for each)."""
    counted = [(address, JOIN_ATTEMPTS)]
    try:
        network = ipaddress.ip_network(address, strict=False)
    except ValueError:
        return counted
    wider = 48 if network.version == 6 else 24
    if network.prefixlen > wider:
        counted.append((str(network.supernet(new_prefix=wider)), NETWORK_ATTEMPTS))
    return counted


def _refuse_guesses(db: sqlite_utils.Database, address: str, locked: Text) -> None:
    """Refused (429) with `locked` when the address, or its wider network, has guessed wrong
    too often in the window, told when its oldest guess there is forgotten."""
    now_ = time.time()
    for whom, allowed in guessed_from(address):
        recent = [row[0] for row in db.execute(
            "SELECT at FROM join_attempts WHERE address = ? AND at >= ? ORDER BY at DESC LIMIT ?",
            [whom, now_ - JOIN_WINDOW, allowed]).fetchall()]
        if len(recent) >= allowed:
            raise Refused(locked, 429, retry_after=recent[-1] + JOIN_WINDOW - now_, limit="code")


def _by_code(db: sqlite_utils.Database, code: str, address: str | None, opened_since: str | None,
             locked: Text = WRONG_CODES) -> dict:
    """The table with this code (opened since `opened_since`, when given); a wrong code counts
    against the address's guesses (`address` None: the command line's owner, not counted), and
    past them the address is refused with `locked` (the way on where the code was typed)."""
    clean = "".join(ch for ch in (code or "").upper() if ch.isalnum())[:12]
    if not clean:  # nothing typed is no guess: ten empty taps locked a pub's one address out
        raise Refused("Type the code shown on the host's screen.", 400)
    # past the limit already: refused without the write lock (bench/attack.py: a guesser's
    # refusals each took it, and every table's entries wait for it)
    if address is not None:
        _refuse_guesses(db, address, locked)
    with immediate(db):
        if address is not None:
            db.execute("DELETE FROM join_attempts WHERE at < ?", [time.time() - JOIN_WINDOW])
            _refuse_guesses(db, address, locked)
        where, values = "code = ?", [clean]
        if opened_since is not None:
            where, values = where + " AND created_at >= ?", values + [opened_since]
        rows = list(db["tables"].rows_where(where, values, limit=1))
        if not rows and address is not None:  # the attempt is kept: the refusal comes after the commit
            at = time.time()
            db["join_attempts"].insert_all([{"address": whom, "at": at} for whom, _ in guessed_from(address)])
    if not rows:
        raise Refused("No table has the code %(code)s. Check the letters on the host's screen.", 404, code=clean)
    return rows[0]


# --- seats: waiting → seated → freed or removed; a game's players follow them ---------------
#
# A seat is free (a name the host typed, no phone on it yet), waiting (a phone sits there and
# the host has not said yes) or seated (let in). A phone the host removes is kept out of the
# table for good and its seat is freed but guarded: whoever takes it next waits for the host's
# yes, and so does every new seat from then on. A game's players are its player seats — the
# names the host typed, and the names phones added once let in — fixed from its first entry
# on (`players_of`, the one place they are derived): a seat taken later plays from the next
# game, and a newcomer at a team game waits until the host places them in a team.


def seats(db: sqlite_utils.Database, table_id: int) -> list[dict]:
    return list(db["seats"].rows_where("table_id = ?", [table_id], order_by="position"))


def plays(seat: dict) -> bool:
    """Whether a seat is a player of a game not yet started: a player's seat the host named, or
    one a phone added and the host let in (a waiting newcomer is nobody's opponent yet)."""
    return seat["role"] == "player" and (not seat.get("added") or bool(seat.get("approved", 1)))


def players_of(seat_rows: list[dict], header: dict, engine: Any) -> tuple[list[str], list[dict] | None, list[str]]:
    """A game's players as its seats make them before its first entry, its teams, and the
    players waiting for the host to place them in a team. The engine's own seating of teams
    (partners opposite) follows the players; the host's teams keep whoever is still
    there, and are never dropped for a newcomer."""
    names = [seat["name"] for seat in seat_rows if plays(seat)]
    if engine.default_teams:
        seated = engine.default_teams(names, header.get("rules") or {})
        # the same partners keep their team's name (an imported game's "North", which its
        # rematch's rules may name: the carried points)
        named = {frozenset(seated_as(team["players"], names)): team["name"] for team in header.get("teams") or ()}
        return names, seated and [{**team, "name": named.get(frozenset(team["players"]), team["name"])}
                                  for team in seated], []
    kept = []
    for team in header.get("teams") or ():
        members = seated_as(team["players"], names)
        if members:  # a drawn pair's name follows its members
            drawn = team["name"] == " & ".join(team["players"])
            kept.append({**team, "players": members, "name": " & ".join(members) if drawn else team["name"]})
    if not kept:
        return names, None, []
    placed = {player for team in kept for player in team["players"]}
    return [name for name in names if name in placed], kept, [name for name in names if name not in placed]


def seated_as(members: Iterable[Any], names: list[str]) -> list[str]:
    """The players of `names` a team's `members` name, in the seats' spelling: a log's and the
    rules' names ignore case (Setup.player), and teams the host set as "anna" and "BEN" lost
    Anna and Ben from the game when matched exactly."""
    seated = {name.casefold(): name for name in names}
    return [seated[member.strip().casefold()] for member in members
            if isinstance(member, str) and member.strip().casefold() in seated]


def _settle_players(change: Write) -> None:
    """Before the game's first entry its players and teams follow the seats (players_of);
    from its first entry on they stay as they are."""
    if _entries_made(change.db, change.game["id"]):
        return
    header = json.loads(change.game["header"])
    players, teams, _ = players_of(seats(change.db, change.table["id"]), header, ENGINES[change.game["game"]])
    settled = {**header, "players": players}
    settled.pop("teams", None)
    if teams:
        settled["teams"] = teams
    settled = _seated_rules(settled)
    if settled != header:
        change.set_header(settled)


def _seated_rules(header: dict) -> dict:
    """The header as the seats settle it, less a rule that names someone who did not sit down:
    a table opened with "Zed" to deal first and only two names, filled by Cleo and Dora, had
    its four players and no game ("the host still has to seat enough players"), for good. Such
    a rule (the setting the game's refusal names) falls back to its default, as if the form had
    left it empty; a table still short of players keeps it (its player may yet sit down)."""
    rules = dict(header.get("rules") or {})
    for _ in range(len(rules)):
        try:
            read_header({**header, "rules": rules, "events": []})
            break
        except LogError as error:
            key = getattr(error.text, "key", None)
            if error.seating or key not in rules:
                break
            del rules[key]
    return header if rules == (header.get("rules") or {}) else {**header, "rules": rules}


def join(db: sqlite_utils.Database, table: dict, device: str, seat_id: Any = None,
         new_name: str | None = None, address: str | None = None) -> dict:
    """Bind this device to a free seat, or add a new player at the end of the table: let in at
    once, or waiting for the host's yes when the table asks for it (or the seat was a removed
    phone's)."""
    def sit(change: Write) -> dict:
        who = viewer(change.db, change.table, device)
        require("join", who)
        seat = _join(change, who, seat_id, new_name, address)
        if who.turned_away:  # sitting again, it asks anew
            change.db.execute("DELETE FROM turned_away WHERE table_id = ? AND device = ?", [change.table["id"], device])
        return seat
    return write(db, table, Viewer(device, False, None), sit)


def seats_left(seat_rows: list[dict], header: dict, engine: Any) -> int | None:
    """How many more seats may play, when the game seats a fixed number (its engine's `seats`);
    None when it does not."""
    if engine.seats is None:
        return None
    return max(0, engine.seats(header.get("rules") or {}) - sum(1 for seat in seat_rows if plays(seat)))


def _seats_left(change: Write, rows: list[dict]) -> None:
    """Refused when the table's game seats a fixed number and as many seats play already: one
    more, let in, and no game could start — a fifth player let in at a table for four stopped
    every hand there, and every rematch."""
    engine = ENGINES[change.game["game"]]
    header = json.loads(change.game["header"])
    if seats_left(rows, header, engine) == 0:
        if any(plays(seat) and not seat["device"] for seat in rows):
            # told to ask the host for a seat that was free already, under the name of who left
            raise Refused("This table is full: this game is played by %(seats)s. Taking over from a player "
                          "who left? Tap their name.", 409, seats=engine.seats(header.get("rules") or {}))
        raise Refused("This table is full: this game is played by %(seats)s. The host can free a seat for you.",
                      409, seats=engine.seats(header.get("rules") or {}))


def _join(change: Write, who: Viewer, seat_id: Any, new_name: str | None, address: str | None) -> dict:
    db, table, device = change.db, change.table, who.device
    waits = bool(table.get("approve_seats")) and not who.host and not _let_in_before(db, table["id"], device)
    if new_name is not None:
        spend(db, NEW_SEATS, None, address)
        name = clean_name(new_name)
        if not name:
            raise Refused("Type your name to take a new seat.", 400)
        rows = seats(db, table["id"])
        own = next((s for s in rows if s["name"].casefold() == name.casefold()), None)
        if own and own["device"]:
            # a player whose phone died, on another one: their seat is there, not a new one under
            # another name (told "give each player their own name", they became a stranger to
            # the game they were playing)
            raise Refused("%(name)s already sits at this table on another phone. If that is you, ask the "
                          "host to free your seat, then tap your name.", 409, name=own["name"])
        if own:  # their name, free: the seat itself, as a tap on it takes it
            seat_id, new_name = own["id"], None
    if new_name is not None:
        _check_names([s["name"] for s in rows] + [name])
        _seats_left(change, rows)
        seat_id = db["seats"].insert({
            "table_id": table["id"], "position": max((s["position"] for s in rows), default=0) + 1,
            "name": name, "role": "player",
            "device": device, "joined_at": now(), "approved": int(not waits), "added": 1}).last_pk
        _settle_players(change)
        return db["seats"].get(seat_id)
    seat = _seat_of(db, table, seat_id, Refused("Pick one of the seats at this table.", 400))
    if seat["device"]:
        raise Refused("%(name)s's seat is taken by another phone. The host can free it.", 409, name=seat["name"])
    db["seats"].update(seat["id"], {"device": device, "joined_at": now(),
                                    "approved": int(not (waits or seat.get("guarded")))})
    return db["seats"].get(seat["id"])


def _let_in_before(db: sqlite_utils.Database, table_id: int, device: str) -> bool:
    """Whether `device` hosted, opened or sat let in at a table whose evening went on at this one
    (`follow_on`): the host's yes there holds here too (a friend may have opened this one)."""
    return bool(device) and db.execute(
        "SELECT 1 FROM tables t WHERE t.next_table = :table AND (t.host_device = :device OR t.opened_by = :device "
        "OR EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.device = :device AND s.approved = 1)) "
        "LIMIT 1", {"table": table_id, "device": device}).fetchone() is not None


def seat_mark(device: str | None) -> str:
    """Which phone sits in a seat, as the host's seat list gives it to the seat's buttons (never
    the device's id itself): a tap on a list drawn before another phone sat down there acts on
    the phone the host saw, or on nothing (`same_phone`)."""
    return hashlib.sha256(device.encode()).hexdigest()[:12] if device else ""


def same_phone(seat: dict, sat: str | None) -> None:
    """The host's tap on a seat was made on a list showing the phone that sits there now (`sat`,
    its `seat_mark`; None: the tap does not say). A stale "Remove" threw out a player who had sat
    down in the seat since the list was drawn, a stale "Let in" let in another phone."""
    if sat is not None and sat != seat_mark(seat["device"]):
        raise Refused("%(name)s's seat has changed since your list was drawn: check the seats and tap "
                      "again. Nothing was changed.", 409, name=seat["name"])


def release_seat(db: sqlite_utils.Database, table: dict, who: Viewer, seat_id: Any, remove: bool = False,
                 sat: str | None = None, idem: str | None = None) -> None:
    """The host frees a seat for another phone; `remove` also keeps the phone that sat there
    out of this table for good (it no longer writes, undoes or sits down again, rematches too):
    its seat is guarded, and new seats wait for the host's yes from then on. `sat`: which phone
    the host's list showed there (`same_phone`)."""
    require("remove" if remove else "free_seat", who)

    def release(change: Write) -> None:
        seat = _seat_of(change.db, table, seat_id, Refused("There is no such seat at this table.", 400))
        same_phone(seat, sat)
        guarded = int(bool(seat.get("guarded")))
        sitting = seat["device"] and viewer(change.db, table, seat["device"])
        if remove and sitting and sitting.opened and not sitting.host:
            # the table is its own, whoever hosts it now (policy._taking_host)
            raise Refused("%(name)s's phone opened this table: it cannot be removed. Free the seat instead.",
                          409, name=seat["name"])
        if remove and sitting and not sitting.host:
            change.db["bans"].insert({"table_id": table["id"], "device": seat["device"]}, ignore=True)
            # out for good: the table leaves its list and its statistics too (a freed seat's
            # phone keeps them: it played there)
            change.db.execute("DELETE FROM sat_at WHERE table_id = ? AND device = ?", [table["id"], seat["device"]])
            change.db["tables"].update(table["id"], {"approve_seats": 1})
            guarded = 1
        change.db["seats"].update(seat["id"], {"device": None, "joined_at": None, "approved": 1, "guarded": guarded})
        _settle_players(change)
        change.key_done()

    write(db, table, who, release, idem=idem)


def let_in(db: sqlite_utils.Database, table: dict, who: Viewer, seat_id: Any, yes: bool,
           sat: str | None = None, idem: str | None = None) -> None:
    """The host's answer to a seat waiting to be let in: in (a newcomer plays from the game's
    start, or the next game if this one has begun), or away (a seat its phone added goes; a
    seat the host named is free again, as guarded as it was). `sat`: as `release_seat`'s."""
    require("let_in" if yes else "turn_away", who)

    def answer(change: Write) -> None:
        seat = _seat_of(change.db, table, seat_id, Refused("There is no such seat at this table.", 400))
        same_phone(seat, sat)
        if not seat["device"] or seat.get("approved", 1):
            raise Refused("%(name)s is not waiting for your yes.", 409, name=seat["name"])
        if yes:
            if seat["added"]:
                _seats_left(change, seats(change.db, table["id"]))
            change.db["seats"].update(seat["id"], {"approved": 1, "guarded": 0})
        else:
            # its phone is told, until it sits down again
            change.db["turned_away"].upsert({"table_id": table["id"], "device": seat["device"], "at": time.time()},
                                            pk=("table_id", "device"))
            if seat["added"]:
                change.db["seats"].delete(seat["id"])
            else:
                change.db["seats"].update(seat["id"], {"device": None, "joined_at": None, "approved": 1})
        _settle_players(change)
        change.key_done()

    write(db, table, who, answer, idem=idem)


def set_table(db: sqlite_utils.Database, table: dict, who: Viewer, approve_seats: bool | None = None,
              new_link: bool = False) -> dict:
    """The host's settings of the table: whether new seats wait for a yes; a new join link and
    code (the old ones stop working; phones seated there are sent on to the new link)."""
    require("new_link" if new_link else "settings", who)

    def change_table(change: Write) -> dict:
        values: dict[str, Any] = {}
        if approve_seats is not None:
            values["approve_seats"] = int(approve_seats)
        if new_link:
            change.db["retired_links"].insert({"token": table["join_token"], "table_id": table["id"], "at": now()})
            values.update(join_token=token(node_of(change.db)), code=_free_code(change.db))
            # the tables whose evening went on here show its code and join link (next_table): a
            # change of theirs too, or their streams kept sending the card with the dead link
            for (earlier,) in change.db.execute("SELECT id FROM tables WHERE next_table = ?", [table["id"]]).fetchall():
                changed(change.db, earlier, None, who.device)
        if values:
            change.db["tables"].update(table["id"], values)
        change.table = change.db["tables"].get(table["id"])
        return change.table

    return write(db, table, who, change_table)


def hand_host(db: sqlite_utils.Database, table: dict, who: Viewer, seat_id: Any, sat: str | None = None,
              idem: str | None = None) -> None:
    """The host hands the table to the phone in a seat (let in): that phone hosts from now on,
    and this one is the player it sits as, or nobody (the phone that opened the table may take
    it back). `sat`: as `release_seat`'s; `idem`: a second tap of the same button, sent before the
    first was answered, is the same hand-over (not refused: this phone hosts no more)."""
    def hand(change: Write) -> None:
        seat = _seat_of(change.db, table, seat_id, Refused("There is no such seat at this table.", 400))
        same_phone(seat, sat)
        require("hand_host", viewer(change.db, change.db["tables"].get(table["id"]), who.device), None, seat)
        _new_host(change, seat["device"])

    write(db, table, who, hand, idem=idem)


def take_host(db: sqlite_utils.Database, table: dict, who: Viewer, idem: str | None = None) -> None:
    """This phone hosts the table from now on: the phone that opened it, or a player's seat let
    in once the host's phone has been away `policy.HOST_GONE` seconds (asked inside the write, so
    two phones taking over at once make one host)."""
    def take(change: Write) -> None:
        now_table = change.db["tables"].get(table["id"])
        gone = time.time() - host_seen(change.db, table["id"])
        require("take_host", viewer(change.db, now_table, who.device), change.played, gone)
        _new_host(change, who.device)

    write(db, table, who, take, idem=idem)


def still_hosts(db: sqlite_utils.Database, table: dict, who: Viewer) -> bool:
    """Whether `who`, the host when its request came, hosts the table still (asked inside a write)."""
    row = db.execute("SELECT host_device FROM tables WHERE id = ?", [table["id"]]).fetchone()
    return bool(row) and row[0] == who.device


def _new_host(change: Write, device: str) -> None:
    change.db["tables"].update(change.table["id"], {"host_device": device})
    change.db["host_seen"].upsert({"table_id": change.table["id"], "at": time.time()}, pk="table_id")
    change.key_done()


HOST_SEEN_EVERY = 60  # seconds: how often a host's requests mark its phone as at the table


def host_seen(db: sqlite_utils.Database, table_id: int) -> float:
    """When the host's phone was last at the table (time.time()): every table has it from its
    opening (or from the migration that began keeping it)."""
    row = db.execute("SELECT at FROM host_seen WHERE table_id = ?", [table_id]).fetchone()
    return row[0] if row else 0.0


def host_here(db: sqlite_utils.Database, table: dict) -> None:
    """The host's phone is at the table now (a page, an answer, a live stream of its own): marked
    at most every HOST_SEEN_EVERY seconds, and no change of the table (nobody's board differs).
    A mark that cannot be written now (the database busy or full) waits for the next request."""
    moment = time.time()
    try:
        if moment - host_seen(db, table["id"]) >= HOST_SEEN_EVERY:
            db.execute("INSERT OR REPLACE INTO host_seen (table_id, at) VALUES (?, ?)", [table["id"], moment])
    except sqlite3.Error:
        pass


def moved_to(db: sqlite_utils.Database, old_token: str, device: str) -> dict | None:
    """The table a retired join link led to, for a phone seated there (or its host) only."""
    rows = db.execute("SELECT table_id FROM retired_links WHERE token = ?", [old_token]).fetchall() if old_token else []
    if not rows or not device:
        return None
    table = db["tables"].get(rows[0][0])
    who = viewer(db, table, device)
    return table if who.follows_a_new_link else None


# --- the evening goes on at another table ---------------------------------------------------
#
# A settlement links every game's new-table form with the players' names and, for a phone that
# may (policy "follow_on": the host, the phone that opened the table, a seat let in), the table's
# join token as `after` (a hidden field of the form). Once the new table is open, the old one
# keeps it (`tables.next_table`, with the game it follows: store m012; once a game has gone on,
# only the host's next table moves it), a change of the old table: its streams send every
# phone the whole board, where the phones that may
# (policy "see_next_table": those "follow_on" allows, and a seat still waiting for the host's
# yes) are shown "The evening goes on: <game> at table <code>" and the new table's join link, and tap
# their names there (the same names, seated by the form). An `after` that names no table, or one
# the opening phone may not link (a stranger, a removed phone, a game not over), links nothing,
# says nothing and never stops the new table from opening.


def follow_on(db: sqlite_utils.Database, device: str, after: Any, new_table: dict) -> int | None:
    """Link `new_table` as the next table of the table whose join token is `after`, if the
    opening phone `device` may: the old table's id (its streams to wake, and where the opener
    sat: `sit_as_before`), or None. A seat's next table after the evening went on already is
    not linked, but its opener still sits there as before."""
    if not isinstance(after, str) or not after or len(after) > 64 or not device:
        return None
    try:
        old = by_join_token(db, after)
    except Refused:
        old = moved_to(db, after, device)  # the host gave the table a new join link since
        if old is None:
            return None
    if old["id"] == new_table["id"]:
        return None

    def link(change: Write) -> int | None:
        table = change.db["tables"].get(old["id"])
        who = viewer(change.db, table, device)
        game = current_game(change.db, table["id"])
        if refusal_of("follow_on", who, load(change.db, game)):
            change.table = None  # nothing written: no change of the table either
            return None
        if table["next_table"] and table["next_after_game"] == game["id"] and not who.host:
            # the evening went on already from this game: the host's say alone moves it (a
            # mistaken next table mended). A seat's second next table had taken the evening's
            # link from the real one, whose ledger then lost this table, its money counted at
            # the seat's table instead
            change.table = None
            return table["id"]
        change.db["tables"].update(table["id"], {"next_table": new_table["id"], "next_after_game": game["id"]})
        # the host's say goes on with the evening: a table whose new seats waited for the host's
        # yes had shown a waiting stranger the way to a next table that let anyone sit at a money
        # game, and a phone removed for good sat down there again (the phones let in here sit
        # there at once: `_let_in_before`)
        if table["approve_seats"]:
            change.db["tables"].update(new_table["id"], {"approve_seats": 1})
        change.db.execute("INSERT OR IGNORE INTO bans (table_id, device) SELECT ?, device FROM bans "
                          "WHERE table_id = ?", [new_table["id"], table["id"]])
        return table["id"]

    try:
        return write(db, old, None, link)
    except (Refused, sqlite3.Error):  # the new table is open all the same
        return None


def sit_as_before(db: sqlite_utils.Database, device: str, old_id: int, table: dict) -> None:
    """The phone that opened `table` from the settlement of the table `old_id` (`follow_on`),
    seated there, sits here in the free seat of its name: it had to tap its name again, told
    "Are you playing too?" by the evening's next table. A name not here, or taken, leaves it be."""
    old = db.execute("SELECT name FROM seats WHERE table_id = ? AND device = ?", [old_id, device]).fetchone()
    seat = old and next((s for s in seats(db, table["id"])
                         if s["name"].casefold() == old[0].casefold() and not s["device"]), None)
    if seat:
        try:
            join(db, table, device, seat["id"])
        except Refused:  # the new table is open all the same
            pass


def went_on_at(db: sqlite_utils.Database, table: dict, game_id: int) -> dict | None:
    """The table the evening went on at from `table` (its code, tokens and game's title), while
    the game it follows, `game_id`, is the table's game; else None. Nobody's view: the card
    (`next_table`) and the big screen (web/tv.py) each show what their viewer may see of it."""
    if not table.get("next_table") or table.get("next_after_game") != game_id:
        return None
    rows = store.rows(db, "SELECT t.code, t.join_token, t.board_token, g.game FROM tables t JOIN games g "
                          "ON g.table_id = t.id WHERE t.id = ? ORDER BY g.number DESC LIMIT 1", [table["next_table"]])
    if not rows or rows[0]["game"] not in ENGINES:
        return None
    return {**rows[0], "title": ENGINES[rows[0]["game"]].title}


def next_table(db: sqlite_utils.Database, table: dict, who: Viewer, played: Played) -> dict | None:
    """The next table of the evening as `who` is shown it at `table` (its code, join token and
    game's title: `went_on_at`); None for anyone the policy does not show it to."""
    if not table.get("next_table") or refusal_of("see_next_table", who, played):
        return None
    return went_on_at(db, table, played.row["id"])


def _seat_of(db, table, seat_id, refused: Refused) -> dict:
    try:
        seat = db["seats"].get(int(seat_id))
    # OverflowError: a number past SQLite's 64 bits (found by tests/reliability/test_fuzz.py)
    except (TypeError, ValueError, OverflowError, sqlite_utils.db.NotFoundError):
        seat = None
    if not seat or seat["table_id"] != table["id"]:
        raise refused
    return seat


def _default_teams(engine, players: list[str], rules: dict) -> list[dict] | None:
    """The engine's own seating of teams (partners opposite), when it has one."""
    return engine.default_teams(players, rules) if engine.default_teams else None


def set_teams(db: sqlite_utils.Database, table: dict, who: Viewer, teams: Any, board: Any = ...,
              draw: int | None = None, idem: str | None = None) -> None:
    """Teams for the current game, before its first entry: `teams` as the log writes them, or
    None (everyone for themselves); or with `draw`, teams of that size drawn by lot of every
    player seated, as the engine's `team_draws` offers them."""
    require("teams", who)

    def seat_teams(change: Write) -> None:
        if _entries_made(change.db, change.game["id"]):
            raise Refused("The game has started: teams can change at the rematch.", 409)
        header = json.loads(change.game["header"])
        players = [seat["name"] for seat in seats(change.db, table["id"]) if plays(seat)]
        chosen = teams
        if draw is not None:
            engine = change.played.engine
            offered = engine.team_draws(len(players))
            if not offered:
                raise Refused("%(game)s with %(count)s players has no teams to draw.", 400,
                              game=engine.title, count=len(players))
            if draw not in offered:
                # junk (a size no button sends) is 0: the sizes it is drawn in are what to say
                raise Refused("%(game)s with %(count)s players is drawn in teams of %(sizes)s only.", 400,
                              game=engine.title, count=len(players), sizes=Either(offered))
            chosen = draw_teams(players, draw)
        header = {**header, "players": players}
        if chosen:
            header["teams"] = _clean_teams(chosen)  # cleaned and compared as players' names are
        else:
            header.pop("teams", None)
        _check_header(header)
        _check_team_names(header.get("teams"))
        change.set_header(header)
        _settle_players(change)
        change.key_done()  # a second tap on "Draw pairs by lot" is the same draw, not another

    write(db, table, who, seat_teams, board=board, idem=idem)


def draw_teams(players: list[str], size: int = 2, rng: random.Random | None = None) -> list[dict]:
    """Teams of `size` drawn by lot; those left over make a smaller team (an odd one out at
    pairs plays alone, for two).

    >>> [len(team["players"]) for team in draw_teams(list("ABCDEF"), 3)], len(draw_teams(list("ABCDE"))[-1]["players"])
    ([3, 3], 1)
    """
    shuffled = list(players)
    (rng or random.SystemRandom()).shuffle(shuffled)
    teams: list[dict] = []
    for i in range(0, len(shuffled), size):
        members = shuffled[i:i + size]
        teams.append({"name": team_name(members, i // size + 1, [team["name"] for team in teams]), "players": members})
    return teams


def team_name(members: list[str], number: int, taken: list[str]) -> str:
    """A drawn team's name: its members' names. A team name has at most 40 characters, like a
    player's (two long names made a pairing the log refuses: tests/reliability/test_access.py),
    so the longest names are cut to fit, with a full stop (a name's "…" is cleaned to "...",
    another name); in no language's words (it was "Team 1" on a Polish table).

    >>> team_name(["Anna", "Ben"], 1, []), team_name(["Maximiliane-Katharina", "Bartholomäus-Friedrich"], 2, [])
    ('Anna & Ben', 'Maximiliane-Katha. & Bartholomäus-Frie.')
    >>> team_name(["Maximiliane-Katharina", "Bartholomäus", "Anna"], 1, [])
    'Maximiliane-Katha. & Bartholomäus & Anna'
    """
    name = " & ".join(members)
    if len(name) > 40:
        room = next(room for room in range(40, 1, -1)  # the longest a name may stay
                    if sum(min(len(member), room) for member in members) + 3 * (len(members) - 1) <= 40)
        name = " & ".join(member if len(member) <= room else member[:room - 1].rstrip() + "." for member in members)
    return name if len(name) <= 40 and clean_name(name) == name and name not in taken else f"#{number}"


def rematch(db: sqlite_utils.Database, table: dict, who: Viewer, idem: str | None = None, board: Any = ...) -> dict:
    """A new game at the same table: the players its seats make now (a newcomer let in during
    the last game plays), the same teams and rules (the engine may move the first deal on)."""
    def next_game(change: Write) -> None:
        played = change.played
        require("rematch", who, played)
        header = dict(played.header)
        if played.engine.rematch_rules:
            header["rules"] = played.engine.rematch_rules(played.state)
        players, teams, _ = players_of(seats(change.db, table["id"]), header, played.engine)
        header["players"] = players
        header.pop("teams", None)
        if teams:
            header["teams"] = teams
        change.game_changed = change.new_game = True
        change.db["games"].insert({"table_id": table["id"], "number": change.game["number"] + 1,
                                   "game": change.game["game"], "header": json.dumps(header),
                                   "created_at": now()})
        change.key_done()  # a second tap sent once the first was answered is the same rematch

    write(db, table, who, next_game, idem=idem, board=board)
    return current_game(db, table["id"])


# --- games and their events ------------------------------------------------------------


def current_game(db: sqlite_utils.Database, table_id: int) -> dict:
    return store.rows(db, "SELECT * FROM games WHERE table_id = ? ORDER BY number DESC LIMIT 1", [table_id])[0]


def tables_of(db: sqlite_utils.Database, device: str, limit: int = 12) -> list[dict]:
    """The tables a device opened, sits at or sat at (let in, its seat freed since: store
    m014), newest first: its way back to last week's games, and its statistics. `here`: it
    hosts, opened or sits there now (a freed phone's way back is the read-only board: the join
    link as it stands now would let it in past a new join link the host made)."""
    if not device:
        return []
    here = ("(host_device = :device OR opened_by = :device OR id IN "
            "(SELECT table_id FROM seats WHERE device = :device))")
    return list(db.query(
        f"SELECT *, {here} AS here FROM tables WHERE {here} OR id IN "
        "(SELECT table_id FROM sat_at WHERE device = :device) ORDER BY id DESC LIMIT :limit",
        {"device": device, "limit": limit}))


def sat_at(db: sqlite_utils.Database, table_id: int, device: str | None) -> bool:
    """Whether `device` (None: a browser without one) sat at the table once, let in (store
    m014; a phone removed for good has lost it): its way to the history of the games it played
    there, seat freed or not."""
    return device is not None and bool(db["sat_at"].count_where("table_id = ? AND device = ?", [table_id, device]))


def games_of(db: sqlite_utils.Database, table_id: int) -> list[dict]:
    return list(db["games"].rows_where("table_id = ?", [table_id], order_by="number"))


def game_numbered(db: sqlite_utils.Database, table_id: int, number: int) -> dict | None:
    """The table's game `number` (from 1), if it has one."""
    rows = store.rows(db, "SELECT * FROM games WHERE table_id = ? AND number = ? LIMIT 1", [table_id, number])
    return rows[0] if rows else None


def _entries_made(db, game_id: int) -> bool:
    return bool(db["events"].count_where("game_id = ?", [game_id]))


@dataclass(frozen=True)
class Recorded:
    """One stored event row as the history shows it."""

    id: int
    kind: str
    event: dict | None
    target: int | None
    by: str | None
    at: str
    device: str | None = None  # who wrote it: the writer may undo their own last entry
    seat: int | None = None  # the seat it was written from; None: none (a host without one, an import)


def history_of(db, game_id: int, since: int = 0, last: int | None = None, cooperative: bool = False) -> list[Recorded]:
    """A game's stored events after `since` (up to `last`), in order; `db` may be a plain
    sqlite3 connection. `cooperative`: let the worker's other requests run every few hundred
    rows (never inside a write transaction: `gamelog.cooperate`)."""
    rows = db.execute("SELECT id, kind, payload, target, by, at, device, seat_id FROM events WHERE game_id = ? "
                      "AND id > ? AND id <= ? ORDER BY id",
                      [game_id, since, last if last is not None else 2 ** 63 - 1]).fetchall()
    history, pace = [], Pace() if cooperative else None
    for r in rows:
        if pace:
            pace()
        history.append(Recorded(r[0], r[1], json.loads(r[2]) if r[2] else None, r[3], r[4], r[5], r[6], r[7]))
    return history


DEFER_REFOLDING = 200  # entries of a game past which a correction is checked without the write lock
CHECKED = store.Memo(64)  # corrections checked outside the lock: (game, its last event, index, event) -> misfit


class EntryMisfits(Exception):
    """Replacing an entry breaks the game: entry `number` (from 1) no longer fits."""

    def __init__(self, number: int, error: RuleError) -> None:
        super().__init__(str(error))
        self.number, self.error = number, error


@dataclass(frozen=True)
class Played:
    """A game folded from its events: what every screen shows."""

    row: dict
    game: Game | None  # None while the seating does not suit the game yet
    header: dict
    entries: tuple[tuple[Recorded, dict], ...]  # (the entry, its event as it stands now)
    history: tuple[Recorded, ...]
    state: Any
    result: dict | None
    last_event_id: int
    before: dict[int, dict] = field(default_factory=dict)  # correction id -> the event it replaced
    draft: dict | None = None  # a turn being entered step by step, not yet an event
    size: int = 0  # about how many bytes this fold holds (the fold cache's measure)
    previous: Any = None  # the state before the last entry, when the fold kept it (an undo's)

    @property
    def engine(self):
        return ENGINES[self.row["game"]]

    def followed_by(self, recorded: Recorded, state: Any) -> Played:
        """This game with one more entry, `recorded`, whose event made `state` from this one's:
        what a fold of its events would give, the entry's state kept for an undo of it."""
        return replace(self, entries=self.entries + ((recorded, recorded.event),),
                       history=self.history + (recorded,), state=state, result=self.engine.result(state),
                       last_event_id=recorded.id, draft=None, previous=self.state,
                       size=self.size + _fold_size((recorded,), "") - FOLD_BASE_BYTES)

    @property
    def finished(self) -> bool:
        return bool(self.result and self.result.get("finished"))

    def writers(self) -> frozenset[str] | None:
        if self.game is None:
            return frozenset()
        return self.engine.writers(self.state)

    def current(self, entry_id: int) -> dict | None:
        """An entry's event as it stands now (after corrections); None once undone."""
        return self._current.get(entry_id)

    @cached_property
    def _current(self) -> dict[int, dict]:
        # Performance (bench/): the history asks this for every row; a lookup, not a scan
        return {recorded.id: event for recorded, event in self.entries}

    def index_of(self, entry_id: Any) -> int | None:
        """The position of a live entry among the game's entries (None: undone or not of this
        game); `entry_id` as a form or an event gives it (7 or "7")."""
        text = str(entry_id)
        # digits SQLite can hold: int() of 4,301 digits is a ValueError (a tray's `fix`: a 500)
        if not (text.isascii() and text.isdigit()) or len(text) > 18 or str(int(text)) != text:
            return None
        return self._positions.get(int(text))

    def number(self, event_id: int) -> int:
        """An event's number in its game, as its history row shows it (#3): its place among the
        game's events, from 1. The store's ids count every table's events: a pub's second table
        read "#17" after its first two turns, and a server of a few weeks five digits."""
        return bisect.bisect_left(self.history, event_id, key=lambda recorded: recorded.id) + 1

    @cached_property
    def _positions(self) -> dict[int, int]:
        # Performance (issue 25): a history may number every row by its round; a lookup, not a scan
        return {recorded.id: index for index, (recorded, _) in enumerate(self.entries)}

    def rows(self, before: int | None = None, count: int = 50, skip: int = 0) -> tuple[list[Recorded], int | None]:
        """A page of the history, newest first: up to `count` rows older than the row `before`
        (None: from the newest row on, `skip` rows left out), and the id of the oldest row
        given, to ask for the page before it with (None: there is none)."""
        if before is None:
            end = max(0, len(self.history) - skip)
        else:
            end = bisect.bisect_left(self._ids, before)
        start = max(0, end - count)
        return list(reversed(self.history[start:end])), (self.history[start].id if start > 0 else None)

    @cached_property
    def _ids(self) -> list[int]:
        return [recorded.id for recorded in self.history]

    def derived(self, key: str, make: Callable[[Played], T]) -> T:
        """What a screen works out from the whole game (the score after each deal, say),
        made once for this fold and kept with it: a history of 2,000 rows asks for it per row."""
        made = self.__dict__.setdefault("_derived", {})
        if key not in made:
            made[key] = make(self)
        return made[key]

    def replaced(self, index: int, event: dict, pace: Callable[[], None] | None = None) -> Any:
        """The state after every entry with entry `index` replaced by `event`; EntryMisfits
        when the game no longer follows the rules. `pace`: called between entries (`Pace`)."""
        state = self.game.start()
        for number, (_, candidate) in enumerate(self.entries, 1):
            if pace:
                pace()
            try:
                state = self.game.apply(state, event if number == index + 1 else candidate)
            except RuleError as error:
                raise EntryMisfits(number, error) from None
        return state

    def misfit(self, index: int, event: dict, pace: Callable[[], None] | None = None) -> EntryMisfits | None:
        """Why entry `index` cannot become `event` (`replaced`), or None."""
        try:
            self.replaced(index, event, pace)
        except EntryMisfits as misfit:
            return misfit
        return None

    def log(self) -> dict:
        """The game as a scorekeeper-log/1 document."""
        events = []
        for recorded, event in self.entries:
            events.append({**event, "at": recorded.at or None, "by": recorded.by})  # "": not known (import_log)
        return {**self.header, "events": events}


# What a fold holds in memory per byte of its events' JSON (states, records, results): an
# estimate erring high (the issue measured ~2.5 MB for a 60 KB log of card-game redeals, ~40×; a
# plain game's fold holds far less), so the cache's budget is not overrun
FOLD_BYTES_PER_JSON_BYTE = 40
FOLD_BASE_BYTES = 16 << 10


def _fold_size(history: Iterable[Recorded], header: str, pace: Callable[[], None] | None = None) -> int:
    payload = 0
    for recorded in history:
        if pace:
            pace()
        payload += len(json.dumps(recorded.event)) if recorded.event else 16
    return FOLD_BASE_BYTES + FOLD_BYTES_PER_JSON_BYTE * (payload + len(header))


def load(db: sqlite_utils.Database, game_row: dict, remember: bool = True, whole: bool = True) -> Played | None:
    """The game folded from its events, from the database's fold cache when it is up to date.
    `remember=False` inside a transaction that wrote events: its fold must not outlive a rollback;
    `whole=False`: None rather than folding all its events (`Write.played`)."""
    last = db.execute("SELECT coalesce(max(id), 0) FROM events WHERE game_id = ?",
                      [game_row["id"]]).fetchone()[0]
    drafts = db.execute("SELECT payload, by, at FROM drafts WHERE game_id = ? AND payload IS NOT NULL",
                        [game_row["id"]]).fetchall()
    draft = {"payload": json.loads(drafts[0][0]), "by": drafts[0][1], "at": drafts[0][2]} if drafts else None
    cache: FoldCache = db.folds
    # a long fold (an imported log of 2,000 events) lets the worker's other requests run between
    # its steps, unless it is inside a write transaction (`gamelog.cooperate`)
    cooperative = not db.conn.in_transaction
    cached = cache.get(game_row["id"])
    if cached and cached.row["header"] != game_row["header"]:
        cached = None
    if cached and cached.last_event_id == last:
        metrics.fold("hit")
        return cached if cached.draft == draft else replace(cached, draft=draft)
    # Performance (bench/): when the cached fold is only some entries behind, apply just the
    # new ones to its state instead of folding the whole game again — the same result, since
    # a fold applies its entries in order; an undo or correction among them folds it all.
    since = cached.last_event_id if cached and cached.game is not None and cached.last_event_id < last else 0
    history = history_of(db, game_row["id"], since, last, cooperative)
    if since and all(recorded.kind == "entry" for recorded in history):
        state, pace = cached.state, Pace() if cooperative else None
        for recorded in history:
            if pace:
                pace()
            previous, state = state, cached.game.apply(state, recorded.event)
        played = replace(cached, row=game_row, entries=cached.entries + tuple((r, r.event) for r in history),
                         history=cached.history + tuple(history), state=state,
                         result=cached.game.engine.result(state), last_event_id=last, draft=draft,
                         previous=previous, size=cached.size + _fold_size(history, "", pace) - FOLD_BASE_BYTES)
    elif (since and len(history) == 1 and history[0].kind == "undo" and cached.previous is not None
          and cached.entries and history[0].target == cached.entries[-1][0].id):
        # Performance (issue 25): the last entry undone is the state before it, which the fold
        # kept: a game of 2,000 entries is not folded again for each undo (an undo a second)
        played = replace(cached, row=game_row, entries=cached.entries[:-1], history=cached.history + tuple(history),
                         state=cached.previous, result=cached.game.engine.result(cached.previous),
                         last_event_id=last, draft=draft, previous=None,
                         size=cached.size + _fold_size(history, "") - FOLD_BASE_BYTES)
        metrics.fold("partial")
    else:
        if not whole:
            return None
        if since:  # the whole history, then
            history = history_of(db, game_row["id"], 0, last, cooperative)
        played = replace(fold(game_row, history, last, cooperative), draft=draft)
        metrics.fold("miss")
    if remember:
        cache.put(game_row["id"], played, played.size)
    return played


def fold(game_row: dict, history: list[Recorded], last_event_id: int, cooperative: bool = False) -> Played:
    header = json.loads(game_row["header"])
    effective: dict[int, tuple[Recorded, dict]] = {}
    before: dict[int, dict] = {}
    for recorded in history:
        if recorded.kind == "entry":
            effective[recorded.id] = (recorded, recorded.event)
        elif recorded.kind == "undo":
            effective.pop(recorded.target, None)
        elif recorded.kind == "correct" and recorded.target in effective:
            before[recorded.id] = effective[recorded.target][1]
            effective[recorded.target] = (effective[recorded.target][0], recorded.event)
    try:
        game = read_header({**header, "events": []})
    except LogError:
        game = None
    state = result = previous = None
    pace = Pace() if cooperative else None
    if game is not None:
        state = game.start()
        for _, event in effective.values():
            if pace:
                pace()
            previous, state = state, game.apply(state, event)
        if pace:
            pace()
        result = game.engine.result(state)
    return Played(game_row, game, header, tuple(effective.values()), tuple(history), state, result,
                  last_event_id, before, size=_fold_size(history, game_row["header"], pace),
                  previous=previous if effective else None)


# --- the evening's ledger -----------------------------------------------------------------


EVENING_TABLES = 24  # tables an evening's ledger walks back through at most


def evening_tables(db: sqlite_utils.Database, table_id: int) -> list[int]:
    """The tables of the evening that goes on at `table_id`: it, and the tables whose settlement
    opened it (`tables.next_table`, `follow_on`), and theirs, back to where the evening began;
    oldest first. A next table is always opened after its table, so the walk ends."""
    rows = db.execute(
        "WITH RECURSIVE evening(id, depth) AS (SELECT ?, 0 UNION "
        "SELECT t.id, e.depth + 1 FROM tables t JOIN evening e ON t.next_table = e.id "
        "WHERE t.id < e.id AND e.depth < ?) SELECT id FROM evening ORDER BY id",
        [table_id, EVENING_TABLES - 1]).fetchall()
    return [table for (table,) in rows]


def ledger(db: sqlite_utils.Database, table_id: int) -> dict:
    """Money per side over the finished games of the evening's tables (this one and those it
    went on from: `evening_tables`) and the imported games their hosts confirmed were played
    there (a claim that still stands: `Claim.counts`), and who pays whom once for all; worked
    out once per change of those tables and games (issue 25: a table of hundreds of games
    folded each on every history page and finished board). An evening that went on at another
    game's table counted there only that table's games: who pays whom tonight left out the
    money won at the first table."""
    tables = evening_tables(db, table_id)
    marks = ", ".join("?" * len(tables))
    # a confirmed game changed at its own table no longer counts: no change of this table says so
    claimed = tuple(db.execute(
        "SELECT c.game_id, c.last_event = (SELECT coalesce(max(e.id), 0) FROM events e WHERE e.game_id = c.game_id) "
        f"FROM claims c WHERE c.table_id IN ({marks}) AND c.status = 'confirmed' ORDER BY c.id", tables))
    key = ("ledger", table_id, tuple(tables), store.last_changes(db, tables), claimed)
    found = db.folds.derived.get(key)
    if found is None:
        found = _ledger(db, table_id, tables, [game_id for game_id, stands in claimed if stands])
        if not db.conn.in_transaction:
            db.folds.derived.put(key, found)
    return found


def _ledger(db: sqlite_utils.Database, table_id: int, tables: list[int], claimed: list[int]) -> dict:
    totals: dict[str, int] = {}
    currency, games, claims, apart, earlier = None, 0, 0, 0, set()
    # a table of many games: the worker's other requests go on between their folds (every few
    # ms, not every game: a game's last entry reads the ledger of its table, whose games are
    # folded already, and each chance came back 15–50 ms later under an attack: issue 25)
    pace = Pace()
    # this table's games first: their currency is the evening's (an earlier table's, or an imported
    # game's, in another is left out)
    rows = [*games_of(db, table_id), *(row for table in reversed(tables) if table != table_id
                                       for row in games_of(db, table)),
            *(db["games"].get(game_id) for game_id in claimed)]
    # a name as this table's seat spells it: an imported log's "anna", an earlier table's "ANNA"
    seat_of = _names_at(db, table_id, spell=str) if claimed or len(tables) > 1 else str
    for row in rows:
        if not db.conn.in_transaction:
            pace()
        played = load(db, row)
        if not played.finished or "money" not in (played.result or {}):
            continue
        here = row["table_id"] == table_id
        own = row["table_id"] in tables
        if not here and currency not in (None, played.result.get("currency")):
            apart += 1  # money in another currency is not added to this evening's
            continue
        currency = played.result.get("currency", currency)
        games += 1
        claims += 0 if own else 1
        if own and not here:
            earlier.add(row["table_id"])
        for side, amount in played.result["money"].items():
            side = side if here else seat_of(side)
            totals[side] = totals.get(side, 0) + text_cents(amount)
    return {"currency": currency, "cents": totals, "games": games, "claims": claims, "apart": apart,
            "tables": len(earlier), "transfers": fewest_transfers(totals) if totals else []}


# --- moving games in and out ----------------------------------------------------------------


def import_log(db: sqlite_utils.Database, doc: Any, device: str = "import", address: str | None = None,
               played_at: str | None = None) -> dict:
    """A finished or unfinished game log becomes a new table, marked imported (LogError if it
    is refused; Refused past the limits of a device and an address). Its players' and teams'
    names are cleaned and compared as a table's are. `played_at`, the code of the real table
    the game was played at: the game then claims that table, and its money counts in the
    statistics once that table's host confirms it (see `_claim_refusal`).

    `address` None is the command line (`scorekeeper import`), whose user owns the server: it
    is not limited, and may name a table without a phone seated there; everything else about a
    claim (the same game, the players, the times) is checked as for a phone."""
    from .gamelog import fold as fold_log

    doc = _clean_log(doc)
    game = read_header(doc)
    # a log of thousands of redeals folded into every statistics page (issue 16): a real
    # evening's game has a few hundred events
    if len(doc["events"]) > MAX_LOG_EVENTS:
        raise LogError("events: a game log has at most %(most)s events, this one has %(count)s",
                       most=MAX_LOG_EVENTS, count=len(doc["events"]))
    # a table seats at most MAX_SEATS, imported or not: a log of thousands of players (which
    # /import takes from anyone) made a table that slowed every statistics page (test_fuzz.py)
    if len(game.setup.players) > MAX_SEATS:
        raise LogError("players: a table has at most %(seats)s seats, this log has %(players)s players",
                       seats=MAX_SEATS, players=len(game.setup.players))
    _check_names(list(game.setup.players))  # no look-alike names at one table, imported or not
    _check_team_names(doc.get("teams"))
    if address is not None:  # past the limit: refused before the events are folded (a big log costs)
        check_limit(db, IMPORTS, device, address)
    real = None
    if played_at and played_at.strip():
        # a wrong code counts against the address like a wrong code typed to join (no guessing)
        # ("or scan the QR code", the join page's way on, is none on the import page)
        real = _by_code(db, played_at, address, None, locked=WRONG_CODES_IMPORTING)
        _claimant_refusal(db, real, device, by_owner=address is None)  # a stranger's log is not folded
    state = fold_log(game, doc["events"])  # refuse before writing anything
    header = {k: v for k, v in doc.items() if k != "events"}
    if real is not None and not game.engine.result(state).get("finished"):
        raise Refused("Only a finished game can name the table it was played at: this one is not over.", 400)
    # Performance (bench/attack.py): the events' rows and the game's statistics are made before
    # the write lock is taken, which is then held for the inserts only, and the worker's other
    # requests go on between their steps (`cooperate`)
    # an event's time is when it was played, if the log says: one it does not say is stored as
    # "" (no time), not as the import's moment, which its row showed, and an export gave again,
    # as when it was played (web/history.py, entry_time). The statistics still order such a game
    # by its import (whose spelling of a name is the latest: stats.combine), as before: the
    # game's `created_at`, as web/players.py does when it folds the game again
    rows, pace = [], Pace()
    for event in doc["events"]:
        event = {k: v for k, v in event.items() if v is not None}
        rows.append(["entry", json.dumps({k: v for k, v in event.items() if k not in ("at", "by")}),
                     event.get("by"), device, event.get("at") or ""])
        pace()
    when = stats.started({**header, "events": [{"at": row[4] or None} for row in rows[:1]]})
    summarised = stats.summarise(doc, state=state)
    cooperate()

    def copy(change: Write) -> dict:
        if address is not None:  # the CLI imports unlimited: its user owns the server
            spend(change.db, IMPORTS, device, address)
        claim = None
        if real is not None:
            claim = _claim_refusal(change.db, real, game, state, doc, device, by_owner=address is None)
        table = change.open_table(device, doc["game"], header, ((name, "player") for name in game.setup.players))
        change.db["tables"].update(table["id"], {"imported": 1})
        game_id = change.game["id"]
        # one statement for every event, not a call each
        change.db.conn.executemany("INSERT INTO events (game_id, kind, payload, by, device, at) "
                                   "VALUES (?, ?, ?, ?, ?, ?)", ([game_id, *row] for row in rows))
        last = change.db.execute("SELECT coalesce(max(id), 0) FROM events WHERE game_id = ?", [game_id]).fetchone()[0]
        store.insert(change.db, "summaries", {"game_id": game_id, "last_event": last,
                                              "summary": stats.to_json(when or change.game["created_at"], summarised)})
        if real is not None:
            change.db["claims"].insert({"table_id": real["id"], "code": real["code"], "game_id": game_id,
                                        "last_event": last, "digest": claim, "device": device, "status": "open",
                                        "at": now(), "answered_at": None})
        return table

    return write(db, None, None, copy)


def _clean_log(doc: Any) -> Any:
    """The log with its players' and teams' names cleaned as a table's are (`names.clean_name`:
    a name with a Hangul filler or a variation selector is the name without it), and every
    reference to a player whose name cleaning changed (an event's player, a side named
    in an entry, a rule naming the first dealer) spelt as that player now is. A name cleaned to nothing is
    then refused by the log's own checks; anything else malformed is left to them too."""
    if not isinstance(doc, dict):
        return doc
    renamed: dict[str, str] = {}
    for name in doc.get("players") if isinstance(doc.get("players"), list) else ():
        if isinstance(name, str) and clean_name(name) != name.strip():
            renamed[name.strip().casefold()] = clean_name(name)
    for team in doc.get("teams") if isinstance(doc.get("teams"), list) else ():
        name = team.get("name") if isinstance(team, dict) else None
        if isinstance(name, str) and clean_name(name) != name.strip():
            renamed[name.strip().casefold()] = clean_name(name)

    def spelt(value: Any) -> Any:
        if isinstance(value, str):
            return renamed.get(value.strip().casefold(), value)
        if isinstance(value, list):
            return [spelt(item) for item in value]
        if isinstance(value, dict):
            return {spelt(key): spelt(item) for key, item in value.items()}
        return value

    cleaned = dict(doc)
    if isinstance(doc.get("players"), list):
        cleaned["players"] = [clean_name(name) if isinstance(name, str) else name for name in doc["players"]]
    if "teams" in doc:
        cleaned["teams"] = _clean_teams(doc["teams"])
    if renamed:
        if isinstance(doc.get("rules"), dict):
            cleaned["rules"] = {key: spelt(value) for key, value in doc["rules"].items()}
        if isinstance(doc.get("events"), list):  # an event's own keys stay as they are
            cleaned["events"] = [{key: spelt(value) for key, value in event.items()} if isinstance(event, dict)
                                 else event for event in doc["events"]]
    return cleaned


# --- an imported game that claims a real table --------------------------------------------------
#
# Anyone can write a log, so an imported game's money never counts in the statistics on its
# own. The importer may name the table the game was really played at; that table's host then
# confirms the money (or dismisses the claim). What a claim must be: a finished game, imported
# by a phone seated at the table it names (or its host); the table a real one (not itself
# imported) with real play (entries made at it), opened before the game started; every player
# of the game sat at it (names compared as look-alikes); the same game — compared as the
# engine read it, `normal_game` — neither played at the table itself (nor continued from a
# game played there) nor naming it already, nor dismissed there before. A refusal never says
# who sits at the table. The host confirms nothing they could not have entered at their own
# table: a host writes for every side there. Once confirmed, the game counts with its money
# for every phone of that table, as long as it stays as confirmed (an undo or correction at
# the imported table voids it).

DIGEST_VERSION = "v2:"  # digests made by `game_digest`; older ones are made again when met


def normal_game(game: Game, state: Any, name_of: Callable[[str], str] = skeleton) -> dict:
    """A game as its engine read it, so that no spelling makes it another: its game, players
    (each name as `name_of` spells it; by default its skeleton) and teams (by their players,
    not their names), its rules with their defaults filled in, and what the engine recorded of
    each entry (the state's records in order, without the details its engine names: a cell with
    its value, not the dice that made it), each side named alike wherever it appears.
    """
    setup, details = game.setup, game.engine.details
    players = {skeleton(player): "player:" + name_of(player) for player in setup.players}
    # a team is who plays in it: its name is a label a copy could change
    teams = {skeleton(side.name): "team:" + "+".join(sorted(players[skeleton(m)] for m in side.members))
             for side in setup.sides} if setup.teams else {}
    # in a team game the side scores, whichever partner wrote (a cell, a maker)
    side_of = {skeleton(player): teams[skeleton(setup.side_of(player).name)]
               for player in setup.players} if teams else {}

    def named(text: str, record: bool) -> str:
        key = skeleton(text)
        if key in teams:
            return teams[key]
        if key in players:
            return side_of.get(key, players[key]) if record else players[key]
        return text

    def normal(value: Any, record: bool) -> Any:
        if isinstance(value, Enum):
            return value.value
        if value is None or isinstance(value, (bool, int)):
            return value
        if isinstance(value, str):
            return named(value, record)
        if isinstance(value, Decimal):
            return f"{value.normalize():f}"
        if isinstance(value, float):
            return repr(value)
        if is_dataclass(value) and not isinstance(value, type):
            return {f.name: normal(getattr(value, f.name), record) for f in fields(value) if f.name not in details}
        if isinstance(value, Mapping):
            return sorted(([normal(k, record), normal(v, record)] for k, v in value.items()), key=_ordered)
        if isinstance(value, (list, tuple)):
            return [normal(item, record) for item in value]
        if isinstance(value, (set, frozenset)):
            return sorted((normal(item, record) for item in value), key=_ordered)
        return repr(value)

    # the records are the state's sequences (entries, turns, rounds, deals); the rest of a
    # state (pads, totals, the winner) follows from them
    records = {f.name: normal(getattr(state, f.name), True) for f in fields(state)
               if isinstance(getattr(state, f.name), tuple)} if is_dataclass(state) else {"state": normal(state, True)}
    return {"game": game.engine.name, "players": [players[skeleton(p)] for p in setup.players],
            "teams": [[teams[skeleton(side.name)], [players[skeleton(m)] for m in side.members]]
                      for side in setup.sides] if teams else None,
            "rules": normal(game.rules, False), "records": records}


def _ordered(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def game_digest(normal: dict) -> str:
    """What makes two logs one game: the digest of their `normal_game`."""
    return DIGEST_VERSION + hashlib.sha256(_ordered(normal).encode()).hexdigest()


def _continues(own: dict, claimed: dict) -> bool:
    """Whether the claimed game is this game of the table, or goes on from it: the same game,
    players, teams and rules, and each of the table's records its first ones."""
    head = ("game", "players", "teams", "rules")
    if any(own[key] != claimed[key] for key in head) or own["records"].keys() != claimed["records"].keys():
        return False
    return all(claimed["records"][key][:len(records)] == records for key, records in own["records"].items())


def _names_at(db: sqlite_utils.Database, table_id: int, players: Iterable[str] = (),
              spell: Callable[[str], str] = skeleton) -> Callable[[str], str] | None:
    """How a game naming this table spells each name: the skeleton (or as `spell` spells it)
    of the seat it looks like (each of `players` its own seat, none twice; None when one of
    them has no seat there)."""
    seated = [seat["name"] for seat in seats(db, table_id)]

    def seat_like(name: str, taken: Iterable[str] = ()) -> str | None:
        for same in (lambda s: s == name, lambda s: s.casefold() == name.casefold(), lambda s: look_alike(s, name)):
            found = next((s for s in seated if s not in taken and same(s)), None)
            if found is not None:
                return found
        return None

    matched: dict[str, str] = {}
    for player in players:
        seat = seat_like(player, matched.values())
        if seat is None:
            return None
        matched[player] = seat
    return lambda name: spell(matched.get(name) or seat_like(name) or name)


def _own_games(db: sqlite_utils.Database, table_id: int, name_of: Callable[[str], str]) -> Iterable[dict]:
    """The table's own games with entries, normalised."""
    for row in games_of(db, table_id):
        own = load(db, row)
        if own.game is not None and own.entries:
            yield normal_game(own.game, own.state, name_of)


def _played_elsewhere(db: sqlite_utils.Database, real: dict, game: Game, state: Any) -> bool:
    """Whether a game claiming `real` is, or goes on from, a game played for real at another
    table of this server in the day before `real` opened or since (an evening's tables).
    Asked inside the import's write: only a game of the same players, with an entry, is folded
    (not every game of a busy server since, each a fold with every other write waiting)."""
    since = (datetime.fromisoformat(real["created_at"]) - timedelta(days=1)).isoformat(timespec="seconds")
    players = {skeleton(player) for player in game.setup.players}
    rows = store.rows(db, "SELECT g.* FROM games g JOIN tables t ON t.id = g.table_id "
                          "WHERE g.game = ? AND t.imported = 0 AND t.id != ? AND g.created_at >= ? "
                          "AND json_array_length(g.header, '$.players') = ? "
                          "AND EXISTS (SELECT 1 FROM events e WHERE e.game_id = g.id AND e.kind = 'entry')",
                      [game.engine.name, real["id"], since, len(players)])
    claimed = normal_game(game, state)
    for row in rows:
        if {skeleton(player) for player in json.loads(row["header"]).get("players", [])} != players:
            continue
        other = load(db, row)
        if other.game is not None and other.entries and _continues(normal_game(other.game, other.state), claimed):
            return True
    return False


def _claim_digests(db: sqlite_utils.Database, table_id: int, name_of: Callable[[str], str]) -> list[dict]:
    """The claims naming this table with their digests; a digest of an older kind is made
    again from its game (and kept when the write commits), so that each compares with a new
    claim's."""
    rows = list(db["claims"].rows_where("table_id = ?", [table_id]))
    for row in rows:
        if not row["digest"].startswith(DIGEST_VERSION):
            played = load(db, db["games"].get(row["game_id"]))
            if played.game is not None:
                row["digest"] = game_digest(normal_game(played.game, played.state, name_of))
                db["claims"].update(row["id"], {"digest": row["digest"]})
    return rows


def _claim_refusal(db: sqlite_utils.Database, real: dict, game: Game, state: Any, doc: dict, device: str,
                   by_owner: bool = False) -> str:
    """Refuse a game claiming the table `real` that may not (see above); its digest if it may.
    `by_owner`: the command line's user, who may name a table without a phone seated there."""
    real = db["tables"].get(real["id"])  # as it stands inside this transaction
    code = real["code"]
    _claimant_refusal(db, real, device, by_owner)
    if real["imported"]:
        raise Refused("Table %(code)s holds an imported game itself: name the table where the game was "
                      "played.", 400, code=code)
    played = db.execute("SELECT count(*) FROM events e JOIN games g ON g.id = e.game_id "
                        "WHERE g.table_id = ? AND e.kind = 'entry'", [real["id"]]).fetchone()[0]
    if not played:
        raise Refused("Nothing has been played at table %(code)s yet: a game can only name a table "
                      "where its players played.", 400, code=code)
    _check_claim_times(doc, real)
    name_of = _names_at(db, real["id"], game.setup.players)
    if name_of is None:  # never who sits there: the phone may be anyone's with the code
        raise Refused("Some players of this game did not sit at table %(code)s: a game can only name the "
                      "table its players sat at.", 400, code=code)
    claimed = normal_game(game, state, name_of)
    if any(_continues(own, claimed) for own in _own_games(db, real["id"], name_of)):
        raise Refused("This game was played at table %(code)s itself: its money counts already.", 409, code=code)
    if _played_elsewhere(db, real, game, state):
        # its own table's ledger counts it: named here too, confirmed, this ledger asked for the
        # same money a second time (the other table's code is no business of the importer's)
        raise Refused("This game was played at another table here: its money counts there already.", 409)
    digest = game_digest(claimed)
    same = [row for row in _claim_digests(db, real["id"], name_of) if row["digest"] == digest]
    if any(row["status"] == "dismissed" for row in same):
        raise Refused("The host of table %(code)s dismissed this game already: it cannot name the table "
                      "again.", 409, code=code)
    if same:
        raise Refused("The same game already names table %(code)s.", 409, code=code)
    return digest


def _claimant_refusal(db: sqlite_utils.Database, real: dict, device: str, by_owner: bool) -> None:
    """Refuse a claim on `real` from a phone neither seated there (and let in) nor its host:
    the code alone, old or new, names no table (the command line's user, `by_owner`, may)."""
    if not by_owner:
        require("claim", viewer(db, real, device), None, real)


# a time without its offset from UTC is read as late as any time zone can make it (UTC−12),
# a day without a time as its end: a game's time is refused as earlier than its table only
# when it is earlier everywhere
LATEST_ZONE = timezone(timedelta(hours=-12))


def _check_claim_times(doc: dict, table: dict) -> None:
    """Refuse a game whose `started_at` or an entry's `at` is earlier than the table it names
    was opened, or cannot be read as a time."""
    opened = datetime.fromisoformat(table["created_at"])
    times = [doc.get("started_at"), *(event.get("at") for event in doc["events"] if isinstance(event, dict))]
    for value in times:
        if not isinstance(value, str):  # no time given (the table's page shows when it was imported)
            continue
        try:
            when = datetime.fromisoformat(value.strip())
        except ValueError:
            raise Refused("The time %(time)s in this game cannot be read: a game that names a table gives "
                          "its times like 2024-05-01T20:15:00+02:00.", 400, time=describe(value[:40])) from None
        if len(value.strip()) <= len("2024-05-01") and when.date() < date.max:  # a day: any time of it
            when += timedelta(days=1)  # (the calendar's last day, 9999-12-31, has no next: a 500)
        if when.tzinfo is None:
            when = when.replace(tzinfo=LATEST_ZONE)
        if when < opened:
            raise Refused("This game started before table %(code)s was opened: a game can only name the "
                          "table it was played at.", 400, code=table["code"])


@dataclass(frozen=True)
class Claim:
    """An imported game naming a real table, as both tables' screens show it."""

    row: dict
    played: Played  # the imported game as it stands now

    @property
    def status(self) -> str:
        return self.row["status"]

    @property
    def when(self) -> str:
        """When the game was played: the log's `started_at`, else its first entry's time."""
        started = self.played.header.get("started_at")
        if isinstance(started, str):
            return started
        # an imported entry without a time ("", import_log): when it was imported, as before
        return (self.played.entries[0][0].at if self.played.entries else None) or self.played.row["created_at"]

    @property
    def changed(self) -> bool:
        """The imported game changed (an undo, a correction, a new entry) since it claimed the table."""
        return self.played.last_event_id != self.row["last_event"]

    @property
    def counts(self) -> bool:
        """Its money counts in the statistics: confirmed, and as it was confirmed."""
        return self.status == "confirmed" and not self.changed


def claims_at(db: sqlite_utils.Database, table_id: int) -> list[Claim]:
    """The imported games naming this table, newest first."""
    rows = db["claims"].rows_where("table_id = ?", [table_id], order_by="id desc")
    return [Claim(row, load(db, db["games"].get(row["game_id"]))) for row in rows]


def claim_of(db: sqlite_utils.Database, table_id: int) -> Claim | None:
    """The claim an imported table's game makes, if it names a table."""
    rows = list(db.query("SELECT c.* FROM claims c JOIN games g ON g.id = c.game_id WHERE g.table_id = ?",
                         [table_id]))
    return Claim(rows[0], load(db, db["games"].get(rows[0]["game_id"]))) if rows else None


def counted_claims(db: sqlite_utils.Database, table_ids: Iterable[int]) -> dict[int, int]:
    """Imported games whose money counts for phones of these tables (a confirmed claim on one of
    them, or made by one of them): game id -> the last event it was confirmed with."""
    ids = list(table_ids)
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    return {game_id: last for game_id, last in db.execute(
        "SELECT c.game_id, c.last_event FROM claims c JOIN games g ON g.id = c.game_id "
        f"WHERE c.status = 'confirmed' AND (c.table_id IN ({marks}) OR g.table_id IN ({marks}))", ids + ids)}


def answer_claim(db: sqlite_utils.Database, table: dict, who: Viewer, claim_id: Any, answer: str) -> None:
    """The host of the named table confirms an imported game's money ("confirm") or dismisses
    it ("dismiss"); nobody else may, and each claim is answered once."""
    require("answer_claim", who)
    if answer not in ("confirm", "dismiss"):
        raise Refused("Confirm or dismiss the imported game.", 400)

    def answer_it(change: Write) -> None:
        try:
            rows = list(change.db["claims"].rows_where("id = ? AND table_id = ?", [int(claim_id), table["id"]]))
        # OverflowError: an id past SQLite's 64 bits
        except (TypeError, ValueError, OverflowError):
            rows = []
        if not rows:
            raise Refused("No imported game names this table under that number.", 404)
        claim = rows[0]
        if claim["status"] != "open":
            raise Refused("This imported game has been answered already.", 409)
        if answer == "confirm":
            played = load(change.db, change.db["games"].get(claim["game_id"]))
            if played.last_event_id != claim["last_event"]:
                raise Refused("The imported game was changed after it named this table: it cannot be "
                              "confirmed.", 409)
            name_of = _names_at(change.db, table["id"])
            known = {row["id"]: row for row in _claim_digests(change.db, table["id"], name_of)}
            digest = known[claim["id"]]["digest"]
            if any(row["digest"] == digest and row["status"] == "confirmed" for row in known.values()):
                raise Refused("The same game is confirmed here already.", 409)
            # the table's own game may have gone on to be this one since the claim came
            if played.game is not None and any(_continues(own, normal_game(played.game, played.state, name_of))
                                               for own in _own_games(change.db, table["id"], name_of)):
                raise Refused("This game was played at table %(code)s itself: its money counts already.", 409,
                              code=table["code"])
        change.db["claims"].update(claim["id"], {"status": "confirmed" if answer == "confirm" else "dismissed",
                                                 "answered_at": now()})
        if answer == "confirm":  # the tables the evening went on to add it up (`ledger`): they change too
            _later_tables_changed(change.db, change.db["tables"].get(table["id"]), who)

    write(db, table, who, answer_it)
