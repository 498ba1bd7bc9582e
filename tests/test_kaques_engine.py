"""The Jaques le Kaques engine: scoring kept dice, the turn throw by throw, the odds, the race."""

from collections import Counter
from fractions import Fraction
from itertools import combinations, product

import pytest
from hypothesis import given, settings, strategies as st

from scorekeeper.games import ENGINES, kaques
from scorekeeper.games.base import Engine, RuleError, make_setup, parse_rules
from tests.support import accepts
from scorekeeper.games.kaques import (
    Call,
    TurnState,
    kaque_chance,
    keep_score,
    keepable,
    scores,
    scoring_options,
    turn_so_far,
)

throws_of = st.integers(1, 6).flatmap(lambda n: st.lists(st.integers(1, 6), min_size=n, max_size=n))



def new_game(players=("Anna", "Ben"), **rules):
    return kaques.start(make_setup(list(players), None), parse_rules(rules, kaques.settings))


def turn(state, player, throws=None, points=None):
    event = {"type": "turn", "player": player}
    if throws is not None:
        event["throws"] = [{"dice": dice, "keep": keep} for dice, keep in throws]
    if points is not None:
        event["points"] = points
    return kaques.apply(state, event)


def refused(state, message, **event):
    with pytest.raises(RuleError) as caught:
        kaques.apply(state, {"type": "turn", **event})
    assert str(caught.value) == message


# --- scoring the kept dice of one throw ------------------------------------------------

@pytest.mark.parametrize("keep, points", [
    ([], 0), ([1], 100), ([5], 50), ([1, 5], 150), ([1, 1], 200), ([5, 5], 100), ([1, 1, 5, 5], 300),
    ([1, 1, 1], 1000), ([2, 2, 2], 200), ([3, 3, 3], 300), ([4, 4, 4], 400), ([5, 5, 5], 500),
    ([6, 6, 6], 600),
    # as many triples as a face makes, plus single values of the rest
    ([1, 1, 1, 1], 1100), ([1, 1, 1, 1, 1], 1200), ([1] * 6, 2000),
    ([5, 5, 5, 5], 550), ([5] * 5, 600), ([5] * 6, 1000),
    ([2] * 6, 400), ([6] * 6, 1200), ([3] * 6, 600),
    # two triples in one throw score both; a triple and singles add up
    ([2, 2, 2, 3, 3, 3], 500), ([1, 1, 1, 5, 5, 5], 1500), ([4, 6, 4, 6, 4, 6], 1000),
    ([4, 4, 4, 1, 5], 550), ([6, 1, 6, 5, 6, 1], 850),
])
def test_keep_score(keep, points):
    assert keep_score(keep) == points
    assert keep_score(tuple(reversed(keep))) == points


@pytest.mark.parametrize("keep, face", [
    ([2], 2), ([3], 3), ([4], 4), ([6], 6), ([1, 5, 3], 3), ([2, 2], 2), ([6, 6, 1], 6),
    ([3, 3, 3, 3], 3), ([6] * 5, 6), ([4, 4, 4, 4, 1], 4), ([2, 2, 2, 3, 3], 3),
])
def test_a_lone_two_three_four_or_six_is_refused(keep, face):
    with pytest.raises(RuleError, match=f"^a kept {face} scores only in a triple$"):
        keep_score(keep)


@pytest.mark.parametrize("keep", [[0], [7], [1, True], ["1"], [1.0], [1] * 7, "15", 5, None])
def test_keep_score_wants_faces(keep):
    with pytest.raises(RuleError, match="keep must be a list of up to six faces from 1 to 6"):
        keep_score(keep)
    assert not accepts(kaques.keep_score, keep)


def test_scoring_options_best_first():
    options = scoring_options([1, 1, 1, 5, 2, 2])
    assert (options[0].dice, options[0].points) == ((1, 1, 1, 5), 1050)
    assert [o.points for o in options] == sorted((o.points for o in options), reverse=True)
    assert scoring_options([2, 3, 4, 6, 6, 2]) == []
    assert [o.dice for o in scoring_options([1, 5, 5])][:3] == [(1, 5, 5), (1, 5), (1,)]  # fewer dice first


