"""Every engine is total on its event space: any event built from the log format's fields
(tests/event_space.py) is accepted or refused with a RuleError in words — never another
exception, which the web answers with a 500 and `scorekeeper replay` with a traceback.

Each game is played from a random seating and rules to a random point (its own legal moves
mixed with the fuzzed events it accepted), then one fuzzed event (or draft) is put to it the
way the log, the entries, the corrections and the imports do: through `gamelog.Game.apply`.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from scorekeeper.gamelog import read_header
from scorekeeper.games import ENGINES, GAMES, escalero
from scorekeeper.games.base import RuleError, Text

from tests.event_space import events, mutated, wrong
from tests.games import SUPPORT

# per game, a couple of seconds each; a longer hunt: SCOREKEEPER_ENGINE_EXAMPLES=5000
EXAMPLES = int(os.environ.get("SCOREKEEPER_ENGINE_EXAMPLES", "250"))
TOTAL = settings(max_examples=EXAMPLES, deadline=None, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

PLAYERS = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz"]


# --- random games ----------------------------------------------------------------------------


@st.composite
def headers(draw, game: str) -> dict:
    """A log's header that the engine accepts: players, teams, rules of `game`."""
    players, rules, teams = SUPPORT[game].header(draw, PLAYERS)
    doc = {"format": "scorekeeper-log/1", "game": game, "players": players, "rules": rules, "events": []}
    if teams:
        doc["teams"] = teams
    return doc


def legal_move(draw, game, state) -> dict:
    """A move the rules mostly allow, so that games get somewhere (a refused one is skipped)."""
    return SUPPORT[game].legal_move(draw, state)


@st.composite
def games_under_way(draw, game: str):
    """(the checked header, a state reached by some legal moves and accepted fuzzed events)."""
    header = read_header(draw(headers(game)))
    engine = header.engine
    sides = [side.name for side in header.setup.sides]
    fuzzed = events(game, engine.events, list(header.setup.players), sides)
    state = header.start()
    for _ in range(draw(st.integers(0, 12))):
        if engine_over(header, state):
            break
        event = legal_move(draw, game, state) if draw(st.integers(0, 3)) else draw(fuzzed)
        try:
            state = header.apply(state, event)
        except RuleError:
            pass
        except Exception as error:  # raised in the test, not while drawing: hypothesis reports it so
            error.add_note(f"event: {event!r}")
            return header, error, fuzzed
    return header, state, fuzzed


@st.composite
def fuzzed_events(draw, game: str, header, state, fuzzed):
    """Any event, or a legal one mutated (most events of a phone are nearly right)."""
    if engine_over(header, state) or draw(st.booleans()):
        return draw(fuzzed)
    players, sides = list(header.setup.players), [side.name for side in header.setup.sides]
    return draw(mutated(legal_move(draw, game, state), game, header.engine.events, players, sides))


def engine_over(header, state) -> bool:
    return header.engine.writers(state) == frozenset()


# --- the property ----------------------------------------------------------------------------


def check_refusal(error: RuleError) -> None:
    """A refusal a player can read: one line of words, made from a template a catalog can hold."""
    text = str(error)
    assert text.strip() and "\n" not in text, repr(text)
    assert isinstance(error.text, Text)
    assert error.text.template % error.text.values == text if error.text.values else True


def put(header, state, event) -> None:
    """`event` applied as every path applies it: accepted (and then the result is a JSON document,
    as `replay` prints it) or refused in words."""
    try:
        after = header.apply(state, event)
    except RuleError as error:
        check_refusal(error)
        return
    result = header.engine.result(after)
    json.dumps(result, ensure_ascii=False)
    header.engine.writers(after)


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_any_event_is_accepted_or_refused_in_words(game):
    @TOTAL
    @given(st.data())
    def total(data):
        header, state, fuzzed = data.draw(games_under_way(game))
        if isinstance(state, Exception):
            raise state
        put(header, state, data.draw(fuzzed_events(game, header, state, fuzzed)))

    total()


@pytest.mark.parametrize("game", sorted(game for game in GAMES if SUPPORT[game].draft_payloads))
def test_any_draft_is_accepted_or_refused_in_words(game):
    """The turn a game keeps step by step (its draft: the throws, the escobas so far): the same
    property."""
    verify = ENGINES[game].verify_draft

    @TOTAL
    @given(st.data())
    def total(data):
        header, state, _ = data.draw(games_under_way(game))
        if isinstance(state, Exception):
            raise state
        payload = data.draw(SUPPORT[game].draft_payloads(list(header.setup.players)) | wrong)
        try:
            verify(state, payload)
        except RuleError as error:
            check_refusal(error)

    total()


