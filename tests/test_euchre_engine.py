"""The Euchre engine: seating, the scoring table, lone hands, the deal passing left, refusals."""

import pytest
from hypothesis import given, settings, strategies as st

from scorekeeper.games import ENGINES, euchre
from scorekeeper.games.base import Engine, RuleError, make_setup, parse_rules
from tests.support import accepts
from scorekeeper.gamelog import LogError, fold, read_header

PLAYERS = ["Anna", "Ben", "Cleo", "Dora"]
TEAMS = [("Red", ["Anna", "Cleo"]), ("Blue", ["Ben", "Dora"])]


def last_hand(state):
    """(dealer, leader) of the last hand played; None before any."""
    if not state.hands:
        return None
    hand = state.hands[-1]
    return hand.dealer, euchre.leader(state.setup, hand.dealer, hand.maker, hand.alone, hand.defender_alone)



def new_game(players=PLAYERS, teams=TEAMS, **rules):
    setup = make_setup(list(players), teams)
    return euchre.start(setup, parse_rules(rules, euchre.settings))


def play(state, *events):
    for event in events:
        state = euchre.apply(state, event)
    return state


def hand(maker, tricks, **more):
    return {"type": "hand", "maker": maker, "tricks": tricks, **more}


REDEAL = {"type": "redeal"}


def log(events=(), rules=None, players=PLAYERS, teams=TEAMS):
    doc = {"format": "scorekeeper-log/1", "game": "euchre", "players": list(players),
           "rules": rules or {}, "events": list(events)}
    if teams is not None:
        doc["teams"] = [{"name": n, "players": p} for n, p in teams]
    return doc


def refusal(doc):
    with pytest.raises(LogError) as caught:
        fold(read_header(doc), doc["events"])
    return str(caught.value)


def test_is_registered():
    assert ENGINES["euchre"] == Engine.of(euchre)


# --- the scoring table ---------------------------------------------------------------------

# (makers' tricks, maker alone, a defender alone) -> (party that scores, points)
TABLE = [
    (3, False, False, "makers", 1), (4, False, False, "makers", 1),
    (5, False, False, "makers", 2),
    (0, False, False, "defenders", 2), (1, False, False, "defenders", 2), (2, False, False, "defenders", 2),
    (3, True, False, "makers", 1), (4, True, False, "makers", 1),
    (5, True, False, "makers", 4),
    (0, True, False, "defenders", 2), (1, True, False, "defenders", 2), (2, True, False, "defenders", 2),
    # a lone defender: the makers' 1 or 2 tricks leave the defenders 3 or 4; 0 leaves all five
    (2, False, True, "defenders", 2), (1, False, True, "defenders", 2), (0, False, True, "defenders", 4),
    (3, False, True, "makers", 1), (4, False, True, "makers", 1), (5, False, True, "makers", 2),
    # both alone in the same hand
    (5, True, True, "makers", 4), (4, True, True, "makers", 1), (3, True, True, "makers", 1),
    (2, True, True, "defenders", 2), (1, True, True, "defenders", 2), (0, True, True, "defenders", 4),
]


@pytest.mark.parametrize("tricks, alone, defender_alone, party, points", TABLE)
def test_award_follows_the_table(tricks, alone, defender_alone, party, points):
    assert euchre.award(tricks, alone, defender_alone) == (euchre.Party(party), points)


@pytest.mark.parametrize("tricks, alone, defender_alone, party, points", TABLE)
def test_a_hand_scores_per_the_table(tricks, alone, defender_alone, party, points):
    event = hand("Ben", tricks, alone=alone, defender_alone="Cleo" if defender_alone else None)
    state = play(new_game(), event)
    team = "Blue" if party == "makers" else "Red"
    assert state.score() == {"Red": 0, "Blue": 0, team: points}
    assert euchre.hand_points(new_game(), "Ben", tricks, alone, "Cleo" if defender_alone else None) == (team, points)


def test_outcome_names():
    assert [euchre.outcome(t).value for t in range(6)] == ["euchred"] * 3 + ["made"] * 2 + ["march"]


def test_hand_points_is_a_preview_only():
    state = new_game()
    assert euchre.hand_points(state, "anna", 5, alone=True) == ("Red", 4)
    assert state.deals == ()
    with pytest.raises(RuleError, match="tricks must be from 0 to 5, not 6"):
        euchre.hand_points(state, "Anna", 6)
    with pytest.raises(RuleError, match="defender_alone must be a defender"):
        euchre.hand_points(state, "Anna", 2, defender_alone="Cleo")


