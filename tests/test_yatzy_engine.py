"""The Yatzy engine: every box of both cards, what a box may hold, turns, the bonus, the end,
settlement and money (RULES.md, "Yatzy" and "All games")."""

import json
from decimal import Decimal

import pytest

from scorekeeper.gamelog import Game, LogError, fold, log_schema
from scorekeeper.games import ENGINES, yatzy
from scorekeeper.games.base import Engine, RuleError, SeatingError, make_setup, parse_rules
from scorekeeper.games.yatzy import Box, Form, allowed_values, box_value, placements

S, C = Form.SCANDINAVIAN, Form.CLASSIC


def rules(**overrides):
    return parse_rules(overrides, yatzy.settings)


def new_game(players=("Anna", "Ben"), teams=None, **overrides):
    return yatzy.start(make_setup(list(players), teams), rules(**overrides))


def score(state, player, box, value=None, dice=None):
    event = {"type": "score", "player": player, "box": box}
    for key, val in (("value", value), ("dice", dice)):
        if val is not None:
            event[key] = val
    return yatzy.apply(state, event)


def refused(state, message, **event):
    with pytest.raises(RuleError) as caught:
        yatzy.apply(state, {"type": "score", **event})
    assert str(caught.value) == message
    return caught.value


def scratch_rest(state):
    """Play on to the end: everyone on turn scratches their first open box."""
    while not state.finished:
        player = state.on_turn
        state = score(state, player, state.open_boxes(player)[0].value, 0)
    return state


def play(cards, **overrides):
    """A whole game from each player's box -> value, turns in seat order, boxes in card order."""
    state = new_game(players=tuple(cards), **overrides)
    while not state.finished:
        player = state.on_turn
        box = state.open_boxes(player)[0]
        state = score(state, player, box.value, cards[player].get(box.value, 0))
    return state


# --- the engine contract -----------------------------------------------------------

def test_the_module_keeps_the_engine_contract():
    """Registered as its module reads; none of the contract's optional parts but the dice as a
    box's detail (scoring nothing) and its figures for the players' pages."""
    engine = ENGINES["yatzy"]
    assert engine == Engine.of(yatzy)
    assert (engine.name, engine.title) == ("yatzy", "Yatzy")
    assert engine.events == {"score": frozenset({"player", "box", "value", "dice"})}
    assert list(engine.settings) == ["form", "stake", "currency"]
    assert engine.details == frozenset({"dice"})
    assert (engine.verify_draft, engine.default_teams, engine.rematch_rules, engine.seats) == (None, None, None, None)
    assert list(engine.statistics.shown) == ["average_score", "best_score", "yatzies", "bonuses"]
    assert engine.statistics.key == "average_score" and engine.statistics.best == {"best_score"}


def test_a_game_folds_through_the_log_reader():
    """As `replay` reads a log: null fields left out, at/by/note kept out of the engine's way,
    an unknown key refused, the first bad event named."""
    game = Game(ENGINES["yatzy"], make_setup(["Anna", "Ben"], None), rules(form="classic"))
    events = [{"type": "score", "player": "Anna", "box": "full", "dice": [3, 3, 3, 6, 6], "value": None,
               "at": "2024-05-02T19:31:05Z", "by": "Ben", "note": "first throw"},
              {"type": "score", "player": "Ben", "box": "4", "value": 12}]
    state = fold(game, events)
    assert state.cards == {"Anna": {Box.FULL: 25}, "Ben": {Box.FOURS: 12}}
    with pytest.raises(LogError) as caught:
        fold(game, [*events, {"type": "score", "player": "Anna", "box": "4", "value": 8, "row": "4"}])
    assert str(caught.value) == "event 3: a score event has no field 'row'"
    with pytest.raises(LogError) as caught:
        fold(game, [*events, {"type": "score", "player": "Anna", "box": "full", "value": 0}])
    assert str(caught.value) == "event 3: Anna has already written Full House"


# --- seating and settings ----------------------------------------------------------

def test_two_or_more_players_one_player_is_refused():
    with pytest.raises(SeatingError) as caught:
        new_game(players=("Anna",))
    assert str(caught.value) == "players: Yatzy needs at least two players"
    assert new_game(players=("A", "B", "C", "D", "E")).on_turn == "A"


