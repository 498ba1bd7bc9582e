"""Area 6, a big game's pages (issue 25): the CPU one request of each route holds a worker for,
on the largest log an import takes of each game.

Each game's largest log (`tests/support.py`: `largest_log`, 2,000 events, Escalero's whole pad
of 396; and the issue's Euchre game padded with redeals) is imported into a table of its own,
and its importer — the host of that table — asks for every page of it through Flask's test
client in this process: the table page, the whole board, the history page, its next page, the
board's earlier entries and their next page, the statistics, the export; then the host undoes
the last entry and corrects the first (a write: the fold inside the write lock cannot let
others run). Each request is timed twice, the first time with the game's fold cache empty
(the first request a worker serves for it) and again with it warm (a loop of requests):

- `cpu_ms`: the request's CPU time in this thread (`time.thread_time`);
- `hold_ms`: the longest stretch of it between two chances for a gevent worker's other requests
  to run (`gamelog.cooperate`, which sleeps `gamelog.PAUSE`: every such sleep here is one), what
  "holds a worker" means: the target is ≤ 50 ms.

    python -m bench --only history            (part of the full run and of --smoke)
"""

from __future__ import annotations

import gc
import json
import os
import re
import shutil
import time

from scorekeeper import gamelog
from scorekeeper.games import GAMES as REGISTERED

from .common import Instance

TARGET_MS = 50.0
ROUTES = ("table", "board", "history", "history_more", "earlier", "earlier_more", "players", "export",
          "undo", "correct")


class Holds:
    """The longest stretch of CPU between two sleeps of gamelog.PAUSE (gamelog.cooperate), and the
    CPU in all, of what runs inside it."""

    def __init__(self) -> None:
        self.sleep = time.sleep

    def __enter__(self) -> "Holds":
        self.started = self.last = time.thread_time()
        self.longest = 0.0
        self.yields = 0

        def sleep(seconds: float) -> None:
            if 0 <= seconds <= gamelog.PAUSE:
                now = time.thread_time()
                self.longest = max(self.longest, now - self.last)
                self.last = now
                self.yields += 1
            self.sleep(seconds)

        time.sleep = sleep
        return self

    def __exit__(self, *exc) -> None:
        time.sleep = self.sleep
        now = time.thread_time()
        self.longest = max(self.longest, now - self.last)
        self.cpu = now - self.started


# every registered game's largest log, and issue 25's attack: a Euchre log padded with redeals
GAMES = (*REGISTERED, "euchre-redeals")


def logs(games=GAMES) -> dict[str, dict]:
    from tests.support import largest_log, padded_euchre_log

    return {game: padded_euchre_log() if game == "euchre-redeals" else largest_log(game) for game in games}


def measure(instance: Instance, name: str, doc: dict) -> dict:
    from scorekeeper import service, store

    app = instance.app
    host = instance.device()
    db = store.connect(instance.database)
    table = service.import_log(db, doc, device=host["device"])
    token, board_token = table["join_token"], table["board_token"]
    client = app.test_client(use_cookies=False)  # the device's cookie only
    headers = {"Cookie": host["cookie"], "X-CSRF-Token": host["csrf"]}
    htmx = {**headers, "HX-Request": "true"}
    out: dict = {"events": len(doc["events"]), "routes": {}}

    def timed(route: str, method: str, url: str, fresh: bool, **kwargs) -> str:
        if fresh:  # a worker's first request for the game: no fold, no rendered board
            app.extensions["scorekeeper.folds"].clear()
            app.extensions["scorekeeper.hub"].forget()
        with Holds() as holds:
            response = client.open(url, method=method, headers=kwargs.pop("headers", headers), **kwargs)
            body = response.get_data(as_text=True)
        if response.status_code >= 400:
            raise RuntimeError(f"{name} {route}: {response.status_code} {body[:200]}")
        figures = out["routes"].setdefault(route, {})
        figures["cold" if fresh else "warm"] = {"cpu_ms": round(holds.cpu * 1000, 2),
                                                "hold_ms": round(holds.longest * 1000, 2),
                                                "yields": holds.yields, "bytes": len(body)}
        return body

    def next_page(body: str) -> str | None:
        found = re.search(r'hx-get="([^"]+)"[^>]*data-more', body) or re.search(r'data-more[^>]*hx-get="([^"]+)"', body)
        return found.group(1).replace("&amp;", "&") if found else None

    for fresh in (True, False):
        timed("table", "GET", f"/t/{token}", fresh)
        timed("board", "GET", f"/t/{token}/board", fresh, headers=htmx)
        page = timed("history", "GET", f"/t/{token}/history", fresh)
        more = next_page(page)
        if more:
            timed("history_more", "GET", more, fresh, headers=htmx)
        earlier = timed("earlier", "GET", f"/t/{token}/board/earlier", fresh, headers=htmx)
        more = next_page(earlier)
        if more:
            timed("earlier_more", "GET", more, fresh, headers=htmx)
        timed("players", "GET", "/players", fresh)
        timed("export", "GET", f"/t/{token}/games/1/log.json", fresh)
    out["board_link_earlier"] = client.get(f"/b/{board_token}/board/earlier", headers={"HX-Request": "true"}).status_code
    # the host's writes: an undo of the last entry, then a correction of the first
    played = service.load(db, service.current_game(db, table["id"]))
    change = store.last_change(db, table["id"])
    body = timed("undo", "POST", f"/t/{token}/undo", True, headers=htmx,
                 data={"target": played.entries[-1][0].id, "change": change, "csrf": host["csrf"]})
    change = int(re.search(r'data-change="(\d+)"', body).group(1))
    # a correction of the first entry to what it is: the whole game folded again to check it
    first, event = played.entries[0]
    timed("correct", "POST", f"/t/{token}/correct", True, headers=htmx,
          data={"target": first.id, "event": json.dumps(event), "change": change, "csrf": host["csrf"]})
    db.conn.close()
    return out


def run(work: str, games=GAMES, log=print) -> dict:
    path = os.path.join(work, "history")
    shutil.rmtree(path, ignore_errors=True)
    instance = Instance(path)
    results = {"target_ms": TARGET_MS, "games": {}}
    found = logs(games)
    for name, doc in found.items():  # templates compiled (once a process), caches made
        measure(instance, name, {**doc, "events": doc["events"][:120]})
    # as `scorekeeper serve` keeps what lived a while out of the collector's sight
    # (serve.tend_collector): a full collection over the app is not a request's
    gc.collect()
    gc.freeze()
    for name, doc in found.items():
        results["games"][name] = figures = measure(instance, name, doc)
        worst = max((f[kind]["hold_ms"], route, kind) for route, f in figures["routes"].items() for kind in f)
        cpu = max((f[kind]["cpu_ms"], route, kind) for route, f in figures["routes"].items() for kind in f)
        log(f"  history {name} ({figures['events']} events): longest hold {worst[0]:.1f} ms ({worst[1]}, {worst[2]}),"
            f" most CPU {cpu[0]:.1f} ms ({cpu[1]}, {cpu[2]}) · board link's earlier entries: {figures['board_link_earlier']}")
    gc.unfreeze()
    shutil.rmtree(path, ignore_errors=True)
    return results
