"""The Escoba engine: every scoring line, the deck check, seating, the target and the shutout,
the form helpers and the capture finder (against a brute-force search written here)."""

from itertools import combinations

import pytest
from hypothesis import given, settings, strategies as st

from scorekeeper.games import escoba
from scorekeeper.games.base import RuleError, make_setup, parse_rules
from tests.support import accepts
from scorekeeper.games.escoba import (
    Card,
    Counts,
    Points,
    Suit,
    captures,
    complete_last_side,
    deck_problems,
    opening_escobas,
    round_points,
    score_round,
)



def new_game(players=("Anna", "Ben"), teams=None, **rules):
    return escoba.start(make_setup(list(players), teams), parse_rules(rules, escoba.settings))


def side(cards, coins, sevens, seven_of_coins, escobas=0):
    return {"cards": cards, "coins": coins, "sevens": sevens,
            "seven_of_coins": seven_of_coins, "escobas": escobas}


def round_event(sides, false_captures=None, leftover=None):
    event = {"type": "round", "sides": sides}
    if false_captures is not None:
        event["false_captures"] = false_captures
    if leftover is not None:
        event["leftover"] = leftover
    return event


def play(state, *rounds):
    for sides in rounds:
        state = escoba.apply(state, round_event(sides))
    return state


def refused(state, message, **event):
    with pytest.raises(RuleError) as error:
        escoba.apply(state, {"type": "round", **event})
    assert str(error.value) == message


def points(sides, false_captures=None):
    """Each side's points for a two- or three-side round given as plain count tuples."""
    return score_round({name: Counts(*counts) for name, counts in sides.items()}, false_captures)


# A plain round: Anna 24 cards, 7 coins, 3 sevens with the seven of coins, 2 escobas.
ANNA_AHEAD = {"Anna": side(24, 7, 3, True, 2), "Ben": side(16, 3, 1, False, 0)}


# --- every scoring line ----------------------------------------------------------------


def test_a_plain_round_line_by_line():
    scored = points({"Anna": (24, 7, 3, True, 2), "Ben": (16, 3, 1, False, 0)})
    assert scored["Anna"] == Points(escobas=2, cards=1, coins=1, seven_of_coins=1, sevens=1)
    assert scored["Anna"].total == 6
    assert scored["Ben"] == Points() and scored["Ben"].total == 0
    assert scored["Anna"].as_dict() == {"escobas": 2, "cards": 1, "coins": 1, "seven_of_coins": 1,
                                        "sevens": 1, "bonus": 0, "penalty": 0, "total": 6}


@pytest.mark.parametrize("escobas", [0, 1, 5])
def test_each_escoba_is_a_point(escobas):
    scored = points({"Anna": (20, 5, 2, True, escobas), "Ben": (20, 5, 2, False, 3)})
    assert scored["Anna"].escobas == escobas and scored["Ben"].escobas == 3


def test_most_cards_and_a_tie_on_cards():
    assert points({"Anna": (21, 5, 2, True), "Ben": (19, 5, 2, False)})["Anna"].cards == 1
    assert points({"Anna": (19, 5, 2, True), "Ben": (21, 5, 2, False)})["Ben"].cards == 1
    tie = points({"Anna": (20, 5, 2, True), "Ben": (20, 5, 2, False)})
    assert tie["Anna"].cards == tie["Ben"].cards == 0


def test_most_coins_a_tie_and_all_ten():
    assert points({"Anna": (20, 6, 2, True), "Ben": (20, 4, 2, False)})["Anna"].coins == 1
    tie = points({"Anna": (20, 5, 2, True), "Ben": (20, 5, 2, False)})
    assert tie["Anna"].coins == tie["Ben"].coins == 0
    all_ten = points({"Anna": (20, 10, 2, True), "Ben": (20, 0, 2, False)})
    assert all_ten["Anna"].coins == 2 and all_ten["Ben"].coins == 0


def test_the_seven_of_coins():
    scored = points({"Anna": (20, 5, 2, False), "Ben": (20, 5, 2, True)})
    assert scored["Ben"].seven_of_coins == 1 and scored["Anna"].seven_of_coins == 0
    assert scored["Ben"].total == 1


