"""Every game's event space as hypothesis strategies: events built from the log format's fields
(LOG-FORMAT.md) — every key of the game's events, with values that fit, values that nearly fit
and wrong types (strings, lists, objects, null, booleans, floats, huge and negative integers) —
for the engines' property tests (tests/test_engines_total.py) and the fuzzing of the routes and
commands that take events (tests/reliability/test_fuzz.py)."""

from __future__ import annotations

from hypothesis import strategies as st

from scorekeeper.gamelog import EVENT_EXTRAS

# Past SQLite's integers, and the largest a JSON document may carry into Python (its 4,300-digit
# limit on int()); built when drawn, so that no strategy's repr (a failure report) holds them
huge = st.sampled_from([63, 64, 100, 4300]).flatmap(
    lambda digits: st.sampled_from([10 ** digits - 1, -(10 ** digits - 1), 5 * 10 ** (digits - 1), 2 ** 63,
                                    -(2 ** 63) - 1]))
SPECIAL_FLOATS = [float("nan"), float("inf"), float("-inf"), -0.0, 0.5, 1.0, 50.0, 1e308]
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(-3, 60), huge,
                    st.floats(), st.sampled_from(SPECIAL_FLOATS), st.text(max_size=8),
                    st.sampled_from(["", " ", "0", "1", "true", "null", "NaN", "x" * 300, "\x00", "🎲"]))


def _nested(inner):
    return st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=4)


# any JSON value (and NaN and the infinities, which Python's json reads)
wrong = st.recursive(scalars, _nested, max_leaves=12)


def names(players: list[str]):
    """A player's name as a phone or a log may spell it, or someone else's."""
    return st.sampled_from(players) | st.sampled_from(players).map(lambda n: f" {n.upper()} ") | st.sampled_from(
        ["Nobody", "", "  "])


def faces(most: int = 7):
    """Lists of dice: faces 1–6 mostly, and some that are no face at all."""
    return st.lists(st.integers(1, 6) | st.integers(-1, 8), max_size=most)


def fields(game: str, players: list[str], sides: list[str]) -> dict:
    """Per key of the game's events, the values that fit or nearly fit (`wrong` is added to each):
    the game's own, from its test support (tests/games/<game>.py)."""
    from tests.games import SUPPORT  # its modules build on the strategies above

    return SUPPORT[game].event_fields(players, sides)


def events(game: str, keys: dict[str, frozenset[str]], players: list[str], sides: list[str]):
    """An event of `game`: any of its keys (and at, by, note, and an unknown one), each with a
    value that fits or a wrong one; or not an object at all, now and then."""
    known = fields(game, players, sides)
    every_key = sorted(set().union(*keys.values()) | EVENT_EXTRAS)
    extras = {"at": st.just("2025-01-01T20:00:00+00:00"), "by": st.sampled_from(players), "note": st.text(max_size=8)}
    optional = {key: {**extras, **known}.get(key, st.nothing()) | wrong for key in every_key}
    event = st.fixed_dictionaries({}, optional=optional)
    # most events name one of the game's types, so that the engine reads the rest
    typed = st.fixed_dictionaries({"type": st.sampled_from(sorted(keys))},
                                  optional={k: v for k, v in optional.items() if k != "type"})
    unknown = st.dictionaries(st.sampled_from(["rows", "Value", "dealer", "id", ""]) | st.text(max_size=6),
                              wrong, max_size=1)
    return st.one_of(typed, typed, typed, event, st.builds(lambda a, b: {**b, **a}, typed, unknown), wrong)


@st.composite
def mutated(draw, event: dict, game: str, keys: dict[str, frozenset[str]], players: list[str], sides: list[str]):
    """`event` (a legal one, say) with one to three of its game's keys given another value, that
    fits or not, or taken away: the neighbourhood of legal events, where most refusals are made."""
    known = fields(game, players, sides)
    every_key = sorted(set().union(*keys.values()))
    event = dict(event)
    for _ in range(draw(st.integers(1, 3))):
        absent = [key for key in every_key if key not in event]
        # an optional key the legal event left out (a flag, say) half the time
        key = draw(st.sampled_from(absent if absent and draw(st.booleans()) else every_key))
        if draw(st.integers(0, 4)) == 0:
            event.pop(key, None)
        elif key in known and draw(st.integers(0, 2)):
            event[key] = draw(known[key])
        else:
            event[key] = draw(wrong)
    return event