def test_no_teams():
    with pytest.raises(SeatingError) as caught:
        new_game(players=("A", "B", "C", "D"), teams=[("Red", ["A", "C"]), ("Blue", ["B", "D"])])
    assert str(caught.value) == "teams: Yatzy is played without teams"


def test_settings_default_to_the_scandinavian_card_without_money():
    assert rules() == {"form": "scandinavian", "stake": 0, "currency": "EUR"}
    assert rules(form="classic", stake="0.10", currency="chf") == {"form": "classic", "stake": Decimal("0.10"),
                                                                   "currency": "CHF"}


@pytest.mark.parametrize("key, value, message", [
    ("form", "american", "rules.form: must be \"scandinavian\" or \"classic\", not 'american'"),
    ("form", 1, "rules.form: must be \"scandinavian\" or \"classic\", not 1"),
    ("stake", 0.1, "rules.stake: must be an amount like \"0.50\", not 0.1"),
    ("stake", "-1", "rules.stake: must be an amount like \"0.50\", not '-1'"),
    ("currency", "EURO", "rules.currency: must be a three-letter currency code like \"EUR\", not 'EURO'"),
    ("columns", 1, "rules.columns: this game has no such setting (settings: form, stake, currency)"),
])
def test_bad_settings(key, value, message):
    with pytest.raises(RuleError) as caught:
        rules(**{key: value})
    assert str(caught.value) == message


def test_the_scandinavian_card_has_15_boxes_the_classic_13():
    assert [box.value for box in S.boxes] == ["1", "2", "3", "4", "5", "6", "pair", "two_pairs", "three", "four",
                                              "small", "large", "full", "chance", "yatzy"]
    assert [box.value for box in C.boxes] == ["1", "2", "3", "4", "5", "6", "three", "four",
                                              "small", "large", "full", "chance", "yatzy"]


def test_one_pair_and_two_pairs_are_not_on_the_classic_card():
    state = new_game(form="classic")
    refused(state, "One Pair is only on the Scandinavian card", player="Anna", box="pair", value=12)
    refused(state, "Two Pairs is only on the Scandinavian card", player="Anna", box="two_pairs", value=0)


# --- what dice score in each box ---------------------------------------------------

@pytest.mark.parametrize("form", [S, C])
@pytest.mark.parametrize("box, dice, expected", [
    ("1", (1, 1, 1, 4, 5), 3), ("2", (2, 2, 2, 6, 6), 6), ("3", (3, 3, 3, 2, 6), 9),
    ("4", (4, 4, 4, 1, 1), 12), ("5", (5, 5, 5, 5, 5), 25), ("6", (6, 6, 6, 3, 1), 18),
    ("4", (1, 2, 3, 5, 6), 0), ("6", (6, 6, 6, 6, 6), 30),
])
def test_upper_boxes_score_the_dice_showing_their_face(form, box, dice, expected):
    assert box_value(Box(box), dice, form) == expected


@pytest.mark.parametrize("form", [S, C])
@pytest.mark.parametrize("dice, expected", [((6, 5, 6, 4, 3), 24), ((1, 1, 1, 1, 1), 5), ((6, 6, 6, 6, 6), 30)])
def test_chance_is_the_sum_of_all_dice(form, dice, expected):
    assert box_value(Box.CHANCE, dice, form) == expected


@pytest.mark.parametrize("dice, expected", [
    ((6, 6, 5, 5, 1), 12),  # the highest pair
    ((3, 3, 1, 2, 4), 6), ((5, 5, 5, 2, 1), 10), ((4, 4, 4, 4, 1), 8), ((1, 1, 1, 1, 1), 2),
    ((1, 2, 3, 4, 6), None),
])
def test_scandinavian_one_pair_is_the_highest_pair_also_inside_three_four_or_five_of_a_kind(dice, expected):
    assert box_value(Box.PAIR, dice, S) == expected


