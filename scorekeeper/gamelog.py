"""The `scorekeeper-log/1` game log: load and check a document, fold its events, report.

This is the one place a log is read, for `replay`, `import` and the store alike, so a
refusal always reads the same: `event 7: …` for the first bad event (1-based), or the
top-level field that is wrong.
"""

from __future__ import annotations

import json
import time
from functools import cache
from importlib import resources
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping, TypeVar

from .games import ENGINES, GAMES
from .games.base import Either, Engine, RuleError, SeatingError, Setup, TextError, describe, make_setup, parse_rules

FORMAT = "scorekeeper-log/1"
T = TypeVar("T")
EVENT_EXTRAS = frozenset({"type", "at", "by", "note"})


class LogError(TextError):
    """A log that cannot be read or breaks a rule; the message is one line for players.
    `seating`: only the players or teams do not suit the game (a table may still be filling)."""

    seating = False


@dataclass(frozen=True)
class Game:
    """A checked game header: which engine, who, and under which rules."""

    engine: Engine
    setup: Setup
    rules: Mapping[str, Any]

    def start(self) -> Any:
        return self.engine.start(self.setup, self.rules)

    def apply(self, state: Any, event: Any) -> Any:
        """Apply one event; a RuleError for anything wrong with it, the state unchanged."""
        return self.engine.apply(state, clean_event(self.engine, event))


def parse_json(text: str | bytes) -> Any:
    try:
        value = json.loads(text)
        json.dumps(value, ensure_ascii=False).encode("utf-8")  # a lone surrogate is no text to show
    except json.JSONDecodeError as error:  # where, not Python's English words for what
        raise LogError("this is not a JSON document (line %(line)s, column %(column)s)", line=error.lineno,
                       column=error.colno) from None
    except UnicodeError:
        raise LogError("this is not a JSON document: it is not UTF-8 text") from None
    except (ValueError, RecursionError):
        raise LogError("this is not a JSON document") from None
    return value


def read_header(doc: Any) -> Game:
    """Check everything but the events: format, game, players, teams, rules."""
    if not isinstance(doc, dict):
        raise LogError("a game log must be a JSON object with format, game, players, rules and events")
    if doc.get("format") != FORMAT:
        raise LogError("format: must be \"%(format)s\", not %(value)s", format=FORMAT,
                       value=describe(doc.get("format")))
    engine = ENGINES.get(doc.get("game")) if isinstance(doc.get("game"), str) else None
    if engine is None:
        raise LogError("game: must be one of %(games)s, not %(value)s", games=", ".join(ENGINES),
                       value=describe(doc.get("game")))
    teams = doc.get("teams")
    try:
        if teams is not None:
            if not isinstance(teams, list) or not all(isinstance(t, dict) for t in teams):
                raise RuleError("teams: must be a list of {\"name\": …, \"players\": […]}")
            teams = [(t.get("name"), t.get("players")) for t in teams]
        setup = make_setup(doc.get("players"), teams)
        rules = parse_rules(doc.get("rules"), engine.settings)
        game = Game(engine, setup, rules)
        game.start()  # the engine's own seating checks
    except RuleError as error:
        failure = LogError(error.text)
        failure.seating = isinstance(error, SeatingError)
        raise failure from None
    if not isinstance(doc.get("events"), list):
        raise LogError("events: must be a list of the game's entries (it may be empty)")
    return game


def clean_event(engine: Engine, event: Any) -> dict[str, Any]:
    """The event without null fields, refusing a non-object or an unknown key."""
    if not isinstance(event, dict):
        raise RuleError("an event must be an object like {\"type\": …}")
    event = {key: value for key, value in event.items() if value is not None}
    kind = event.get("type")
    if not isinstance(kind, str) or kind not in engine.events:
        raise RuleError("type must be %(types)s, not %(value)s", types=Either(engine.events), value=describe(kind))
    for key in event:
        if key not in EVENT_EXTRAS and key not in engine.events[kind]:
            raise RuleError("a %(type)s event has no field %(key)s", type=kind, key=describe(key))
    # at, by and note are text (LOG-FORMAT.md); anything else used to reach the database on
    # import and fail there (found by tests/reliability/test_fuzz.py)
    for key in ("at", "by", "note"):
        if key in event and not isinstance(event[key], str):
            raise RuleError("%(key)s must be text, not %(value)s", key=key, value=describe(event[key]))
    return event


def fold(game: Game, events: Iterable[Any]) -> Any:
    """The state after every event; LogError naming the first bad one. Never inside a write
    transaction: it lets the server's other requests run every few milliseconds (`Pace`)."""
    state = game.start()
    pace = Pace()
    for number, event in enumerate(events, 1):
        pace()
        try:
            state = game.apply(state, event)
        except RuleError as error:
            raise LogError("event %(number)s: %(error)s", number=number, error=error.text) from None
    return state


