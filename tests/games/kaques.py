"""Jaques le Kaques' test data for the generic suites (what each name is: tests/games/__init__.py)."""

from __future__ import annotations

from hypothesis import strategies as st

from scorekeeper.games import ENGINES

from tests.event_space import events, faces, huge, names, wrong
from tests.support import repeated_log

PLAYERS = ("Anna", "Ben")


# --- the engine's event space (tests/event_space.py, tests/test_engines_total.py) ------------------


def event_fields(players: list[str], sides: list[str]) -> dict:
    throw = st.fixed_dictionaries({"dice": faces(), "keep": faces()},
                                  optional={"extra": wrong}) | st.sampled_from([
        {"dice": [1, 5, 2, 3, 4, 6], "keep": [1, 5]}, {"dice": [1, 1, 1, 1, 1, 1], "keep": [1] * 6},
        {"dice": [2, 3, 4, 6], "keep": []}, {"dice": [5, 5, 5, 2], "keep": [5, 5, 5]}])
    return {"type": st.just("turn"), "player": names(players),
            "points": st.sampled_from([0, 50, 350, 1000, 9950, 10000, 49, -50]) | huge,
            "throws": st.lists(throw | wrong, max_size=5)}


def header(draw, players: list[str]):
    count = draw(st.integers(2, 3))
    rules = {"target": draw(st.sampled_from([50, 1000, 10000]))}
    return players[:count], rules, None


def legal_move(draw, state) -> dict:
    return {"type": "turn", "player": state.on_turn, "points": draw(st.sampled_from([0, 50, 300, 1000]))}


def draft_payloads(players: list[str]):
    """The throws of the turn so far."""
    return st.fixed_dictionaries({}, optional={
        "player": st.sampled_from(players) | wrong,
        "throws": events("kaques", ENGINES["kaques"].events, players, players).map(
            lambda e: e.get("throws") if isinstance(e, dict) else e) | wrong,
        "points": wrong})


# --- the app (tests/reliability/test_access.py, tests/test_i18n.py) ----------------------------------


def first_entry(phone, token):
    return phone.enter(token, {"type": "turn", "player": "Anna", "throws": [
        {"dice": [1, 5, 2, 2, 3, 4], "keep": [1, 5]}, {"dice": [5, 3, 3, 4], "keep": [5]}]})


def writes(token: str) -> dict:
    return {"kaques.turn": (f"/t/{token}/kaques/turn", {  # Ben keeps a 1 and throws again
        "action": "again", "dice": "1,2,2,3,4,6", "keep": "0"})}


def markup_entry(first: str, sides: list[str]) -> dict:
    return {"type": "turn", "player": first, "points": 350}


DRAWS_PAIRS = False
TRAY_QUERY = "?dice=1,5,2,3,4,6"
TRAY_QUERIES = ["open=1", "dice=1,5", "dice=1,5,2,3,4,6", "dice=1,5,2,3,4,6&keep=0&was=", "dice=2,2,3,4,6,6",
                "dice=5,5,5,5,5,5", "points=350"]
READ_QUERIES: dict[str, str] = {}
SAME_WORDS = {"Kaque", "Kaques", "Grand Kaque!", "Le Kaque!", "Oh, Lálá!", "fertisch!", "fertisch! · %(total)s",
              "Grandmère", "%(count)s× Kaque", "%(count)s× Oh, Lálá!", "%(count)s× Grandmère",
              "× Kaque", "minus %(points)s", "plus %(points)s"}


# --- the fuzzing (tests/reliability/test_fuzz.py) -------------------------------------------------------

FUZZ_NAMES = ["Lou", "Mo", "Ned"]
FUZZ_TEAMS = None
FUZZ_SEED = {"type": "turn", "player": "Lou", "points": 350}


def fuzz_event_fields(names: list[str]) -> dict:
    return {"type": st.just("turn"), "player": st.sampled_from(names),
            "points": st.sampled_from([0, 50, 350, 999, -50, 10 ** 30]),
            "throws": st.lists(st.fixed_dictionaries({"dice": st.lists(st.integers(0, 7), max_size=7),
                                                      "keep": st.lists(st.integers(0, 7), max_size=7)}),
                               max_size=4)}


def fuzz_tray_fields(kit) -> dict:
    # the dice thrown, the dice kept (repeated), the keep before, the total typed
    return {"dice": kit.dice_text, "keep": st.lists(kit.ids, max_size=7), "was": kit.junk_text,
            "redo": kit.junk_text, "points": kit.ids, "open": kit.junk_text}


def fuzz_routes(kit) -> dict:
    return {"kaques.turn": kit.form(
        action=st.sampled_from(["again", "stop", "back", "total", "reopen", "correct"]) | kit.junk_text,
        dice=kit.dice_text, keep=fuzz_tray_fields(kit)["keep"], points=kit.ids, target=kit.ids,
        change=kit.changes, idem=kit.junk_text)}


def fuzz_history(host, phones, token) -> list:
    return [phones[name].enter(token, {"type": "turn", "player": name, "throws": [
        {"dice": [1, 5, 2, 2, 3, 4], "keep": [1, 5]}, {"dice": [5, 3, 3, 4], "keep": [5]}]})
        for name in ("Lou", "Mo")]


# --- the board's parts and the crashes (tests/test_web_board.py, tests/reliability/test_crash.py) ------

BOARD_LOG = "to-1000-three-players-mixed"
CRASH_LOGS = ("to-10000-quick-totals", "to-1000-three-players-mixed")


# --- the largest log an import takes (tests/support.py's largest_log, bench/history.py) --------------


def largest_events(most: int):
    return repeated_log("kaques/to-1000-two-players.json", {"target": 10 ** 9}, most)


# --- a throw as the tray posts it (tests/test_web_kaques.py, bench/answers.py) -------------------------


def kept_indexes(dice, keep) -> list[str]:
    """The tray's `keep` checkboxes for these kept faces: their places among the sorted dice."""
    rest, found = list(keep), []
    for index, face in enumerate(sorted(dice)):
        if face in rest:
            rest.remove(face)
            found.append(str(index))
    return found
