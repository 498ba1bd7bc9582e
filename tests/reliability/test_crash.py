"""Crash durability: `kill -9` the production server in the middle of a busy evening.

Several tables (every registered game) are played at once through real HTTP against `scorekeeper serve`
with two gevent workers. At random moments the whole server (master and workers) gets SIGKILL.
While it is down, each phone keeps its unanswered entry and resends it with the same
idempotency key (and the board it shows now), as app.js does. After every crash, before the restart, the database is
checked as it lies on disk: every entry whose POST was answered 2xx is there, nothing else is
(except the one entry each phone was still waiting for), SQLite's integrity check is ok and
every game folds through its rules. After the restart every board renders; at the end every
table's exported log is exactly the entries its phones were told were written.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import sqlite3
import threading
import time
import uuid

from scorekeeper.games import GAMES
from tests.games import SUPPORT


CRASHES = int(os.environ.get("SCOREKEEPER_CRASHES", "5"))
LOAD_SECONDS = (0.6, 2.0)  # each crash comes at a random moment within this much load
DEADLINE = 120  # seconds: the whole test, whatever happens
# (game, log): each driver plays the log's entries, then opens another table; every registered
# game's CRASH_LOGS (tests/games/<game>.py), the first log of each game first
SCRIPTS = sorted(((game, log) for game in GAMES for log in SUPPORT[game].CRASH_LOGS),
                 key=lambda script: SUPPORT[script[0]].CRASH_LOGS.index(script[1]))


class Stopped(Exception):
    pass


class Driver(threading.Thread):
    """One table's phones, entering a whole game entry by entry, and the next table after it."""

    def __init__(self, kit, server, game: str, log: dict, rng: random.Random, deadline: float) -> None:
        super().__init__(name=f"driver-{game}", daemon=True)
        self.kit, self.server, self.game, self.log = kit, server, game, log
        self.rng, self.deadline = rng, deadline
        self.lock = threading.Lock()
        self.acked: dict[str, list[str]] = {}  # table token -> idempotency keys answered 2xx, in order
        self.events: dict[str, list[dict]] = {}  # table token -> the acknowledged events, in order
        self.pending: tuple[str, str] | None = None  # (token, idem) sent but not yet answered
        self.boards: dict[str, str] = {}
        self.resent = 0
        self.stop = threading.Event()
        self.error: BaseException | None = None

    # -- one request, however many crashes it takes --

    def send(self, action):
        """Run `action()` until the server answers; connection errors (the server is down or
        died mid-request) mean: wait a little and send the very same request again."""
        tries = 0
        while True:
            if time.monotonic() > self.deadline:
                raise TimeoutError("the server did not come back in time")
            try:
                return action(), tries
            except (OSError, http.client.HTTPException):  # refused, reset, or cut off mid-answer
                tries += 1
                time.sleep(0.05)

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self.play_one_table()
        except Stopped:
            pass
        except BaseException as error:  # reported by the test
            self.error = error

    def play_one_table(self) -> None:
        players = self.log["players"]
        host = self.kit.WebPhone(self.server.url)
        opened, _ = self.send(lambda: host.open_table(self.game, players, self.log["rules"]))
        token = opened["token"]
        with self.lock:
            self.acked[token], self.events[token] = [], []
            self.boards[token] = opened["board"]
        phones = {}
        for name in players:
            phone = self.kit.WebPhone(self.server.url)
            phones[name.casefold()] = phone
            seat, _ = self.send(lambda: phone.seat_id(token, name))
            reply, _ = self.send(lambda: phone.post(f"/t/{token}/join", {"seat": seat}, fetch=False))
            # a join resent after a crash may find the first one written: that is a success
            assert reply.status == 303 or "already sits as" in reply.message, reply.message
        if self.log.get("teams"):
            reply, _ = self.send(lambda: host.write(f"/t/{token}/teams", {
                "action": "set", "teams": json.dumps(self.log["teams"])}))
            assert reply.status == 200, reply.message
        for event in self.log["events"]:
            if self.stop.is_set():
                raise Stopped
            event = {k: v for k, v in event.items() if k not in ("at", "by", "note")}
            if "player" in event:  # a game played in turns: made by the phone of the player it names
                phone = phones[event["player"].casefold()]
            else:
                phone = phones[self.rng.choice(players).casefold()]
            idem = uuid.uuid4().hex
            with self.lock:
                self.pending = (token, idem)
            reply, tries = self.send(lambda: phone.enter(token, event, idem=idem))
            assert reply.status == 200, (self.game, reply.status, reply.message, event)
            with self.lock:
                self.acked[token].append(idem)
                # stored as the engine read it: a null field is one left out (LOG-FORMAT.md)
                self.events[token].append({k: v for k, v in event.items() if v is not None})
                self.pending = None
                self.resent += tries

    def snapshot(self):
        with self.lock:
            return {t: list(keys) for t, keys in self.acked.items()}, self.pending