def test_most_sevens_a_tie_and_all_four():
    assert points({"Anna": (20, 5, 3, False), "Ben": (20, 5, 1, True)})["Anna"].sevens == 1
    tie = points({"Anna": (20, 5, 2, False), "Ben": (20, 5, 2, True)})
    assert tie["Anna"].sevens == tie["Ben"].sevens == 0
    all_four = points({"Anna": (20, 5, 4, True), "Ben": (20, 5, 0, False)})["Anna"]
    # three in total for sevens, the seven of coins' point included
    assert (all_four.sevens, all_four.seven_of_coins) == (2, 1)
    assert all_four.total == 3


def test_all_coins_and_all_sevens_and_the_bonus_together():
    scored = points({"Anna": (31, 10, 4, True, 3), "Ben": (9, 0, 0, False, 1)})
    assert scored["Anna"] == Points(escobas=3, cards=1, coins=2, seven_of_coins=1, sevens=2, bonus=2)
    assert scored["Anna"].total == 11 and scored["Ben"].total == 1


@pytest.mark.parametrize("other_cards, bonus", [(9, 2), (10, 0), (0, 2), (16, 0)])
def test_the_bonus_when_the_other_side_has_fewer_than_ten_cards(other_cards, bonus):
    scored = points({"Anna": (40 - other_cards, 5, 2, True), "Ben": (other_cards, 5, 2, False)})
    assert scored["Anna"].bonus == bonus and scored["Ben"].bonus == 0


def test_the_bonus_with_three_sides_needs_every_other_side_under_ten():
    both_under = points({"A": (24, 4, 2, True), "B": (9, 3, 1, False), "C": (7, 3, 1, False)})
    assert both_under["A"].bonus == 2 and both_under["B"].bonus == both_under["C"].bonus == 0
    one_at_ten = points({"A": (21, 4, 2, True), "B": (10, 3, 1, False), "C": (9, 3, 1, False)})
    assert all(p.bonus == 0 for p in one_at_ten.values())


def test_most_with_three_sides_means_strictly_ahead_of_both():
    tie_on_top = points({"A": (15, 3, 1, True), "B": (15, 3, 1, False), "C": (10, 4, 2, False)})
    assert tie_on_top["A"].cards == tie_on_top["B"].cards == tie_on_top["C"].cards == 0
    assert tie_on_top["C"].coins == 1 and tie_on_top["C"].sevens == 1
    ahead = points({"A": (16, 3, 1, True), "B": (14, 3, 1, False), "C": (10, 4, 2, False)})
    assert ahead["A"].cards == 1


def test_a_false_capture_costs_four_plus_every_escoba_of_the_round():
    scored = points({"Anna": (20, 5, 2, True, 1), "Ben": (20, 5, 2, False, 2)}, {"Ben": 1})
    assert scored["Ben"].penalty == -(4 + 3)
    assert scored["Ben"].total == 2 - 7
    assert scored["Anna"].penalty == 0


def test_false_captures_add_up_and_hit_both_sides():
    scored = points({"Anna": (20, 5, 2, True, 1), "Ben": (20, 5, 2, False, 0)}, {"Anna": 2, "Ben": 1})
    assert scored["Anna"].penalty == -2 * 5 and scored["Ben"].penalty == -5
    no_escobas = points({"Anna": (20, 5, 2, True), "Ben": (20, 5, 2, False)}, {"Anna": 1})
    assert no_escobas["Anna"].penalty == -4


def test_totals_can_go_negative():
    state = escoba.apply(new_game(), round_event(
        {"Anna": side(20, 5, 2, False, 2), "Ben": side(20, 5, 2, True, 0)}, {"Anna": 1}))
    assert state.score() == {"Anna": 2 - 6, "Ben": 1}


# --- seating ------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 5, 7, 8])
def test_other_numbers_of_players_are_refused(count):
    with pytest.raises(RuleError, match=f"^players: Escoba is played by 2, 3, 4 or 6 players, not {count}$"):
        new_game([f"P{n}" for n in range(count)])


def test_two_and_three_play_alone_and_teams_of_one_are_just_names():
    assert [s.name for s in new_game(("Anna", "Ben", "Cleo")).setup.sides] == ["Anna", "Ben", "Cleo"]
    named = new_game(("Anna", "Ben"), [("Sun", ["Anna"]), ("Moon", ["Ben"])])
    assert [s.name for s in named.setup.sides] == ["Sun", "Moon"]
    with pytest.raises(RuleError, match="^teams: with two players everyone plays alone"):
        new_game(("Anna", "Ben"), [("Both", ["Anna", "Ben"])])
    with pytest.raises(RuleError, match="^teams: with three players everyone plays alone"):
        new_game(("Anna", "Ben", "Cleo"), [("X", ["Anna", "Ben"]), ("Y", ["Cleo"])])


