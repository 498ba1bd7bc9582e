"""The Euchre engine: seating, the scoring table, lone hands, the deal passing left, refusals."""

import pytest
from hypothesis import given, settings, strategies as st

from scorekeeper.games import ENGINES, euchre
from scorekeeper.games.base import RuleError, make_setup, parse_rules
from scorekeeper.gamelog import LogError, fold, read_header

PLAYERS = ["Anna", "Ben", "Cleo", "Dora"]
TEAMS = [("Red", ["Anna", "Cleo"]), ("Blue", ["Ben", "Dora"])]


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
    assert ENGINES["euchre"] is euchre


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
    assert euchre.last_hand(state) is None


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
    assert euchre.last_hand(state) == ("Anna", leads)
    assert euchre.result(state)["hands"][0]["leader"] == leads


def test_rematch_starts_the_deal_one_seat_further():
    state = new_game(first_dealer="Dora", target=5)
    rules = euchre.rematch_rules(state)
    assert rules == {"target": 5, "deck": "24", "first_dealer": "Anna"}
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
    assert not euchre.can_redeal(state)
    assert not euchre.can_hand(state, hand("Anna", 3))


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
    ({"deck": 24}, "rules.deck: must be \"24\", \"32\" or \"25\", not 24"),
    ({"deck": "36"}, "rules.deck: must be \"24\", \"32\" or \"25\", not '36'"),
    ({"first_dealer": "Zed"}, "rules.first_dealer: 'Zed' is not a player at this table"),
    ({"first_dealer": 2}, "rules.first_dealer: must be the name of a player, not 2"),
    ({"first_dealer": "  "}, "rules.first_dealer: must be the name of a player, not '  '"),
    ({"trump": "hearts"}, "rules.trump: this game has no such setting"),
])
def test_settings_refusals(rules, message):
    assert refusal(log(rules=rules)).startswith(message)


def test_settings_accepted():
    state = fold(read_header(log(rules={"target": 5, "deck": "32", "first_dealer": "ben"})), [])
    assert state.rules == {"target": 5, "deck": "32", "first_dealer": "Ben"}


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
    assert not euchre.can_hand(state, event)


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
            assert not euchre.can_hand(state, event) and not euchre.can_redeal(state)
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