def cooperate() -> None:
    """Let the server's other requests run: in a gevent worker (`scorekeeper serve` patches
    `time.sleep`) a long fold — an imported log of 2,000 events, statistics of many games —
    would hold every other request of its worker until it ends (bench/attack.py); elsewhere
    this costs a system call. A sleep of PAUSE, not of 0: gevent resumes a sleep of 0 among the
    greenlets already ready and looks at its sockets only every 50 of those, so a loop that slept
    0 between its 5 ms slices let a new request in every 250 ms (tests/test_cooperate.py). Never
    while holding a write transaction: a request that waits for SQLite's lock in the same worker
    would block it (SQLite's busy wait is not gevent's)."""
    time.sleep(PAUSE)


SLICE = 0.005  # seconds a long loop runs at most between two chances for other requests
PAUSE = 0.0001  # seconds a chance lasts at least: the worker's loop looks at its sockets in it


class Pace:
    """The clock of a long loop (a fold, a long page rendered): called between its steps, it
    lets the worker's other requests run (`cooperate`) once it has used SLICE of the worker's
    CPU since they last could. A fixed number of steps between two was too many for some
    games' events and too few for others' (issue 25: the other tables' entries wait for at most
    one slice).

    The worker's CPU, not the wall clock: on a loaded machine the system sets a worker aside
    for some milliseconds, and a short fold (an entry's own, under 1 ms of CPU) that found its
    slice over by the wall clock gave way, and came back 10–50 ms later behind the attacker's
    work in its worker (issue 25). The CPU clock (a system call) is read only once the wall
    clock says a slice may be over."""

    def __init__(self, slice_: float | None = None) -> None:
        self.slice = SLICE if slice_ is None else slice_
        self.since = time.thread_time()
        self.look = time.perf_counter() + self.slice

    def __call__(self) -> None:
        if time.perf_counter() < self.look:
            return
        used = time.thread_time() - self.since
        if used < self.slice:  # set aside meanwhile: look again when the rest of the slice may be used
            self.look = time.perf_counter() + self.slice - used
            return
        cooperate()
        self.since = time.thread_time()
        self.look = time.perf_counter() + self.slice


def paced(items: Iterable[T], every: int = 16, slice_: float | None = None) -> Iterator[T]:
    """`items`, letting the worker's other requests run between them every `slice_` seconds
    (`Pace`), asking the clock every `every` items (a template's output comes in many small
    pieces)."""
    pace = Pace(slice_)
    for number, item in enumerate(items):
        if number % every == 0:
            pace()
        yield item


def replay(doc: Any) -> dict[str, Any]:
    """The result object of a whole log (LOG-FORMAT.md), or LogError."""
    game = read_header(doc)
    return game.engine.result(fold(game, doc["events"]))


@cache
def log_schema() -> dict[str, Any]:
    """The JSON Schema of the log format: the part every game shares (schema/log.schema.json)
    and each registered game's fragment (games/<game>.schema.json: its `rules` and `event`,
    named parts in `$defs` prefixed with its name, and `log`, conditions on a whole log of it).
    The schema checks shapes; `replay` checks the rules.

    >>> schema = log_schema()
    >>> schema["properties"]["game"]["enum"] == list(GAMES), len(schema["allOf"]) == len(GAMES)
    (True, True)
    """
    def read(package: str, name: str) -> dict[str, Any]:
        return json.loads(resources.files(package).joinpath(name).read_text(encoding="utf-8"))

    schema = read("scorekeeper.schema", "log.schema.json")
    del schema["$comment"]  # it speaks of the shared part alone
    schema["properties"]["game"]["enum"] = list(GAMES)
    for game in GAMES:
        fragment = read("scorekeeper.games", f"{game}.schema.json")
        for name, part in fragment.get("$defs", {}).items():
            if not name.startswith(f"{game}_") or name in schema["$defs"]:
                raise ValueError(f"{game}.schema.json: name its $defs {game}_…, not {name}")
            schema["$defs"][name] = part
        schema["$defs"][f"{game}_rules"], schema["$defs"][f"{game}_event"] = fragment["rules"], fragment["event"]
        then = {"properties": {"rules": {"$ref": f"#/$defs/{game}_rules"},
                               "events": {"items": {"$ref": f"#/$defs/{game}_event"}}},
                **fragment.get("log", {})}
        schema.setdefault("allOf", []).append({"if": {"properties": {"game": {"const": game}}}, "then": then})
    return schema