FOUR = ("Anna", "Ben", "Cleo", "Dora")
SIX = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo")


def test_four_play_as_two_pairs():
    state = new_game(FOUR, [("Red", ["Anna", "Cleo"]), ("Blue", ["Ben", "Dora"])])
    assert [s.members for s in state.setup.sides] == [("Anna", "Cleo"), ("Ben", "Dora")]
    with pytest.raises(RuleError) as error:
        new_game(FOUR)
    assert str(error.value) == "teams: with four players Escoba is played as two pairs; name the teams"
    with pytest.raises(RuleError) as error:
        new_game(FOUR, [("Red", ["Anna", "Cleo", "Ben"]), ("Blue", ["Dora"])])
    assert str(error.value) == "teams: with four players Escoba is played as two pairs, not teams of 3 and 1"
    with pytest.raises(RuleError, match="not teams of 1, 1, 1 and 1$"):
        new_game(FOUR, [(p, [p]) for p in FOUR])


def test_six_play_as_two_teams_of_three_or_three_pairs():
    new_game(SIX, [("Left", ["Ana", "Bo", "Cy"]), ("Right", ["Di", "Ed", "Flo"])])
    new_game(SIX, [("N", ["Ana", "Di"]), ("E", ["Bo", "Ed"]), ("S", ["Cy", "Flo"])])
    with pytest.raises(RuleError) as error:
        new_game(SIX)
    assert str(error.value) == ("teams: with six players Escoba is played as two teams of three "
                                "or three pairs; name the teams")
    with pytest.raises(RuleError, match="or three pairs, not teams of 4 and 2$"):
        new_game(SIX, [("Big", ["Ana", "Bo", "Cy", "Di"]), ("Small", ["Ed", "Flo"])])
    with pytest.raises(RuleError, match="not teams of 2, 2, 1 and 1$"):
        new_game(SIX, [("A", ["Ana", "Bo"]), ("B", ["Cy", "Di"]), ("C", ["Ed"]), ("D", ["Flo"])])


def test_three_players_score_a_round():
    state = escoba.apply(new_game(("Anna", "Ben", "Cleo")), round_event({
        "Anna": side(14, 4, 2, True, 1), "Ben": side(14, 3, 1, False, 2), "Cleo": side(12, 3, 1, False)}))
    assert state.score() == {"Anna": 4, "Ben": 2, "Cleo": 0}


def test_teams_are_keyed_by_team_name_ignoring_case():
    state = new_game(FOUR, [("Red", ["Anna", "Cleo"]), ("Blue", ["Ben", "Dora"])])
    state = escoba.apply(state, round_event({"red": side(22, 6, 2, True, 1), "BLUE": side(18, 4, 2, False, 1)}))
    assert escoba.result(state)["points"] == {"Red": 4, "Blue": 1}
    refused(state, "sides: 'Anna' is not a team at this table",
            sides={"Anna": side(22, 6, 2, True), "Blue": side(18, 4, 2, False)})


def test_six_in_three_pairs_score_a_round():
    state = new_game(SIX, [("N", ["Ana", "Di"]), ("E", ["Bo", "Ed"]), ("S", ["Cy", "Flo"])])
    state = escoba.apply(state, round_event(
        {"N": side(6, 2, 1, False), "E": side(26, 6, 2, True, 3), "S": side(8, 2, 1, False)}))
    assert state.score() == {"N": 0, "E": 3 + 1 + 1 + 1 + 1 + 2, "S": 0}


# --- the sides of a round event --------------------------------------------------------------


def test_sides_match_ignoring_case_and_results_use_the_seated_spelling():
    state = escoba.apply(new_game(), round_event({"anna": side(24, 7, 3, True, 2), " BEN ": side(16, 3, 1, False)}))
    assert escoba.result(state)["points"] == {"Anna": 6, "Ben": 0}


