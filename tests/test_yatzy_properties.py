"""Property tests of the Yatzy engine: any event dict is a new state or a RuleError in words,
and random legal games always end with a result that adds up."""

from hypothesis import given, settings, strategies as st

from scorekeeper.gamelog import clean_event
from scorekeeper.games import ENGINES, yatzy
from scorekeeper.games.base import RuleError, make_setup, parse_rules
from scorekeeper.games.settle import text_cents
from scorekeeper.games.yatzy import Box, allowed_values, box_value

dice = st.lists(st.integers(1, 6), min_size=5, max_size=5)


@st.composite
def games(draw):
    players = draw(st.lists(st.sampled_from(["Anna", "Ben", "Cleo", "Dora", "Emil"]), min_size=2, max_size=5,
                            unique=True))
    rules = parse_rules({"form": draw(st.sampled_from(["scandinavian", "classic"])),
                         "stake": draw(st.sampled_from(["0", "0.01", "0.10", "0.33", "1.00"]))}, yatzy.settings)
    return yatzy.start(make_setup(players, None), rules)


def legal_entry(draw, state):
    """A random entry for the player on turn: a random open box, by dice, value, both or a scratch."""
    player = state.on_turn
    box = draw(st.sampled_from(state.open_boxes(player)))
    thrown = draw(dice)
    made = box_value(box, thrown, state.form)
    event = {"type": "score", "player": draw(st.sampled_from([player, player.upper(), f" {player.lower()}"])),
             "box": box.value}
    way = draw(st.sampled_from(["dice", "value", "both", "scratch", "scratch with dice"]))
    if made is None and way in ("dice", "both"):
        way = "scratch with dice"
    if way in ("dice", "both", "scratch with dice"):
        event["dice"] = thrown
    if way == "value":
        event["value"] = draw(st.sampled_from(allowed_values(box, state.form)))
    elif way == "both":
        event["value"] = made
    elif way.startswith("scratch"):
        event["value"] = 0
    return event


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_random_legal_games_end_with_a_result_that_adds_up(data):
    state = data.draw(games())
    while not state.finished:
        state = yatzy.apply(state, legal_entry(data.draw, state))
    out = yatzy.result(state)
    assert out["finished"] and yatzy.writers(state) == frozenset()
    for player in state.setup.players:
        card = state.cards[player]
        assert set(card) == set(state.form.boxes)
        upper = sum(card[box] for box in Box if box.is_upper)
        assert out["bonus"][player] == (state.form.bonus if upper >= 63 else 0)
        assert out["totals"][player] == sum(card.values()) + out["bonus"][player]
    assert sum(out["points"].values()) == 0
    top = max(out["totals"].values())
    leaders = [player for player, total in out["totals"].items() if total == top]
    assert out["winner"] == (leaders[0] if len(leaders) == 1 else None)
    if out["winner"]:
        assert out["points"][out["winner"]] == max(out["points"].values())
    if state.rules["stake"] > 0:
        cents = {player: text_cents(amount) for player, amount in out["money"].items()}
        assert sum(cents.values()) == 0
        for transfer in out["transfers"]:
            assert text_cents(transfer["amount"]) > 0
            cents[transfer["from"]] += text_cents(transfer["amount"])
            cents[transfer["to"]] -= text_cents(transfer["amount"])
        assert not any(cents.values())
    else:
        assert "money" not in out and "transfers" not in out


def junk_of(*atoms):
    return st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8), st.binary(max_size=4),
                  st.sampled_from(["Anna", "ben", "CLEO", "score", "full", "pair", "4", "yatzy", "chance", ""]),
                  *atoms),
        lambda inner: st.one_of(st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=4), inner, max_size=3)),
        max_leaves=10)


# integers Python will not write out (over 4,300 digits): JSON never brings one, but the
# engine is called from Python too. (gamelog.clean_event, before the engine, still trips
# on them in base.describe, so the test through it leaves them out.)
junk = junk_of()
junk_with_huge_numbers = junk_of(st.integers(0, 3).map(lambda n: (-1) ** n * 10 ** (4300 + n)))
plausible = {
    "type": st.sampled_from(["score", "turn"]),
    "player": st.sampled_from(["Anna", "Ben", "Cleo", "anna", " BEN "]),
    "box": st.sampled_from([box.value for box in Box] + ["bonus"]),
    "value": st.one_of(st.integers(-3, 55), st.sampled_from([True, False, 12.0, 10 ** 30])),
    "dice": st.one_of(dice, st.lists(st.integers(-1, 8), max_size=7), st.lists(st.booleans(), min_size=5,
                                                                               max_size=5)),
    "at": st.just("2024-05-01T20:15:00Z"), "by": st.just("Anna"), "note": st.text(max_size=5),
}
KEYS = [*plausible, "colour", "served", "column"]


@st.composite
def events(draw, junk):
    """An event of the format's keys (and a few it does not have), each plausible or junk."""
    keys = draw(st.lists(st.sampled_from(KEYS), unique=True, max_size=len(KEYS)))
    return {key: draw(plausible[key]) if key in plausible and draw(st.booleans()) else draw(junk) for key in keys}


@st.composite
def near_misses(draw, junk, state):
    """A legal entry with one to three keys changed, added or taken away: the checks deep
    inside an entry are reached."""
    event = legal_entry(draw, state)
    for key in draw(st.lists(st.sampled_from(KEYS + ["value", "dice", "box"] * 3), min_size=1, max_size=3,
                             unique=True)):
        change = draw(st.sampled_from(["plausible", "junk", "remove"]))
        if change == "remove":
            event.pop(key, None)
        else:
            event[key] = draw(plausible[key]) if change == "plausible" and key in plausible else draw(junk)
    return event


def a_game_under_way(data):
    state = yatzy.start(make_setup(["Anna", "Ben", "Cleo"], None),
                        parse_rules({"form": data.draw(st.sampled_from(["scandinavian", "classic"]))},
                                    yatzy.settings))
    for _ in range(data.draw(st.integers(0, 4))):
        state = yatzy.apply(state, legal_entry(data.draw, state))
    return state


def new_state_or_refusal(state, enter):
    """`enter()` gives a state with one more box written, or a RuleError in one line; `state`
    itself never changes."""
    snapshot = (state.entries, {player: dict(card) for player, card in state.cards.items()})
    try:
        after = enter()
    except RuleError as error:
        assert str(error) and "\n" not in str(error)
    else:  # the rare random event that is legal writes exactly one box
        assert len(after.entries) == len(state.entries) + 1
    assert (state.entries, {player: dict(card) for player, card in state.cards.items()}) == snapshot


@settings(max_examples=500, deadline=None)
@given(st.data())
def test_any_event_is_a_new_state_or_a_refusal_in_words(data):
    state = a_game_under_way(data)
    event = data.draw(st.one_of(near_misses(junk_with_huge_numbers, state), events(junk_with_huge_numbers),
                                junk_with_huge_numbers))
    new_state_or_refusal(state, lambda: yatzy.apply(state, event))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_any_event_read_as_the_log_reader_does_is_a_new_state_or_a_refusal(data):
    state = a_game_under_way(data)
    event = data.draw(st.one_of(near_misses(junk, state), events(junk), junk))
    new_state_or_refusal(state, lambda: yatzy.apply(state, clean_event(ENGINES["yatzy"], event)))
