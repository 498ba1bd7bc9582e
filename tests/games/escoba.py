"""Escoba's test data for the generic suites (what each name is: tests/games/__init__.py)."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import strategies as st

from scorekeeper.games import escoba

from tests.event_space import huge, wrong
from tests.support import repeated_log

LOGS = Path(__file__).resolve().parents[1] / "logs" / "escoba"
PLAYERS = ("Anna", "Ben")
ROUND = {"type": "round", "sides": {
    "Anna": {"cards": 24, "coins": 7, "sevens": 3, "seven_of_coins": True, "escobas": 2},
    "Ben": {"cards": 16, "coins": 3, "sevens": 1, "seven_of_coins": False, "escobas": 0}}, "leftover": 25}


# --- the engine's event space (tests/event_space.py, tests/test_engines_total.py) ------------------


def event_fields(players: list[str], sides: list[str]) -> dict:
    side = st.sampled_from(sides) | st.sampled_from(sides).map(str.lower) | st.just("Nobody")
    counts = st.fixed_dictionaries({}, optional={
        "cards": st.integers(-1, 41), "coins": st.integers(-1, 11), "sevens": st.integers(-1, 5),
        "seven_of_coins": st.booleans(), "escobas": st.integers(-1, 21), "jokers": wrong})
    whole = st.sampled_from([
        {"cards": 24, "coins": 7, "sevens": 3, "seven_of_coins": True, "escobas": 2},
        {"cards": 16, "coins": 3, "sevens": 1, "seven_of_coins": False, "escobas": 0},
        {"cards": 0, "coins": 0, "sevens": 0, "seven_of_coins": False, "escobas": 0},
        {"cards": 40, "coins": 10, "sevens": 4, "seven_of_coins": True, "escobas": 20}])
    return {"type": st.just("round"),
            "sides": st.dictionaries(side, counts | whole | wrong, max_size=4),
            "false_captures": st.dictionaries(side, st.integers(-1, 9) | huge | wrong,
                                              max_size=3),
            "leftover": st.sampled_from([10, 25, 40, 55, 0, -1, 7]) | huge}


def header(draw, players: list[str]):
    teams = None
    count = draw(st.sampled_from([2, 3, 4]))
    rules = {"target": draw(st.sampled_from([1, 21])), "shutout": draw(st.booleans())}
    if count == 4:
        teams = [{"name": "Red", "players": [players[0], players[2]]},
                 {"name": "Blue", "players": [players[1], players[3]]}]
    return players[:count], rules, teams


def legal_move(draw, state) -> dict:
    sides = [side.name for side in state.setup.sides]
    taken = {name: escoba.Counts(0, 0, 0, False) for name in sides[:-1]}
    for name in taken:
        cards = draw(st.integers(0, 40 // len(sides)))
        taken[name] = escoba.Counts(cards, draw(st.integers(0, min(cards, 3))), draw(st.integers(0, min(cards, 1))),
                                    False, draw(st.integers(0, cards // 2)))
    last = escoba.complete_last_side(taken)
    counts = {**taken, sides[-1]: last}
    return {"type": "round", "sides": {name: c.as_dict() for name, c in counts.items()}}


def draft_payloads(players: list[str]):
    """The escobas of the round so far."""
    return st.fixed_dictionaries({}, optional={
        "escobas": st.dictionaries(st.sampled_from(players + ["Red", "Blue", "Nobody"]),
                                   st.integers(-1, 21) | wrong, max_size=3) | wrong,
        "player": wrong})


# --- the app (tests/reliability/test_access.py, tests/test_i18n.py) ----------------------------------


def first_entry(phone, token):
    return phone.enter(token, ROUND)


def writes(token: str) -> dict:
    return {"escoba.enter_round": (f"/t/{token}/escoba/round", {
                "c0": "24", "o0": "7", "s0": "3", "seven": "0", "e0": "0", "e1": "0"}),
            "escoba.escobas": (f"/t/{token}/escoba/escobas", {"side": "0", "delta": "1"})}


def markup_entry(first: str, sides: list[str]) -> dict:
    """Four players play in two teams named after their players."""
    return {"type": "round", "sides": {sides[0]: ROUND["sides"]["Anna"], sides[1]: ROUND["sides"]["Ben"]},
            "leftover": 25}


DRAWS_PAIRS = True  # four players play in two pairs: drawn by lot
TRAY_QUERY = "?round=1&c0=20&o0=5&s0=2&seven=0"
TRAY_QUERIES = ["round=1", "round=1&c0=24&o0=7&s0=3&seven=0&e0=2", "round=1&c0=41&o0=x&seven=1",
                "round=1&c0=40&o0=10&s0=4&seven=0", "round=1&c0=24&o0=7&s0=3&seven=0&f1=1&leftover=17"]
READ_QUERIES = {"escoba.table_finder": "?t=7o&h=8b"}
SAME_WORDS = {"Escoba", "Escoba!", "Escobas", "copas", "espadas", "oros", "bastos", "%(num)s escoba"}


# --- the fuzzing (tests/reliability/test_fuzz.py) -------------------------------------------------------

FUZZ_NAMES = ["Olga", "Pim"]
FUZZ_TEAMS = None
FUZZ_SEED = {"type": "round", "sides": {
    "Olga": {"cards": 24, "coins": 7, "sevens": 3, "seven_of_coins": True, "escobas": 2},
    "Pim": {"cards": 16, "coins": 3, "sevens": 1, "seven_of_coins": False, "escobas": 0}}}


def fuzz_event_fields(names: list[str]) -> dict:
    return {"type": st.just("round"),
            "sides": st.dictionaries(st.sampled_from(names), st.fixed_dictionaries({
                "cards": st.integers(-1, 41), "coins": st.integers(0, 11), "sevens": st.integers(0, 5),
                "seven_of_coins": st.booleans(), "escobas": st.integers(0, 30)}), max_size=3),
            "false_captures": st.dictionaries(st.sampled_from(names), st.integers(-1, 9), max_size=2),
            "leftover": st.integers(-5, 300)}


def fuzz_tray_fields(kit) -> dict:
    # the round form (per side index) or the round to correct
    return {"round": kit.junk_text, "correct": kit.ids, "seven": kit.ids, "leftover": kit.ids,
            **{f"{kind}{side}": kit.ids for kind in "cosef" for side in range(4)}}


def fuzz_routes(kit) -> dict:
    return {"escoba.enter_round": kit.form(**{k: kit.ids for k in (
                "c0", "o0", "s0", "e0", "e1", "f0", "f1", "c1", "o1", "s1", "e2", "f2", "seven", "leftover",
                "correct")}, change=kit.changes, idem=kit.junk_text),
            "escoba.escobas": kit.form(side=kit.ids, delta=st.sampled_from(["1", "-1"]) | kit.junk_text,
                                       change=kit.changes),
            # reads: query arguments
            "escoba.table_finder": kit.form(t=kit.junk_text, h=kit.junk_text, m=kit.junk_text)}


def fuzz_history(host, phones, token) -> list:
    return [host.enter(token, json.loads(
        (LOGS / "two-players-to-21.json").read_text().replace('"anna"', '"Olga"')
        .replace('"Anna"', '"Olga"').replace('"BEN"', '"Pim"').replace('"Ben"', '"Pim"'))["events"][0]
        | {"at": None, "by": None, "note": None})]


# --- the board's parts and the crashes (tests/test_web_board.py, tests/reliability/test_crash.py) ------

BOARD_LOG = "three-players-tie-plays-on"
CRASH_LOGS = ("two-players-to-21",)


# --- the largest log an import takes (tests/support.py's largest_log, bench/history.py) --------------


def largest_events(most: int):
    return repeated_log("escoba/two-players-to-21.json", {"target": 10 ** 6}, most)
