"""Yatzy, the Yacht family's dice game: the score card in its two forms, what may be written in
which box, and the settlement of points and money.

Read top to bottom: dice, boxes and forms, what dice score in each box (`box_value`) and what
a box can ever hold (`allowed_values`), the rules' settings, the state of the cards, writing an
entry (`verify_score` / `can_score`), "where could these dice go?" (`placements`), and the
settlement (`result`), and what a finished game counts for the players' pages (`statistics`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from typing import Any, Mapping, Sequence

from .base import (
    Plural,
    RuleError,
    Setting,
    Setup,
    Statistics,
    Text,
    currency_code,
    describe,
    money,
    require,
    require_seating,
)
from .settle import cents_text, fewest_transfers, money_cents

# --- dice, boxes and forms -------------------------------------------------------------

FACES = (1, 2, 3, 4, 5, 6)
BONUS_THRESHOLD = 63  # the upper boxes' total that earns the bonus


class Box(StrEnum):
    ONES = "1"
    TWOS = "2"
    THREES = "3"
    FOURS = "4"
    FIVES = "5"
    SIXES = "6"
    PAIR = "pair"
    TWO_PAIRS = "two_pairs"
    THREE = "three"
    FOUR = "four"
    SMALL = "small"
    LARGE = "large"
    FULL = "full"
    CHANCE = "chance"
    YATZY = "yatzy"

    @property
    def is_upper(self) -> bool:
        return self.value in "123456"

    @property
    def face(self) -> int:
        return int(self.value)

    @property
    def takes_any_dice(self) -> bool:
        """The upper boxes and Chance score whatever is thrown; the others need a combination."""
        return self.is_upper or self is Box.CHANCE


UPPER = (Box.ONES, Box.TWOS, Box.THREES, Box.FOURS, Box.FIVES, Box.SIXES)

# what players call each box: in refusals, and on the card
BOX_NAMES = {
    Box.ONES: Text("Ones"), Box.TWOS: Text("Twos"), Box.THREES: Text("Threes"), Box.FOURS: Text("Fours"),
    Box.FIVES: Text("Fives"), Box.SIXES: Text("Sixes"), Box.PAIR: Text("One Pair"),
    Box.TWO_PAIRS: Text("Two Pairs"), Box.THREE: Text("Three of a Kind"), Box.FOUR: Text("Four of a Kind"),
    Box.SMALL: Text("Small Straight"), Box.LARGE: Text("Large Straight"), Box.FULL: Text("Full House"),
    Box.CHANCE: Text("Chance"), Box.YATZY: Text("Yatzy"),
}


class Form(StrEnum):
    """Which card is played: the Scandinavian one (15 boxes) or the classic Kniffel/Yahtzee one (13)."""

    SCANDINAVIAN = "scandinavian"
    CLASSIC = "classic"

    @property
    def boxes(self) -> tuple[Box, ...]:
        """The card's boxes, top to bottom."""
        if self is Form.SCANDINAVIAN:
            return tuple(Box)
        return tuple(box for box in Box if box not in (Box.PAIR, Box.TWO_PAIRS))

    @property
    def bonus(self) -> int:
        """What the upper boxes earn when they reach BONUS_THRESHOLD."""
        return 50 if self is Form.SCANDINAVIAN else 35


