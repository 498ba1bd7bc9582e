"""Euchre, the four-handed trick game: who deals and leads, what a hand scores, who wins.

The app does not see the cards; the table enters one `hand` event per hand played (who
named trump, how many tricks the makers took, who went alone) and a `redeal` when all four
passed twice. Read top to bottom: suits and settings, the seating (partners opposite, the
deal passing left), scoring a hand (`award`, `hand_points`), entering events
(`verify_hand` / `verify_redeal`), and the result.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Mapping

from .base import (
    Either,
    RuleError,
    SeatingError,
    Setting,
    Setup,
    Text,
    boolean,
    describe,
    field,
    one_of,
    require_seating,
    whole_number,
)

# --- suits, parties, outcomes -----------------------------------------------------------


class Suit(StrEnum):
    CLUBS = "clubs"
    DIAMONDS = "diamonds"
    HEARTS = "hearts"
    SPADES = "spades"


class Party(StrEnum):
    """The two partnerships of a hand: the makers named trump, the defenders did not."""

    MAKERS = "makers"
    DEFENDERS = "defenders"


class Outcome(StrEnum):
    MADE = "made"  # the makers took 3 or 4 tricks
    MARCH = "march"  # the makers took all five
    EUCHRED = "euchred"  # the makers took 2 or fewer


TRICKS = 5


# --- settings ------------------------------------------------------------------------


def _player_name(value: Any) -> str | None:
    """A name to look up among the players once they are known (in `start`); None: seat 1."""
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ValueError
    return value.strip()


settings: dict[str, Setting] = {
    "target": Setting(10, whole_number(1), Text("a whole number, 1 or more"), Text("Points to win")),
    "deck": Setting("24", one_of("24", "32", "25"), Text("\"24\", \"32\" or \"25\""), Text("Deck"),
                    ("24", "32", "25"), names=(Text("24 cards"), Text("32 cards, with sevens and eights"),
                                               Text("25 cards, with a joker"))),
    "first_dealer": Setting(None, _player_name, Text("the name of a player"),
                            Text("First dealer (default: the first seat)")),
}

name = "euchre"
title = "Euchre"
events = {
    "hand": frozenset({"maker", "tricks", "alone", "defender_alone", "trump"}),
    "redeal": frozenset(),
}

# optional features of the engine contract (games/base.py) this game has none of
verify_draft = None


# --- the seating -----------------------------------------------------------------------


def left_of(setup: Setup, player: str) -> str:
    """The next seat: players are listed clockwise, so that is the player on the left.

    >>> setup = Setup(("Anna", "Ben", "Cleo", "Dora"), (), teams=True)
    >>> left_of(setup, "Dora")
    'Anna'
    """
    seat = setup.players.index(player)
    return setup.players[(seat + 1) % len(setup.players)]


def partner_of(setup: Setup, player: str) -> str:
    """The player sitting opposite."""
    return left_of(setup, left_of(setup, player))


def leader(setup: Setup, dealer: str, maker: str | None = None, alone: bool = False,
           defender_alone: str | None = None) -> str:
    """Who leads the first trick of a hand.

    Normally the player left of the dealer; a player going alone has the player on their
    left lead instead, and when the maker and a defender both go alone the defender leads
    (the player on the defender's left may be the maker's partner, who sits the hand out).

    >>> setup = Setup(("Anna", "Ben", "Cleo", "Dora"), (), teams=True)
    >>> leader(setup, "Anna")
    'Ben'
    >>> leader(setup, "Anna", maker="Cleo", alone=True)
    'Dora'
    >>> leader(setup, "Anna", maker="Cleo", defender_alone="Ben")
    'Cleo'
    >>> leader(setup, "Anna", maker="Cleo", alone=True, defender_alone="Ben")
    'Ben'
    """
    if defender_alone is not None and alone:
        return defender_alone
    if defender_alone is not None:
        return left_of(setup, defender_alone)
    if alone and maker is not None:
        return left_of(setup, maker)
    return left_of(setup, dealer)


# --- scoring a hand --------------------------------------------------------------------


def award(tricks: int, alone: bool = False, defender_alone: bool = False) -> tuple[Party, int]:
    """Which partnership scores a hand, and how many points, from the makers' tricks.

    >>> award(3), award(5), award(5, alone=True), award(4, alone=True)
    ((<Party.MAKERS: 'makers'>, 1), (<Party.MAKERS: 'makers'>, 2), (<Party.MAKERS: 'makers'>, 4), (<Party.MAKERS: 'makers'>, 1))
    >>> award(2), award(1, defender_alone=True), award(0, defender_alone=True)
    ((<Party.DEFENDERS: 'defenders'>, 2), (<Party.DEFENDERS: 'defenders'>, 2), (<Party.DEFENDERS: 'defenders'>, 4))
    """
    if tricks == TRICKS:
        return Party.MAKERS, 4 if alone else 2
    if tricks >= 3:
        return Party.MAKERS, 1
    # a lone defender's side taking all five tricks is the mirror of a lone march
    return Party.DEFENDERS, 4 if defender_alone and tricks == 0 else 2


def outcome(tricks: int) -> Outcome:
    if tricks == TRICKS:
        return Outcome.MARCH
    return Outcome.MADE if tricks >= 3 else Outcome.EUCHRED


# --- the state of a game ------------------------------------------------------------------


@dataclass(frozen=True)
class Hand:
    """One hand played: the entry as given, and what it scored."""

    dealer: str
    maker: str
    makers: str  # the maker's team
    tricks: int  # the makers' tricks
    alone: bool
    defender_alone: str | None
    trump: Suit | None
    team: str  # the team that scored
    points: int

    @property
    def outcome(self) -> Outcome:
        return outcome(self.tricks)


@dataclass(frozen=True)
class Redeal:
    """All four passed twice; the cards are thrown in and the next player deals."""

    dealer: str


@dataclass(frozen=True)
class State:
    setup: Setup
    rules: Mapping[str, Any]
    first_dealer: str
    deals: tuple[Hand | Redeal, ...] = ()

    @property
    def hands(self) -> tuple[Hand, ...]:
        return tuple(deal for deal in self.deals if isinstance(deal, Hand))

    @property
    def dealer(self) -> str:
        """Who deals next: the deal passes left after every hand and every redeal."""
        seat = self.setup.players.index(self.first_dealer) + len(self.deals)
        return self.setup.players[seat % len(self.setup.players)]

    def score(self) -> dict[str, int]:
        points = {side.name: 0 for side in self.setup.sides}
        for hand in self.hands:
            points[hand.team] += hand.points
        return points

    @property
    def winner(self) -> str | None:
        """The first team to reach the target; only one team scores per hand, so there is
        never a tie, and the game ends the moment it happens."""
        target = self.rules["target"]
        return next((team for team, points in self.score().items() if points >= target), None)

    @property
    def finished(self) -> bool:
        return self.winner is not None


def start(setup: Setup, rules: Mapping[str, Any]) -> State:
    players = setup.players
    require_seating(len(players) == 4, "players: Euchre needs four players, not %(count)s", count=len(players))
    require_seating(setup.teams, "teams: Euchre is played by two teams of two; name the teams "
                         "(partners sit opposite: seats 1 & 3 and 2 & 4)")
    require_seating(len(setup.sides) == 2 and all(len(side.members) == 2 for side in setup.sides),
            "teams: Euchre needs exactly two teams of two players")
    for side in setup.sides:
        first, second = side.members
        if partner_of(setup, first) != second:
            raise SeatingError("teams: partners sit opposite each other (seats 1 & 3 and 2 & 4 of players), "
                            "but %(first)s and %(second)s of %(team)s sit side by side",
                            first=first, second=second, team=side.name)
    rules = dict(rules)
    if rules.get("first_dealer") is None:
        rules["first_dealer"] = players[0]
    else:
        try:
            rules["first_dealer"] = setup.player(rules["first_dealer"])
        except RuleError as error:
            raise RuleError("rules.first_dealer: %(problem)s", problem=error.text) from None
    return State(setup, rules, rules["first_dealer"])


# --- entering a hand or a redeal -----------------------------------------------------------


def _suit(value: Any) -> Suit:
    if not isinstance(value, str):
        raise ValueError
    return Suit(value.strip().lower())


def _not_over(state: State) -> None:
    winner = state.winner
    if winner is not None:
        raise RuleError("the game is over: %(team)s reached %(points)s points",
                        team=winner, points=state.score()[winner])


def verify_hand(state: State, event: Mapping[str, Any]) -> Hand:
    """The hand `event` records, or a RuleError saying why it cannot be."""
    _not_over(state)
    setup = state.setup
    if event.get("maker") is None:
        raise RuleError("maker is missing (the player who named trump)")
    maker = setup.player(event["maker"])
    makers = setup.side_of(maker)
    tricks = field(event, "tricks", whole_number(0, TRICKS), Text("from 0 to %(most)s", most=TRICKS))
    alone = field(event, "alone", boolean, Text("true or false"), False)
    trump = field(event, "trump", _suit, Text("clubs, diamonds, hearts or spades"), None)

    defender_alone = event.get("defender_alone")
    if defender_alone is not None:
        defender_alone = setup.player(defender_alone)
        if defender_alone in makers.members:
            defenders = Either(p for p in setup.players if p not in makers.members)
            if defender_alone == maker:
                raise RuleError("defender_alone must be a defender (%(defenders)s), not %(player)s, the maker",
                                defenders=defenders, player=defender_alone)
            raise RuleError("defender_alone must be a defender (%(defenders)s), not %(player)s, "
                            "the maker's partner", defenders=defenders, player=defender_alone)

    party, points = award(tricks, alone, defender_alone is not None)
    defenders = next(side for side in setup.sides if side is not makers)
    team = makers.name if party is Party.MAKERS else defenders.name
    return Hand(state.dealer, maker, makers.name, tricks, alone, defender_alone, trump, team, points)


def can_hand(state: State, event: Mapping[str, Any]) -> bool:
    try:
        verify_hand(state, event)
    except RuleError:
        return False
    return True


def hand_points(state: State, maker: str, tricks: int, alone: bool = False,
                defender_alone: str | None = None) -> tuple[str, int]:
    """What a hand would score before it is entered: (team, points); RuleError if it
    could not be entered. The table's form shows this beside the confirm button."""
    hand = verify_hand(state, {"type": "hand", "maker": maker, "tricks": tricks,
                               "alone": alone, "defender_alone": defender_alone})
    return hand.team, hand.points