# --- dealer and leader -----------------------------------------------------------------------


def test_the_deal_passes_left_after_every_hand_and_redeal():
    state = new_game()
    dealers = [state.dealer]
    for event in [hand("Ben", 3), REDEAL, REDEAL, hand("Dora", 1), REDEAL, hand("Anna", 4)]:
        state = euchre.apply(state, event)
        dealers.append(state.dealer)
    assert dealers == ["Anna", "Ben", "Cleo", "Dora", "Anna", "Ben", "Cleo"]
    assert [h.dealer for h in state.hands] == ["Anna", "Dora", "Ben"]
    assert euchre.result(state)["redeals"] == 3
    assert euchre.result(state)["dealer"] == "Cleo"


def test_a_redeal_scores_nothing():
    state = play(new_game(), REDEAL, REDEAL, REDEAL, REDEAL, REDEAL)
    assert state.score() == {"Red": 0, "Blue": 0}
    assert state.dealer == "Ben"
    assert state.hands == ()


def test_first_dealer_setting_ignores_case_and_defaults_to_seat_one():
    assert new_game().dealer == "Anna"
    state = new_game(first_dealer=" dORA ")
    assert state.first_dealer == "Dora"
    assert state.dealer == "Dora"
    assert play(state, hand("Ben", 3)).dealer == "Anna"  # wraps round the table


def test_next_deal_gives_dealer_and_leader():
    state = new_game(first_dealer="Cleo")
    assert euchre.next_deal(state) == ("Cleo", "Dora")
    assert last_hand(state) is None


@pytest.mark.parametrize("maker, alone, defender_alone, leads", [
    ("Cleo", False, None, "Ben"),  # left of the dealer Anna
    ("Cleo", True, None, "Dora"),  # left of the lone maker
    ("Dora", True, None, "Anna"),
    ("Cleo", False, "Ben", "Cleo"),  # left of the lone defender
    ("Cleo", True, "Ben", "Ben"),  # both alone: the defender leads
    ("Ben", True, "Anna", "Anna"),
])
def test_who_leads(maker, alone, defender_alone, leads):
    state = play(new_game(), hand(maker, 3, alone=alone, defender_alone=defender_alone))
    assert last_hand(state) == ("Anna", leads)
    assert euchre.result(state)["hands"][0]["leader"] == leads


def test_rematch_starts_the_deal_one_seat_further():
    state = new_game(first_dealer="Dora", target=5)
    rules = euchre.rematch_rules(state)
    assert rules == {"form": "partnership", "target": 5, "deck": "24", "first_dealer": "Anna"}
    assert parse_rules(rules, euchre.settings)["first_dealer"] == "Anna"
    assert euchre.rematch_rules(new_game())["first_dealer"] == "Ben"


# --- the target and the end ------------------------------------------------------------------


def test_the_first_team_to_reach_the_target_wins_at_once():
    state = play(new_game(), *[hand("Anna", 5)] * 4)
    assert state.score() == {"Red": 8, "Blue": 0}
    assert euchre.writers(state) is None
    assert euchre.next_deal(state) == ("Anna", "Ben")
    state = play(state, hand("Ben", 2))  # Blue euchred: Red +2 = 10
    assert state.winner == "Red"
    assert euchre.writers(state) == frozenset()
    assert euchre.next_deal(state) is None
    out = euchre.result(state)
    assert (out["finished"], out["winner"], out["points"], out["dealer"]) == (True, "Red", {"Red": 10, "Blue": 0}, None)


def test_overshooting_the_target_still_wins():
    state = play(new_game(), *[hand("Anna", 3)] * 9, hand("Cleo", 5, alone=True))
    assert state.score()["Red"] == 13
    assert state.winner == "Red"


@pytest.mark.parametrize("target, hands_to_win", [(1, 1), (5, 5), (21, 21)])
def test_target_setting(target, hands_to_win):
    state = new_game(target=target)
    for played in range(1, hands_to_win + 1):
        assert not state.finished
        state = euchre.apply(state, hand("Dora", 4))
    assert state.winner == "Blue"
    assert played == hands_to_win


def test_events_after_the_win_are_refused():
    state = new_game(target=1)
    state = euchre.apply(state, hand("Anna", 0))
    assert state.winner == "Blue"
    with pytest.raises(RuleError, match="^the game is over: Blue reached 2 points$"):
        euchre.apply(state, hand("Anna", 3))
    with pytest.raises(RuleError, match="^the game is over"):
        euchre.apply(state, REDEAL)
    assert not accepts(euchre.verify_redeal, state)
    assert not accepts(euchre.verify_hand, state, hand("Anna", 3))