@settings(max_examples=200)
@given(throws_of)
def test_scoring_options_are_exactly_the_keeps_that_score(throw):
    expected = set()
    for size in range(1, len(throw) + 1):
        for chosen in combinations(throw, size):
            try:
                expected.add((tuple(sorted(chosen)), keep_score(chosen)))
            except RuleError:
                pass
    options = scoring_options(throw)
    assert {(o.dice, o.points) for o in options} == expected
    assert len(options) == len(expected)
    assert scores(throw) == bool(options)
    kept_faces = {face for o in options for face in o.dice}
    assert keepable(throw) == tuple(face in kept_faces for face in throw)


def test_keepable_greys_out_dice_that_cannot_score():
    assert keepable([3, 3, 4, 4, 6, 2]) == (False,) * 6
    assert keepable([3, 3, 3, 4, 5, 6]) == (True, True, True, False, True, False)


# --- the risk meter ------------------------------------------------------------------

def brute_force_kaques(free):
    """Independent count: a throw scores nothing when it has no 1, no 5 and no face thrice."""
    count = 0
    for throw in product(range(1, 7), repeat=free):
        tally = Counter(throw)
        if tally[1] == 0 and tally[5] == 0 and max(tally.values()) < 3:
            count += 1
    return count


@pytest.mark.parametrize("free, by_hand", [
    (1, Fraction(2, 3)), (2, Fraction(4, 9)), (3, Fraction(60, 216)), (4, Fraction(204, 1296)),
    (5, Fraction(600, 7776)), (6, Fraction(1440, 46656)),
])
def test_kaque_chance_against_brute_force(free, by_hand):
    assert kaque_chance(free) == Fraction(brute_force_kaques(free), 6 ** free) == by_hand


def test_kaque_chance_is_cached_and_bounded():
    assert kaque_chance(6) is kaque_chance(6)
    assert kaque_chance.cache_info().hits >= 1
    for free in (0, 7, True, "3", 3.0):
        with pytest.raises(RuleError, match="a throw has from 1 to 6 dice"):
            kaque_chance(free)
    assert TurnState().risk == kaque_chance(6)


# --- a turn, throw by throw ------------------------------------------------------------

def test_a_turn_that_stops():
    turn = TurnState()
    assert (turn.number, turn.free, turn.total, turn.can_stop, turn.calls) == (1, 6, 0, False, ())
    turn = turn.throw([1, 5, 2, 3, 4, 6], [1, 5])
    assert (turn.number, turn.free, turn.total, turn.can_stop) == (2, 4, 150, True)
    assert turn.risk == kaque_chance(4)
    turn = turn.throw([2, 2, 2, 3], [2, 2, 2])
    assert (turn.free, turn.total, turn.calls) == (1, 350, (Call.GRANDMERE,))
    done = turn.end("Anna")
    assert (done.player, done.points, done.calls) == ("Anna", 350, (Call.GRANDMERE, Call.FERTISCH))
    assert not done.kaqued_after_grandmere
    assert [t.points for t in done.throws] == [150, 200]


def test_going_on_past_grandmere_and_kaquing_earns_knowing_looks():
    turn = TurnState().throw([1, 5, 2, 3, 4, 6], [1, 5]).throw([2, 2, 2, 3], [2, 2, 2]).throw([4], [])
    assert turn.kaqued and not turn.can_stop and turn.points == 0 and turn.total == 350
    done = turn.end("Anna")
    assert done.points == 0
    assert done.calls == (Call.GRANDMERE, Call.KAQUE)
    assert done.kaqued_after_grandmere


def test_a_kaque_on_the_first_throw():
    done = TurnState().throw([2, 3, 4, 6, 2, 3], []).end("Ben")
    assert (done.points, done.calls, done.kaqued_after_grandmere) == (0, (Call.KAQUE,), False)


