"""The Escalero engine: every row, every combination, every setting, settlement and money."""

from fractions import Fraction

import pytest

from scorekeeper.games import escalero
from scorekeeper.games.base import RuleError, make_setup, parse_rules
from scorekeeper.games.escalero import Row, Throw, allowed_values, placements, throw_value


def rules(**overrides):
    return parse_rules(overrides, escalero.settings)


def new_game(players=("Anna", "Ben"), teams=None, **overrides):
    return escalero.start(make_setup(list(players), teams), rules(**overrides))


def score(state, player, column, row, value=None, dice=None, served=None):
    event = {"type": "score", "player": player, "column": column, "row": row}
    for key, val in (("value", value), ("dice", dice), ("served", served)):
        if val is not None:
            event[key] = val
    return escalero.apply(state, event)


def refused(state, message, **event):
    with pytest.raises(RuleError, match=message):
        escalero.apply(state, {"type": "score", **event})


# --- rows and values ---------------------------------------------------------------

@pytest.mark.parametrize("face", range(1, 7))
def test_picture_rows_take_zero_to_five_times_the_face(face):
    assert allowed_values(Row(str(face)), rules()) == tuple(face * n for n in range(6))


@pytest.mark.parametrize("row, default, options", [
    ("S", (0, 20, 25), {"straight": 25}), ("F", (0, 30, 35), {}), ("P", (0, 40, 45), {}),
    ("G", (0, 50, 80), {"double_grande": True}),
])
def test_combination_rows(row, default, options):
    assert allowed_values(Row(row), rules()) == default
    if options:
        changed = allowed_values(Row(row), rules(**options))
        assert changed == ((0, 25, 30) if row == "S" else (0, 50))


def test_double_grande_row_only_with_the_setting():
    assert Row.DOUBLE_GRANDE not in escalero.rows_for(rules())
    assert escalero.rows_for(rules(double_grande=True))[-1] is Row.DOUBLE_GRANDE
    assert allowed_values(Row.DOUBLE_GRANDE, rules(double_grande=True)) == (0, 100)
    refused(new_game(), "only when the double_grande rule is on", player="Anna", column=1, row="GG", value=100)


@pytest.mark.parametrize("dice, row, expected", [
    ((5, 5, 5, 2, 1), "5", 15), ((5, 5, 5, 2, 1), "1", 1), ((5, 5, 5, 2, 1), "6", 0),
    ((6, 6, 6, 6, 6), "6", 30),
    ((1, 2, 3, 4, 5), "S", 20), ((6, 5, 4, 3, 2), "S", 20), ((1, 2, 3, 4, 6), "S", None),
    ((1, 1, 2, 2, 3), "F", None), ((3, 3, 3, 2, 2), "F", 30), ((3, 3, 3, 3, 2), "F", None),
    ((4, 4, 4, 4, 1), "P", 40), ((4, 4, 4, 1, 1), "P", None),
    ((2, 2, 2, 2, 2), "G", 50), ((2, 2, 2, 2, 1), "G", None),
])
def test_value_from_dice(dice, row, expected):
    assert throw_value(Row(row), Throw(dice), rules()) == expected


@pytest.mark.parametrize("straight", [(1, 2, 3, 4, 5), (2, 3, 4, 5, 6)])
@pytest.mark.parametrize("faces", ["numbers", "poker"])
def test_both_straights_for_each_face_set(straight, faces):
    settings = rules(dice_faces=faces, straight=25)
    assert throw_value(Row.STRAIGHT, Throw(straight), settings) == 25
    assert throw_value(Row.STRAIGHT, Throw(straight, served=True), settings) == 30


def test_poker_faces_are_display_only():
    assert [escalero.row_label(r, rules(dice_faces="poker")) for r in escalero.PICTURES] == \
        ["9", "10", "J", "Q", "K", "A"]
    assert [escalero.row_label(r, rules()) for r in escalero.PICTURES] == list("123456")