@pytest.mark.parametrize("dice, expected", [
    ((3, 3, 5, 5, 5), 16),  # a full house makes two pairs
    ((6, 6, 2, 2, 4), 16), ((1, 1, 2, 2, 3), 6), ((6, 6, 5, 5, 6), 22),
    ((5, 5, 5, 5, 5), None),  # five of a kind: not two different faces
    ((5, 5, 5, 5, 2), None), ((5, 5, 1, 2, 3), None),
])
def test_scandinavian_two_pairs_need_two_different_faces(dice, expected):
    assert box_value(Box.TWO_PAIRS, dice, S) == expected


@pytest.mark.parametrize("box, dice, expected", [
    ("three", (5, 5, 5, 2, 1), 15), ("three", (6, 6, 6, 6, 2), 18), ("three", (2, 2, 2, 2, 2), 6),
    ("three", (5, 5, 2, 2, 1), None),
    ("four", (2, 2, 2, 2, 6), 8), ("four", (3, 3, 3, 3, 3), 12), ("four", (2, 2, 2, 6, 6), None),
])
def test_scandinavian_three_and_four_of_a_kind_score_those_dice(box, dice, expected):
    assert box_value(Box(box), dice, S) == expected


@pytest.mark.parametrize("box, dice, expected", [
    ("three", (5, 5, 5, 2, 1), 18), ("three", (4, 4, 4, 4, 4), 20), ("three", (6, 6, 6, 6, 3), 27),
    ("three", (5, 5, 2, 2, 1), None),
    ("four", (6, 6, 6, 6, 3), 27), ("four", (1, 1, 1, 1, 1), 5), ("four", (6, 6, 6, 3, 3), None),
])
def test_classic_three_and_four_of_a_kind_score_all_five_dice(box, dice, expected):
    assert box_value(Box(box), dice, C) == expected


def test_four_or_five_of_a_kind_make_three_of_a_kind_five_make_four():
    for form in (S, C):
        assert box_value(Box.THREE, (4, 4, 4, 4, 1), form) is not None
        assert box_value(Box.THREE, (4, 4, 4, 4, 4), form) is not None
        assert box_value(Box.FOUR, (4, 4, 4, 4, 4), form) is not None


@pytest.mark.parametrize("dice, small, large", [
    ((1, 2, 3, 4, 5), 15, None), ((5, 3, 1, 4, 2), 15, None), ((2, 3, 4, 5, 6), None, 20),
    ((1, 2, 3, 4, 6), None, None), ((1, 2, 3, 4, 4), None, None),
])
def test_scandinavian_straights_are_1_to_5_and_2_to_6(dice, small, large):
    assert (box_value(Box.SMALL, dice, S), box_value(Box.LARGE, dice, S)) == (small, large)


@pytest.mark.parametrize("dice, small, large", [
    ((1, 2, 3, 4, 6), 30, None), ((3, 4, 5, 6, 6), 30, None), ((2, 3, 4, 5, 2), 30, None),
    ((1, 2, 3, 4, 5), 30, 40),  # five in a row is also a small straight
    ((6, 5, 4, 3, 2), 30, 40),
    ((1, 2, 3, 5, 6), None, None), ((1, 1, 2, 2, 3), None, None),
])
def test_classic_small_straight_is_any_four_in_a_row_large_five(dice, small, large):
    assert (box_value(Box.SMALL, dice, C), box_value(Box.LARGE, dice, C)) == (small, large)


@pytest.mark.parametrize("dice, scandinavian, classic", [
    ((6, 6, 6, 4, 4), 26, 25), ((1, 1, 1, 2, 2), 7, 25), ((3, 3, 5, 5, 5), 21, 25),
    ((4, 4, 4, 4, 4), None, None),  # five of a kind is not a full house
    ((4, 4, 4, 4, 2), None, None), ((4, 4, 2, 2, 1), None, None),
])
def test_full_house_is_three_and_two_of_different_faces(dice, scandinavian, classic):
    assert (box_value(Box.FULL, dice, S), box_value(Box.FULL, dice, C)) == (scandinavian, classic)