def test_apply_never_changes_the_state():
    state = new_game()
    after = euchre.apply(state, hand("Ben", 5))
    assert state.deals == () and state.score() == {"Red": 0, "Blue": 0}
    assert after.score() == {"Red": 0, "Blue": 2}


def test_result_of_a_fresh_game():
    assert euchre.result(new_game()) == {
        "game": "euchre", "finished": False, "points": {"Red": 0, "Blue": 0}, "winner": None,
        "target": 10, "deck": "24", "first_dealer": "Anna", "dealer": "Anna", "redeals": 0, "hands": []}


def test_result_breaks_down_each_hand():
    state = play(new_game(deck="25"), hand("dora", 0, defender_alone="cleo", trump="Hearts"))
    out = euchre.result(state)
    assert out["deck"] == "25"
    assert out["hands"] == [{
        "dealer": "Anna", "leader": "Dora", "maker": "Dora", "makers": "Blue", "tricks": 0,
        "alone": False, "defender_alone": "Cleo", "trump": "hearts", "outcome": "euchred",
        "team": "Red", "points": 4, "score": {"Red": 4, "Blue": 0}}]


# --- seating and settings refusals -----------------------------------------------------------


@pytest.mark.parametrize("players, teams, message", [
    (PLAYERS[:3], [("Red", ["Anna", "Cleo"]), ("Blue", ["Ben"])], "players: Euchre needs four players, not 3"),
    (PLAYERS + ["Emil"], None, "players: Euchre needs four players, not 5"),
    (PLAYERS, None, "teams: Euchre is played by two teams of two"),
    (PLAYERS, [("Red", ["Anna", "Cleo", "Ben"]), ("Blue", ["Dora"])], "teams: Euchre needs exactly two teams of two players"),
    (PLAYERS, [("A", ["Anna", "Cleo"]), ("B", ["Ben"]), ("C", ["Dora"])], "teams: Euchre needs exactly two teams of two players"),
    (PLAYERS, [("Red", ["Anna", "Ben"]), ("Blue", ["Cleo", "Dora"])],
     "teams: partners sit opposite each other (seats 1 & 3 and 2 & 4 of players), but Anna and Ben of Red sit side by side"),
    (PLAYERS, [("Red", ["Dora", "Anna"]), ("Blue", ["Ben", "Cleo"])], "teams: partners sit opposite each other (seats 1 & 3 and 2 & 4 of players), but Dora and Anna of Red sit side by side"),
])
def test_seating_refusals(players, teams, message):
    assert refusal(log(players=players, teams=teams)).startswith(message)


def test_teams_may_be_listed_in_any_order():
    state = new_game(teams=[("Blue", ["Dora", "Ben"]), ("Red", ["Cleo", "Anna"])])
    assert list(state.score()) == ["Blue", "Red"]


@pytest.mark.parametrize("rules, message", [
    ({"target": 0}, "rules.target: must be a whole number, 1 or more, not 0"),
    ({"target": "10"}, "rules.target: must be a whole number, 1 or more, not '10'"),
    ({"target": 7.5}, "rules.target: must be a whole number, 1 or more, not 7.5"),
    ({"target": True}, "rules.target: must be a whole number, 1 or more, not True"),
    ({"deck": 24}, "rules.deck: must be \"24\", \"32\", \"25\" or \"33\", not 24"),
    ({"deck": "36"}, "rules.deck: must be \"24\", \"32\", \"25\" or \"33\", not '36'"),
    ({"first_dealer": "Zed"}, "rules.first_dealer: 'Zed' is not a player at this table"),
    ({"first_dealer": 2}, "rules.first_dealer: must be the name of a player, not 2"),
    ({"first_dealer": "  "}, "rules.first_dealer: must be the name of a player, not '  '"),
    ({"trump": "hearts"}, "rules.trump: this game has no such setting"),
])
def test_settings_refusals(rules, message):
    assert refusal(log(rules=rules)).startswith(message)


def test_settings_accepted():
    state = fold(read_header(log(rules={"target": 5, "deck": "32", "first_dealer": "ben"})), [])
    assert state.rules == {"form": "partnership", "target": 5, "deck": "32", "first_dealer": "Ben"}


# --- event refusals --------------------------------------------------------------------------