@pytest.mark.parametrize("served, expected", [(False, (30, 40, 50)), (True, (35, 45, 80))])
def test_five_of_a_kind_as_full_house_or_poker(served, expected):
    throw = Throw((3, 3, 3, 3, 3), served)
    values = tuple(throw_value(Row(r), throw, rules()) for r in "FPG")
    assert values == expected
    strict = rules(five_of_a_kind_as_lower=False)
    assert throw_value(Row.FULL_HOUSE, throw, strict) is None
    assert throw_value(Row.POKER, throw, strict) is None


def test_five_of_a_kind_as_poker_when_grande_is_crossed():
    state = score(new_game(), "Anna", 1, "G", 0)
    state = score(state, "Ben", 1, "1", 0)
    state = score(state, "Anna", 1, "P", dice=[4, 4, 4, 4, 4], served=True)
    assert state.pads["Anna"][(1, Row.POKER)] == 45


@pytest.mark.parametrize("throw_number", [1, 2, 3])
def test_served_on_any_throw_counts_the_same(throw_number):
    # the log records only whether the five dice were thrown together, not which throw it was
    state = score(new_game(), "Anna", 1, "F", dice=[2, 2, 5, 5, 5], served=True)
    assert state.pads["Anna"][(1, Row.FULL_HOUSE)] == 35


def test_served_grande_with_double_grande():
    state = new_game(double_grande=True)
    state = score(state, "Anna", 1, "GG", dice=[1] * 5, served=True)
    assert state.pads["Anna"][(1, Row.DOUBLE_GRANDE)] == 100
    state = score(state, "Ben", 1, "G", dice=[1] * 5, served=True)
    assert state.pads["Ben"][(1, Row.GRANDE)] == 50  # G keeps 0 or 50
    refused(state, "do not make", player="Anna", column=2, row="GG", dice=[2] * 5)


# --- refusals ----------------------------------------------------------------------

def test_refusals_name_the_problem():
    state = new_game()
    refused(state, "it is Anna's turn, not Ben's", player="Ben", column=1, row="1", value=1)
    refused(state, "'Zoe' is not a player", player="Zoe", column=1, row="1", value=1)
    refused(state, "column must be from 1 to 3, not 4", player="Anna", column=4, row="1", value=1)
    refused(state, "column must be from 1 to 3, not True", player="Anna", column=True, row="1", value=1)
    refused(state, "row must be one of", player="Anna", column=1, row="X", value=1)
    refused(state, "row 2 takes 0, 2, 4, 6, 8, 10, not 3", player="Anna", column=1, row="2", value=3)
    refused(state, "row F takes 0, 30, 35, not 40", player="Anna", column=1, row="F", value=40)
    refused(state, "only combinations can be served", player="Anna", column=1, row="5",
            dice=[5, 5, 5, 5, 1], served=True)
    refused(state, "do not make Straight", player="Anna", column=1, row="S", dice=[1, 2, 3, 4, 4])
    refused(state, "score 15 in row 5, not 20", player="Anna", column=1, row="5",
            dice=[5, 5, 5, 1, 2], value=20)
    refused(state, "dice must be five faces", player="Anna", column=1, row="5", dice=[5, 5, 7, 1, 2])
    refused(state, "dice must be five faces", player="Anna", column=1, row="5", dice=[5, 5])
    refused(state, "give the value to write, or the dice", player="Anna", column=1, row="F")
    filled = score(score(state, "Anna", 1, "F", 30), "Ben", 1, "F", 0)
    refused(filled, "Anna has already written column 1, row F", player="Anna", column=1, row="F", value=0)
    one = new_game(columns=1)
    refused(one, "column must be 1, not 2", player="Anna", column=2, row="1", value=1)


def test_a_refusal_names_the_row_by_its_code_and_carries_the_pads_label():
    """The log (and so the CLI) knows rows by code; the screens show them as the pad does."""
    state = new_game(dice_faces="poker")
    for player, row in (("Anna", "3"), ("Ben", "S"), ("Anna", "S"), ("Ben", "3")):
        state = score(state, player, 1, row, 0)
    for row, shown, context in (("3", "J", "poker die"), ("S", "S", "Escalero row")):
        with pytest.raises(RuleError) as error:
            escalero.apply(state, {"type": "score", "player": "Anna", "column": 1, "row": row, "value": 0})
        assert str(error.value) == f"Anna has already written column 1, row {row}"
        term = error.value.text.values["row"]
        assert (term, term.shown, term.context) == (row, shown, context)
    with pytest.raises(RuleError) as error:
        escalero.apply(new_game(), {"type": "score", "player": "Anna", "column": 1, "row": "2", "value": 3})
    assert error.value.text.values["row"].shown == "2" and error.value.text.values["row"].context is None


