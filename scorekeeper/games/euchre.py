"""Euchre, the trick game: who deals and leads, what a hand scores, who wins.

The app does not see the cards; the table enters one `hand` event per hand played (who
named trump, how many tricks the makers took, who went alone) and a `redeal` when everyone
passed twice. Read top to bottom: suits, forms and settings, the seating (partners opposite,
the deal passing left), scoring a hand (`award`, `hand_points`), entering events
(`verify_hand` / `verify_redeal`), and the result.

The `form` setting chooses the game (RULES.md, "Euchre's other forms"): `partnership` (the
default: four players, two partnerships), `two-handed` and `three-handed` (every player is
a side; nobody goes alone but the three-handed maker, who always does) and `railroad` (the
partnership game whose points beyond the target carry into the next game, `laps`, and
whose shut-out wins count twice, `slam`).
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
    SettingText,
    Setup,
    Statistics,
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


class Form(StrEnum):
    PARTNERSHIP = "partnership"
    TWO_HANDED = "two-handed"
    THREE_HANDED = "three-handed"
    RAILROAD = "railroad"


TRICKS = 5
SEATS = {Form.PARTNERSHIP: 4, Form.TWO_HANDED: 2, Form.THREE_HANDED: 3, Form.RAILROAD: 4}
PARTNERSHIPS = frozenset({Form.PARTNERSHIP, Form.RAILROAD})  # forms played by two teams of two
# the forms without teams, as a refusal names them
FORM_NAMES = {Form.TWO_HANDED: Text("two-handed Euchre"), Form.THREE_HANDED: Text("three-handed Euchre")}


# --- settings ------------------------------------------------------------------------


def _player_name(value: Any) -> str | None:
    """A name to look up among the players once they are known (in `start`); None: seat 1."""
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ValueError
    return value.strip()


def _start_points(value: Any) -> dict[str, int] | None:
    """Railroad's points carried in, by team name (looked up once the teams are known)."""
    if value is None:
        return None
    if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
        raise ValueError
    return {key: whole_number(0)(points) for key, points in value.items()}


RAILROAD_ONLY: dict[str, Any] = {"depends": "form", "only": (Form.RAILROAD.value,)}

settings: dict[str, Setting] = {
    "form": Setting(Form.PARTNERSHIP.value, one_of(*(form.value for form in Form)),
                    Text("\"partnership\", \"two-handed\", \"three-handed\" or \"railroad\""), Text("Form"),
                    tuple(form.value for form in Form),
                    names=(Text("Partnership: four players, partners opposite"),
                           Text("Two-handed: two players, each for themselves"),
                           Text("Three-handed: three players, the maker alone against the other two"),
                           Text("Railroad: partnership with laps and slams, 33 cards"))),
    "target": Setting(10, whole_number(1), Text("a whole number, 1 or more"), Text("Points to win")),
    "deck": Setting("24", one_of("24", "32", "25", "33"), Text("\"24\", \"32\", \"25\" or \"33\""), Text("Deck"),
                    ("24", "32", "25", "33"),
                    names=(Text("24 cards"), Text("32 cards, with sevens and eights"),
                           Text("25 cards, with a joker"), Text("33 cards: 32 and a joker")),
                    depends="form", defaults={Form.RAILROAD.value: "33"},
                    usual=Text("As the form has it: 24 cards, 33 in Railroad")),
    "first_dealer": Setting(None, _player_name, Text("the name of a player"),
                            Text("First dealer (default: the first seat)")),
    "laps": Setting(True, boolean, Text("true or false"),
                    Text("Railroad laps: points beyond the target carry into the next game"), **RAILROAD_ONLY),
    "slam": Setting(True, boolean, Text("true or false"),
                    Text("Railroad slam: reaching the target while the others have 0 wins two games"),
                    **RAILROAD_ONLY),
    "start": Setting(None, _start_points, Text("the points each team starts with, such as {\"Red\": 2}"),
                     Text("Points carried in"), offered=False, **RAILROAD_ONLY),
}

name = "euchre"
title = "Euchre"
events = {
    "hand": frozenset({"maker", "tricks", "alone", "defender_alone", "trump"}),
    "redeal": frozenset(),
}
details = frozenset({"trump"})  # the suit named: the tricks are what count



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