@pytest.mark.parametrize("sides, message", [
    ({"Anna": side(24, 7, 3, True, 2)}, "sides: Ben is missing (every side gives cards, coins, sevens, "
                                        "seven_of_coins and escobas)"),
    ({}, "sides: Anna and Ben are missing (every side gives cards, coins, sevens, seven_of_coins and escobas)"),
    ({**ANNA_AHEAD, "Carl": side(0, 0, 0, False)}, "sides: 'Carl' is not a player at this table"),
    ({**ANNA_AHEAD, "anna": side(24, 7, 3, True, 2)}, "sides: Anna is given twice"),
    ([1, 2], 'sides must be an object keyed by player, like {"Anna": {"cards": 24, …}, …}'),
    ({"Anna": 24, "Ben": side(16, 3, 1, False)}, "sides: Anna's counts must be an object with cards, "
                                                "coins, sevens, seven_of_coins and escobas"),
    ({"Anna": {**side(24, 7, 3, True), "coin": 1}, "Ben": side(16, 3, 1, False)},
     "sides: Anna's counts have no field 'coin'"),
    ({"Anna": {"cards": 24, "coins": 7, "sevens": 3, "seven_of_coins": True}, "Ben": side(16, 3, 1, False)},
     "sides: Anna's escobas is missing (it must be a whole number, 0 or more)"),
    ({"Anna": {**side(24, 7, 3, True), "escobas": None}, "Ben": side(16, 3, 1, False)},
     "sides: Anna's escobas is missing (it must be a whole number, 0 or more)"),
    ({"Anna": side(-1, 7, 3, True), "Ben": side(16, 3, 1, False)},
     "sides: Anna's cards must be a whole number, 0 or more, not -1"),
    ({"Anna": side(24, 7.0, 3, True), "Ben": side(16, 3, 1, False)},
     "sides: Anna's coins must be a whole number, 0 or more, not 7.0"),
    ({"Anna": side(24, 7, True, True), "Ben": side(16, 3, 1, False)},
     "sides: Anna's sevens must be a whole number, 0 or more, not True"),
    ({"Anna": side(24, 7, 3, True, "2"), "Ben": side(16, 3, 1, False)},
     "sides: Anna's escobas must be a whole number, 0 or more, not '2'"),
    ({"Anna": side(24, 7, 3, 1), "Ben": side(16, 3, 1, False)},
     "sides: Anna's seven_of_coins must be true or false, not 1"),
    # past the deck: two counts of 4,300 digits summed to one no message could print
    ({"Anna": side(41, 7, 3, True), "Ben": side(16, 3, 1, False)},
     "sides: Anna's cards must be a whole number from 0 to 40, not 41"),
    ({"Anna": side(24, 7, 3, True), "Ben": side(16, 3, 5, False)},
     "sides: Ben's sevens must be a whole number from 0 to 4, not 5"),
    ({"Anna": side(24, 7, 3, True, 21), "Ben": side(16, 3, 1, False)},
     "sides: Anna's escobas must be a whole number from 0 to 20, not 21"),
    ({"Anna": side(int("9" * 4300), 7, 3, True), "Ben": side(int("9" * 4300), 3, 1, False)},
     "sides: Anna's cards must be a whole number from 0 to 40, not 9999999999999999999999999999999999999..."),
])
def test_bad_sides_are_refused(sides, message):
    refused(new_game(), message, sides=sides)


def test_sides_are_required():
    refused(new_game(), "sides is missing (what every side captured this round)")


@pytest.mark.parametrize("false_captures, message", [
    ({"Carl": 1}, "false_captures: 'Carl' is not a player at this table"),
    ({"Ben": 0}, "false_captures: Ben's count must be a whole number from 1 to 20, not 0 "
                 "(leave out a side without false captures)"),
    ({"Ben": True}, "false_captures: Ben's count must be a whole number from 1 to 20, not True "
                    "(leave out a side without false captures)"),
    ({"Ben": 21}, "false_captures: Ben's count must be a whole number from 1 to 20, not 21 "
                  "(leave out a side without false captures)"),
    ({"Ben": 1, "BEN": 1}, "false_captures: Ben is given twice"),
    (3, 'false_captures must be an object keyed by player, like {"Anna": 1}'),
])
def test_bad_false_captures_are_refused(false_captures, message):
    refused(new_game(), message, sides=ANNA_AHEAD, false_captures=false_captures)


def test_only_round_events():
    with pytest.raises(RuleError, match="^Escoba has only round events, not 'hand'$"):
        escoba.apply(new_game(), {"type": "hand"})


# --- the deck check -------------------------------------------------------------------------