@pytest.mark.parametrize("form", [S, C])
def test_yatzy_is_five_of_a_kind_for_50(form):
    assert box_value(Box.YATZY, (3, 3, 3, 3, 3), form) == 50
    assert box_value(Box.YATZY, (3, 3, 3, 3, 2), form) is None


# --- what a box may hold -------------------------------------------------------------

@pytest.mark.parametrize("form, box, values", [
    (S, "1", (0, 1, 2, 3, 4, 5)), (C, "4", (0, 4, 8, 12, 16, 20)), (S, "6", (0, 6, 12, 18, 24, 30)),
    (S, "pair", (0, 2, 4, 6, 8, 10, 12)), (S, "two_pairs", (0, 6, 8, 10, 12, 14, 16, 18, 20, 22)),
    (S, "three", (0, 3, 6, 9, 12, 15, 18)), (S, "four", (0, 4, 8, 12, 16, 20, 24)),
    (S, "small", (0, 15)), (S, "large", (0, 20)), (C, "small", (0, 30)), (C, "large", (0, 40)),
    (C, "full", (0, 25)), (S, "yatzy", (0, 50)), (C, "yatzy", (0, 50)),
    (S, "chance", (0, *range(5, 31))), (C, "three", (0, *range(5, 31))), (C, "four", (0, *range(5, 31))),
    (S, "full", (0, 7, 8, 9, *range(11, 25), 26, 27, 28)),
])
def test_a_box_holds_0_or_what_some_five_dice_give_there(form, box, values):
    assert allowed_values(Box(box), form) == values


@pytest.mark.parametrize("form, box, value, message", [
    ("scandinavian", "4", 13, "Fours takes 0, 4, 8, 12, 16, 20, not 13"),
    ("classic", "full", 26, "Full House takes 0, 25, not 26"),
    ("scandinavian", "full", 10, "Full House takes 0, 7–9, 11–24, 26–28, not 10"),  # 2-2-2-2-2 is no full house
    ("scandinavian", "full", 25, "Full House takes 0, 7–9, 11–24, 26–28, not 25"),
    ("scandinavian", "full", 30, "Full House takes 0, 7–9, 11–24, 26–28, not 30"),
    ("scandinavian", "two_pairs", 4, "Two Pairs takes 0, 6, 8, 10, 12, 14, 16, 18, 20, 22, not 4"),
    ("scandinavian", "small", 20, "Small Straight takes 0, 15, not 20"),
    ("classic", "small", 15, "Small Straight takes 0, 30, not 15"),
    ("scandinavian", "chance", 4, "Chance takes 0, 5–30, not 4"),
    ("scandinavian", "1", -1, "Ones takes 0–5, not -1"),
    ("scandinavian", "yatzy", 100, "Yatzy takes 0, 50, not 100"),
])
def test_a_value_the_box_cannot_hold_is_refused(form, box, value, message):
    refused(new_game(form=form), message, player="Anna", box=box, value=value)


@pytest.mark.parametrize("value", [True, False, 12.0, "12", [12], {"v": 12}, 10 ** 40])
def test_a_value_must_be_a_whole_number_not_a_bool(value):
    error = refused(new_game(), f"Fours takes 0, 4, 8, 12, 16, 20, not {yatzy.describe(value)}",
                    player="Anna", box="4", value=value)
    assert error.text.template == "%(box)s takes %(allowed)s, not %(value)s"


def test_a_number_too_long_to_write_out_is_refused_in_words():
    """Python will not write out an integer of over 4,300 digits (JSON never brings one)."""
    huge = 10 ** 5000
    refused(new_game(), "Fours takes 0, 4, 8, 12, 16, 20, not a number too long to show", player="Anna", box="4",
            value=huge)
    refused(new_game(), "a number too long to show is not a player at this table", player=huge, box="4", value=0)
    refused(new_game(), "dice must be five faces from 1 to 6, not a number too long to show", player="Anna",
            box="4", dice=[huge] * 5)


@pytest.mark.parametrize("form, box, value", [
    ("scandinavian", "full", 7), ("scandinavian", "full", 28), ("scandinavian", "two_pairs", 22),
    ("classic", "full", 25), ("classic", "three", 5), ("classic", "small", 30), ("scandinavian", "chance", 30),
])
def test_a_value_alone_that_some_dice_give_is_written(form, box, value):
    state = score(new_game(form=form), "Anna", box, value)
    assert state.cards["Anna"] == {Box(box): value} and state.entries[-1].dice is None