def box_value(box: Box, dice: Sequence[int], form: Form) -> int | None:
    """What five `dice` score in `box` on the `form`'s card, or None when they do not make the
    box's combination (the upper boxes and Chance take any dice).

    Ones … Sixes, the same in both forms: the dice showing that face.

    >>> S, C = Form.SCANDINAVIAN, Form.CLASSIC
    >>> box_value(Box.FOURS, (4, 4, 4, 1, 2), S), box_value(Box.FOURS, (1, 2, 3, 5, 6), C)
    (12, 0)

    One Pair (Scandinavian): the highest pair, also inside three, four or five of a kind.

    >>> box_value(Box.PAIR, (6, 6, 5, 5, 1), S), box_value(Box.PAIR, (2, 2, 2, 2, 2), S)
    (12, 4)
    >>> box_value(Box.PAIR, (1, 2, 3, 4, 6), S) is None
    True

    Two Pairs (Scandinavian): two pairs of different faces; a full house has them, five of a
    kind has not.

    >>> box_value(Box.TWO_PAIRS, (3, 3, 5, 5, 5), S), box_value(Box.TWO_PAIRS, (6, 6, 2, 2, 4), S)
    (16, 16)
    >>> box_value(Box.TWO_PAIRS, (5, 5, 5, 5, 5), S), box_value(Box.TWO_PAIRS, (5, 5, 5, 5, 2), S)
    (None, None)

    Three and Four of a Kind: Scandinavian, the sum of those dice; classic, of all five.

    >>> box_value(Box.THREE, (5, 5, 5, 2, 1), S), box_value(Box.THREE, (5, 5, 5, 2, 1), C)
    (15, 18)
    >>> box_value(Box.THREE, (6, 6, 6, 6, 2), S), box_value(Box.FOUR, (3, 3, 3, 3, 3), S)
    (18, 12)
    >>> box_value(Box.FOUR, (6, 6, 6, 6, 3), C), box_value(Box.FOUR, (6, 6, 6, 3, 3), C)
    (27, None)

    Small Straight: Scandinavian 1-2-3-4-5 only, 15; classic any four in a row, 30.

    >>> box_value(Box.SMALL, (5, 4, 3, 2, 1), S), box_value(Box.SMALL, (2, 3, 4, 5, 6), S)
    (15, None)
    >>> box_value(Box.SMALL, (1, 2, 3, 4, 6), C), box_value(Box.SMALL, (2, 3, 4, 5, 6), C)
    (30, 30)
    >>> box_value(Box.SMALL, (1, 2, 3, 5, 6), C) is None
    True

    Large Straight: Scandinavian 2-3-4-5-6 only, 20; classic five in a row, 40.

    >>> box_value(Box.LARGE, (6, 5, 4, 3, 2), S), box_value(Box.LARGE, (1, 2, 3, 4, 5), S)
    (20, None)
    >>> box_value(Box.LARGE, (1, 2, 3, 4, 5), C), box_value(Box.LARGE, (1, 2, 3, 4, 6), C)
    (40, None)

    Full House: three of one face and two of another; Scandinavian the sum, classic 25.
    Five of a kind is not one.

    >>> box_value(Box.FULL, (6, 6, 6, 4, 4), S), box_value(Box.FULL, (6, 6, 6, 4, 4), C)
    (26, 25)
    >>> box_value(Box.FULL, (4, 4, 4, 4, 4), S), box_value(Box.FULL, (4, 4, 4, 4, 4), C)
    (None, None)

    Chance: the sum of all dice. Yatzy: five of a kind, 50.

    >>> box_value(Box.CHANCE, (6, 5, 6, 4, 3), S), box_value(Box.YATZY, (2, 2, 2, 2, 2), C)
    (24, 50)
    >>> box_value(Box.YATZY, (2, 2, 2, 2, 1), S) is None
    True
    """
    counts = Counter(dice)
    if box.is_upper:
        return counts[box.face] * box.face
    if box is Box.CHANCE:
        return sum(dice)
    if box is Box.YATZY:
        return 50 if len(counts) == 1 else None
    if box is Box.FULL:
        if sorted(counts.values()) != [2, 3]:
            return None
        return sum(dice) if form is Form.SCANDINAVIAN else 25
    if box in (Box.PAIR, Box.TWO_PAIRS, Box.THREE, Box.FOUR):
        # the faces shown at least n times, highest first
        needed = {Box.PAIR: 2, Box.TWO_PAIRS: 2, Box.THREE: 3, Box.FOUR: 4}[box]
        faces = sorted((face for face, count in counts.items() if count >= needed), reverse=True)
        wanted = 2 if box is Box.TWO_PAIRS else 1
        if len(faces) < wanted:
            return None
        if form is Form.CLASSIC:  # classic Three and Four of a Kind score all five dice
            return sum(dice)
        return sum(face * needed for face in faces[:wanted])
    shown = set(dice)
    if form is Form.SCANDINAVIAN:
        if box is Box.SMALL:
            return 15 if shown == {1, 2, 3, 4, 5} else None
        return 20 if shown == {2, 3, 4, 5, 6} else None
    if box is Box.SMALL:
        runs = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
        return 30 if any(run <= shown for run in runs) else None
    return 40 if shown in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else None


THROWS = tuple(combinations_with_replacement(FACES, 5))  # every way five dice can fall, unordered