@pytest.mark.parametrize("anna, ben, message", [
    (side(24, 7, 3, True), side(14, 3, 1, False), "cards add up to 38, but the deck has 40 — 2 missing"),
    (side(25, 7, 3, True), side(16, 3, 1, False), "cards add up to 41, but the deck has 40 — 1 too many"),
    (side(24, 6, 3, True), side(16, 3, 1, False), "coins add up to 9, but the deck has 10 — 1 missing"),
    (side(24, 8, 3, True), side(16, 4, 1, False), "coins add up to 12, but the deck has 10 — 2 too many"),
    (side(24, 7, 2, True), side(16, 3, 1, False), "sevens add up to 3, but the deck has 4 — 1 missing"),
    (side(24, 7, 3, True), side(16, 3, 2, False), "sevens add up to 5, but the deck has 4 — 1 too many"),
    (side(24, 7, 3, False), side(16, 3, 1, False), "no side has the seven of coins — exactly one must"),
    (side(24, 7, 3, True), side(16, 3, 1, True), "Anna and Ben both have the seven of coins — only one side can"),
    (side(24, 0, 3, True), side(16, 10, 1, False), "Anna has the seven of coins, so at least 1 coin, not 0"),
    (side(24, 7, 0, True), side(16, 3, 4, False), "Anna has the seven of coins, so at least 1 seven, not 0"),
    (side(36, 7, 2, True), side(4, 3, 2, False),
     "Ben has 3 coins and 2 sevens, 5 different cards, but only 4 cards — 1 short"),
    (side(7, 7, 2, True), side(33, 3, 2, False),
     "Anna has 7 coins and 2 sevens, 8 different cards (the seven of coins is both), but only 7 cards — 1 short"),
    (side(1, 1, 1, True), side(39, 9, 3, False), None),  # the seven of coins alone is one card
    (side(24, 7, 3, True, 2), side(16, 3, 1, False, 9),
     "Ben has 9 escobas, at least 18 cards, but only 16 cards — 2 short"),
    (side(39, 9, 3, False), side(1, 1, 1, True, 1), "Ben has 1 escoba, at least 2 cards, but only 1 card — 1 short"),
    (side(38, 9, 3, False, 1), side(2, 1, 1, True, 1), None),  # an escoba of the played card and one more
])
def test_every_deck_check(anna, ben, message):
    state = new_game()
    if message is None:
        escoba.apply(state, round_event({"Anna": anna, "Ben": ben}))
    else:
        refused(state, message, sides={"Anna": anna, "Ben": ben})


def test_deck_problems_lists_every_problem_at_once():
    problems = deck_problems({"Anna": Counts(20, 5, 2, False, 11), "Ben": Counts(10, 4, 1, False)}, leftover=20)
    assert problems == [
        "cards add up to 30, but the deck has 40 — 10 missing",
        "coins add up to 9, but the deck has 10 — 1 missing",
        "sevens add up to 3, but the deck has 4 — 1 missing",
        "no side has the seven of coins — exactly one must",
        "Anna has 11 escobas, at least 22 cards, but only 20 cards — 2 short",
        "leftover must be 10, 25, 40 or 55, not 20: some capture did not sum to 15 (record it in false_captures)",
    ]
    three = {"A": Counts(14, 4, 2, True), "B": Counts(14, 3, 1, True), "C": Counts(12, 3, 1, True)}
    assert deck_problems(three) == ["A, B and C all have the seven of coins — only one side can"]


@pytest.mark.parametrize("leftover", [10, 25, 40, 55])
def test_the_leftovers_that_fit(leftover):
    state = escoba.apply(new_game(), round_event(ANNA_AHEAD, leftover=leftover))
    assert state.rounds[0].leftover == leftover


@pytest.mark.parametrize("leftover", [0, 15, 20, 70])
def test_other_leftovers_are_refused(leftover):
    refused(new_game(), f"leftover must be 10, 25, 40 or 55, not {leftover}: some capture did not sum to 15 "
                        f"(record it in false_captures)", sides=ANNA_AHEAD, leftover=leftover)


def test_the_leftover_check_is_skipped_with_a_false_capture():
    state = escoba.apply(new_game(), round_event(ANNA_AHEAD, {"ben": 1}, leftover=20))
    assert state.score() == {"Anna": 6, "Ben": -(4 + 2)}