# --- value, dice, or both ----------------------------------------------------------

def test_dice_alone_give_the_value():
    state = score(new_game(), "Anna", "two_pairs", dice=[3, 3, 5, 5, 5])
    assert state.cards["Anna"][Box.TWO_PAIRS] == 16
    assert state.entries[-1] == yatzy.Entry("Anna", Box.TWO_PAIRS, 16, (3, 3, 5, 5, 5))


@pytest.mark.parametrize("form, box, dice, message", [
    ("scandinavian", "full", [4, 4, 4, 4, 4], "dice 4-4-4-4-4 do not make Full House (to scratch it, write 0)"),
    ("classic", "full", [4, 4, 4, 4, 4], "dice 4-4-4-4-4 do not make Full House (to scratch it, write 0)"),
    ("scandinavian", "two_pairs", [5, 5, 5, 5, 5], "dice 5-5-5-5-5 do not make Two Pairs (to scratch it, write 0)"),
    ("scandinavian", "small", [2, 3, 4, 5, 6], "dice 2-3-4-5-6 do not make Small Straight (to scratch it, write 0)"),
    ("classic", "yatzy", [1, 1, 1, 1, 2], "dice 1-1-1-1-2 do not make Yatzy (to scratch it, write 0)"),
    ("scandinavian", "pair", [1, 2, 3, 4, 6], "dice 1-2-3-4-6 do not make One Pair (to scratch it, write 0)"),
])
def test_dice_alone_that_do_not_make_a_combination_box_are_refused(form, box, dice, message):
    refused(new_game(form=form), message, player="Anna", box=box, dice=dice)


@pytest.mark.parametrize("box, dice, value", [("4", [1, 2, 3, 5, 6], 0), ("4", [4, 4, 1, 2, 3], 8),
                                              ("chance", [1, 1, 2, 2, 3], 9)])
def test_the_upper_boxes_and_chance_take_any_dice(box, dice, value):
    state = score(new_game(), "Anna", box, dice=dice)
    assert state.cards["Anna"][Box(box)] == value


@pytest.mark.parametrize("box", [box.value for box in S.boxes])
def test_value_0_scratches_any_box_and_may_carry_any_dice_unchecked(box):
    for dice in (None, [1, 2, 3, 4, 6], [6, 6, 6, 6, 6]):
        state = score(new_game(), "Anna", box, 0, dice)
        assert state.cards["Anna"][Box(box)] == 0
        assert state.entries[-1].dice == (tuple(dice) if dice else None)


def test_a_scratch_still_needs_five_dice_when_it_gives_dice():
    refused(new_game(), "dice must be five faces from 1 to 6, not [1, 2, 7, 4, 5]",
            player="Anna", box="full", value=0, dice=[1, 2, 7, 4, 5])


def test_value_and_dice_must_agree():
    state = new_game()
    refused(state, "dice 4-4-4-1-2 score 12 in Fours, not 16", player="Anna", box="4", value=16,
            dice=[4, 4, 4, 1, 2])
    refused(state, "dice 6-6-6-4-4 score 26 in Full House, not 27", player="Anna", box="full", value=27,
            dice=[6, 6, 6, 4, 4])
    refused(state, "dice 1-2-3-4-6 score nothing in Small Straight, not 15", player="Anna", box="small",
            value=15, dice=[1, 2, 3, 4, 6])
    state = score(state, "Anna", "full", 26, [6, 4, 6, 4, 6])
    assert state.cards["Anna"][Box.FULL] == 26


@pytest.mark.parametrize("dice", [[1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4], [True, 2, 3, 4, 5],
                                  [1.0, 2, 3, 4, 5], "12345", 12345, {"1": 1}])
def test_dice_are_five_faces_from_1_to_6(dice):
    refused(new_game(), f"dice must be five faces from 1 to 6, not {yatzy.describe(dice)}",
            player="Anna", box="chance", dice=dice)