@pytest.mark.parametrize("event, message", [
    (hand("Anna", 7), "tricks must be from 0 to 5, not 7"),
    (hand("Anna", -1), "tricks must be from 0 to 5, not -1"),
    (hand("Anna", 2.5), "tricks must be from 0 to 5, not 2.5"),
    (hand("Anna", 3.0), "tricks must be from 0 to 5, not 3.0"),
    (hand("Anna", "3"), "tricks must be from 0 to 5, not '3'"),
    (hand("Anna", True), "tricks must be from 0 to 5, not True"),
    ({"type": "hand", "maker": "Anna"}, "tricks is missing (it must be from 0 to 5)"),
    ({"type": "hand", "tricks": 3}, "maker is missing (the player who named trump)"),
    (hand("Zed", 3), "'Zed' is not a player at this table"),
    (hand(["Anna"], 3), "['Anna'] is not a player at this table"),
    (hand("Anna", 3, defender_alone="Cleo"),
     "defender_alone must be a defender (Ben or Dora), not Cleo, the maker's partner"),
    (hand("Anna", 3, defender_alone="anna"), "defender_alone must be a defender (Ben or Dora), not Anna, the maker"),
    (hand("Ben", 3, defender_alone="Ben", alone=True), "defender_alone must be a defender (Anna or Cleo), not Ben, the maker"),
    (hand("Anna", 3, defender_alone="Zed"), "'Zed' is not a player at this table"),
    (hand("Anna", 3, trump="stars"), "trump must be clubs, diamonds, hearts or spades, not 'stars'"),
    (hand("Anna", 3, trump=1), "trump must be clubs, diamonds, hearts or spades, not 1"),
    (hand("Anna", 3, alone="yes"), "alone must be true or false, not 'yes'"),
    (hand("Anna", 3, alone=1), "alone must be true or false, not 1"),
])
def test_event_refusals(event, message):
    state = new_game()
    with pytest.raises(RuleError) as caught:
        euchre.apply(state, event)
    assert str(caught.value) == message
    assert not accepts(euchre.verify_hand, state, event)


def test_apply_refuses_an_unknown_type():
    with pytest.raises(RuleError, match="^type must be hand or redeal, not 'score'$"):
        euchre.apply(new_game(), {"type": "score", "maker": "Anna", "tricks": 3})


def test_the_log_names_the_bad_event():
    events = [hand("Anna", 3), hand("Ben", 7)]
    assert refusal(log(events)) == "event 2: tricks must be from 0 to 5, not 7"
    assert refusal(log([hand("Anna", 3, points=1)])) == "event 1: a hand event has no field 'points'"
    assert refusal(log([{"type": "redeal", "maker": "Anna"}])) == "event 1: a redeal event has no field 'maker'"
    assert refusal(log([{"type": "deal"}])) == "event 1: type must be hand or redeal, not 'deal'"


def test_null_fields_mean_left_out():
    event = {"type": "hand", "maker": "Anna", "tricks": 5, "alone": None, "defender_alone": None, "trump": None}
    state = fold(read_header(log([event])), [event])
    assert state.hands[0].points == 2 and not state.hands[0].alone


def test_trump_ignores_case():
    state = play(new_game(), hand("Anna", 3, trump=" SPADES"))
    assert state.hands[0].trump is euchre.Suit.SPADES


# --- properties ------------------------------------------------------------------------------

hands = st.builds(
    lambda maker, tricks, alone, defender, trump: hand(
        maker, tricks, alone=alone, trump=trump,
        defender_alone=PLAYERS[(PLAYERS.index(maker) + defender) % 4] if defender else None),
    st.sampled_from(PLAYERS), st.integers(0, 5), st.booleans(), st.sampled_from([0, 1, 3]),
    st.none() | st.sampled_from(list(euchre.Suit)))
deals = st.lists(st.just(REDEAL) | hands, max_size=30)


@settings(max_examples=200, deadline=None)
@given(deals, st.integers(1, 12), st.sampled_from(PLAYERS))
def test_any_sequence_of_deals(events, target, first_dealer):
    state = new_game(target=target, first_dealer=first_dealer)
    for number, event in enumerate(events):
        if state.finished:
            assert not accepts(euchre.verify_hand, state, event) and not accepts(euchre.verify_redeal, state)
            break
        before = state.score()
        state = euchre.apply(state, event)
        after = state.score()
        gained = {team: after[team] - before[team] for team in after}
        assert sorted(gained.values()) in ([0, 0], [0, 1], [0, 2], [0, 4])
        assert max(before.values()) < target
        assert state.dealer == PLAYERS[(PLAYERS.index(first_dealer) + number + 1) % 4]
    out = euchre.result(state)
    assert out["points"] == state.score()
    assert sum(h["points"] for h in out["hands"]) == sum(out["points"].values())
    assert out["finished"] == (max(out["points"].values()) >= target)
    if out["finished"]:
        assert out["winner"] == out["hands"][-1]["team"]