def verify_redeal(state: State) -> Redeal:
    _not_over(state)
    return Redeal(state.dealer)


def can_redeal(state: State) -> bool:
    return not state.finished


def apply(state: State, event: Mapping[str, Any]) -> State:
    kind = event.get("type")
    if kind == "hand":
        deal: Hand | Redeal = verify_hand(state, event)
    elif kind == "redeal":
        deal = verify_redeal(state)
    else:
        raise RuleError("type must be hand or redeal, not %(type)s", type=describe(kind))
    return replace(state, deals=state.deals + (deal,))


def writers(state: State) -> frozenset[str] | None:
    """Any seated player may enter a hand until a team has won."""
    return frozenset() if state.finished else None


# --- who deals and leads, and the next game ------------------------------------------------


def next_deal(state: State) -> tuple[str, str] | None:
    """(dealer, leader) of the next hand, the leader as if nobody goes alone; None once won."""
    if state.finished:
        return None
    return state.dealer, leader(state.setup, state.dealer)


def last_hand(state: State) -> tuple[str, str] | None:
    """(dealer, leader) of the last hand played, with its lone players; None before any."""
    if not state.hands:
        return None
    hand = state.hands[-1]
    return hand.dealer, leader(state.setup, hand.dealer, hand.maker, hand.alone, hand.defender_alone)