def test_give_the_value_or_the_dice():
    refused(new_game(), "give the value to write, or the dice", player="Anna", box="chance")


def test_unknown_box_is_refused():
    refused(new_game(), "box must be one of 1, 2, 3, 4, 5, 6, pair, two_pairs, three, four, small, large, full, "
            "chance, yatzy, not 'fives'", player="Anna", box="fives", value=0)
    refused(new_game(form="classic"), "box must be one of 1, 2, 3, 4, 5, 6, three, four, small, large, full, "
            "chance, yatzy, not 4", player="Anna", box=4, value=0)


def test_only_score_events():
    with pytest.raises(RuleError, match="Yatzy has only score events, not 'turn'"):
        yatzy.apply(new_game(), {"type": "turn", "player": "Anna"})


# --- turns, boxes written once, the end ----------------------------------------------

def test_turn_order_by_seats_one_box_per_turn_and_a_scratch_is_a_turn():
    state = new_game(players=("Anna", "Ben", "Cleo"))
    refused(state, "it is Anna's turn, not Ben's", player="Ben", box="1", value=1)
    state = score(state, "Anna", "yatzy", 0)
    assert state.on_turn == "Ben" and yatzy.writers(state) == {"Ben"}
    refused(state, "it is Ben's turn, not Anna's", player="Anna", box="1", value=1)
    state = score(score(state, "Ben", "1", 1), "Cleo", "2", 2)
    assert state.on_turn == "Anna"


def test_players_are_named_ignoring_case_and_results_use_their_spelling():
    state = score(new_game(players=("Anna", "Ben")), "  aNNA ", "6", 18)
    assert state.cards["Anna"] == {Box.SIXES: 18}
    assert yatzy.result(state)["totals"] == {"Anna": 18, "Ben": 0}
    refused(state, "'Zoe' is not a player at this table", player="Zoe", box="6", value=18)
    refused(state, "None is not a player at this table", box="6", value=18)


def test_writing_a_box_twice_is_refused():
    state = score(score(new_game(), "Anna", "full", 0), "Ben", "full", 7)
    refused(state, "Anna has already written Full House", player="Anna", box="full", value=26,
            dice=[6, 6, 6, 4, 4])


def test_a_second_yatzy_earns_no_extra_bonus():
    state = score(score(new_game(), "Anna", "yatzy", dice=[6] * 5), "Ben", "1", 0)
    refused(state, "Anna has already written Yatzy", player="Anna", box="yatzy", dice=[6] * 5)
    state = score(state, "Anna", "6", dice=[6] * 5)  # no joker, no extra 100: just Sixes
    assert yatzy.result(state)["totals"]["Anna"] == 80


@pytest.mark.parametrize("form, entries", [("scandinavian", 30), ("classic", 26)])
def test_the_game_ends_when_every_box_of_every_player_is_written(form, entries):
    state = new_game(form=form)
    for _ in range(entries - 1):
        state = score(state, state.on_turn, state.open_boxes(state.on_turn)[0].value, 0)
        assert not state.finished and not yatzy.result(state)["finished"]
    state = score(state, "Ben", "yatzy", 0)
    assert state.finished and state.on_turn is None and yatzy.writers(state) == frozenset()
    assert yatzy.result(state)["finished"]


def test_nothing_can_be_entered_after_the_game_is_over():
    state = scratch_rest(new_game(form="classic"))
    refused(state, "the game is over: every box is written", player="Anna", box="1", value=0)


def test_a_refused_entry_leaves_the_state_unchanged():
    state = score(new_game(), "Anna", "4", 8)
    before = (state.entries, {player: dict(card) for player, card in state.cards.items()})
    with pytest.raises(RuleError):
        score(state, "Ben", "4", 13)
    assert (state.entries, {player: dict(card) for player, card in state.cards.items()}) == before


# --- the upper bonus ------------------------------------------------------------------

UPPER_62 = {"1": 2, "2": 6, "3": 9, "4": 12, "5": 15, "6": 18}
UPPER_63 = {"1": 3, "2": 6, "3": 9, "4": 12, "5": 15, "6": 18}


