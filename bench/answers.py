"""Every game's answers, as gzip bodies (issue 26: an entry's answer ≤ 1 KB; `weight` measures
Escalero's over the network, headers included): a whole game of each game's board log
(tests/games/<game>.py, `BOARD_LOG`; the full bench: every log of the game in tests/logs/<game>/)
entered by the host as its phone posts it, through the Flask client, and the gzip size of each
answer — an entry's, and a step's of a turn where the game keeps one (a throw kept, an escoba
tapped: posted before the entry that ends it, as the tray does). Mid-game leaves out a game's
first entry (it also carries the join form and the seat list) and its last (the settlement)."""

from __future__ import annotations

import gzip
import json
import os
import shutil
from pathlib import Path

from .common import ROOT

LOGS = Path(ROOT) / "tests" / "logs"


def throw_fields(throw: dict) -> dict:
    from tests.games.kaques import kept_indexes

    return {"dice": ",".join(map(str, throw["dice"])), "keep": kept_indexes(throw["dice"], throw["keep"])}


def kaques(phone, token: str, event: dict) -> tuple[list, object]:
    """A turn thrown throw by throw: each throw but the last kept and thrown again (a step),
    the last banked (the entry); a total typed in one go, the entry alone. Each posted with the
    tray's fields as its form sends them (the pad's faces say they are on the phone's page)."""
    from tests.support import form_fields

    tray = form_fields(phone.get(f"/t/{token}/board").get_data(as_text=True))
    throws = event.get("throws")
    if not throws:
        return [], phone.write(f"/t/{token}/kaques/turn", {**tray, "action": "total", "points": str(event["points"])})
    steps = [phone.write(f"/t/{token}/kaques/turn", {**tray, "action": "again", **throw_fields(throw)})
             for throw in throws[:-1]]
    return steps, phone.write(f"/t/{token}/kaques/turn", {**tray, "action": "stop", **throw_fields(throws[-1])})


def escoba(phone, token: str, event: dict, sides: list[str]) -> tuple[list, object]:
    """A round: each escoba tapped on the board as it was made (a step), then the round."""
    steps = [phone.write(f"/t/{token}/escoba/escobas", {"side": str(i), "delta": "1"})
             for i, side in enumerate(sides) for _ in range(event["sides"].get(side, {}).get("escobas", 0))]
    return steps, phone.enter(token, event)


def played(app, game: str, name: str) -> tuple[list, list, int]:
    """One log of `game` entered by the host as its phone posts it: the gzip size of each
    entry's answer (None: refused), of each step's, and how many writes were refused."""
    from tests.support import Phone

    doc = json.loads((LOGS / game / f"{name}.json").read_text())
    host = Phone(app)
    token = host.open_table(doc["game"], players=doc["players"], **doc["rules"])
    Phone(app).join(token, doc["players"][0])
    entries, steps, refused = [], [], 0
    for event in doc["events"]:
        event = {k: v for k, v in event.items() if k not in ("at", "by")}
        if game == "kaques":
            made, answer = kaques(host, token, event)
        elif game == "escoba" and event.get("type") == "round":
            made, answer = escoba(host, token, event, list(event["sides"]))  # the log's sides in seat order
        else:
            made, answer = [], host.enter(token, event)
        for response in [*made, answer]:
            refused += response.status_code != 200
        steps += [len(gzip.compress(r.get_data())) for r in made if r.status_code == 200]
        entries.append(len(gzip.compress(answer.get_data())) if answer.status_code == 200 else None)
    return entries, steps, refused


def every_log(game: str) -> list[str]:
    """The logs of a game in tests/logs/<game>/ (not the refused ones), by name."""
    return sorted(path.name.removesuffix(".json") for path in (LOGS / game).glob("*.json")
                  if not path.name.endswith(".expected.json"))


def run(work: str, log=print, logs: str = "board") -> dict:
    """`logs`: "board", each game's board log (tests/games/<game>.py); "every", every log of
    each game, its figures the largest of them (stop 54: Euchre's board log is a three-handed
    game; a partnership game's answers were larger)."""
    from scorekeeper import create_app
    from scorekeeper.games import GAMES
    from tests.games import SUPPORT

    path = os.path.join(work, "answers")
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    # every log a table of its own, opened by one address (the Flask client's)
    app = create_app({"TESTING": True, "DATABASE": os.path.join(path, "answers.db"), "SECRET_KEY": "bench",
                      "LIMITS": {"table": (1000, 1000, 0)}})
    out = {}
    for game in GAMES:
        names = every_log(game) if logs == "every" else [SUPPORT[game].BOARD_LOG]
        mid, steps, refused, firsts, lasts, largest, skipped = [], [], 0, [], [], {}, []
        for name in names:
            entries, made, refusals = played(app, game, name)
            if refusals and logs == "every":  # a log whose table needs teams drawn (its host's tap)
                skipped.append(name)
                continue
            refused += refusals
            steps += made
            middle = [size for size in entries[1:-1] if size is not None]
            mid += middle
            firsts += entries[:1]
            lasts += entries[1:][-1:]
            if middle:
                largest[name] = max(middle)
        mid.sort()
        row = {"log": max(largest, key=largest.get) if largest else names[0], "logs": len(names) - len(skipped),
               "mid_entries": len(mid), "refused": refused,
               "entry_mid_p50": mid[len(mid) // 2] if mid else None, "entry_mid_max": mid[-1] if mid else None,
               "entry_first": max((size for size in firsts if size), default=None),
               "entry_last": max((size for size in lasts if size), default=None),
               "mid_over_1kb": sum(size > 1000 for size in mid)}
        if steps:
            steps.sort()
            row.update(steps=len(steps), step_p50=steps[len(steps) // 2], step_max=steps[-1])
        out[game] = row
        log(f"  answers {game} ({row['logs']} logs, largest in {row['log']}): entry mid-game p50 "
            f"{row['entry_mid_p50']} B, max {row['entry_mid_max']} B"
            + (f" · step p50 {row['step_p50']} B, max {row['step_max']} B" if steps else "")
            + (f" · {refused} refused" if refused else "")
            + (f" · left out, their tables need teams drawn: {', '.join(skipped)}" if skipped else ""))
    shutil.rmtree(path, ignore_errors=True)
    return out