def test_escalero_rows_values_and_flags():
    """Every row × value × served × dice, under each rule that changes what a row takes: a grid
    (not left to a lucky draw) where the `served: false` KeyError hid."""
    import itertools

    from scorekeeper.games.escalero import Row

    values = sorted({0, 1, 5, 6, 9, 12, 15, 18, 20, 25, 30, 35, 40, 45, 50, 80, 100, -5, 101})
    served = [None, True, False, 0, "false"]
    dice = [None, [1, 2, 3, 4, 5], [6, 6, 6, 6, 6], [3, 3, 3, 5, 5], [4, 4, 4, 4, 1], [1, 1, 2, 3, 6], [7], []]
    checked = 0
    for double_grande, straight in itertools.product((False, True), (20, 25)):
        header = read_header({"format": "scorekeeper-log/1", "game": "escalero", "players": ["Anna", "Ben"],
                              "rules": {"double_grande": double_grande, "straight": straight}, "events": []})
        state = header.start()
        for row, value, flag, thrown in itertools.product([*Row, "7"], [None, *values], served, dice):
            event = {"type": "score", "player": "Anna", "column": 1, "row": row, "value": value, "served": flag,
                     "dice": thrown}
            put(header, state, event)
            checked += 1
    assert checked > 10_000


# --- what the property found, kept as examples -------------------------------------------------


def test_served_false_on_a_picture_row_is_accepted_and_says_nothing():
    """LOG-FORMAT.md: `served: true` on rows 1–6 is refused, `false` (the default) accepted.
    With a value and no dice it was a KeyError: a 500 on the entries, a traceback from replay."""
    header = read_header({"format": "scorekeeper-log/1", "game": "escalero", "players": ["Anna", "Ben"],
                          "rules": {}, "events": []})
    state = header.apply(header.start(), {"type": "score", "player": "Anna", "column": 1, "row": "5",
                                          "value": 15, "served": False})
    assert state.pads["Anna"][(1, escalero.Row.FIVE)] == 15
    for event in ({"row": "3", "value": 9, "served": True}, {"row": "3", "dice": [3, 3, 3, 1, 2], "served": True}):
        with pytest.raises(RuleError, match="row 3 is a picture: only combinations can be served"):
            header.apply(state, {"type": "score", "player": "Ben", "column": 1, **event})
    state = header.apply(state, {"type": "score", "player": "Ben", "column": 1, "row": "6", "value": 0,
                                 "served": False})
    assert state.pads["Ben"][(1, escalero.Row.SIX)] == 0


NINES = int("9" * 4300)  # the largest number a JSON document carries into Python
BIG_POINTS = 5 * 10 ** 4299  # a multiple of 50 as large


@pytest.mark.parametrize("game, rules, events, refusal", [
    # two quick totals of 4,300 digits summed to one that no result could print (json.dumps:
    # "Exceeds the limit (4300 digits) for integer string conversion")
    ("kaques", {"target": 10 ** 6}, [{"type": "turn", "player": "Anna", "points": 100_000},
                                 {"type": "turn", "player": "Ben", "points": BIG_POINTS}],
     "event 2: points: a turn scores at most 100000, not 5000000000000000000000000000000000000..."),
    ("escoba", {}, [{"type": "round", "false_captures": {"Ben": NINES}, "sides": {
        "Anna": {"cards": 24, "coins": 7, "sevens": 3, "seven_of_coins": True, "escobas": 2},
        "Ben": {"cards": 16, "coins": 3, "sevens": 1, "seven_of_coins": False, "escobas": 0}}}],
     "event 1: false_captures: Ben's count must be a whole number from 1 to 20, not "
     "9999999999999999999999999999999999999... (leave out a side without false captures)"),
    ("escoba", {}, [{"type": "round", "sides": {
        "Anna": {"cards": NINES, "coins": 7, "sevens": 3, "seven_of_coins": True, "escobas": 2},
        "Ben": {"cards": NINES, "coins": 3, "sevens": 1, "seven_of_coins": False, "escobas": 0}}}],
     "event 1: sides: Anna's cards must be a whole number from 0 to 40, not 9999999999999999999999999999999999999..."),
])
def test_no_number_adds_up_past_what_a_result_can_print(game, rules, events, refusal):
    from scorekeeper.gamelog import LogError, replay

    doc = {"format": "scorekeeper-log/1", "game": game, "players": ["Anna", "Ben"], "rules": rules, "events": events}
    with pytest.raises(LogError) as refused:
        replay(json.loads(json.dumps(doc)))
    assert str(refused.value) == refusal