def test_oh_lala_chain_and_stop():
    turn = TurnState().throw([1, 1, 1, 5, 5, 5], [1, 1, 1, 5, 5, 5])
    assert (turn.free, turn.total, turn.oh_lala_next) == (6, 1500, True)
    assert turn.calls == (Call.GRANDMERE,)  # nothing called yet for the re-throw
    assert turn.end("Anna").calls == (Call.GRANDMERE, Call.FERTISCH)  # stopping is allowed
    turn = turn.throw([2, 2, 2, 1, 3, 3], [2, 2, 2, 1]).throw([5, 5], [5, 5])
    assert (turn.free, turn.total) == (6, 1900)
    turn = turn.throw([6, 6, 6, 4, 4, 4], [6, 6, 6, 4, 4, 4]).throw([1, 2, 3, 4, 6, 6], [1])
    assert (turn.free, turn.total, turn.oh_lala_next) == (5, 3000, False)
    assert turn.calls == (Call.GRANDMERE, Call.OH_LALA, Call.OH_LALA, Call.OH_LALA)
    assert turn.end("Anna").points == 3000


def test_grand_kaque_right_after_an_oh_lala():
    turn = TurnState().throw([5, 5, 5, 5, 5, 5], [5] * 6).throw([2, 3, 4, 6, 6, 4], [])
    done = turn.end("Anna")
    assert done.points == 0
    assert done.calls == (Call.GRANDMERE, Call.OH_LALA, Call.KAQUE, Call.GRAND_KAQUE)
    assert done.kaqued_after_grandmere


def test_grand_kaque_later_in_the_same_run():
    turn = (TurnState().throw([1, 5, 2, 2, 3, 4], [1, 5]).throw([1, 1, 5, 5], [1, 1, 5, 5])
            .throw([1, 2, 3, 4, 6, 6], [1]).throw([3, 4, 6, 2, 2], []))
    assert turn.calls == (Call.GRANDMERE, Call.OH_LALA, Call.KAQUE, Call.GRAND_KAQUE)
    assert turn.total == 550 and turn.points == 0


def test_no_grand_kaque_without_an_oh_lala():
    turn = TurnState().throw([1, 1, 1, 1, 1, 2], [1, 1, 1, 1, 1]).throw([2], [])
    assert turn.calls == (Call.GRANDMERE, Call.KAQUE)


