"""Escoba, the Spanish fifteens card game: what a round scores, whether it fits the deck, who wins.

The app does not follow the play; at the end of each round the table enters one `round`
event with what every side captured (cards, coins, sevens, the seven of coins, escobas),
any false captures and, if they like, what was left on the table. Read top to bottom: the
cards and the capture finder (`captures`, `opening_escobas`), the settings and the seating,
the counts and the deck check (`deck_problems`, `complete_last_side`), scoring a round
(`score_round`, `round_points`), entering a round (`verify_round`), and the result.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any, Collection, Iterable, Mapping

from .base import (
    Both,
    Plural,
    RuleError,
    Setting,
    Setup,
    Statistics,
    Text,
    boolean,
    describe,
    require,
    require_seating,
    whole_number,
)

# --- the cards and the capture finder ----------------------------------------------------


class Suit(StrEnum):
    OROS = "oros"  # coins
    COPAS = "copas"
    ESPADAS = "espadas"
    BASTOS = "bastos"


# The suits keep their Spanish names in every language: players call them so.
SUIT_NAMES = {Suit.OROS: Text("oros"), Suit.COPAS: Text("copas"), Suit.ESPADAS: Text("espadas"),
              Suit.BASTOS: Text("bastos")}

# Ranks as printed on Spanish cards: 1–7, then jack (sota) 10, knight (caballo) 11 and
# king (rey) 12; for the sums they count 8, 9 and 10.
RANKS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
FIFTEEN = 15

# A card's name, a whole message for each figure, so that each language can word it its own way
CARD_NAMES = {10: Text("jack of %(suit)s"), 11: Text("knight of %(suit)s"), 12: Text("king of %(suit)s")}
PIP_NAME = Text("%(rank)s of %(suit)s")


@dataclass(frozen=True, order=True)
class Card:
    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if isinstance(self.rank, bool) or self.rank not in RANKS:
            raise RuleError("a card's rank must be 1 to 7, 10, 11 or 12, not %(rank)s", rank=describe(self.rank))
        try:
            object.__setattr__(self, "suit", Suit(self.suit))
        except ValueError:
            raise RuleError("a card's suit must be oros, copas, espadas or bastos, not %(suit)s",
                            suit=describe(self.suit)) from None

    @property
    def value(self) -> int:
        """What the card counts towards fifteen: the jack 8, the knight 9, the king 10."""
        return self.rank if self.rank <= 7 else self.rank - 2

    @property
    def name(self) -> Text:
        """What players call the card: "knight of espadas", "7 of oros"."""
        return Text(CARD_NAMES.get(self.rank, PIP_NAME), rank=self.rank, suit=SUIT_NAMES[self.suit])

    def __str__(self) -> str:
        return str(self.name)


@dataclass(frozen=True)
class Capture:
    """Table cards that, with the card played from hand, sum to fifteen."""

    cards: tuple[Card, ...]
    escoba: bool  # the capture clears the table


def _cards(cards: Iterable[Card | tuple[int, str]]) -> tuple[Card, ...]:
    """Cards, from Card records or (rank, suit) pairs; a card given twice is refused."""
    out = tuple(card if isinstance(card, Card) else Card(*card) for card in cards)
    for index, card in enumerate(out):
        if card in out[:index]:
            raise RuleError("the %(card)s is there twice, but a deck has one", card=card.name)
    return out


def captures(table: Iterable[Card | tuple[int, str]], hand: Card | tuple[int, str]) -> list[Capture]:
    """Every set of table cards the hand card can take: largest first, then in table order.

    >>> def show(found):
    ...     return [(" + ".join(str(card) for card in capture.cards), capture.escoba) for capture in found]
    >>> show(captures([(5, "oros"), (3, "copas"), (2, "bastos")], (12, "copas")))
    [('3 of copas + 2 of bastos', False), ('5 of oros', False)]
    >>> show(captures([(5, "oros"), (3, "copas"), (2, "bastos")], (5, "espadas")))
    [('5 of oros + 3 of copas + 2 of bastos', True)]
    """
    (hand_card,) = _cards([hand])
    table_cards = _cards(table)
    if hand_card in table_cards:
        raise RuleError("the %(card)s cannot be both in hand and on the table", card=hand_card.name)
    found: list[tuple[int, ...]] = []

    def search(start: int, remaining: int, chosen: tuple[int, ...]) -> None:
        if remaining == 0:
            found.append(chosen)
            return
        for index in range(start, len(table_cards)):
            if table_cards[index].value <= remaining:
                search(index + 1, remaining - table_cards[index].value, chosen + (index,))

    # the hand card alone is at most 10, so every capture takes at least one table card
    search(0, FIFTEEN - hand_card.value, ())
    found.sort(key=lambda chosen: (-len(chosen), chosen))
    return [Capture(tuple(table_cards[i] for i in chosen), len(chosen) == len(table_cards))
            for chosen in found]


def opening_escobas(dealt: Iterable[Card | tuple[int, str]]) -> int:
    """Escobas the dealer takes from the four cards laid out: 1 if they sum to 15, 2 for 30.

    >>> opening_escobas([(7, "oros"), (1, "copas"), (3, "oros"), (4, "bastos")])
    1
    >>> opening_escobas([(12, "oros"), (12, "copas"), (5, "oros"), (5, "bastos")])
    2
    """
    cards = _cards(dealt)
    require(len(cards) == 4, "the dealer lays out four cards, not %(count)s", count=len(cards))
    return {FIFTEEN: 1, 2 * FIFTEEN: 2}.get(sum(card.value for card in cards), 0)


# --- words for messages ------------------------------------------------------------------
# Messages are whole sentences with values (see base.Text). A side's name takes "'s", or
# just "'" when it ends in s (Lars' cards): two messages, which a language like German also
# tells apart. Counts of things ("3 coins") are values of their own, a Plural each, so every
# language picks its own form (Polish has three).


def _possessive(side: str, plain: Text, after_s: Text) -> Text:
    """The message for `side`: `after_s` when its name ends in s, else `plain`."""
    return after_s if side.endswith("s") else plain


def _coins(count: int) -> Text:
    return Plural("%(num)s coin", "%(num)s coins", count)


def _sevens(count: int) -> Text:
    return Plural("%(num)s seven", "%(num)s sevens", count)


def _cards_of(count: int) -> Text:
    return Plural("%(num)s card", "%(num)s cards", count)


def _escobas(count: int) -> Text:
    return Plural("%(num)s escoba", "%(num)s escobas", count)


# --- settings and seating ----------------------------------------------------------------

settings: dict[str, Setting] = {
    "target": Setting(21, whole_number(1), Text("a whole number, 1 or more"), Text("Points to win")),
    "shutout": Setting(True, boolean, Text("true or false"),
                       Text("With two sides, a side that captures no card in a round loses the game")),
}

name = "escoba"
title = "Escoba"
events = {"round": frozenset({"sides", "false_captures", "leftover"})}
details = frozenset({"leftover"})  # the cards left on the table: the captures are what count


PLAYERS = (2, 3, 4, 6)

# What a seating that does not suit the game is told, by the number of players (whole
# messages: how the sides are formed is worded differently in each language)
ALONE = {2: Text("teams: with two players everyone plays alone; leave teams out or give each player "
                 "a team of their own"),
         3: Text("teams: with three players everyone plays alone; leave teams out or give each player "
                 "a team of their own")}
NO_TEAMS = {4: Text("teams: with four players Escoba is played as two pairs; name the teams"),
            6: Text("teams: with six players Escoba is played as two teams of three or three pairs; "
                    "name the teams")}
WRONG_TEAMS = {4: Text("teams: with four players Escoba is played as two pairs, not teams of %(sizes)s"),
               6: Text("teams: with six players Escoba is played as two teams of three or three pairs, "
                       "not teams of %(sizes)s")}


def team_draws(count: int) -> tuple[int, ...]:
    """Four play as two pairs, six as three pairs or two teams of three; two or three alone.

    >>> team_draws(4), team_draws(6), team_draws(3)
    ((2,), (2, 3), ())
    """
    return {4: (2,), 6: (2, 3)}.get(count, ())


def teams_needed(count: int) -> bool:
    """Four and six play in teams only.

    >>> teams_needed(4), teams_needed(6), teams_needed(3)
    (True, True, False)
    """
    return count in NO_TEAMS


def start(setup: Setup, rules: Mapping[str, Any]) -> State:
    players = len(setup.players)
    require_seating(players in PLAYERS, "players: Escoba is played by 2, 3, 4 or 6 players, not %(count)s", count=players)
    sizes = sorted((len(side.members) for side in setup.sides), reverse=True)
    if players <= 3:
        # teams of one are just names for the players, so they are accepted
        require_seating(sizes == [1] * players, ALONE[players])
    else:
        require_seating(setup.teams, NO_TEAMS[players])
        require_seating(sizes in ([2, 2], [3, 3], [2, 2, 2]), WRONG_TEAMS[players], sizes=Both(sizes))
    return State(setup, dict(rules))


# --- what a side captured, and does it fit the deck? -------------------------------------

DECK = {"cards": 40, "coins": 10, "sevens": 4}
LEFTOVERS = (10, 25, 40, 55)  # the deck sums to 220 = 14 × 15 + 10, and captures take 15s

# The deck check's messages, a whole one for each count of the deck
MISSING = {"cards": Text("cards add up to %(total)s, but the deck has %(deck)s — %(off)s missing"),
           "coins": Text("coins add up to %(total)s, but the deck has %(deck)s — %(off)s missing"),
           "sevens": Text("sevens add up to %(total)s, but the deck has %(deck)s — %(off)s missing")}
TOO_MANY = {"cards": Text("cards add up to %(total)s, but the deck has %(deck)s — %(off)s too many"),
            "coins": Text("coins add up to %(total)s, but the deck has %(deck)s — %(off)s too many"),
            "sevens": Text("sevens add up to %(total)s, but the deck has %(deck)s — %(off)s too many")}
OTHERS_TOO_MANY = {
    "cards": Text("the other sides' cards add up to %(total)s, but the deck has %(deck)s — %(off)s too many"),
    "coins": Text("the other sides' coins add up to %(total)s, but the deck has %(deck)s — %(off)s too many"),
    "sevens": Text("the other sides' sevens add up to %(total)s, but the deck has %(deck)s — %(off)s too many")}
NO_SEVEN_OF_COINS = Text("no side has the seven of coins — exactly one must")


@dataclass(frozen=True)
class Counts:
    """What one side captured in a round."""

    cards: int
    coins: int
    sevens: int
    seven_of_coins: bool
    escobas: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


COUNT_NAMES = tuple(f.name for f in fields(Counts))


def teams_of(setup: Setup) -> frozenset[str]:
    """The sides of more than one player: the words say "they" of them."""
    return frozenset(side.name for side in setup.sides if len(side.members) > 1)


LEFTOVER_ODD = Text("leftover must be 10, 25, 40 or 55, not %(leftover)s: some capture did not sum to 15 "
                    "(record it in false_captures)").template


def deck_problems(counts: Mapping[str, Counts], leftover: int | None = None,
                  false_capture: bool = False, teams: Collection[str] = ()) -> list[Text]:
    """Every way the counts do not fit a 40-card deck, in words; empty when they fit.

    The leftover check is skipped when a false capture was recorded: then the cards on
    the table need not sum to anything in particular. A side named in `teams` (more than one
    player) is "they": "Anna & Cleo have", not one player's "has", in every language.

    >>> deck_problems({"Anna": Counts(24, 7, 3, True, 2), "Ben": Counts(14, 3, 1, False)})
    ['cards add up to 38, but the deck has 40 — 2 missing']
    """
    problems = []
    for what, deck in DECK.items():
        total = sum(getattr(side, what) for side in counts.values())
        if total < deck:
            problems.append(Text(MISSING[what], total=total, deck=deck, off=deck - total))
        elif total > deck:
            problems.append(Text(TOO_MANY[what], total=total, deck=deck, off=total - deck))
    holders = [name for name, side in counts.items() if side.seven_of_coins]
    if not holders:
        problems.append(NO_SEVEN_OF_COINS)
    elif len(holders) == 2:
        problems.append(Text("%(sides)s both have the seven of coins — only one side can", sides=Both(holders)))
    elif len(holders) > 2:
        problems.append(Text("%(sides)s all have the seven of coins — only one side can", sides=Both(holders)))
    for name, side in counts.items():
        team = name in teams
        if side.seven_of_coins and side.coins < 1:
            problems.append(Text("%(side)s have the seven of coins, so at least 1 coin, not 0", side=name) if team
                            else Text("%(side)s has the seven of coins, so at least 1 coin, not 0", side=name))
        if side.seven_of_coins and side.sevens < 1:
            problems.append(Text("%(side)s have the seven of coins, so at least 1 seven, not 0", side=name) if team
                            else Text("%(side)s has the seven of coins, so at least 1 seven, not 0", side=name))
        distinct = side.coins + side.sevens - (1 if side.seven_of_coins else 0)
        if distinct > side.cards:
            values = dict(side=name, coins=_coins(side.coins), sevens=_sevens(side.sevens), distinct=distinct,
                          cards=_cards_of(side.cards), short=distinct - side.cards)
            if side.seven_of_coins and team:
                problems.append(Text("%(side)s have %(coins)s and %(sevens)s, %(distinct)s different cards "
                                     "(the seven of coins is both), but only %(cards)s — %(short)s short", **values))
            elif side.seven_of_coins:
                problems.append(Text("%(side)s has %(coins)s and %(sevens)s, %(distinct)s different cards "
                                     "(the seven of coins is both), but only %(cards)s — %(short)s short", **values))
            elif team:
                problems.append(Text("%(side)s have %(coins)s and %(sevens)s, %(distinct)s different cards, "
                                     "but only %(cards)s — %(short)s short", **values))
            else:
                problems.append(Text("%(side)s has %(coins)s and %(sevens)s, %(distinct)s different cards, "
                                     "but only %(cards)s — %(short)s short", **values))
        if 2 * side.escobas > side.cards:
            # an escoba takes the played card and at least one from the table
            values = dict(side=name, escobas=_escobas(side.escobas), least=2 * side.escobas,
                          cards=_cards_of(side.cards), short=2 * side.escobas - side.cards)
            problems.append(Text("%(side)s have %(escobas)s, at least %(least)s cards, but only %(cards)s "
                                 "— %(short)s short", **values) if team else
                            Text("%(side)s has %(escobas)s, at least %(least)s cards, but only %(cards)s "
                                 "— %(short)s short", **values))
    if leftover is not None and not false_capture and leftover not in LEFTOVERS:
        problems.append(Text(LEFTOVER_ODD, leftover=leftover))
    return problems


def complete_last_side(others: Iterable[Counts] | Mapping[str, Counts], escobas: int = 0) -> Counts:
    """The last side's counts: whatever of the deck the other sides did not capture.

    >>> complete_last_side([Counts(24, 7, 3, True, 2)])
    Counts(cards=16, coins=3, sevens=1, seven_of_coins=False, escobas=0)
    """
    sides = list(others.values() if isinstance(others, Mapping) else others)
    left = {}
    for what, deck in DECK.items():
        taken = sum(getattr(side, what) for side in sides)
        if taken > deck:
            raise RuleError(OTHERS_TOO_MANY[what], total=taken, deck=deck, off=taken - deck)
        left[what] = deck - taken
    holders = sum(side.seven_of_coins for side in sides)
    require(holders <= 1, "%(count)s sides have the seven of coins — only one side can", count=holders)
    return Counts(left["cards"], left["coins"], left["sevens"], holders == 0, escobas)


# --- scoring a round ---------------------------------------------------------------------


@dataclass(frozen=True)
class Points:
    """What one side scores in a round, line by line."""

    escobas: int = 0
    cards: int = 0  # most cards
    coins: int = 0  # most coins, 2 for all ten
    seven_of_coins: int = 0
    sevens: int = 0  # most sevens, 2 for all four (3 with the seven of coins)
    bonus: int = 0  # every other side captured fewer than 10 cards
    penalty: int = 0  # false captures, 0 or less

    @property
    def total(self) -> int:
        return sum(getattr(self, name) for name in POINT_NAMES)

    def as_dict(self) -> dict[str, int]:
        return {**{name: getattr(self, name) for name in POINT_NAMES}, "total": self.total}


POINT_NAMES = tuple(f.name for f in fields(Points))


def most(values: Mapping[str, int]) -> str | None:
    """The one side strictly ahead of every other, or None on a tie on top.

    >>> most({"Anna": 5, "Ben": 3}), most({"Anna": 2, "Ben": 2, "Cleo": 0})
    ('Anna', None)
    """
    top = max(values.values())
    leaders = [side for side, value in values.items() if value == top]
    return leaders[0] if len(leaders) == 1 else None


def score_round(counts: Mapping[str, Counts], false_captures: Mapping[str, int] | None = None) -> dict[str, Points]:
    """Each side's points for a round, from what every side captured.

    >>> points = score_round({"Anna": Counts(24, 7, 3, True, 2), "Ben": Counts(16, 3, 1, False)},
    ...                      {"Ben": 1})
    >>> points["Anna"].total, points["Ben"].total
    (6, -6)
    """
    false_captures = false_captures or {}
    escobas_made = sum(side.escobas for side in counts.values())
    most_cards = most({name: side.cards for name, side in counts.items()})
    most_coins = most({name: side.coins for name, side in counts.items()})
    most_sevens = most({name: side.sevens for name, side in counts.items()})
    points = {}
    for name, side in counts.items():
        others = [other for other_name, other in counts.items() if other_name != name]
        points[name] = Points(
            escobas=side.escobas,
            cards=1 if name == most_cards else 0,
            coins=2 if side.coins == DECK["coins"] else 1 if name == most_coins else 0,
            seven_of_coins=1 if side.seven_of_coins else 0,
            sevens=2 if side.sevens == DECK["sevens"] else 1 if name == most_sevens else 0,
            bonus=2 if all(other.cards < 10 for other in others) else 0,
            penalty=-false_captures.get(name, 0) * (4 + escobas_made),
        )
    return points


# --- the state of a game -----------------------------------------------------------------


@dataclass(frozen=True)
class Round:
    """One round entered: what every side captured, and what that scored."""

    counts: Mapping[str, Counts]
    false_captures: Mapping[str, int]
    leftover: int | None
    points: Mapping[str, Points]


@dataclass(frozen=True)
class State:
    setup: Setup
    rules: Mapping[str, Any]
    rounds: tuple[Round, ...] = ()
    winner: str | None = None
    shut_out: str | None = None  # the side that lost by capturing no card in a round

    def score(self) -> dict[str, int]:
        # Performance (issue 25): `apply` hands each new state its score, so a log of 2,000
        # rounds folds in linear time (summing every round at every round took 5 s)
        totals = self.__dict__.get("_score")
        if totals is None:
            totals = {side.name: 0 for side in self.setup.sides}
            for played in self.rounds:
                for side, points in played.points.items():
                    totals[side] += points.total
            object.__setattr__(self, "_score", totals)
        return dict(totals)

    @property
    def finished(self) -> bool:
        return self.winner is not None


def decide(state: State) -> State:
    """The state with its winner, if the last round ended the game."""
    counts = state.rounds[-1].counts
    if state.rules["shutout"] and len(counts) == 2:
        empty = [side for side, captured in counts.items() if captured.cards == 0]
        if empty:
            winner = next(side for side in counts if side != empty[0])
            return replace(state, winner=winner, shut_out=empty[0])
    score = state.score()
    if max(score.values()) >= state.rules["target"]:
        return replace(state, winner=most(score))  # a tie on top plays on
    return state


# --- entering a round --------------------------------------------------------------------


def _by_side(state: State, raw: Any, what: str) -> dict[str, Any]:
    """An object keyed by side names (any case) as {side name: value}, in seat order."""
    example = '{"Anna": {"cards": 24, …}, …}' if what == "sides" else '{"Anna": 1}'
    if not isinstance(raw, dict):
        if state.setup.teams:
            raise RuleError("%(field)s must be an object keyed by team, like %(example)s", field=what, example=example)
        raise RuleError("%(field)s must be an object keyed by player, like %(example)s", field=what, example=example)
    given: dict[str, Any] = {}
    for key, value in raw.items():
        try:
            side = state.setup.side(key).name
        except RuleError as error:
            raise RuleError("%(field)s: %(problem)s", field=what, problem=error.text) from None
        require(side not in given, "%(field)s: %(side)s is given twice", field=what, side=side)
        given[side] = value
    return {side.name: given[side.name] for side in state.setup.sides if side.name in given}


# One side's count is at most the deck's (each escoba takes two cards or more): a count past
# it could only be a typo, and a huge one (a JSON number of 4,300 digits) made sums no message
# and no result could print (tests/test_engines_total.py)
MAX_ESCOBAS = DECK["cards"] // 2  # each escoba takes at least two cards
MOST = {**DECK, "escobas": MAX_ESCOBAS}


def _count(side: str, raw: Mapping[str, Any], key: str) -> Any:
    value = raw.get(key)
    # Performance (issue 25): the words of a refusal are made only for one (a log of 2,000
    # rounds reads 20,000 counts)
    if key == "seven_of_coins" and isinstance(value, bool):
        return value
    if key != "seven_of_coins" and type(value) is int and 0 <= value <= MOST[key]:
        return value
    expects = Text("true or false") if key == "seven_of_coins" else Text("a whole number, 0 or more")
    if value is None:
        message = _possessive(side, Text("sides: %(side)s's %(key)s is missing (it must be %(expects)s)"),
                              Text("sides: %(side)s' %(key)s is missing (it must be %(expects)s)"))
        raise RuleError(message, side=side, key=key, expects=expects)
    try:
        if key == "seven_of_coins":
            return boolean(value)
        number = whole_number(0)(value)
        if number > MOST[key]:
            expects = Text("a whole number from 0 to %(most)s", most=MOST[key])
            raise ValueError
        return number
    except ValueError:
        message = _possessive(side, Text("sides: %(side)s's %(key)s must be %(expects)s, not %(value)s"),
                              Text("sides: %(side)s' %(key)s must be %(expects)s, not %(value)s"))
        raise RuleError(message, side=side, key=key, expects=expects, value=describe(value)) from None


def parse_counts(state: State, sides: Any) -> dict[str, Counts]:
    """The counts of every side, from an event's `sides` (Counts records are taken as they are)."""
    given = _by_side(state, sides, "sides")
    missing = [side.name for side in state.setup.sides if side.name not in given]
    if len(missing) == 1:
        raise RuleError("sides: %(side)s is missing (every side gives cards, coins, sevens, seven_of_coins "
                        "and escobas)", side=missing[0])
    if missing:
        raise RuleError("sides: %(sides)s are missing (every side gives cards, coins, sevens, seven_of_coins "
                        "and escobas)", sides=Both(missing))
    counts = {}
    for side, raw in given.items():
        if isinstance(raw, Counts):
            counts[side] = raw
            continue
        if not isinstance(raw, dict):
            message = _possessive(side, Text("sides: %(side)s's counts must be an object with cards, coins, "
                                             "sevens, seven_of_coins and escobas"),
                                  Text("sides: %(side)s' counts must be an object with cards, coins, "
                                       "sevens, seven_of_coins and escobas"))
            raise RuleError(message, side=side)
        for key in raw:
            if key not in COUNT_NAMES:
                message = _possessive(side, Text("sides: %(side)s's counts have no field %(field)s"),
                                      Text("sides: %(side)s' counts have no field %(field)s"))
                raise RuleError(message, side=side, field=describe(key))
        counts[side] = Counts(**{key: _count(side, raw, key) for key in COUNT_NAMES})
    return counts