@pytest.mark.parametrize("form, bonus", [("scandinavian", 50), ("classic", 35)])
def test_the_upper_bonus_is_won_at_63_not_62(form, bonus):
    state = play({"Anna": UPPER_63, "Ben": UPPER_62}, form=form)
    out = yatzy.result(state)
    assert out["bonus"] == {"Anna": bonus, "Ben": 0}
    assert out["totals"] == {"Anna": 63 + bonus, "Ben": 62}
    assert out["upper"] == {"Anna": 63, "Ben": 62}


def test_the_bonus_shows_as_soon_as_the_upper_boxes_reach_63():
    state = new_game()
    for box, value in (("6", 30), ("5", 25)):
        state = score(score(state, "Anna", box, value), "Ben", box, 0)
    assert yatzy.result(state)["bonus"]["Anna"] == 0 and yatzy.result(state)["bonus_needs"]["Anna"] == 8
    state = score(state, "Anna", "4", 8)
    out = yatzy.result(state)
    assert out["bonus"] == {"Anna": 50, "Ben": 0} and out["totals"]["Anna"] == 113
    assert out["bonus_needs"] == {"Anna": 0, "Ben": None} and not out["finished"]


def test_bonus_needs_says_when_the_bonus_is_out_of_reach():
    state = new_game()
    for box in ("6", "5"):  # Sixes and Fives scratched: Fours … Ones make 20 + 15 + 10 + 5 = 50 at most
        state = score(score(state, "Anna", box, 0), "Ben", box, 30 if box == "6" else 25)
    out = yatzy.result(state)
    assert out["bonus_needs"] == {"Anna": None, "Ben": 8}
    assert state.bonus_needs("Anna") is None


def test_the_bonus_is_not_a_box():
    refused(new_game(), "box must be one of 1, 2, 3, 4, 5, 6, pair, two_pairs, three, four, small, large, full, "
            "chance, yatzy, not 'bonus'", player="Anna", box="bonus", value=50)


# --- where could these dice go? ------------------------------------------------------

def test_placements_list_every_open_box_best_first_scratches_last():
    state = score(new_game(), "Anna", "full", 0)
    state = score(state, "Ben", "1", 0)
    options = placements(state, "anna", (3, 3, 5, 5, 5))
    assert [(p.box.value, p.value, p.scratch) for p in options] == [
        ("chance", 21, False), ("two_pairs", 16, False), ("5", 15, False), ("three", 15, False),
        ("pair", 10, False), ("3", 6, False),
        ("1", 0, False), ("2", 0, False), ("4", 0, False), ("6", 0, False),
        ("four", 0, True), ("small", 0, True), ("large", 0, True), ("yatzy", 0, True),
    ]
    # every option can be written as it says
    for option in options:
        written = score(state, "Anna", option.box.value, option.value, [3, 3, 5, 5, 5])
        assert written.cards["Anna"][option.box] == option.value


def test_placements_refuse_bad_dice_and_strangers():
    with pytest.raises(RuleError, match="dice must be five faces"):
        placements(new_game(), "Anna", (1, 2, 3))
    with pytest.raises(RuleError, match="'Zoe' is not a player"):
        placements(new_game(), "Zoe", (1, 2, 3, 4, 5))


def test_can_score_answers_without_raising():
    state = new_game()
    assert yatzy.can_score(state, {"type": "score", "player": "Anna", "box": "4", "value": 12})
    assert not yatzy.can_score(state, {"type": "score", "player": "Anna", "box": "4", "value": 13})
    assert not yatzy.can_score(state, {"type": "score", "player": "Ben", "box": "4", "value": 12})


# --- settlement ----------------------------------------------------------------------

def test_points_each_receives_the_difference_from_every_player_behind():
    state = play({"A": {"chance": 30, "yatzy": 50}, "B": {"chance": 20}, "C": {"chance": 10, "6": 30}})
    out = yatzy.result(state)
    assert out["totals"] == {"A": 80, "B": 20, "C": 40}
    # A: +60 +40; B: -60 -20; C: -40 +20
    assert out["points"] == {"A": 100, "B": -80, "C": -20}
    assert out["winner"] == "A"
    assert "money" not in out and "transfers" not in out