@pytest.mark.parametrize("throws, message", [
    ([([1, 5, 2, 3, 4], [1])], "throw 1: 5 dice thrown, but 6 dice were free"),
    ([([1, 5, 2, 3, 4, 6], [1, 5]), ([2, 3, 3, 3, 3], [3, 3, 3])], "throw 2: 5 dice thrown, but 4 dice were free"),
    ([([1, 5, 2, 3, 4, 6], [1, 5]), ([2, 3, 3, 3], [5, 3, 3])], "throw 2: keeps a 5, but no 5 was thrown"),
    ([([1, 5, 2, 3, 4, 6], [1, 5]), ([2, 3, 3, 4], [3, 3, 3])], "throw 2: keeps three 3s, but only two were thrown"),
    ([([1, 5, 2, 3, 4, 6], [1, 1])], "throw 1: keeps two 1s, but only one was thrown"),
    ([([1, 5, 2, 3, 4, 6], [1, 5]), ([2, 3, 1, 4], [1, 3])], "throw 2: a kept 3 scores only in a triple"),
    ([([1, 5, 5, 3, 4, 6], [1, 5, 5]), ([2, 2, 2], [2, 2, 2]), ([1, 2, 3, 4, 6, 6], [1]),
      ([2, 3, 4, 6, 6], [])], None),
    ([([1, 5, 2, 3, 4, 6], [1]), ([5, 2, 3, 4, 6], [5]), ([3, 3, 4, 2], [3, 3])],
     "throw 3: a kept 3 scores only in a triple"),
    ([([1, 5, 2, 3, 4, 6], [1, 5]), ([2, 1, 3, 4], [1]), ([2, 3, 4], [])],
     None),
    ([([1, 5, 2, 3, 4, 6], [1, 5]), ([2, 1, 3, 4], [1]), ([2, 3, 4, 6], [])],
     "throw 3: 4 dice thrown, but 3 dice were free"),
    ([([1, 5, 2, 3, 4, 6], [1, 5]), ([2, 1, 3, 4], [1]), ([2, 1, 4], [1]), ([2, 4], [])], None),
    ([([1, 5, 2, 3, 4, 6], [1, 5]), ([1, 1, 3, 4], [1, 1]), ([3, 4], [])], None),
    ([([1, 5, 2, 3, 4, 6], [1, 5]), ([1, 1, 3, 4], [1, 1]), ([5, 4], [5]), ([3, 4], [4])],
     "throw 4: 2 dice thrown, but 1 die was free"),
    ([([1, 5, 2, 3, 4, 6], [1, 5]), ([1, 1, 3, 4], [1, 1]), ([5, 4], [5]), ([3], [])], None),
    ([([1, 5, 2, 3, 4, 6], [1, 5]), ([1, 1, 3, 5], [1, 1, 5]), ([5], [5]), ([1, 2, 3, 4, 6], [1])],
     "throw 4: 5 dice thrown, but 6 dice were free"),
    ([([1, 5, 2, 3, 4, 6], [])], "throw 1: 1-5-2-3-4-6 scores, so keep at least one scoring die"),
    ([([2, 2, 2, 3, 4, 6], [])], "throw 1: 2-2-2-3-4-6 scores, so keep at least one scoring die"),
    ([([2, 2, 3, 3, 4, 6], []), ([1, 5, 2, 3, 4, 6], [1])],
     "throw 2: the turn already ended with Le Kaque! at throw 1"),
    ([([1, 5, 2, 3, 4, 7], [1])], "throw 1: dice must be a list of up to six faces from 1 to 6, not [1, 5, 2, 3, 4, 7]"),
    ([([1, 5, 2, 3, 4, 6], "15")], "throw 1: keep must be a list of up to six faces from 1 to 6, not '15'"),
])
def test_throw_refusals_name_the_throw(throws, message):
    log_throws = [{"dice": dice, "keep": keep} for dice, keep in throws]
    if message is None:  # a legal turn, listed among its near misses
        turn_so_far(log_throws).end("Anna")
        return
    with pytest.raises(RuleError) as caught:
        turn_so_far(log_throws)
    assert str(caught.value) == message


def test_verify_and_can_throw_do_not_change_the_turn():
    turn = TurnState().throw([1, 5, 2, 3, 4, 6], [1])
    assert turn.can_throw([5, 2, 3, 4, 6], [5])
    assert not turn.can_throw([5, 2, 3, 4, 6], [2])
    assert turn.verify_throw([5, 2, 2, 2, 6], [2, 2, 2, 5]).points == 250
    assert (turn.number, turn.total, turn.free) == (2, 100, 5)


@pytest.mark.parametrize("throws, message", [
    ("16", "throws must be a list like [{\"dice\": […], \"keep\": […]}], not '16'"),
    ([[1, 5]], "throw 1: must be an object with dice and keep, not [1, 5]"),
    ([{"dice": [1, 5, 2, 3, 4, 6], "kept": [1]}], "throw 1: a throw has no field 'kept'"),
    ([{"keep": [1]}], "throw 1: dice is missing"),
    ([{"dice": [1, 5, 2, 3, 4, 6]}], "throw 1: keep is missing (keep [] for a throw that scores nothing)"),
])
def test_turn_so_far_checks_the_shape(throws, message):
    with pytest.raises(RuleError) as caught:
        turn_so_far(throws)
    assert str(caught.value) == message


def test_an_unfinished_turn_is_held_and_written_out():
    assert turn_so_far([]) == TurnState()
    with pytest.raises(RuleError, match="a turn needs at least one throw"):
        TurnState().end("Anna")
    turn = TurnState().throw([1, 5, 2, 3, 4, 6], [5])
    event = turn.as_event("Anna")
    assert event == {"type": "turn", "player": "Anna", "throws": [{"dice": [1, 5, 2, 3, 4, 6], "keep": [5]}]}
    assert turn_so_far(event["throws"]) == turn