@settings(max_examples=100, deadline=None)
@given(deals, st.integers(1, 12), st.sampled_from(PLAYERS))
def test_a_partnership_log_scores_the_same_with_its_form_named(events, target, first_dealer):
    rules = {"target": target, "first_dealer": first_dealer}
    outcomes = []
    for named in (rules, {**rules, "form": "partnership"}):
        doc = log(events, rules=named)
        try:
            outcomes.append(("result", ENGINES["euchre"].result(fold(read_header(doc), doc["events"]))))
        except LogError as error:
            outcomes.append(("refused", str(error)))
    assert outcomes[0] == outcomes[1]


# --- the other forms (RULES.md, "Euchre's other forms") --------------------------------------------

TWO = ["Gus", "Hal"]
THREE = ["Gus", "Hal", "Ida"]


def two_handed(**rules):
    return new_game(TWO, None, form="two-handed", **rules)


def three_handed(**rules):
    return new_game(THREE, None, form="three-handed", **rules)


def railroad(**rules):
    return new_game(form="railroad", **rules)


def test_the_form_setting():
    assert parse_rules({}, euchre.settings)["form"] == "partnership"
    assert euchre.settings["form"].choices == ("partnership", "two-handed", "three-handed", "railroad")
    assert refusal(log(rules={"form": "cut-throat"})) == (
        "rules.form: must be \"partnership\", \"two-handed\", \"three-handed\" or \"railroad\", not 'cut-throat'")
    assert refusal(log(rules={"form": 2})).startswith("rules.form: must be")


@pytest.mark.parametrize("form, seats", [("partnership", 4), ("two-handed", 2), ("three-handed", 3), ("railroad", 4)])
def test_seats_per_form(form, seats):
    assert euchre.seats({"form": form}) == seats
    assert euchre.seats({}) == 4


@pytest.mark.parametrize("form, players, teams, message", [
    ("two-handed", THREE, None, "players: two-handed Euchre needs 2 players, not 3"),
    ("two-handed", PLAYERS, None, "players: two-handed Euchre needs 2 players, not 4"),
    ("three-handed", TWO, None, "players: three-handed Euchre needs 3 players, not 2"),
    ("three-handed", PLAYERS, TEAMS, "players: three-handed Euchre needs 3 players, not 4"),
    ("two-handed", TWO, [("Gus", ["Gus"]), ("Hal", ["Hal"])],
     "teams: in two-handed Euchre every player plays for themselves; leave teams out"),
    ("three-handed", THREE, [("A", ["Gus", "Ida"]), ("B", ["Hal"])],
     "teams: in three-handed Euchre every player plays for themselves; leave teams out"),
    ("railroad", THREE, None, "players: Euchre needs four players, not 3"),
    ("railroad", PLAYERS, None, "teams: Euchre is played by two teams of two"),
    ("railroad", PLAYERS, [("Red", ["Anna", "Ben"]), ("Blue", ["Cleo", "Dora"])], "teams: partners sit opposite"),
])
def test_seating_per_form(form, players, teams, message):
    assert refusal(log(rules={"form": form}, players=players, teams=teams)).startswith(message)


def test_two_and_three_handed_sides_are_the_players():
    assert two_handed().score() == {"Gus": 0, "Hal": 0}
    assert euchre.result(three_handed())["points"] == {"Gus": 0, "Hal": 0, "Ida": 0}


# (form, makers' tricks) -> points per side, the maker being Gus, and with four players Anna (Red)
@pytest.mark.parametrize("tricks, scores", [
    (3, {"Gus": 1, "Hal": 0}), (4, {"Gus": 1, "Hal": 0}), (5, {"Gus": 2, "Hal": 0}),
    (0, {"Gus": 0, "Hal": 2}), (1, {"Gus": 0, "Hal": 2}), (2, {"Gus": 0, "Hal": 2}),
])
def test_two_handed_scoring(tricks, scores):
    state = play(two_handed(), hand("gus", tricks))
    assert state.score() == scores
    assert euchre.hand_scores(two_handed(), "Gus", tricks) == {k: v for k, v in scores.items() if v}
    team, points = euchre.hand_points(two_handed(), "Gus", tricks)
    assert scores[team] == points


