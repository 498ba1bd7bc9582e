"""Property tests: random legal games always settle cleanly; random illegal entries never stick."""

from fractions import Fraction

from hypothesis import given, settings, strategies as st

from scorekeeper.games import escalero
from scorekeeper.games.base import RuleError, make_setup, parse_rules
from scorekeeper.games.escalero import Throw, allowed_values
from scorekeeper.games.settle import fewest_transfers, money_cents

faces = st.integers(1, 6)
dice = st.lists(faces, min_size=5, max_size=5)


@st.composite
def games(draw):
    players = draw(st.lists(st.sampled_from("ABCDEFG"), min_size=2, max_size=5, unique=True))
    rules = parse_rules({
        "columns": draw(st.sampled_from([1, 3])),
        "double_grande": draw(st.booleans()),
        "straight": draw(st.sampled_from([20, 25])),
        "sweep_bonus": draw(st.integers(0, 3)),
        "five_of_a_kind_as_lower": draw(st.booleans()),
        "stake": draw(st.sampled_from(["0.10", "0.25", "0.33", "1.00", "0.07"])),
    }, escalero.settings)
    return escalero.start(make_setup(players, None), rules)


def legal_entry(draw, state):
    """A random entry for the side on turn: a random open cell, by value or by a throw."""
    side = state.side_on_turn
    column, row = draw(st.sampled_from(state.open_cells(side)))
    event = {"type": "score", "player": side, "column": column, "row": row.value}
    throw = Throw(tuple(draw(dice)), draw(st.booleans()) and not row.is_picture)
    made = escalero.throw_value(row, throw, state.rules)
    if made is not None and draw(st.booleans()):
        event.update(dice=list(throw.dice), served=throw.served)
    else:
        event["value"] = draw(st.sampled_from(allowed_values(row, state.rules)))
    return event


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_random_legal_games_settle(data):
    state = data.draw(games())
    while not state.finished:
        state = escalero.apply(state, legal_entry(data.draw, state))
    assert all(len(pad) == state.cells_per_side for pad in state.pads.values())
    out = escalero.result(state)
    assert out["finished"] and escalero.writers(state) == frozenset()
    assert sum(escalero.game_points(state).values()) == 0
    cents = {side: int(amount.replace(".", "")) for side, amount in out["money"].items()}
    assert sum(cents.values()) == 0
    balance = dict(cents)
    for transfer in out["transfers"]:
        amount = int(transfer["amount"].replace(".", ""))
        assert amount > 0
        balance[transfer["from"]] += amount
        balance[transfer["to"]] -= amount
    assert not any(balance.values())
    assert len(out["transfers"]) <= max(0, sum(1 for c in cents.values() if c) - 1)


bad_values = st.one_of(st.none(), st.booleans(), st.integers(-5, 200), st.text(max_size=3),
                       st.floats(allow_nan=False), st.lists(st.integers(-1, 8), max_size=6))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_random_illegal_entries_change_nothing(data):
    state = data.draw(games())
    for _ in range(data.draw(st.integers(0, 6))):
        state = escalero.apply(state, legal_entry(data.draw, state))
    event = {"type": "score", **data.draw(st.dictionaries(
        st.sampled_from(["player", "column", "row", "value", "dice", "served"]),
        st.one_of(bad_values, st.sampled_from(["A", "B", "S", "G", "1", "GG"])), max_size=6))}
    snapshot = (state.entries, {side: dict(pad) for side, pad in state.pads.items()})
    try:
        after = escalero.apply(state, event)
    except RuleError as error:
        assert str(error) and "\n" not in str(error)
    else:  # the rare random entry that happens to be legal writes exactly one cell
        assert len(after.entries) == len(state.entries) + 1
    assert (state.entries, {side: dict(pad) for side, pad in state.pads.items()}) == snapshot


@settings(max_examples=300, deadline=None)
@given(st.lists(st.fractions(min_value=-50, max_value=50, max_denominator=6), min_size=1, max_size=9),
       st.decimals(min_value="0.01", max_value="20", places=2))
def test_money_always_sums_to_zero_and_is_near_exact(points, stake):
    points = points + [-sum(points)]
    named = {f"S{i}": p for i, p in enumerate(points)}
    cents = money_cents(named, stake)
    assert sum(cents.values()) == 0
    for side, p in named.items():
        assert abs(cents[side] - p * Fraction(stake) * 100) < 1 + Fraction(len(points), 2)
    paid = dict(cents)
    for debtor, creditor, amount in fewest_transfers(cents):
        paid[debtor] += amount
        paid[creditor] -= amount
    assert not any(paid.values())