@cache
def allowed_values(box: Box, form: Form) -> tuple[int, ...]:
    """Every value `box` may hold on the `form`'s card, smallest first: 0 (a scratch) and what
    some five dice give there (each box's THROWS scored once, when first asked).

    >>> allowed_values(Box.FOURS, Form.CLASSIC)
    (0, 4, 8, 12, 16, 20)
    >>> allowed_values(Box.FULL, Form.CLASSIC), allowed_values(Box.SMALL, Form.SCANDINAVIAN)
    ((0, 25), (0, 15))
    >>> 10 in allowed_values(Box.FULL, Form.SCANDINAVIAN), 25 in allowed_values(Box.FULL, Form.SCANDINAVIAN)
    (False, False)
    """
    return tuple(sorted({0} | {box_value(box, throw, form) or 0 for throw in THROWS}))


def _spans(values: Sequence[int]) -> str:
    """Values as a player reads them, three or more in a row as a span.

    >>> _spans((0, 5, 6, 7, 8, 30)), _spans((0, 4, 8))
    ('0, 5–8, 30', '0, 4, 8')
    """
    parts: list[list[int]] = []
    for value in values:
        if parts and value == parts[-1][-1] + 1:
            parts[-1].append(value)
        else:
            parts.append([value])
    return ", ".join(f"{run[0]}–{run[-1]}" if len(run) >= 3 else ", ".join(map(str, run)) for run in parts)


def read_dice(value: Any) -> tuple[int, ...]:
    """Five faces from 1 to 6 (a list or tuple of whole numbers), or a RuleError."""
    if (not isinstance(value, (list, tuple)) or len(value) != 5
            or any(isinstance(d, bool) or not isinstance(d, int) or d not in FACES for d in value)):
        raise RuleError("dice must be five faces from 1 to 6, not %(dice)s", dice=describe(value))
    return tuple(value)


def _dice_text(dice: Sequence[int]) -> Text:
    return Text("dice %(dice)s", dice="-".join(map(str, dice)))


# --- settings ------------------------------------------------------------------------


def _form(value: Any) -> Form:
    if not isinstance(value, str):
        raise ValueError
    return Form(value)


settings: dict[str, Setting] = {
    "form": Setting("scandinavian", _form, Text("\"scandinavian\" or \"classic\""), Text("Score card"),
                    ("scandinavian", "classic"),
                    names=(Text("Scandinavian: 15 boxes, bonus 50"), Text("Classic: 13 boxes, bonus 35"))),
    "stake": Setting("0", money, Text("an amount like \"0.50\""), Text("Stake per point")),
    "currency": Setting("EUR", currency_code, Text("a three-letter currency code like \"EUR\""), Text("Currency")),
}


# --- the cards -----------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One written box: who wrote what, and the dice when they were given."""

    player: str
    box: Box
    value: int
    dice: tuple[int, ...] | None = None


@dataclass(frozen=True)
class State:
    setup: Setup
    rules: Mapping[str, Any]
    cards: Mapping[str, Mapping[Box, int]]  # player -> written boxes
    entries: tuple[Entry, ...] = ()

    @property
    def form(self) -> Form:
        return Form(self.rules["form"])

    @property
    def finished(self) -> bool:
        return len(self.entries) == len(self.form.boxes) * len(self.setup.players)

    @property
    def on_turn(self) -> str | None:
        """Players take turns in seat order, one box per turn; None once every card is full."""
        if self.finished:
            return None
        return self.setup.players[len(self.entries) % len(self.setup.players)]

    def open_boxes(self, player: str) -> list[Box]:
        card = self.cards[player]
        return [box for box in self.form.boxes if box not in card]

    def upper(self, player: str) -> int:
        """The sum of the player's upper boxes (Ones … Sixes) written so far."""
        return sum(value for box, value in self.cards[player].items() if box.is_upper)

    def bonus(self, player: str) -> int:
        """The upper bonus: the form's bonus as soon as the upper boxes reach 63, else 0."""
        return self.form.bonus if self.upper(player) >= BONUS_THRESHOLD else 0

    def bonus_needs(self, player: str) -> int | None:
        """Points the upper boxes still need for the bonus (0 once it is in), or None when the
        open upper boxes can no longer make them up, even with five of their face each."""
        needs = max(0, BONUS_THRESHOLD - self.upper(player))
        reachable = sum(5 * box.face for box in UPPER if box not in self.cards[player])
        return needs if needs <= reachable else None

    def total(self, player: str) -> int:
        return sum(self.cards[player].values()) + self.bonus(player)