# a capture, false or not, takes the card played and one from the table at least; a count
# without a bound made a penalty (and a score) no result could print
MAX_FALSE_CAPTURES = MAX_ESCOBAS


def parse_false_captures(state: State, raw: Any) -> dict[str, int]:
    if raw is None:
        return {}
    given = _by_side(state, raw, "false_captures")
    for side, count in given.items():
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_FALSE_CAPTURES:
            message = _possessive(side, Text("false_captures: %(side)s's count must be a whole number from 1 to "
                                             "%(most)s, not %(value)s (leave out a side without false captures)"),
                                  Text("false_captures: %(side)s' count must be a whole number from 1 to "
                                       "%(most)s, not %(value)s (leave out a side without false captures)"))
            raise RuleError(message, side=side, most=MAX_FALSE_CAPTURES, value=describe(count))
    return given


def round_points(state: State, sides: Any, false_captures: Any = None) -> dict[str, Points]:
    """What a round would score, before it is entered: the preview beside the confirm button.

    The counts must name every side with all five numbers; whether they fit the deck is
    `verify_round`'s business, so the preview follows the form while it is being filled.
    """
    return score_round(parse_counts(state, sides), parse_false_captures(state, false_captures))


def verify_round(state: State, event: Mapping[str, Any]) -> Round:
    """The round `event` records, or a RuleError saying the first thing wrong with it."""
    if state.finished:
        if state.shut_out:
            raise RuleError("the game is over: %(winner)s won, as %(loser)s captured no card in round %(round)s",
                            winner=state.winner, loser=state.shut_out, round=len(state.rounds))
        raise RuleError("the game is over: %(winner)s won with %(points)s points",
                        winner=state.winner, points=state.score()[state.winner])
    if event.get("sides") is None:
        raise RuleError("sides is missing (what every side captured this round)")
    counts = parse_counts(state, event["sides"])
    false_captures = parse_false_captures(state, event.get("false_captures"))
    leftover = event.get("leftover")
    if leftover is not None:
        try:
            leftover = whole_number(0)(leftover)
        except ValueError:
            raise RuleError("leftover must be a whole number, 0 or more, not %(value)s",
                            value=describe(leftover)) from None
    problems = deck_problems(counts, leftover, bool(false_captures), teams_of(state.setup))
    if problems:
        raise RuleError(problems[0])
    return Round(counts, false_captures, leftover, score_round(counts, false_captures))