@pytest.mark.parametrize("tricks, scores", [
    (3, {"Gus": 1, "Hal": 0, "Ida": 0}), (4, {"Gus": 1, "Hal": 0, "Ida": 0}), (5, {"Gus": 3, "Hal": 0, "Ida": 0}),
    (0, {"Gus": 0, "Hal": 2, "Ida": 2}), (1, {"Gus": 0, "Hal": 2, "Ida": 2}), (2, {"Gus": 0, "Hal": 2, "Ida": 2}),
])
def test_three_handed_scoring(tricks, scores):
    state = play(three_handed(), hand("Gus", tricks))
    assert state.score() == scores
    assert euchre.hand_scores(three_handed(), "Gus", tricks) == {k: v for k, v in scores.items() if v}


def test_a_three_handed_euchre_scores_both_defenders():
    state = play(three_handed(), hand("Hal", 1))
    assert state.hands[0].team is None and state.hands[0].scored == ("Gus", "Ida")
    assert euchre.hand_points(three_handed(), "Hal", 1) == (None, 2)
    out = euchre.result(state)
    assert out["form"] == "three-handed"
    assert out["hands"][0]["team"] is None and out["hands"][0]["scored"] == ["Gus", "Ida"]
    assert out["hands"][0]["score"] == {"Gus": 2, "Hal": 0, "Ida": 2}


@pytest.mark.parametrize("tricks, alone, defender_alone, scores", [
    (3, False, None, {"Red": 1, "Blue": 0}), (5, False, None, {"Red": 2, "Blue": 0}),
    (5, True, None, {"Red": 4, "Blue": 0}), (2, True, None, {"Red": 0, "Blue": 2}),
    (1, False, "Ben", {"Red": 0, "Blue": 2}), (0, False, "Ben", {"Red": 0, "Blue": 4}),
    (0, True, "Dora", {"Red": 0, "Blue": 4}),
])
def test_railroad_scores_as_partnership_lone_defenders_too(tricks, alone, defender_alone, scores):
    event = hand("Anna", tricks, alone=alone, defender_alone=defender_alone)
    assert play(railroad(slam=False), event).score() == play(new_game(), event).score() == scores


@pytest.mark.parametrize("state", [two_handed, three_handed], ids=["two-handed", "three-handed"])
@pytest.mark.parametrize("flag, value", [("alone", True), ("alone", False), ("defender_alone", "Hal"),
                                         ("defender_alone", "Zed"), ("defender_alone", False)])
def test_lone_flags_are_refused_whatever_their_value(state, flag, value):
    game = state()
    event = hand("Gus", 3, **{flag: value})
    with pytest.raises(RuleError) as caught:
        euchre.apply(game, event)
    if state is two_handed:
        assert str(caught.value) == f"{flag} is refused in two-handed Euchre: nobody plays alone"
    else:
        assert str(caught.value) == (f"{flag} is refused in three-handed Euchre: the maker always plays alone "
                                     "against the other two")
    assert not accepts(euchre.verify_hand, game, event)
    with pytest.raises(RuleError):
        euchre.hand_points(game, "Gus", 3, alone=True)


def test_lone_flags_given_as_null_are_left_out():
    event = {"type": "hand", "maker": "Gus", "tricks": 5, "alone": None, "defender_alone": None}
    doc = log([event], rules={"form": "two-handed"}, players=TWO, teams=None)
    assert fold(read_header(doc), doc["events"]).score() == {"Gus": 2, "Hal": 0}


def test_the_deal_rotates_through_every_seat():
    state = three_handed(first_dealer="Hal")
    assert euchre.next_deal(state) == ("Hal", "Ida")
    state = play(state, hand("Gus", 3), REDEAL, hand("Ida", 0))
    assert [h.dealer for h in state.hands] == ["Hal", "Gus"]
    assert euchre.next_deal(state) == ("Hal", "Ida")  # Hal, Ida (redeal), Gus dealt; Hal again
    assert euchre.writers(state) is None
    assert last_hand(state) == ("Gus", "Hal")
    assert euchre.next_deal(play(two_handed(), hand("Gus", 3))) == ("Hal", "Gus")
    assert euchre.rematch_rules(two_handed())["first_dealer"] == "Hal"