@pytest.mark.parametrize("leftover", [-5, "25", 2.5, True])
def test_a_leftover_that_is_not_a_sum_is_refused_even_with_a_false_capture(leftover):
    refused(new_game(), f"leftover must be a whole number, 0 or more, not {leftover!r}",
            sides=ANNA_AHEAD, false_captures={"Ben": 1}, leftover=leftover)


# --- the target, the shutout, the end of the game ----------------------------------------------


def test_the_first_to_twenty_one_wins():
    state = new_game()
    assert state.rules == {"target": 21, "shutout": True}
    for _ in range(3):
        state = play(state, ANNA_AHEAD)
        assert not state.finished and escoba.writers(state) is None
    assert state.score() == {"Anna": 18, "Ben": 0}
    state = play(state, ANNA_AHEAD)
    assert state.finished and state.winner == "Anna"
    assert escoba.writers(state) == frozenset()
    refused(state, "the game is over: Anna won with 24 points", sides=ANNA_AHEAD)


def test_a_tie_on_top_at_the_target_plays_on():
    state = new_game(target=2)
    even = {"Anna": side(20, 5, 2, True, 1), "Ben": side(20, 5, 2, False, 2)}  # 2 : 2
    state = play(state, even)
    assert state.score() == {"Anna": 2, "Ben": 2} and not state.finished
    state = play(state, {"Anna": side(20, 5, 2, False), "Ben": side(20, 5, 2, True)})
    assert state.winner == "Ben"


def test_when_both_reach_the_target_the_higher_total_wins():
    state = play(new_game(target=5), {"Anna": side(20, 5, 2, True, 4), "Ben": side(20, 5, 2, False, 6)})
    assert state.score() == {"Anna": 5, "Ben": 6} and state.winner == "Ben"


def test_with_three_sides_the_highest_of_those_over_the_target_wins():
    state = play(new_game(("Anna", "Ben", "Cleo"), target=3), {
        "Anna": side(14, 4, 2, True, 1), "Ben": side(14, 3, 1, False, 2), "Cleo": side(12, 3, 1, False)})
    assert state.winner == "Anna"


def test_a_target_of_one():
    state = play(new_game(target=1), {"Anna": side(20, 5, 2, False), "Ben": side(20, 5, 2, True)})
    assert state.winner == "Ben"


@pytest.mark.parametrize("value", [0, -21, "21", True, 21.5])
def test_bad_targets_are_refused(value):
    with pytest.raises(RuleError, match=r"^rules\.target: must be a whole number, 1 or more, not "):
        new_game(target=value)


def test_a_side_without_a_card_loses_at_once_whatever_the_totals():
    state = play(new_game(), ANNA_AHEAD, ANNA_AHEAD)  # Anna 12, Ben 0
    state = escoba.apply(state, round_event({"Anna": side(0, 0, 0, False), "Ben": side(40, 10, 4, True, 2)},
                                            {"Ben": 2}))
    assert state.score() == {"Anna": 12, "Ben": 10 - 2 * (4 + 2)}
    assert state.winner == "Ben" and state.shut_out == "Anna"
    refused(state, "the game is over: Ben won, as Anna captured no card in round 3", sides=ANNA_AHEAD)
    assert escoba.result(state)["winner"] == "Ben" and escoba.result(state)["shut_out"] == "Anna"


def test_the_shutout_can_be_turned_off():
    state = play(new_game(shutout=False), {"Anna": side(0, 0, 0, False), "Ben": side(40, 10, 4, True)})
    assert not state.finished and state.score() == {"Anna": 0, "Ben": 8}


def test_the_shutout_is_for_two_sides_only():
    three = play(new_game(("Anna", "Ben", "Cleo")),
                 {"Anna": side(0, 0, 0, False), "Ben": side(24, 7, 3, True), "Cleo": side(16, 3, 1, False)})
    assert not three.finished
    pairs = new_game(FOUR, [("Red", ["Anna", "Cleo"]), ("Blue", ["Ben", "Dora"])])
    pairs = play(pairs, {"Red": side(0, 0, 0, False), "Blue": side(40, 10, 4, True)})
    assert pairs.winner == "Blue" and pairs.shut_out == "Red"


def test_the_state_is_never_changed():
    state = new_game()
    after = play(state, ANNA_AHEAD)
    assert state.rounds == () and len(after.rounds) == 1


# --- the result -------------------------------------------------------------------------------