def test_crossing_out_is_allowed_whatever_the_dice():
    state = score(new_game(), "Anna", 1, "S", 0, dice=[1, 1, 2, 2, 3])
    assert state.pads["Anna"][(1, Row.STRAIGHT)] == 0


@pytest.mark.parametrize("dice, served", [
    ([6, 6, 6, 6, 6], False), ([1, 2, 3, 4, 5], True), ([6, 5, 4, 2, 1], None), ([3, 3, 3, 3, 2], True)])
@pytest.mark.parametrize("row", ["S", "F", "P", "G"])
def test_a_cross_out_may_carry_any_throw(row, dice, served):
    """The dice of the throw that was crossed out are kept, not checked against the row."""
    state = score(new_game(), "Anna", 1, row, 0, dice=dice, served=served)
    entry = state.entries[-1]
    assert state.pads["Anna"][(1, Row(row))] == 0
    assert entry.throw == Throw(tuple(dice), bool(served))


def test_a_picture_cross_out_may_carry_dice_but_not_served():
    state = score(new_game(), "Anna", 1, "4", 0, dice=[1, 2, 3, 5, 6])
    assert state.pads["Anna"][(1, Row.FOUR)] == 0
    refused(state, "only combinations can be served", player="Ben", column=1, row="4", value=0,
            dice=[4, 4, 4, 4, 4], served=True)


# (row, value, served, settings): agrees with a value given without dice
SERVED_BY_VALUE = [
    ("S", 25, True, {}), ("S", 20, False, {}), ("F", 35, True, {}), ("F", 30, False, {}),
    ("P", 45, True, {}), ("P", 40, False, {}), ("G", 80, True, {}), ("G", 50, False, {}),
    ("S", 30, True, {"straight": 25}), ("S", 25, False, {"straight": 25}),
    ("GG", 100, True, {"double_grande": True}),
    # with double_grande a served Grande written in G scores 50, like one not served
    ("G", 50, True, {"double_grande": True}), ("G", 50, False, {"double_grande": True}),
    # a cross-out agrees with either
    ("S", 0, True, {}), ("S", 0, False, {}), ("G", 0, True, {}), ("GG", 0, False, {"double_grande": True}),
]


@pytest.mark.parametrize("row, value, served, settings", SERVED_BY_VALUE)
def test_served_with_a_value_and_no_dice(row, value, served, settings):
    state = score(new_game(**settings), "Anna", 1, row, value, served=served)
    assert state.pads["Anna"][(1, Row(row))] == value


@pytest.mark.parametrize("row, value, served, settings, message", [
    ("S", 20, True, {}, "a served throw scores 25 in row S, not 20"),
    ("S", 25, False, {}, "row S takes 25 only when served, but served is false"),
    ("F", 30, True, {}, "a served throw scores 35 in row F, not 30"),
    ("F", 35, False, {}, "row F takes 35 only when served, but served is false"),
    ("P", 40, True, {}, "a served throw scores 45 in row P, not 40"),
    ("P", 45, False, {}, "row P takes 45 only when served, but served is false"),
    ("G", 50, True, {}, "a served throw scores 80 in row G, not 50"),
    ("G", 80, False, {}, "row G takes 80 only when served, but served is false"),
    ("S", 25, True, {"straight": 25}, "a served throw scores 30 in row S, not 25"),
    ("S", 30, False, {"straight": 25}, "row S takes 30 only when served, but served is false"),
    ("GG", 100, False, {"double_grande": True}, "row GG takes 100 only when served, but served is false"),
])
def test_served_that_disagrees_with_the_value_is_refused(row, value, served, settings, message):
    state = new_game(**settings)
    with pytest.raises(RuleError) as caught:
        score(state, "Anna", 1, row, value, served=served)
    assert str(caught.value) == message