def test_a_tie_on_top_has_no_winner_and_equal_points():
    state = play({"A": {"chance": 30}, "B": {"chance": 30}, "C": {"chance": 12}})
    out = yatzy.result(state)
    assert out["finished"] and out["winner"] is None
    assert out["points"] == {"A": 18, "B": 18, "C": -36}



def test_a_player_behind_a_tie_on_top_lost_on_the_player_page():
    """Two share the top, the third is behind: the player page listed that game as a "tie" for
    the third too; only the two on top tied, the third lost."""
    from scorekeeper import stats
    doc = {"format": "scorekeeper-log/1", "game": "yatzy", "players": ["A", "B", "C"], "rules": {"form": "classic"},
           "events": [{"type": "score", "player": player, "box": box.value,
                       "value": {"A": 30, "B": 30, "C": 12}[player] if box is Box.CHANCE else 0}
                      for box in C.boxes for player in "ABC"]}
    lines = stats.summarise(doc).lines
    assert [(lines[p].won, lines[p].tied) for p in "ABC"] == [(False, True), (False, True), (False, False)]
    # a summary stored before (an imported game's, in the database) said "tie" for C too: read
    # back, C lost, and it is the same game as the one summarised now (counted once)
    from dataclasses import replace
    summary = stats.summarise(doc)
    old = replace(summary, lines={p: replace(line, tied=True) for p, line in summary.lines.items()})
    _when, stored = stats.from_json(stats.to_json("", old))
    assert [stored.lines[p].tied for p in "ABC"] == [True, True, False]

def test_money_is_points_times_stake_with_fewest_transfers():
    state = play({"A": {"chance": 30, "yatzy": 50}, "B": {"chance": 20}, "C": {"chance": 10, "6": 30}},
                 stake="0.10", currency="chf")
    out = yatzy.result(state)
    assert out["currency"] == "CHF"
    assert out["money"] == {"A": "10.00", "B": "-8.00", "C": "-2.00"}
    assert sorted((t["from"], t["to"], t["amount"]) for t in out["transfers"]) == [
        ("B", "A", "8.00"), ("C", "A", "2.00")]


def test_money_is_whole_cents_summing_to_zero():
    # points are whole and the stake is in cents, so Yatzy's money never needs rounding
    state = play({"A": {"chance": 7}, "B": {"chance": 6}, "C": {"chance": 5}}, stake="0.05")
    out = yatzy.result(state)
    assert out["money"] == {"A": "0.15", "B": "0.00", "C": "-0.15"}
    assert out["transfers"] == [{"from": "C", "to": "A", "amount": "0.15"}]


def test_the_result_while_playing_is_provisional():
    state = score(new_game(stake="0.50"), "Anna", "yatzy", 50)
    out = yatzy.result(state)
    assert out["finished"] is False and out["winner"] is None and out["on_turn"] == "Ben"
    assert out["points"] == {"Anna": 50, "Ben": -50}
    assert out["money"] == {"Anna": "25.00", "Ben": "-25.00"}
    assert out["cards"] == {"Anna": {"yatzy": 50}, "Ben": {}}
    assert out["form"] == "scandinavian"


def test_result_keys_of_the_log_format():
    out = yatzy.result(play({"A": UPPER_63, "B": {}}, stake="0.10"))
    assert list(out)[:6] == ["game", "finished", "points", "winner", "totals", "bonus"]
    assert {"money", "transfers", "currency"} <= set(out)
    json.dumps(out)  # plain JSON


# --- the published log schema -------------------------------------------------------

def test_the_log_schema_knows_every_box_and_setting():
    """Its fragment (games/yatzy.schema.json) as `scorekeeper schema` prints it, in the whole."""
    schema = log_schema()
    assert "yatzy" in schema["properties"]["game"]["enum"]
    assert set(schema["$defs"]["yatzy_event"]["properties"]["box"]["enum"]) == {box.value for box in Box}
    assert set(schema["$defs"]["yatzy_rules"]["properties"]) == set(yatzy.settings)
