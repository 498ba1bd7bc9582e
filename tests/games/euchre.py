"""Euchre's test data for the generic suites (what each name is: tests/games/__init__.py)."""

from __future__ import annotations

from hypothesis import strategies as st

from tests.event_space import names
from tests.support import repeated_log

PLAYERS = ("Anna", "Ben", "Cleo", "Dora")


# --- the engine's event space (tests/event_space.py, tests/test_engines_total.py) ------------------


def event_fields(players: list[str], sides: list[str]) -> dict:
    name = names(players)
    return {"type": st.sampled_from(["hand", "redeal"]), "maker": name, "tricks": st.integers(-1, 6),
            "alone": st.booleans(), "defender_alone": name,
            "trump": st.sampled_from(["hearts", "spades", "clubs", "diamonds", " Hearts", "stars"])}


def header(draw, players: list[str]):
    teams = None
    form = draw(st.sampled_from(["partnership", "two-handed", "three-handed", "railroad"]))
    count = {"two-handed": 2, "three-handed": 3}.get(form, 4)
    rules = {"form": form, "target": draw(st.sampled_from([1, 5, 10]))}
    if count == 4:
        teams = [{"name": "Red", "players": [players[0], players[2]]},
                 {"name": "Blue", "players": [players[1], players[3]]}]
    return players[:count], rules, teams


def legal_move(draw, state) -> dict:
    if draw(st.integers(0, 5)) == 0:
        return {"type": "redeal"}
    return {"type": "hand", "maker": draw(st.sampled_from(state.setup.players)), "tricks": draw(st.integers(0, 5))}


draft_payloads = None


# --- the app (tests/reliability/test_access.py, tests/test_i18n.py) ----------------------------------


def first_entry(phone, token):
    return phone.write(f"/t/{token}/euchre/hand", {"maker": "Anna", "tricks": "3"})


def writes(token: str) -> dict:
    return {"euchre.hand": (f"/t/{token}/euchre/hand", {"maker": "Ben", "tricks": "3"})}


def markup_entry(first: str, sides: list[str]) -> dict:
    return {"type": "hand", "maker": first, "tricks": 3}


DRAWS_PAIRS = False
TRAY_QUERY = "?maker=Ben&tricks=3"
TRAY_QUERIES = ["maker=Anna", "lone=Ben", "maker=Anna&tricks=5&trump=hearts", "maker=Ben&defender=Anna&tricks=0",
                "maker=Anna&tricks=3", "redeal=1"]
READ_QUERIES: dict[str, str] = {}
SAME_WORDS = {"Euchres", "euchred", "euchred %(points)s", "Deck", "rules.start: %(problem)s",
              "rules.first_dealer: %(problem)s"}


# --- the fuzzing (tests/reliability/test_fuzz.py) -------------------------------------------------------

FUZZ_NAMES = ["Hal", "Ida", "Jo", "Kit"]
FUZZ_TEAMS = [{"name": "Hal & Jo", "players": ["Hal", "Jo"]}, {"name": "Ida & Kit", "players": ["Ida", "Kit"]}]
FUZZ_SEED = {"type": "hand", "maker": "Hal", "tricks": 3}


def fuzz_event_fields(names: list[str]) -> dict:
    return {"type": st.sampled_from(["hand", "redeal"]), "maker": st.sampled_from(names),
            "tricks": st.integers(0, 6), "alone": st.booleans(), "defender_alone": st.sampled_from(names),
            "trump": st.sampled_from(["hearts", "spades", "clubs", "diamonds", "stars"])}


def fuzz_tray_fields(kit) -> dict:
    # the hand being chosen
    return {"maker": st.sampled_from(kit.names) | kit.junk_text, "lone": st.sampled_from(kit.names) | kit.junk_text,
            "alone": kit.junk_text, "defender": st.lists(st.sampled_from(kit.names) | kit.junk_text, max_size=3),
            "was_defender": kit.junk_text,
            "trump": st.lists(st.sampled_from(["hearts", "spades", "clubs", "x"]), max_size=3),
            "was_trump": kit.junk_text, "tricks": kit.ids, "redeal": kit.junk_text, "reset": kit.junk_text}


def fuzz_routes(kit) -> dict:
    tray = fuzz_tray_fields(kit)
    return {"euchre.hand": kit.form(**{k: tray[k] for k in ("maker", "lone", "alone", "defender", "was_defender",
                                                              "trump", "was_trump", "tricks", "redeal", "reset")},
                                    change=kit.changes, idem=kit.junk_text)}


def fuzz_history(host, phones, token) -> list:
    return [host.write(f"/t/{token}/euchre/hand", {"maker": "Hal", "tricks": "3"})]


# --- the board's parts and the crashes (tests/test_web_board.py, tests/reliability/test_crash.py) ------

BOARD_LOG = "three-handed-tie-plays-on"
CRASH_LOGS = ("full-game",)


# --- the largest log an import takes (tests/support.py's largest_log, bench/history.py) --------------


def largest_events(most: int):
    return repeated_log("euchre/full-game.json", {"target": 10 ** 6}, most)