name = "yatzy"
title = "Yatzy"
events = {"score": frozenset({"player", "box", "value", "dice"})}
details = frozenset({"dice"})  # a box's dice: its value is what counts


def start(setup: Setup, rules: Mapping[str, Any]) -> State:
    require_seating(not setup.teams, "teams: Yatzy is played without teams")
    require_seating(len(setup.players) >= 2, "players: Yatzy needs at least two players")
    return State(setup, dict(rules), {player: {} for player in setup.players})


# --- writing a box -------------------------------------------------------------------


def verify_score(state: State, event: Mapping[str, Any]) -> Entry:
    """The entry `event` writes, or a RuleError saying why it may not be written."""
    require(not state.finished, "the game is over: every box is written")
    player = _player(state, event.get("player"))
    if player != state.on_turn:
        raise RuleError("it is %(on_turn)s's turn, not %(player)s's", on_turn=state.on_turn, player=player)
    box = _box(state, event.get("box"))
    if box in state.cards[player]:
        raise RuleError("%(player)s has already written %(box)s", player=player, box=BOX_NAMES[box])

    dice, value = event.get("dice"), event.get("value")
    if dice is not None:
        dice = read_dice(dice)
    allowed = allowed_values(box, state.form)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value not in allowed):
        raise RuleError("%(box)s takes %(allowed)s, not %(value)s", box=BOX_NAMES[box], allowed=_spans(allowed),
                        value=describe(value))
    if dice is None:
        if value is None:
            raise RuleError("give the value to write, or the dice")
        return Entry(player, box, value, None)
    made = box_value(box, dice, state.form)
    if value == 0:  # a scratch may carry whatever was thrown
        return Entry(player, box, 0, dice)
    if value is None:
        if made is None:
            raise RuleError("%(dice)s do not make %(box)s (to scratch it, write 0)",
                            dice=_dice_text(dice), box=BOX_NAMES[box])
        return Entry(player, box, made, dice)
    if made is None:
        raise RuleError("%(dice)s score nothing in %(box)s, not %(value)s",
                        dice=_dice_text(dice), box=BOX_NAMES[box], value=value)
    if made != value:
        raise RuleError("%(dice)s score %(made)s in %(box)s, not %(value)s",
                        dice=_dice_text(dice), made=made, box=BOX_NAMES[box], value=value)
    return Entry(player, box, value, dice)


def can_score(state: State, event: Mapping[str, Any]) -> bool:
    """Whether `event` may be written now (what a button's enabled state asks)."""
    try:
        verify_score(state, event)
    except RuleError:
        return False
    return True


def _player(state: State, given: Any) -> str:
    if not isinstance(given, str):  # Setup.player would write out whatever it was given
        raise RuleError("%(name)s is not a player at this table", name=describe(given))
    return state.setup.player(given)


def _box(state: State, given: Any) -> Box:
    try:
        box = Box(given) if isinstance(given, str) else None
    except ValueError:
        box = None
    if box is not None and box not in state.form.boxes:
        raise RuleError("%(box)s is only on the Scandinavian card", box=BOX_NAMES[box])
    if box is None:
        raise RuleError("box must be one of %(boxes)s, not %(box)s",
                        boxes=", ".join(state.form.boxes), box=describe(given))
    return box


def apply(state: State, event: Mapping[str, Any]) -> State:
    if not isinstance(event, Mapping):
        raise RuleError("an event must be an object like {\"type\": …}")
    if event.get("type") != "score":
        raise RuleError("Yatzy has only score events, not %(type)s", type=describe(event.get("type")))
    entry = verify_score(state, event)
    cards = {**state.cards, entry.player: {**state.cards[entry.player], entry.box: entry.value}}
    return replace(state, cards=cards, entries=state.entries + (entry,))


def writers(state: State) -> frozenset[str]:
    return frozenset({state.on_turn}) if state.on_turn else frozenset()


# --- where could these dice go? ------------------------------------------------------


@dataclass(frozen=True)
class Placement:
    """An open box and what the dice would write there; `scratch`: they do not make its
    combination, so only 0 can go there."""

    box: Box
    value: int
    scratch: bool = False