def test_served_on_a_picture_row_with_a_value_is_refused():
    refused(new_game(), "only combinations can be served", player="Anna", column=1, row="3", value=9, served=True)


def test_refused_entry_leaves_state_unchanged():
    state = new_game()
    before = (dict(state.pads), state.entries)
    with pytest.raises(RuleError):
        score(state, "Anna", 1, "F", 31)
    assert (dict(state.pads), state.entries) == before


def test_seating():
    with pytest.raises(RuleError, match="at least two sides"):
        new_game(players=("Solo",))
    with pytest.raises(RuleError, match="at least two sides"):
        new_game(players=("A", "B"), teams=[("Us", ["A", "B"])])


# --- teams -------------------------------------------------------------------------

def test_pairs_write_for_their_side_in_turn():
    teams = [("Red", ["Anna", "Cleo"]), ("Blue", ["Ben", "Dora"]), ("Solo", ["Emil"])]
    state = new_game(players=("Anna", "Ben", "Cleo", "Dora", "Emil"), teams=teams)
    assert escalero.writers(state) == {"Anna", "Cleo"}
    state = score(state, "cleo", 1, "1", 1)
    refused(state, "it is Blue's turn, not Red's", player="Anna", column=1, row="2", value=2)
    state = score(state, "Dora", 1, "1", 2)
    state = score(state, "Emil", 1, "1", 3)
    assert state.pads["Red"] and state.side_on_turn == "Red"
    assert escalero.result(state)["columns"] == {"Red": [1, 0, 0], "Blue": [2, 0, 0], "Solo": [3, 0, 0]}


# --- where could this throw go? ------------------------------------------------------

def test_placements_best_first():
    state = score(new_game(), "Anna", 1, "F", 30)
    options = placements(state, "Anna", Throw((3, 3, 3, 2, 2), served=True))
    assert len(options) == 29  # every open cell of Anna's pad
    assert [(p.column, p.row.value, p.value) for p in options[:4]] == \
        [(2, "F", 35), (3, "F", 35), (1, "3", 9), (2, "3", 9)]
    assert options[-1].value == 0


# --- settlement --------------------------------------------------------------------

def full_game(sums_by_side, columns=3, **overrides):
    """Play a whole game in which each side's first row of each column holds the target sum
    (made of pictures) and every other cell is crossed out."""
    sides = list(sums_by_side)
    state = new_game(players=sides, columns=columns, **overrides)
    plan = {side: _cells_for(sums) for side, sums in sums_by_side.items()}
    while not state.finished:
        side = state.side_on_turn
        column, row, value = plan[side].pop(0)
        state = score(state, side, column, row, value)
    return state


