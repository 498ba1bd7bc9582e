"""Yatzy's test data for the generic suites (what each name is: tests/games/__init__.py)."""

from __future__ import annotations

from hypothesis import strategies as st

from scorekeeper import gamelog
from scorekeeper.games import yatzy

from tests.event_space import faces, huge, names

PLAYERS = ("Anna", "Ben")
CHANCE = {"type": "score", "box": "chance", "value": 20}
BOXES = ["1", "2", "3", "4", "5", "6", "pair", "two_pairs", "three", "four", "small", "large", "full", "chance",
         "yatzy"]


# --- the engine's event space (tests/event_space.py, tests/test_engines_total.py) ------------------


def event_fields(players: list[str], sides: list[str]) -> dict:
    return {"type": st.just("score"), "player": names(players),
            "box": st.sampled_from([*BOXES, "7", "Full", " yatzy", 5]),
            "value": st.sampled_from([0, 1, 3, 4, 10, 12, 13, 15, 16, 20, 25, 26, 30, 40, 50, -5]) | huge,
            "dice": faces(6) | st.lists(st.integers(1, 6), min_size=5, max_size=5)
                    | st.sampled_from([[6] * 5, [1, 2, 3, 4, 5], [2, 3, 4, 5, 6], [3, 3, 3, 5, 5], [4, 4, 4, 4, 1]])}


def header(draw, players: list[str]):
    count = draw(st.integers(2, 3))
    rules = draw(st.fixed_dictionaries({}, optional={
        "form": st.sampled_from(["scandinavian", "classic"]), "stake": st.sampled_from(["0", "0.10"])}))
    return players[:count], rules, None


def legal_move(draw, state) -> dict:
    box = draw(st.sampled_from(state.open_boxes(state.on_turn)))
    return {"type": "score", "player": state.on_turn, "box": box.value,
            "value": draw(st.sampled_from(yatzy.allowed_values(box, state.form)))}


draft_payloads = None


# --- the app (tests/reliability/test_access.py, tests/test_i18n.py) ----------------------------------


def first_entry(phone, token):
    return phone.enter(token, CHANCE)


def writes(token: str) -> dict:
    return {"yatzy.score": (f"/t/{token}/yatzy/score", {"box": "1:full", "dice": "2,2,2,6,6"})}  # Ben's turn


def markup_entry(first: str, sides: list[str]) -> dict:
    return {**CHANCE, "player": first}


DRAWS_PAIRS = False
TRAY_QUERY = "?dice=3,3,3,6,6"
TRAY_QUERIES = ["dice=3,3,3,6,6", "dice=1,2", "dice=1,2,3,4,6", "pick=0:chance", "pick=0:4", "pick=0:yatzy"]
READ_QUERIES: dict[str, str] = {}
SAME_WORDS = {"Chance", "Bonus", "Total"}


# --- the fuzzing (tests/reliability/test_fuzz.py) -------------------------------------------------------

FUZZ_NAMES = ["Quin", "Rae"]
FUZZ_TEAMS = None
FUZZ_SEED = {"type": "score", "player": "Quin", "box": "full", "dice": [3, 3, 3, 5, 5]}


def fuzz_event_fields(names: list[str]) -> dict:
    return {"type": st.just("score"), "player": st.sampled_from(names),
            "box": st.sampled_from(["1", "6", "pair", "two_pairs", "three", "small", "full", "chance", "yatzy", "7"]),
            "value": st.sampled_from([0, 4, 12, 13, 15, 25, 26, 30, 50, -1, 10 ** 30]),
            "dice": st.lists(st.integers(0, 7), max_size=6)}


def fuzz_tray_fields(kit) -> dict:
    # the dice tapped, a box tapped or a written one to correct
    return {"dice": kit.dice_text, "pick": kit.junk_text | st.builds(
        lambda seat, box: f"{seat}:{box}", st.integers(-1, 3), st.sampled_from(["1", "6", "pair", "full", "yatzy", "7"])),
        "fix": kit.ids}


def fuzz_routes(kit) -> dict:
    return {"yatzy.score": kit.form(box=fuzz_tray_fields(kit)["pick"], value=kit.ids, dice=kit.dice_text,
                                    change=kit.changes, idem=kit.junk_text)}


def fuzz_history(host, phones, token) -> list:
    return [phones[name].enter(token, {"type": "score", "box": box, "value": 0})
            for name, box in (("Quin", "full"), ("Rae", "full"), ("Quin", "yatzy"))]


# --- the board's parts and the crashes (tests/test_web_board.py, tests/reliability/test_crash.py) ------

BOARD_LOG = "scandinavian-three-players-stake"
CRASH_LOGS = ("scandinavian-three-players-stake", "classic-two-players")


# --- the largest log an import takes (tests/support.py's largest_log, bench/history.py) --------------


def largest_events(most: int):
    """Its cards end the game: every box of twelve players' Scandinavian cards (180), player
    after player, a value each."""
    doc = {"format": gamelog.FORMAT, "game": "yatzy", "players": [f"P{n}" for n in range(1, 13)],
           "rules": {"form": "scandinavian", "stake": "0.10"}}
    return doc, _every_box(doc)


def _every_box(doc: dict):
    game = gamelog.read_header(doc)
    state = game.start()
    for turn in range(10_000):
        player = state.on_turn
        if player is None:
            return
        boxes = state.open_boxes(player)
        box = boxes[(turn * 7) % len(boxes)]
        values = yatzy.allowed_values(box, state.form)
        event = {"type": "score", "player": player, "box": box.value, "value": values[turn % len(values)]}
        state = game.apply(state, event)
        yield event