def placements(state: State, player: str, dice: Sequence[int]) -> list[Placement]:
    """Every open box of `player` with what `dice` would write there, best first: the highest
    value, then the box higher up on the card; scratches last.

    >>> from scorekeeper.games.base import make_setup, parse_rules
    >>> game = start(make_setup(["Anna", "Ben"], None), parse_rules({"form": "classic"}, settings))
    >>> [(p.box.value, p.value, p.scratch) for p in placements(game, "anna", [3, 3, 3, 5, 5])][:4]
    [('full', 25, False), ('three', 19, False), ('chance', 19, False), ('5', 10, False)]
    >>> [(p.box.value, p.scratch) for p in placements(game, "Anna", [3, 3, 3, 5, 5])][-4:]
    [('four', True), ('small', True), ('large', True), ('yatzy', True)]
    """
    player = _player(state, player)
    dice = read_dice(dice)
    order = {box: index for index, box in enumerate(state.form.boxes)}
    options = []
    for box in state.open_boxes(player):
        made = box_value(box, dice, state.form)
        options.append(Placement(box, made or 0, made is None))
    return sorted(options, key=lambda p: (-p.value, p.scratch, order[p.box]))


# --- settlement ----------------------------------------------------------------------


def game_points(state: State) -> dict[str, int]:
    """Net points for the totals now (provisional until finished): every player receives from
    every other the difference of their totals when ahead, so the net is the sum over the
    others of (own total − other's)."""
    totals = {player: state.total(player) for player in state.setup.players}
    everyone = sum(totals.values())
    return {player: total * len(totals) - everyone for player, total in totals.items()}


def result(state: State) -> dict[str, Any]:
    players = state.setup.players
    totals = {player: state.total(player) for player in players}
    top = max(totals.values())
    leaders = [player for player, total in totals.items() if total == top]
    points = game_points(state)
    out: dict[str, Any] = {
        "game": name,
        "finished": state.finished,
        "points": points,
        "winner": leaders[0] if state.finished and len(leaders) == 1 else None,
        "totals": totals,
        "bonus": {player: state.bonus(player) for player in players},
        "form": str(state.form),
        "on_turn": state.on_turn,
        "upper": {player: state.upper(player) for player in players},
        "bonus_needs": {player: state.bonus_needs(player) for player in players},
        "cards": {player: {box.value: state.cards[player][box] for box in state.form.boxes
                           if box in state.cards[player]}
                  for player in players},
    }
    stake: Decimal = state.rules["stake"]
    if stake > 0:
        cents = money_cents({player: Fraction(p) for player, p in points.items()}, stake)
        out["currency"] = state.rules["currency"]
        out["money"] = {player: cents_text(c) for player, c in cents.items()}
        out["transfers"] = [{"from": a, "to": b, "amount": cents_text(c)}
                            for a, b, c in fewest_transfers(cents)]
    return out


# --- the players' figures (scorekeeper/stats.py) --------------------------------------------


def count_figures(state: State, result: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """Each player's counts of one game for the player pages (scorekeeper/stats.py sums them
    over games): the card's total (`score_points`, one `cards`, and `best_score`), the yatzies
    written (50 in the Yatzy box) and whether the upper bonus came (`bonuses`).

    >>> from scorekeeper.games.base import make_setup, parse_rules
    >>> game = start(make_setup(["Anna", "Ben"], None), parse_rules({}, settings))
    >>> game = apply(game, {"type": "score", "player": "Anna", "box": "yatzy", "dice": [4, 4, 4, 4, 4]})
    >>> count_figures(game, result(game))["Anna"]
    {'score_points': 50, 'cards': 1, 'best_score': 50, 'yatzies': 1, 'bonuses': 0}
    """
    return {player: {"score_points": result["totals"][player], "cards": 1, "best_score": result["totals"][player],
                     "yatzies": int(state.cards[player].get(Box.YATZY, 0) > 0),
                     "bonuses": int(result["bonus"][player] > 0)}
            for player in state.setup.players}


def net_points(points: int) -> Text:
    """A game's result points as a player's page lists them: the net the settlement counts
    (`game_points`), not the card's total beside the average score.

    >>> net_points(157), net_points(-1)
    ('157 net points', '-1 net point')
    """
    return Plural("%(num)s net point", "%(num)s net points", abs(points), num=points)


statistics = Statistics(
    count_figures,
    {"average_score": Text("Average score"), "best_score": Text("Best score"), "yatzies": Text("Yatzies"),
     "bonuses": Text("Upper bonuses")},
    key="average_score", trend=Text("Score, game by game"),
    averages={"average_score": ("score_points", "cards")}, best=frozenset({"best_score"}), points=net_points)