def default_teams(players: list[str]) -> list[dict] | None:
    """The partnerships of four players in seat order: partners sit opposite (seats 1 & 3,
    2 & 4). A table that seats four needs no pairing step.

    >>> [t["name"] for t in default_teams(["Anna", "Ben", "Cleo", "Dora"])]
    ['Anna & Cleo', 'Ben & Dora']
    """
    if len(players) != 4:
        return None
    teams = []
    for number, pair in enumerate(([players[0], players[2]], [players[1], players[3]]), 1):
        name = " & ".join(pair)
        # at most 40 characters, like any team name: two long names would leave the table
        # unplayable (found by tests/reliability/test_access.py)
        teams.append({"name": name if len(name) <= 40 else f"Team {number}", "players": pair})
    return teams


def rematch_rules(state: State) -> dict[str, Any]:
    """The rules of a rematch: the same, with the deal starting one seat further on."""
    return {**state.rules, "first_dealer": left_of(state.setup, state.first_dealer)}


# --- the result ----------------------------------------------------------------------------


def result(state: State) -> dict[str, Any]:
    score = {side.name: 0 for side in state.setup.sides}
    hands = []
    for hand in state.hands:
        score[hand.team] += hand.points
        hands.append({
            "dealer": hand.dealer,
            "leader": leader(state.setup, hand.dealer, hand.maker, hand.alone, hand.defender_alone),
            "maker": hand.maker,
            "makers": hand.makers,
            "tricks": hand.tricks,
            "alone": hand.alone,
            "defender_alone": hand.defender_alone,
            "trump": hand.trump.value if hand.trump else None,
            "outcome": hand.outcome.value,
            "team": hand.team,
            "points": hand.points,
            "score": dict(score),
        })
    winner = state.winner
    return {
        "game": name,
        "finished": winner is not None,
        "points": score,
        "winner": winner,
        "target": state.rules["target"],
        "deck": state.rules["deck"],
        "first_dealer": state.first_dealer,
        "dealer": None if winner else state.dealer,
        "redeals": sum(isinstance(deal, Redeal) for deal in state.deals),
        "hands": hands,
    }