def _cells_for(sums):
    cells = []
    for column, total in enumerate(sums, 1):
        for row in escalero.PICTURES[::-1]:
            take = min(5, total // row.face)
            cells.append((column, row.value, take * row.face))
            total -= take * row.face
        assert total == 0
        cells += [(column, r, 0) for r in "SFPG"]
    return cells


def test_seed_two_players_three_points():
    state = full_game({"A": [60, 10, 80], "B": [50, 20, 70]})
    out = escalero.result(state)
    assert out["points"] == {"A": 3, "B": -3} and out["winner"] == "A" and out["finished"]


def test_seed_three_players():
    state = full_game({"A": [10, 90, 10], "B": [50, 20, 70], "C": [0, 0, 0]})
    assert escalero.result(state)["points"] == {"A": -1, "B": 8, "C": -7}


@pytest.mark.parametrize("bonus, expected", [(2, 9), (3, 10), (0, 7)])
def test_sweep(bonus, expected):
    state = full_game({"A": [60, 60, 60], "B": [50, 20, 30]}, sweep_bonus=bonus)
    assert escalero.result(state)["points"] == {"A": expected, "B": -expected}


def test_sweep_of_three_collects_from_both():
    state = full_game({"A": [60, 60, 60], "B": [5, 20, 30], "C": [1, 1, 1]})
    assert escalero.result(state)["points"] == {"A": 18, "B": -9, "C": -9}


def test_tied_column_and_shared_wins():
    two = escalero.result(full_game({"A": [60, 60, 10], "B": [60, 20, 30]}))
    assert two["points"] == {"A": -2, "B": 2}  # column 1 tied: nobody wins it
    three = escalero.game_points(full_game({"A": [60, 0, 0], "B": [60, 0, 0], "C": [10, 0, 0]}))
    assert three == {"A": Fraction(1, 2), "B": Fraction(1, 2), "C": Fraction(-1)}
    out = escalero.result(full_game({"A": [60, 5, 5], "B": [60, 5, 5], "C": [60, 5, 1]}))
    assert out["points"] == {"A": 2, "B": 2, "C": -4}  # columns 1, 2 tied by all; 3 shared
    assert out["winner"] is None  # A and B tie on top


def test_thirds_are_shown_with_two_decimals():
    # three of four sides share column 1: each gets a third of what the fourth pays
    state = full_game({"A": [5, 0, 0], "B": [5, 0, 0], "C": [5, 0, 0], "D": [1, 0, 0]}, stake="1.00")
    assert escalero.game_points(state)["A"] == Fraction(1, 3)
    out = escalero.result(state)
    assert out["points"] == {"A": 0.33, "B": 0.33, "C": 0.33, "D": -1}
    assert out["money"] == {"A": "0.33", "B": "0.34", "C": "0.33", "D": "-1.00"} or \
        sorted(out["money"].values()) == ["-1.00", "0.33", "0.33", "0.34"]


def test_one_column_difference_settlement():
    two = escalero.result(full_game({"A": [102], "B": [98]}, columns=1))
    assert two["points"] == {"A": 4, "B": -4}
    three = escalero.result(full_game({"A": [100], "B": [90], "C": [50]}, columns=1))
    assert three["points"] == {"A": 60, "B": 30, "C": -90}


def test_money_and_transfers():
    out = escalero.result(full_game({"A": [60, 10, 80], "B": [50, 20, 70]}, stake="0.50"))
    assert out["money"] == {"A": "1.50", "B": "-1.50"}
    assert out["transfers"] == [{"from": "B", "to": "A", "amount": "1.50"}]
    free = escalero.result(full_game({"A": [60, 10, 80], "B": [50, 20, 70]}))
    assert "money" not in free and "transfers" not in free


def test_money_rounding_sums_to_zero():
    # half points at a stake of 0.25: +0.125 rounds to 0.13 twice; one cent goes back
    state = full_game({"A": [60, 0, 0], "B": [60, 0, 0], "C": [10, 0, 0]}, stake="0.25", currency="chf")
    out = escalero.result(state)
    assert out["currency"] == "CHF"
    assert out["money"] == {"A": "0.12", "B": "0.13", "C": "-0.25"} or \
        out["money"] == {"A": "0.13", "B": "0.12", "C": "-0.25"}
    assert sum(int(v.replace(".", "")) for v in out["money"].values()) == 0


def test_provisional_result_while_playing():
    state = score(new_game(stake="1.00"), "Anna", 3, "6", 30)
    out = escalero.result(state)
    assert out["finished"] is False and out["winner"] is None
    assert out["points"] == {"Anna": 4, "Ben": -4}
    assert out["on_turn"] == "Ben"


@pytest.mark.parametrize("key, value, message", [
    ("columns", 2, "rules.columns: must be 1 or 3, not 2"),
    ("straight", 30, "rules.straight: must be 20 or 25"),
    ("double_grande", "yes", "rules.double_grande: must be true or false"),
    ("sweep_bonus", -1, "rules.sweep_bonus: must be a whole number"),
    ("sweep_bonus", 2.5, "rules.sweep_bonus: must be a whole number"),
    ("stake", 0.5, "rules.stake: must be an amount"),
    ("stake", "0.505", "rules.stake: must be an amount"),
    ("stake", "-1", "rules.stake: must be an amount"),
    ("currency", "EURO", "rules.currency: must be a three-letter"),
    ("dice_faces", "cards", "rules.dice_faces: must be"),
    ("colums", 3, "rules.colums: this game has no such setting"),
])
def test_bad_settings(key, value, message):
    with pytest.raises(RuleError, match=message):
        parse_rules({key: value}, escalero.settings)