def play_turn(rng, throw_again):
    """A random legal turn: random dice, a random scoring keep, stop at random."""
    turn = TurnState()
    while True:
        dice = [rng.randint(1, 6) for _ in range(turn.free)]
        options = scoring_options(dice)
        turn = turn.throw(dice, list(rng.choice(options).dice) if options else [])
        if turn.kaqued or not throw_again(turn):
            return turn


@settings(max_examples=200)
@given(st.randoms(use_true_random=False), st.integers(0, 95))
def test_random_turns_keep_the_books(rng, stop_percent):
    turn = play_turn(rng, lambda t: rng.randrange(100) >= stop_percent and len(t.throws) < 30)
    done = turn.end("Anna")
    assert turn.total == sum(t.points for t in turn.throws)
    assert done.points == (0 if turn.kaqued else turn.total)
    assert done.points % 50 == 0
    kept = 0
    for number, thrown in enumerate(turn.throws, 1):
        assert len(thrown.dice) == (6 - kept % 6 if kept % 6 else 6)
        assert bool(thrown.keep) or number == len(turn.throws)
        kept += len(thrown.keep)
    oh_lalas = sum(1 for i in range(1, len(turn.throws)) if len(turn.throws[i].dice) == 6)
    assert done.calls.count(Call.OH_LALA) == oh_lalas
    assert (Call.GRAND_KAQUE in done.calls) == (turn.kaqued and oh_lalas > 0)
    assert (Call.GRANDMERE in done.calls) == (turn.total >= 350)
    assert (Call.FERTISCH in done.calls) != turn.kaqued
    assert turn_so_far([t.as_event() for t in turn.throws]) == turn


# --- the game ------------------------------------------------------------------------

def test_registered_and_described():
    assert ENGINES["kaques"] == Engine.of(kaques)
    assert kaques.events == {"turn": frozenset({"player", "throws", "points"})}
    assert parse_rules({}, kaques.settings) == {"target": 10000}


@pytest.mark.parametrize("target", [0, 25, 1025, -50, True, "1000", 1.5])
def test_target_must_be_a_multiple_of_50(target):
    with pytest.raises(RuleError, match="^rules.target: must be a multiple of 50, 50 or more, not "):
        parse_rules({"target": target}, kaques.settings)
    assert parse_rules({"target": 50}, kaques.settings) == {"target": 50}


def test_seating():
    with pytest.raises(RuleError, match="^players: Jaques le Kaques needs at least two players$"):
        new_game(["Anna"])
    with pytest.raises(RuleError, match="^teams: Jaques le Kaques is played without teams$"):
        kaques.start(make_setup(["A", "B", "C", "D"], [("X", ["A", "B"]), ("Y", ["C", "D"])]),
                     parse_rules({}, kaques.settings))
    assert new_game(["A", "B", "C", "D", "E", "F", "G"]).on_turn == "A"


def test_turns_rotate_and_the_wrong_player_is_refused():
    game = new_game(["Anna", "Ben", "Cleo"])
    assert kaques.writers(game) == {"Anna"}
    refused(game, "it is Anna's turn, not Ben's", player="Ben", points=50)
    game = turn(game, "anna", points=300)
    assert game.on_turn == "Ben" and kaques.writers(game) == {"Ben"}
    refused(game, "it is Ben's turn, not Anna's", player="Anna", points=50)
    refused(game, "'Zoe' is not a player at this table", player="Zoe", points=50)
    game = turn(game, "Ben", points=0)
    game = turn(game, "Cleo", throws=[([1, 2, 3, 4, 6, 6], [1])])
    assert game.on_turn == "Anna"
    assert game.totals == {"Anna": 300, "Ben": 0, "Cleo": 100}