def test_the_result_has_every_round_line_by_line():
    state = play(new_game(), ANNA_AHEAD, {"Anna": side(18, 4, 2, False, 1), "Ben": side(22, 6, 2, True, 3)})
    outcome = escoba.result(state)
    assert outcome["game"] == "escoba" and outcome["finished"] is False and outcome["winner"] is None
    assert outcome["points"] == {"Anna": 7, "Ben": 6}
    assert outcome["target"] == 21 and outcome["shut_out"] is None
    assert outcome["rounds"][1] == {
        "points": {
            "Anna": {"escobas": 1, "cards": 0, "coins": 0, "seven_of_coins": 0, "sevens": 0,
                     "bonus": 0, "penalty": 0, "total": 1},
            "Ben": {"escobas": 3, "cards": 1, "coins": 1, "seven_of_coins": 1, "sevens": 0,
                    "bonus": 0, "penalty": 0, "total": 6},
        },
        "score": {"Anna": 7, "Ben": 6},
        "shut_out": None,
    }


def test_an_empty_game():
    assert escoba.result(new_game()) == {"game": "escoba", "finished": False, "points": {"Anna": 0, "Ben": 0},
                                         "winner": None, "target": 21, "shut_out": None, "rounds": []}


# --- helpers for the round form ------------------------------------------------------------------


def test_round_points_previews_what_the_round_scores():
    state = new_game()
    preview = round_points(state, {"ANNA": side(24, 7, 3, True, 2), "Ben": Counts(16, 3, 1, False)}, {"ben": 1})
    assert {s: p.total for s, p in preview.items()} == {"Anna": 6, "Ben": -6}
    entered = escoba.apply(state, round_event(ANNA_AHEAD, {"Ben": 1}))
    assert entered.rounds[0].points == preview


def test_round_points_follows_a_form_that_does_not_fit_the_deck_yet():
    preview = round_points(new_game(), {"Anna": side(24, 7, 3, True, 2), "Ben": side(0, 0, 0, False)})
    assert preview["Anna"].total == 2 + 1 + 1 + 1 + 1 + 2
    with pytest.raises(RuleError, match="^sides: Ben is missing"):
        round_points(new_game(), {"Anna": side(24, 7, 3, True, 2)})


def test_verify_round():
    assert escoba.verify_round(new_game(), round_event(ANNA_AHEAD)).points["Anna"].total == 6
    assert accepts(escoba.verify_round, new_game(), round_event(ANNA_AHEAD))
    assert not accepts(escoba.verify_round, new_game(), round_event({"Anna": side(24, 7, 3, True, 2)}))


def test_complete_last_side_fills_in_the_rest_of_the_deck():
    assert complete_last_side([Counts(24, 7, 3, True, 2)]) == Counts(16, 3, 1, False, 0)
    assert complete_last_side({"A": Counts(14, 4, 2, False), "B": Counts(14, 3, 1, False)}, escobas=1) == \
        Counts(12, 3, 1, True, 1)
    with pytest.raises(RuleError) as error:
        complete_last_side([Counts(24, 7, 3, True), Counts(20, 3, 1, False)])
    assert str(error.value) == "the other sides' cards add up to 44, but the deck has 40 — 4 too many"
    with pytest.raises(RuleError, match="^2 sides have the seven of coins"):
        complete_last_side([Counts(14, 4, 2, True), Counts(14, 3, 1, True)])