def stored_keys(database, token: str) -> list[str]:
    """The idempotency keys of a table's entries as stored, in order (device prefix dropped)."""
    conn = sqlite3.connect(database)
    try:
        rows = conn.execute(
            "SELECT e.idem FROM events e JOIN games g ON g.id = e.game_id JOIN tables t ON t.id = g.table_id "
            "WHERE t.join_token = ? AND e.kind = 'entry' ORDER BY e.id", [token]).fetchall()
    finally:
        conn.close()
    return [idem.split(":", 1)[1] for (idem,) in rows if idem]


def check_on_disk(kit, database, drivers) -> tuple[int, int]:
    """With the server dead: acknowledged entries all there, nothing unasked-for, all legal."""
    acknowledged = in_flight_written = 0
    for driver in drivers:
        acked, pending = driver.snapshot()
        for token, keys in acked.items():
            stored = stored_keys(database, token)
            extra = stored[len(keys):]
            assert stored[:len(keys)] == keys, f"{driver.game} {token}: acknowledged entries missing or reordered"
            assert extra in ([], [pending[1]] if pending and pending[0] == token else []), \
                f"{driver.game} {token}: entries nobody was told about: {extra}"
            acknowledged += len(keys)
            in_flight_written += len(extra)
    kit.check_database(database)
    return acknowledged, in_flight_written


def test_kill_9_mid_load_loses_no_acknowledged_entry(kit, tmp_path, figures):
    seed = int(os.environ.get("SCOREKEEPER_SEED") or random.SystemRandom().randrange(1 << 30))
    rng = random.Random(seed)
    deadline = time.monotonic() + DEADLINE
    server = kit.Server(tmp_path / "instance", workers=2)
    drivers = [Driver(kit, server, game, kit.load_log(game, name), random.Random(rng.random()), deadline)
               for game, name in SCRIPTS]
    try:
        for driver in drivers:
            driver.start()
        in_flight_written = 0
        for crash in range(CRASHES):
            time.sleep(rng.uniform(*LOAD_SECONDS))
            server.kill()
            figures.add("crash", "crashes")
            _, written = check_on_disk(kit, server.database, drivers)
            in_flight_written += written
            assert not any(d.error for d in drivers), [d.error for d in drivers if d.error]
            server.start()
            # boards render after the restart, for a stranger's phone and the read-only link: each
            # driver's table in play and a few earlier ones (every table's log is checked at the end)
            for driver in drivers:
                with driver.lock:
                    boards = list(driver.boards.items())
                for token, board in boards[-1:] + rng.sample(boards[:-1], min(3, len(boards) - 1)):
                    viewer = kit.WebPhone(server.url)
                    assert viewer.get(f"/t/{token}").status == 200, (seed, token)
                    assert viewer.get(f"/b/{board}").status == 200, (seed, board)
                    figures.add("crash", "boards_rendered", 2)
        time.sleep(rng.uniform(*LOAD_SECONDS))
        for driver in drivers:
            driver.stop.set()
        for driver in drivers:
            driver.join(max(1, deadline - time.monotonic()))
            assert not driver.is_alive(), f"seed {seed}: {driver.game} driver hung"
            assert driver.error is None, f"seed {seed}: {driver.game}: {driver.error!r}"
        # the end of the evening: every table's log is exactly what its phones were told
        reader = kit.WebPhone(server.url)
        for driver in drivers:
            for token, events in driver.events.items():
                reply = reader.get(f"/t/{token}/games/1/log.json", fetch=False)
                assert reply.status == 200
                logged = [{k: v for k, v in e.items() if k not in ("at", "by")}
                          for e in json.loads(reply.text)["events"]]
                assert logged == events, f"seed {seed}: {driver.game} {token}"
        server.stop()
        acknowledged, _ = check_on_disk(kit, server.database, drivers)
        assert server.server_errors() == [], server.log_tail()
    finally:
        for driver in drivers:
            driver.stop.set()
        server.kill()
    counts = kit.check_database(server.database)
    figures.add("crash", "entries_acknowledged", acknowledged)
    figures.add("crash", "entries_lost", 0)
    figures.add("crash", "in_flight_entries_found_written", in_flight_written)
    figures.add("crash", "requests_resent", sum(d.resent for d in drivers))
    figures.add("crash", "tables", counts["tables"])
    figures.set("crash", "last_seed", seed)
    assert acknowledged > 0