def verify_draft(state: State, payload: Any) -> dict[str, int]:
    """The escobas tapped so far this round, per side in seat order, from a draft the table
    keeps while it plays (`{"escobas": {"Anna": 2}}`); a RuleError says what is wrong with it.
    Sides left out have none yet; the round's event takes these as its escobas.

    >>> from scorekeeper.games.base import make_setup
    >>> game = start(make_setup(["Anna", "Ben"], None), {"target": 21, "shutout": True})
    >>> verify_draft(game, {"escobas": {"anna": 2}})
    {'Anna': 2, 'Ben': 0}
    >>> verify_draft(game, {"escobas": {"Ben": 21}})
    Traceback (most recent call last):
    ...
    scorekeeper.games.base.RuleError: escobas: Ben's count must be a whole number from 0 to 20, not 21
    """
    if state.finished:
        raise RuleError("the game is over: %(winner)s won, so there is no round to keep escobas for",
                        winner=state.winner)
    if not isinstance(payload, dict) or set(payload) - {"escobas"}:
        raise RuleError('a draft keeps only the escobas of the round, like {"escobas": {"Anna": 1}}')
    given = _by_side(state, payload.get("escobas", {}), "escobas")
    for side, count in given.items():
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_ESCOBAS:
            message = _possessive(side, Text("escobas: %(side)s's count must be a whole number from 0 to %(most)s, "
                                             "not %(value)s"),
                                  Text("escobas: %(side)s' count must be a whole number from 0 to %(most)s, "
                                       "not %(value)s"))
            raise RuleError(message, side=side, most=MAX_ESCOBAS, value=describe(count))
    return {side.name: given.get(side.name, 0) for side in state.setup.sides}