def deal_round(draw, sides):
    """A round that fits the deck: every card of the deck goes to some side."""
    owners = draw(st.lists(st.integers(0, sides - 1), min_size=40, max_size=40))
    deck = [Card(rank, suit) for suit in Suit for rank in escoba.RANKS]
    counts = []
    for number in range(sides):
        mine = [card for card, owner in zip(deck, owners) if owner == number]
        escobas = draw(st.integers(0, len(mine) // 2))
        counts.append(Counts(len(mine), sum(c.suit is Suit.OROS for c in mine), sum(c.rank == 7 for c in mine),
                             Card(7, Suit.OROS) in mine, escobas))
    return counts


@settings(max_examples=200, deadline=None)
@given(st.data(), st.sampled_from([2, 3]))
def test_every_dealt_round_fits_the_deck_and_the_last_side_completes(data, sides):
    counts = deal_round(data.draw, sides)
    named = dict(zip(["Anna", "Ben", "Cleo"], counts))
    assert deck_problems(named) == []
    last = complete_last_side(counts[:-1], escobas=counts[-1].escobas)
    assert last == counts[-1]
    scored = score_round(named)
    assert sum(p.seven_of_coins for p in scored.values()) == 1
    assert sum(p.cards for p in scored.values()) <= 1 and sum(p.bonus for p in scored.values()) <= 2
    assert sum(p.coins for p in scored.values()) <= 2 and sum(p.sevens for p in scored.values()) <= 2
    assert all(p.total >= p.escobas for p in scored.values())
    players = list(named)[:sides]
    state = escoba.apply(new_game(players, shutout=False), round_event({n: c.as_dict() for n, c in named.items()}))
    assert state.score() == {n: p.total for n, p in scored.items()}


# --- cards and the capture finder --------------------------------------------------------------


def test_cards_count_their_pips_and_figures_eight_to_ten():
    assert [Card(rank, "oros").value for rank in escoba.RANKS] == list(range(1, 11))
    assert str(Card(11, "espadas")) == "knight of espadas" and str(Card(7, "oros")) == "7 of oros"
    for rank in (0, 8, 9, 13, True):
        with pytest.raises(RuleError, match="rank must be 1 to 7, 10, 11 or 12"):
            Card(rank, "oros")
    with pytest.raises(RuleError, match="suit must be oros, copas, espadas or bastos, not 'hearts'"):
        Card(1, "hearts")


def brute_force(table, hand):
    """Every subset of the table, tried one by one."""
    found = set()
    for size in range(len(table) + 1):
        for chosen in combinations(table, size):
            if sum(c.value for c in chosen) + hand.value == 15:
                found.add((frozenset(chosen), size == len(table)))
    return found


ALL_CARDS = [Card(rank, suit) for suit in Suit for rank in escoba.RANKS]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(ALL_CARDS), min_size=1, max_size=11, unique=True))
def test_captures_agree_with_every_subset(cards):
    hand, *table = cards
    found = captures(table, hand)
    assert {(frozenset(c.cards), c.escoba) for c in found} == brute_force(table, hand)
    assert len(found) == len(brute_force(table, hand))  # no capture twice
    assert [len(c.cards) for c in found] == sorted((len(c.cards) for c in found), reverse=True)


def test_captures_by_hand():
    table = [(1, "oros"), (4, "copas"), (10, "bastos"), (7, "espadas")]
    found = captures(table, (12, "oros"))  # the king, 10: needs 5
    assert [[str(c) for c in capture.cards] for capture in found] == [["1 of oros", "4 of copas"]]
    assert captures([(7, "oros"), (3, "copas")], (5, "bastos"))[0].escoba  # 7 + 3 + 5
    assert captures([(12, "oros")], (12, "copas")) == []
    assert captures([], (5, "oros")) == []


def test_captures_refuse_impossible_tables():
    with pytest.raises(RuleError, match="^the 7 of oros is there twice, but a deck has one$"):
        captures([(7, "oros"), (7, "oros")], (1, "copas"))
    with pytest.raises(RuleError, match="^the 7 of oros cannot be both in hand and on the table$"):
        captures([(7, "oros")], Card(7, Suit.OROS))


@pytest.mark.parametrize("dealt, escobas", [
    ([(1, "oros"), (2, "oros"), (5, "copas"), (7, "bastos")], 1),
    ([(12, "oros"), (11, "oros"), (10, "copas"), (3, "bastos")], 2),  # 10 + 9 + 8 + 3
    ([(12, "oros"), (12, "copas"), (12, "bastos"), (12, "espadas")], 0),
    ([(1, "oros"), (1, "copas"), (1, "bastos"), (1, "espadas")], 0),
    ([(7, "oros"), (7, "copas"), (1, "bastos"), (1, "espadas")], 0),
])
def test_opening_escobas(dealt, escobas):
    assert opening_escobas(dealt) == escobas


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(ALL_CARDS), min_size=4, max_size=4, unique=True))
def test_opening_escobas_for_any_four_cards(dealt):
    total = sum(c.value for c in dealt)
    assert opening_escobas(dealt) == (1 if total == 15 else 2 if total == 30 else 0)


def test_opening_escobas_needs_four_cards():
    with pytest.raises(RuleError, match="^the dealer lays out four cards, not 3$"):
        opening_escobas([(1, "oros"), (2, "oros"), (12, "copas")])