def award(tricks: int, alone: bool = False, defender_alone: bool = False,
          form: Form = Form.PARTNERSHIP) -> tuple[Party, int]:
    """Which party scores a hand, and how many points, from the makers' tricks. In a
    three-handed euchre each of the two defenders scores the points.

    >>> award(3), award(5), award(5, alone=True), award(4, alone=True)
    ((<Party.MAKERS: 'makers'>, 1), (<Party.MAKERS: 'makers'>, 2), (<Party.MAKERS: 'makers'>, 4), (<Party.MAKERS: 'makers'>, 1))
    >>> award(2), award(1, defender_alone=True), award(0, defender_alone=True)
    ((<Party.DEFENDERS: 'defenders'>, 2), (<Party.DEFENDERS: 'defenders'>, 2), (<Party.DEFENDERS: 'defenders'>, 4))
    >>> award(5, form=Form.THREE_HANDED), award(5, form=Form.TWO_HANDED), award(1, form=Form.THREE_HANDED)
    ((<Party.MAKERS: 'makers'>, 3), (<Party.MAKERS: 'makers'>, 2), (<Party.DEFENDERS: 'defenders'>, 2))
    """
    if tricks == TRICKS:
        if form is Form.THREE_HANDED:
            return Party.MAKERS, 3
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
    makers: str  # the maker's side (their team, or the maker without teams)
    tricks: int  # the makers' tricks
    alone: bool
    defender_alone: str | None
    trump: Suit | None
    team: str | None  # the side that scored; None when two did (a three-handed euchre)
    points: int  # what each side that scored got
    scored: tuple[str, ...]  # every side that scored `points`

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

    @property
    def form(self) -> Form:
        return Form(self.rules.get("form", Form.PARTNERSHIP))

    def starting(self) -> dict[str, int]:
        """Every side's points before the first hand: 0, or what railroad laps carried in."""
        return {side.name: (self.rules.get("start") or {}).get(side.name, 0) for side in self.setup.sides}

    def score(self) -> dict[str, int]:
        # Performance (bench/attack.py): `apply` hands each new state its score, so a log of
        # 2,000 deals folds in linear time (summing every hand at every deal took 0.1–0.4 s)
        points = self.__dict__.get("_score")
        if points is None:
            points = self.starting()
            for hand in self.hands:
                for side in hand.scored:
                    points[side] += hand.points
            object.__setattr__(self, "_score", points)
        return dict(points)

    @property
    def winner(self) -> str | None:
        """The side that reached the target, the game ending the moment it happens. Mostly
        one side scores per hand, so only it can; when a three-handed euchre brings both
        defenders there, the higher score wins, and on a tie play goes on."""
        score = self.score()
        top = max(score.values())
        if top < self.rules["target"]:
            return None
        leaders = [side for side, points in score.items() if points == top]
        return leaders[0] if len(leaders) == 1 else None

    @property
    def finished(self) -> bool:
        return self.winner is not None


def seats(rules: Mapping[str, Any]) -> int:
    """How many players the form of `rules` (as given: a missing form is `partnership`) seats.

    >>> seats({}), seats({"form": "three-handed"})
    (4, 3)
    """
    try:
        return SEATS[Form(rules.get("form") or Form.PARTNERSHIP)]
    except ValueError:
        return SEATS[Form.PARTNERSHIP]


def _check_partnerships(setup: Setup) -> None:
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


def _start_of(setup: Setup, rules: Mapping[str, Any]) -> dict[str, int] | None:
    """Railroad's `start`, keyed by the teams' own spelling; RuleError when it cannot be."""
    given = rules.get("start")
    if given is None:
        return None
    if not rules.get("laps"):
        raise RuleError("rules.start: a game without laps starts at 0; leave start out")
    start: dict[str, int] = {}
    for name, points in given.items():
        try:
            team = setup.side(name).name
        except RuleError as error:
            raise RuleError("rules.start: %(problem)s", problem=error.text) from None
        if team in start:
            raise RuleError("rules.start: %(team)s is listed twice", team=team)
        if points >= rules["target"]:
            raise RuleError("rules.start: %(team)s must start below the target of %(target)s, not at %(points)s",
                            team=team, target=rules["target"], points=points)
        start[team] = points
    return start