def test_three_handed_the_higher_score_wins_when_both_defenders_reach_the_target():
    state = play(three_handed(target=5), hand("Gus", 3), hand("Ida", 3), hand("Ida", 4))  # Gus 1, Ida 2
    state = play(state, hand("Hal", 0))  # Gus 3, Ida 4
    assert not state.finished
    state = play(state, hand("Hal", 1))  # Gus 5, Ida 6: both reach 5, Ida is higher
    assert state.score() == {"Gus": 5, "Hal": 0, "Ida": 6}
    assert state.winner == "Ida" and euchre.writers(state) == frozenset()


def test_three_handed_a_tie_on_reaching_the_target_plays_on():
    state = play(three_handed(target=4), hand("Hal", 2), hand("Hal", 0))  # Gus 4, Ida 4
    assert state.score() == {"Gus": 4, "Hal": 0, "Ida": 4}
    assert state.winner is None and not state.finished
    out = euchre.result(state)
    assert (out["finished"], out["winner"]) == (False, None)
    assert euchre.next_deal(state) == ("Ida", "Gus")
    state = play(state, hand("Ida", 3))
    assert state.winner == "Ida"


def test_deck_defaults_per_form():
    assert new_game().rules["deck"] == "24"
    assert two_handed().rules["deck"] == three_handed().rules["deck"] == "24"
    assert railroad().rules["deck"] == "33"
    assert railroad(deck="24").rules["deck"] == "24"
    assert new_game(deck="33").rules["deck"] == "33"
    assert euchre.result(railroad())["deck"] == "33"


def test_laps_and_slam_default_true_in_railroad_only():
    rules = parse_rules({"form": "railroad"}, euchre.settings)
    assert (rules["laps"], rules["slam"], rules["start"]) == (True, True, None)
    for form in ("partnership", "two-handed", "three-handed"):
        rules = parse_rules({"form": form}, euchre.settings)
        assert not {"laps", "slam", "start"} & set(rules)


@pytest.mark.parametrize("form", ["partnership", "two-handed", "three-handed", None])
@pytest.mark.parametrize("key, value", [("laps", True), ("laps", False), ("slam", True), ("slam", False),
                                        ("start", {}), ("start", {"Red": 1})])
def test_railroad_settings_are_refused_in_other_forms(form, key, value):
    rules = {key: value} if form is None else {"form": form, key: value}
    with pytest.raises(RuleError) as caught:
        parse_rules(rules, euchre.settings)
    assert str(caught.value) == f"rules.{key}: only with form railroad, not {form or 'partnership'}"


def test_a_null_railroad_setting_is_left_out():
    assert "laps" not in parse_rules({"laps": None, "start": None}, euchre.settings)


@pytest.mark.parametrize("rules, message", [
    ({"laps": "yes"}, "rules.laps: must be true or false, not 'yes'"),
    ({"slam": 1}, "rules.slam: must be true or false, not 1"),
    ({"start": {"Red": 2}, "laps": False}, "rules.start: a game without laps starts at 0; leave start out"),
    ({"start": {"Red": 10}}, "rules.start: Red must start below the target of 10, not at 10"),
    ({"start": {"Blue": 5}, "target": 5}, "rules.start: Blue must start below the target of 5, not at 5"),
    ({"start": {"Red": -1}}, "rules.start: must be the points each team starts with, such as {\"Red\": 2}, not {'Red': -1}"),
    ({"start": {"Red": 1.5}}, "rules.start: must be the points each team starts with"),
    ({"start": {"Red": True}}, "rules.start: must be the points each team starts with"),
    ({"start": [2, 0]}, "rules.start: must be the points each team starts with"),
    ({"start": 2}, "rules.start: must be the points each team starts with"),
    ({"start": {"Green": 2}}, "rules.start: 'Green' is not a team at this table"),
    ({"start": {"Red": 2, "red": 1}}, "rules.start: Red is listed twice"),
])
def test_start_refusals(rules, message):
    assert refusal(log(rules={"form": "railroad", **rules})).startswith(message)


def test_start_counts_as_points_and_missing_sides_start_at_zero():
    state = railroad(start={"blue": 3})
    assert state.rules["start"] == {"Blue": 3}
    assert state.score() == {"Red": 0, "Blue": 3}
    state = play(state, hand("Ben", 3))
    out = euchre.result(state)
    assert out["points"] == {"Red": 0, "Blue": 4}
    assert out["hands"][0]["score"] == {"Red": 0, "Blue": 4}
    assert railroad(start={}).score() == {"Red": 0, "Blue": 0}


