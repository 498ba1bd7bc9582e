"""Escalero's test data for the generic suites (what each name is: tests/games/__init__.py)."""

from __future__ import annotations

from hypothesis import strategies as st

from scorekeeper import gamelog
from scorekeeper.games import escalero

from tests.event_space import faces, names

PLAYERS = ("Anna", "Ben")
F35 = {"type": "score", "column": 1, "row": "F", "value": 35}


def one_column_game(ones: int) -> list[dict]:
    """The entries of a one-column game of Anna and Ben to its end: Anna's ones worth `ones`,
    every other cell crossed out (the words of a settlement: tests/test_words_review.py)."""
    return [{"type": "score", "player": name, "column": 1, "row": row,
             "value": ones if (name, row) == ("Anna", "1") else 0}
            for row in ("1", "2", "3", "4", "5", "6", "S", "F", "P", "G") for name in PLAYERS]


# --- the engine's event space (tests/event_space.py, tests/test_engines_total.py) ------------------


def event_fields(players: list[str], sides: list[str]) -> dict:
    return {"type": st.just("score"), "player": names(players), "column": st.integers(-1, 4),
            "row": st.sampled_from(["1", "2", "3", "4", "5", "6", "S", "F", "P", "G", "GG", "7", "s", " G", 5]),
            "value": st.sampled_from([0, 1, 2, 3, 4, 5, 6, 10, 12, 15, 18, 20, 24, 25, 30, 35, 40, 45, 50,
                                      80, 100, 31, -5]),
            "dice": faces(6) | st.lists(st.integers(1, 6), min_size=5, max_size=5)
                    | st.sampled_from([[6] * 5, [1, 2, 3, 4, 5], [2, 2, 2, 3, 3], [4, 4, 4, 4, 1]]),
            "served": st.booleans()}


def header(draw, players: list[str]):
    teams = None
    count = draw(st.integers(2, 4))
    rules = draw(st.fixed_dictionaries({}, optional={
        "columns": st.sampled_from([1, 3]), "double_grande": st.booleans(), "straight": st.sampled_from([20, 25]),
        "five_of_a_kind_as_lower": st.booleans(), "stake": st.sampled_from(["0", "0.50"]),
        "dice_faces": st.sampled_from(["numbers", "poker"])}))
    if count == 4 and draw(st.booleans()):
        teams = [{"name": "Red", "players": players[0:2]}, {"name": "Blue", "players": players[2:4]}]
    return players[:count], rules, teams


def legal_move(draw, state) -> dict:
    side = state.side_on_turn
    column, row = draw(st.sampled_from(state.open_cells(side)))
    return {"type": "score", "player": state.setup.side(side).members[0], "column": column, "row": row.value,
            "value": draw(st.sampled_from(escalero.allowed_values(row, state.rules)))}


draft_payloads = None


# --- the app (tests/reliability/test_access.py, tests/test_i18n.py) ----------------------------------


def first_entry(phone, token):
    return phone.enter(token, F35)


def writes(token: str) -> dict:
    return {"escalero.score": (f"/t/{token}/escalero/score", {"cell": "1:1:F", "value": "35"})}


def markup_entry(first: str, sides: list[str]) -> dict:
    return {**F35, "player": first}


DRAWS_PAIRS = False
TRAY_QUERY = "?dice=6,6,6,5,5&served=1"
TRAY_QUERIES = ["dice=5,5,5,2,2", "dice=5,5,5,2,2&served=1", "dice=1,2", "pick=0:1:F", "pick=0:1:1"]
READ_QUERIES: dict[str, str] = {}
SAME_WORDS = {"Poker", "Full House", "Grande", "Grandes", "9 10 J Q K A", "%(points)s pts"}


# --- the fuzzing (tests/reliability/test_fuzz.py) -------------------------------------------------------

FUZZ_NAMES = ["Fenna", "Gus"]
FUZZ_TEAMS = None
FUZZ_SEED = {"type": "score", "player": "Fenna", "column": 1, "row": "F", "value": 0}


def fuzz_event_fields(names: list[str]) -> dict:
    return {"type": st.just("score"), "player": st.sampled_from(names), "column": st.integers(0, 4),
            "row": st.sampled_from(["1", "2", "3", "4", "5", "6", "S", "F", "P", "G", "GG", "7"]),
            "value": st.sampled_from([0, 5, 10, 20, 25, 30, 35, 45, 50, 80, 31]),
            "dice": st.lists(st.integers(0, 7), max_size=6), "served": st.booleans()}


def fuzz_tray_fields(kit) -> dict:
    # the dice tapped, "served", a cell tapped or a written one to correct
    return {"dice": kit.dice_text, "served": kit.junk_text, "pick": kit.junk_text | st.builds(
        lambda side, column, row: f"{side}:{column}:{row}", st.integers(-1, 4), st.integers(0, 4),
        st.sampled_from(["1", "6", "S", "F", "P", "G", "GG", "7"])), "fix": kit.ids}


def fuzz_routes(kit) -> dict:
    return {"escalero.score": kit.form(cell=fuzz_tray_fields(kit)["pick"], value=kit.ids, dice=kit.dice_text,
                                       served=kit.junk_text, change=kit.changes, idem=kit.junk_text)}


def fuzz_history(host, phones, token) -> list:
    return [phones[name].enter(token, {"type": "score", "column": 1, "row": row, "value": 0})
            for name, row in (("Fenna", "F"), ("Gus", "F"), ("Fenna", "P"))]


# --- the board's parts and the crashes (tests/test_web_board.py, tests/reliability/test_crash.py) ------

BOARD_LOG = "seed-three-players"
CRASH_LOGS = ("seed-two-players", "pairs-and-a-side-of-one")


# --- the largest log an import takes (tests/support.py's largest_log, bench/history.py) --------------


def largest_events(most: int):
    """Its pad ends the game: every cell of twelve players' three columns and the Grande's
    second row (396), side by side, a value each."""
    doc = {"format": gamelog.FORMAT, "game": "escalero", "players": [f"P{n}" for n in range(1, 13)],
           "rules": {"columns": 3, "double_grande": True}}
    return doc, _every_cell(doc)


def _every_cell(doc: dict):
    game = gamelog.read_header(doc)
    state = game.start()
    for turn in range(10_000):
        side = state.side_on_turn
        if side is None:
            return
        cells = state.open_cells(side)
        column, row = cells[(turn * 7) % len(cells)]
        values = escalero.allowed_values(row, state.rules)
        event = {"type": "score", "player": state.setup.side(side).members[0], "column": column,
                 "row": row.value, "value": values[turn % len(values)]}
        state = game.apply(state, event)
        yield event