def start(setup: Setup, rules: Mapping[str, Any]) -> State:
    players = setup.players
    form = Form(rules.get("form", Form.PARTNERSHIP))
    if form in PARTNERSHIPS:
        _check_partnerships(setup)
    else:
        require_seating(len(players) == SEATS[form], "players: %(game)s needs %(seats)s players, not %(count)s",
                game=FORM_NAMES[form], seats=SEATS[form], count=len(players))
        require_seating(not setup.teams, "teams: in %(game)s every player plays for themselves; leave teams out",
                game=FORM_NAMES[form])
    rules = dict(rules)
    if form is Form.RAILROAD:
        rules["start"] = _start_of(setup, rules)
    if rules.get("first_dealer") is None:
        rules["first_dealer"] = players[0]
    else:
        try:
            rules["first_dealer"] = setup.player(rules["first_dealer"])
        except RuleError as error:
            said, form = (Text("rules.first_dealer: %(problem)s"),
                          Text("%(setting)s: “%(value)s” is not among the players' names: type one of them, or "
                               "leave it empty for the first seat."))
            raise RuleError(SettingText("first_dealer", said, form, problem=error.text)) from None
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
    form = state.form
    for key in ("alone", "defender_alone"):  # refused whenever present, whatever their value
        if form is Form.TWO_HANDED and event.get(key) is not None:
            raise RuleError("%(key)s is refused in two-handed Euchre: nobody plays alone", key=key)
        if form is Form.THREE_HANDED and event.get(key) is not None:
            raise RuleError("%(key)s is refused in three-handed Euchre: the maker always plays alone "
                            "against the other two", key=key)
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

    party, points = award(tricks, alone, defender_alone is not None, form)
    if party is Party.MAKERS:
        scored: tuple[str, ...] = (makers.name,)
    else:
        scored = tuple(side.name for side in setup.sides if side is not makers)
    team = scored[0] if len(scored) == 1 else None
    return Hand(state.dealer, maker, makers.name, tricks, alone, defender_alone, trump, team, points, scored)


def _preview(state: State, maker: str, tricks: int, alone: bool, defender_alone: str | None) -> Hand:
    event = {"type": "hand", "maker": maker, "tricks": tricks}
    # only what was chosen: the two- and three-handed forms refuse the flags even when false
    if alone:
        event["alone"] = True
    if defender_alone is not None:
        event["defender_alone"] = defender_alone
    return verify_hand(state, event)


def hand_points(state: State, maker: str, tricks: int, alone: bool = False,
                defender_alone: str | None = None) -> tuple[str | None, int]:
    """What a hand would score before it is entered: (team, points); RuleError if it
    could not be entered. The table's form shows this beside the confirm button. In a
    three-handed euchre two sides score: team is None (see `hand_scores`)."""
    hand = _preview(state, maker, tricks, alone, defender_alone)
    return hand.team, hand.points


def hand_scores(state: State, maker: str, tricks: int, alone: bool = False,
                defender_alone: str | None = None) -> dict[str, int]:
    """What a hand would score, per side that scores, in any form; RuleError as above."""
    hand = _preview(state, maker, tricks, alone, defender_alone)
    return {side: hand.points for side in hand.scored}


def verify_redeal(state: State) -> Redeal:
    _not_over(state)
    return Redeal(state.dealer)


def apply(state: State, event: Mapping[str, Any]) -> State:
    kind = event.get("type")
    if kind == "hand":
        deal: Hand | Redeal = verify_hand(state, event)
    elif kind == "redeal":
        deal = verify_redeal(state)
    else:
        raise RuleError("type must be hand or redeal, not %(type)s", type=describe(kind))
    points = state.score()
    if isinstance(deal, Hand):
        for side in deal.scored:
            points[side] += deal.points
    after = replace(state, deals=state.deals + (deal,))
    object.__setattr__(after, "_score", points)  # see State.score
    return after


def writers(state: State) -> frozenset[str] | None:
    """Any seated player may enter a hand until a team has won."""
    return frozenset() if state.finished else None


# --- who deals and leads, and the next game ------------------------------------------------


def next_deal(state: State) -> tuple[str, str] | None:
    """(dealer, leader) of the next hand, the leader as if nobody goes alone; None once won."""
    if state.finished:
        return None
    return state.dealer, leader(state.setup, state.dealer)


def tally(state: State) -> dict[str, dict[str, int]]:
    """Per side, over the hands played: hands it made, marches, euchres (hands it won as
    defenders) and lone hands (its players', making or defending) — for the end screen and
    the statistics alike.

    >>> from scorekeeper.games.base import make_setup
    >>> game = start(make_setup(["A", "B", "C", "D"], [("AC", ["A", "C"]), ("BD", ["B", "D"])]), {"target": 10})
    >>> game = apply(apply(game, {"type": "hand", "maker": "A", "tricks": 5}),
    ...              {"type": "hand", "maker": "B", "tricks": 2, "defender_alone": "C"})
    >>> tally(game)["AC"], tally(game)["BD"]
    ({'made': 1, 'march': 1, 'euchred': 1, 'alone': 1}, {'made': 0, 'march': 0, 'euchred': 0, 'alone': 0})
    """
    sides = {side.name: {"made": 0, "march": 0, "euchred": 0, "alone": 0} for side in state.setup.sides}
    for player, lone in lone_hands(state).items():
        sides[state.setup.side_of(player).name]["alone"] += lone
    for hand in state.hands:
        if hand.outcome is Outcome.EUCHRED:
            for side in hand.scored:
                sides[side]["euchred"] += 1  # the defenders euchred the makers
        else:
            sides[hand.makers]["made"] += 1
            sides[hand.makers]["march"] += hand.outcome is Outcome.MARCH
    return sides