@pytest.mark.parametrize("event, message", [
    ({"points": 75}, "points must be a multiple of 50, 0 or more, not 75"),
    ({"points": -50}, "points must be a multiple of 50, 0 or more, not -50"),
    ({"points": True}, "points must be a multiple of 50, 0 or more, not True"),
    ({"points": "350"}, "points must be a multiple of 50, 0 or more, not '350'"),
    ({"points": 100_050}, "points: a turn scores at most 100000, not 100050"),
    ({"points": 150, "throws": [{"dice": [1, 5, 2, 3, 4, 6], "keep": [1, 5]}]},
     "give the turn's throws or its points, not both"),
    ({}, "give the turn's throws or its points"),
    ({"throws": []}, "a turn needs at least one throw"),
    ({"throws": [{"dice": [1, 5, 2, 3, 4, 6], "keep": [1, 5]}, {"dice": [2, 3, 1, 4], "keep": [1, 3]}]},
     "throw 2: a kept 3 scores only in a triple"),
])
def test_turn_event_refusals(event, message):
    refused(new_game(), message, player="Anna", **event)


def test_quick_totals_and_their_calls():
    game = new_game(["Anna", "Ben", "Cleo"])
    game = turn(game, "Anna", points=0)
    game = turn(game, "Ben", points=300)
    game = turn(game, "Cleo", points=350)
    assert [t.calls for t in game.turns] == [(Call.KAQUE,), (Call.FERTISCH,), (Call.GRANDMERE, Call.FERTISCH)]
    assert [t.throws for t in game.turns] == [(), (), ()]


def test_the_first_to_reach_the_target_wins_at_once():
    game = new_game(["Anna", "Ben", "Cleo"], target=1000)
    for player, points in [("Anna", 600), ("Ben", 950), ("Cleo", 0), ("Anna", 300)]:
        game = turn(game, player, points=points)
    assert not game.finished and game.winner is None
    game = turn(game, "Ben", throws=[([1, 2, 2, 3, 4, 6], [1]), ([2, 2, 3, 4, 6], [])])
    assert not game.finished  # Ben kaqued: his 50 away from the target is still 50 away
    game = turn(game, "Cleo", points=1200)  # more than the target; Anna and Ben never get to answer
    assert game.finished and game.winner == "Cleo" and game.on_turn is None
    assert kaques.writers(game) == frozenset()
    refused(game, "the game is over: Cleo has won", player="Anna", points=500)
    outcome = kaques.result(game)
    assert outcome["finished"] is True and outcome["winner"] == "Cleo"
    assert outcome["points"] == {"Anna": 900, "Ben": 950, "Cleo": 1200}


def test_reaching_the_target_exactly_wins():
    game = turn(new_game(target=50), "Anna", throws=[([5, 2, 3, 4, 6, 6], [5])])
    assert game.winner == "Anna"


def test_apply_never_changes_the_state():
    game = new_game()
    after = turn(game, "Anna", points=500)
    assert game.totals == {"Anna": 0, "Ben": 0} and game.turns == ()
    assert after.totals == {"Anna": 500, "Ben": 0}
    with pytest.raises(RuleError, match="only turn events"):
        kaques.apply(game, {"type": "score", "player": "Anna"})


def test_result_breakdown_and_call_counts():
    game = new_game()
    game = turn(game, "Anna", throws=[([1, 5, 2, 3, 4, 6], [1, 5]), ([2, 2, 2, 3], [2, 2, 2]), ([4], [])])
    game = turn(game, "Ben", throws=[([5, 5, 5, 5, 5, 5], [5] * 6), ([2, 3, 4, 6, 6, 4], [])])
    game = turn(game, "Anna", throws=[([1, 5, 2, 3, 4, 6], [1, 5]), ([2, 2, 2, 3], [2, 2, 2])])
    game = turn(game, "Ben", points=100)
    outcome = kaques.result(game)
    assert outcome == {
        "game": "kaques", "finished": False, "points": {"Anna": 350, "Ben": 100}, "winner": None,
        "target": 10000, "on_turn": "Anna",
        "turns": [
            {"player": "Anna", "points": 0, "total": 0, "calls": ["Grandmère", "Le Kaque!"],
             "kaqued_after_grandmere": True},
            {"player": "Ben", "points": 0, "total": 0,
             "calls": ["Grandmère", "Oh, Lálá!", "Le Kaque!", "Grand Kaque!"], "kaqued_after_grandmere": True},
            {"player": "Anna", "points": 350, "total": 350, "calls": ["Grandmère", "fertisch!"],
             "kaqued_after_grandmere": False},
            {"player": "Ben", "points": 100, "total": 100, "calls": ["fertisch!"], "kaqued_after_grandmere": False},
        ],
        "calls": {
            "Anna": {"Oh, Lálá!": 0, "Grandmère": 2, "fertisch!": 1, "Le Kaque!": 1, "Grand Kaque!": 0},
            "Ben": {"Oh, Lálá!": 1, "Grandmère": 1, "fertisch!": 1, "Le Kaque!": 1, "Grand Kaque!": 1},
        },
    }