def apply(state: State, event: Mapping[str, Any]) -> State:
    if event.get("type") != "round":
        raise RuleError("Escoba has only round events, not %(type)s", type=describe(event.get("type")))
    played = verify_round(state, event)
    totals = state.score()
    for side, points in played.points.items():
        totals[side] += points.total
    after = replace(state, rounds=state.rounds + (played,))
    object.__setattr__(after, "_score", totals)  # see State.score
    return decide(after)


def writers(state: State) -> frozenset[str] | None:
    """Any seated player may enter a round until the game is won."""
    return frozenset() if state.finished else None


# --- the result --------------------------------------------------------------------------


def result(state: State) -> dict[str, Any]:
    score = {side.name: 0 for side in state.setup.sides}
    rounds = []
    for number, played in enumerate(state.rounds, 1):
        for side, points in played.points.items():
            score[side] += points.total
        last = number == len(state.rounds)
        rounds.append({
            "points": {side: points.as_dict() for side, points in played.points.items()},
            "score": dict(score),
            "shut_out": state.shut_out if last else None,
        })
    return {
        "game": name,
        "finished": state.finished,
        "points": score,
        "winner": state.winner,
        "target": state.rules["target"],
        "shut_out": state.shut_out,
        "rounds": rounds,
    }


# --- the players' figures (scorekeeper/stats.py) --------------------------------------------


def count_figures(state: State, result: dict) -> dict[str, dict[str, int]]:
    """Escobas and sevens are captured by a side: a team's count for each of its members."""
    out = {}
    for player in state.setup.players:
        side = state.setup.side_of(player).name
        out[player] = {"rounds": len(state.rounds),
                       "escobas": sum(r.counts[side].escobas for r in state.rounds),
                       "sevens": sum(r.counts[side].sevens for r in state.rounds)}
    return out


statistics = Statistics(count_figures, {"escobas": Text("Escobas"), "sevens": Text("Sevens")},
                        key="escobas", trend=Text("Escobas, game by game"))