def lone_hands(state: State) -> dict[str, int]:
    """Per player, the hands they played alone, making or defending."""
    lone = dict.fromkeys(state.setup.players, 0)
    for hand in state.hands:
        if hand.alone:
            lone[hand.maker] += 1
        if hand.defender_alone:
            lone[hand.defender_alone] += 1
    return lone


def default_teams(players: list[str], rules: Mapping[str, Any] | None = None) -> list[dict] | None:
    """The partnerships of four players in seat order: partners sit opposite (seats 1 & 3,
    2 & 4). A table that seats four needs no pairing step. None for any other number of
    players, and for a form without teams in `rules` (as given: a missing form is
    `partnership`); the two- and three-handed forms never seat four anyway.

    >>> [t["name"] for t in default_teams(["Anna", "Ben", "Cleo", "Dora"])]
    ['Anna & Cleo', 'Ben & Dora']
    >>> default_teams(["Anna", "Ben"]), default_teams(["A", "B", "C", "D"], {"form": "two-handed"})
    (None, None)
    """
    form = (rules or {}).get("form") or Form.PARTNERSHIP
    if len(players) != 4 or form not in PARTNERSHIPS:
        return None
    teams = []
    for number, pair in enumerate(([players[0], players[2]], [players[1], players[3]]), 1):
        name = " & ".join(pair)
        # at most 40 characters, like any team name: two long names would leave the table
        # unplayable (found by tests/reliability/test_access.py)
        teams.append({"name": name if len(name) <= 40 else f"Team {number}", "players": pair})
    return teams


def rematch_rules(state: State) -> dict[str, Any]:
    """The rules of a rematch: the same, with the deal starting one seat further on, and in
    railroad with laps `start` holding the points the winner carries over (left out when
    nobody carries any)."""
    rules = {**state.rules, "first_dealer": left_of(state.setup, state.first_dealer)}
    rules.pop("start", None)
    if rules.get("laps"):
        carried = {side: points for side, points in carry(state).items() if points}
        if carried:
            rules["start"] = carried
    return rules


# --- railroad: laps and slams ------------------------------------------------------------------


def carry(state: State) -> dict[str, int]:
    """Per side, the points beyond the target it carries into the next game: the winner's,
    at most target - 1; 0 for every other side and while the game is on."""
    target, winner, score = state.rules["target"], state.winner, state.score()
    return {side: min(points - target, target - 1) if side == winner else 0 for side, points in score.items()}


def games(state: State) -> dict[str, int]:
    """Per side, the games a finished game counts for: the winner 1, or 2 for a slam (every
    other side still at 0 points, points carried in counting); 0 for the others and while
    the game is on."""
    winner, score = state.winner, state.score()
    slam = winner is not None and all(points == 0 for side, points in score.items() if side != winner)
    return {side: (2 if slam else 1) if side == winner else 0 for side in score}


# --- the result ----------------------------------------------------------------------------


def result(state: State) -> dict[str, Any]:
    """The result object; forms other than `partnership` add `form`, railroad `carry` (with
    laps) and `games` (with slam), three-handed every hand's `scored` sides."""
    score = state.starting()
    hands = []
    form = state.form
    for hand in state.hands:
        for side in hand.scored:
            score[side] += hand.points
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
        if form is Form.THREE_HANDED:
            hands[-1]["scored"] = list(hand.scored)
    winner = state.winner
    out = {
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
    if form is not Form.PARTNERSHIP:
        out = {"game": name, "form": form.value, **{k: v for k, v in out.items() if k != "game"}}
    if state.rules.get("laps"):
        out["carry"] = carry(state)
    if state.rules.get("slam"):
        out["games"] = games(state)
    return out


# --- the players' figures (scorekeeper/stats.py) --------------------------------------------


def count_figures(state: State, result: dict) -> dict[str, dict[str, int]]:
    """Marches and euchres are the team's (as on the end screen: a euchre is a hand the team
    won as defenders); a loner is the player's own hand alone, making or defending."""
    sides, lone = tally(state), lone_hands(state)
    return {player: {"marches": sides[state.setup.side_of(player).name]["march"],
                     "euchres": sides[state.setup.side_of(player).name]["euchred"], "loners": lone[player]}
            for player in state.setup.players}


statistics = Statistics(
    count_figures, {"marches": Text("Marches"), "euchres": Text("Euchres"), "loners": Text("Loners")},
    key="marches", trend=Text("Marches, game by game"),
    note=Text("Marches and euchres are the team's: a euchre is a hand the team won as defenders. "
              "Loners are the hands this player went alone."))