def test_railroad_result_adds_carry_and_games():
    out = euchre.result(railroad())
    assert out["form"] == "railroad"
    assert (out["carry"], out["games"]) == ({"Red": 0, "Blue": 0}, {"Red": 0, "Blue": 0})
    assert "carry" not in euchre.result(railroad(laps=False))
    assert "games" not in euchre.result(railroad(slam=False))
    for state in (new_game(), two_handed(), three_handed()):
        assert not {"carry", "games"} & set(euchre.result(state))


def test_a_slam_wins_two_games_and_carries_the_points_beyond_the_target():
    state = play(railroad(), *[hand("Anna", 5, alone=True)] * 3)  # Red 12, Blue 0
    out = euchre.result(state)
    assert (out["winner"], out["points"]) == ("Red", {"Red": 12, "Blue": 0})
    assert out["games"] == {"Red": 2, "Blue": 0}
    assert out["carry"] == {"Red": 2, "Blue": 0}


def test_no_slam_once_the_loser_has_points_carried_in_or_made():
    state = play(railroad(start={"Blue": 1}), *[hand("Anna", 5, alone=True)] * 3)
    assert euchre.result(state)["games"] == {"Red": 1, "Blue": 0}
    state = play(railroad(), hand("Ben", 3), *[hand("Anna", 5, alone=True)] * 3)
    assert euchre.result(state)["games"] == {"Red": 1, "Blue": 0}


def test_carry_is_at_most_target_less_one():
    state = play(railroad(target=3, start={"Red": 2}), hand("Cleo", 5, alone=True))  # Red 6
    assert euchre.result(state)["carry"] == {"Red": 2, "Blue": 0}
    state = play(railroad(target=1), hand("Ben", 5, alone=True))  # Blue 4: carries at most 0
    assert euchre.result(state)["carry"] == {"Red": 0, "Blue": 0}


def test_the_rematch_of_a_railroad_game_starts_with_the_carried_points():
    state = play(railroad(start={"Blue": 5}), *[hand("Dora", 5, alone=True)] * 2)  # Blue 13
    rules = euchre.rematch_rules(state)
    assert rules == {"form": "railroad", "target": 10, "deck": "33", "first_dealer": "Ben", "laps": True,
                     "slam": True, "start": {"Blue": 3}}
    doc = log(rules=rules)
    rematch = fold(read_header(doc), [])
    assert rematch.score() == {"Red": 0, "Blue": 3}
    # nothing carried: no start
    state = play(railroad(start={"Blue": 2}), *[hand("Anna", 5)] * 5)  # Red 10 exactly
    assert "start" not in euchre.rematch_rules(state)
    # without laps nothing carries
    state = play(railroad(laps=False), *[hand("Dora", 5, alone=True)] * 3)
    assert "start" not in euchre.rematch_rules(state) and euchre.rematch_rules(state)["laps"] is False


def test_default_teams_only_for_four_in_a_partnership_form():
    assert euchre.default_teams(TWO) is None and euchre.default_teams(THREE) is None
    assert euchre.default_teams(PLAYERS, {"form": "railroad"}) == euchre.default_teams(PLAYERS)
    assert euchre.default_teams(PLAYERS, {"form": "two-handed"}) is None
    assert [t["players"] for t in euchre.default_teams(PLAYERS, {})] == [["Anna", "Cleo"], ["Ben", "Dora"]]


forms_hands = {
    "two-handed": st.builds(hand, st.sampled_from(TWO), st.integers(0, 5)),
    "three-handed": st.builds(hand, st.sampled_from(THREE), st.integers(0, 5)),
}


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["two-handed", "three-handed"]).flatmap(
    lambda form: st.tuples(st.just(form), st.lists(st.just(REDEAL) | forms_hands[form], max_size=30))),
    st.integers(1, 12))
def test_any_sequence_in_the_forms_without_teams(form_events, target):
    form, events = form_events
    players = TWO if form == "two-handed" else THREE
    state = new_game(players, None, form=form, target=target)
    for event in events:
        if state.finished:
            assert not accepts(euchre.verify_hand, state, event)
            break
        before = state.score()
        state = euchre.apply(state, event)
        gained = sorted(state.score()[p] - before[p] for p in players)
        if form == "two-handed":
            assert gained in ([0, 1], [0, 2], [0, 0])
        else:
            assert gained in ([0, 0, 1], [0, 0, 3], [0, 2, 2], [0, 0, 0])
    out = euchre.result(state)
    top = max(out["points"].values())
    assert out["finished"] == (top >= target and list(out["points"].values()).count(top) == 1)