# --- a turn kept as a draft while it is entered throw by throw --------------------------

def test_verify_draft_gives_the_turn_so_far():
    game = new_game(["Anna", "Ben"])
    throws = [{"dice": [1, 5, 2, 3, 4, 6], "keep": [1, 5]}, {"dice": [2, 2, 2, 3], "keep": [2, 2, 2]}]
    turn_now = kaques.verify_draft(game, {"player": "ANNA", "throws": throws})
    assert turn_now == turn_so_far(throws)
    assert (turn_now.total, turn_now.free, turn_now.calls) == (350, 1, (Call.GRANDMERE,))
    assert kaques.verify_draft(game, {"player": "Anna", "throws": []}) == TurnState()
    assert kaques.verify_draft(game, {"player": "Anna"}) == TurnState()
    oh_lala = [{"dice": [5] * 6, "keep": [5] * 6}]
    assert kaques.verify_draft(game, {"player": "Anna", "throws": oh_lala}).oh_lala_next


@pytest.mark.parametrize("payload, message", [
    (None, "a turn in progress must be an object with player and throws, not None"),
    ([1, 5], "a turn in progress must be an object with player and throws, not [1, 5]"),
    ({"player": "Anna", "throws": [], "points": 50}, "a turn in progress has no field 'points'"),
    ({"throws": []}, "None is not a player at this table"),
    ({"player": "Zoe", "throws": []}, "'Zoe' is not a player at this table"),
    ({"player": "Ben", "throws": []}, "it is Anna's turn, not Ben's"),
    ({"player": "Anna", "throws": "15"}, "throws must be a list like [{\"dice\": […], \"keep\": […]}], not '15'"),
    ({"player": "Anna", "throws": [{"dice": [1, 5, 2, 3, 4, 6], "keep": [1, 2]}]},
     "throw 1: a kept 2 scores only in a triple"),
    ({"player": "Anna", "throws": [{"dice": [1, 5, 2, 3, 4, 6], "keep": [1]}, {"dice": [5, 2, 3, 4], "keep": [5]}]},
     "throw 2: 4 dice thrown, but 5 dice were free"),
    ({"player": "Anna", "throws": [{"dice": [1, 5, 2, 3, 4, 6], "keep": [1]}, {"dice": [2, 2, 3, 4, 6], "keep": []}]},
     "throw 2 scores nothing: Le Kaque! ends the turn, so enter it as the turn"),
])
def test_verify_draft_refusals(payload, message):
    with pytest.raises(RuleError) as caught:
        kaques.verify_draft(new_game(["Anna", "Ben"]), payload)
    assert str(caught.value) == message


def test_no_draft_after_the_game_is_won():
    game = turn(new_game(target=50), "Anna", points=50)
    with pytest.raises(RuleError, match="^the game is over: Anna has won$"):
        kaques.verify_draft(game, {"player": "Ben", "throws": []})


def test_a_finished_draft_is_the_turn_event():
    game = new_game(["Anna", "Ben"])
    throws = [{"dice": [1, 5, 2, 3, 4, 6], "keep": [1, 5]}]
    kaques.verify_draft(game, {"player": "Anna", "throws": throws})
    after = kaques.apply(game, {"type": "turn", "player": "Anna", "throws": throws})
    assert after.totals["Anna"] == 150 and after.on_turn == "Ben"
