"""Escalero, Austrian poker dice: the score pad, what may be written where, and settlement.

Read top to bottom: dice and rows, the rules' settings, the state of a pad, writing an
entry (`verify_score` / `score`), "where could this throw go?" (`placements`), and the
settlement of points and money (`result`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any, Mapping

from .base import (
    RuleError,
    Setting,
    Setup,
    Statistics,
    Term,
    Text,
    boolean,
    currency_code,
    describe,
    money,
    number,
    one_of,
    require,
    require_seating,
    whole_number,
)
from .settle import cents_text, fewest_transfers, money_cents

# --- dice and rows -------------------------------------------------------------------

FACES = (1, 2, 3, 4, 5, 6)
POKER_FACES = {1: "9", 2: "10", 3: "J", 4: "Q", 5: "K", 6: "A"}


class Row(StrEnum):
    ONE = "1"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    STRAIGHT = "S"
    FULL_HOUSE = "F"
    POKER = "P"
    GRANDE = "G"
    DOUBLE_GRANDE = "GG"

    @property
    def is_picture(self) -> bool:
        return self.value in "123456"

    @property
    def face(self) -> int:
        return int(self.value)


# the combinations by name, for "dice 1-2-3-4-6 do not make Straight"; picture rows take any dice
ROW_NAMES = {Row.STRAIGHT: Text("Straight"), Row.FULL_HOUSE: Text("Full House"), Row.POKER: Text("Poker"),
             Row.GRANDE: Text("Grande"), Row.DOUBLE_GRANDE: Text("Grande served")}
PICTURES = (Row.ONE, Row.TWO, Row.THREE, Row.FOUR, Row.FIVE, Row.SIX)
COLUMN_VALUES = (1, 2, 4)  # game points for winning column 1, 2, 3


@dataclass(frozen=True)
class Throw:
    """Five dice as thrown (faces 1–6; on poker dice 9…A) and whether they were served."""

    dice: tuple[int, ...]
    served: bool = False

    def __post_init__(self) -> None:
        if len(self.dice) != 5 or any(face not in FACES for face in self.dice):
            raise RuleError("dice must be five faces from 1 to 6, not %(dice)s", dice=describe(list(self.dice)))

    @property
    def counts(self) -> list[int]:
        """How many dice show each face that appears, largest first: [3, 2] is a full house."""
        return sorted(Counter(self.dice).values(), reverse=True)


# --- settings ------------------------------------------------------------------------

settings: dict[str, Setting] = {
    "columns": Setting(3, one_of(3, 1), Text("1 or 3"), Text("Columns per side"), (3, 1)),
    "straight": Setting(20, one_of(20, 25), Text("20 or 25"), Text("Straight is worth"), (20, 25)),
    "double_grande": Setting(False, boolean, Text("true or false"), Text("Extra row for a served Grande (100)")),
    "sweep_bonus": Setting(2, whole_number(0, 1000), Text("a whole number from 0 to 1000"),
                           Text("Sweep bonus from each other side")),
    "five_of_a_kind_as_lower": Setting(True, boolean, Text("true or false"),
                                       Text("Five of a kind may be written as Poker or Full House")),
    "stake": Setting("0", money, Text("an amount like \"0.50\""), Text("Stake per game point")),
    "currency": Setting("EUR", currency_code, Text("a three-letter currency code like \"EUR\""), Text("Currency")),
    "dice_faces": Setting("numbers", one_of("numbers", "poker"), Text("\"numbers\" or \"poker\""), Text("Dice"),
                          ("numbers", "poker"),
                          # TRANSLATORS: the two kinds of dice on the form: plain ones, and poker dice by
                          # their faces as your language names them (German 9 10 B D K A)
                          names=(Text("1 to 6"), Text("9 10 J Q K A"))),
}


def rows_for(rules: Mapping[str, Any]) -> tuple[Row, ...]:
    rows = [*PICTURES, Row.STRAIGHT, Row.FULL_HOUSE, Row.POKER, Row.GRANDE]
    if rules["double_grande"]:
        rows.append(Row.DOUBLE_GRANDE)
    return tuple(rows)


def row_label(row: Row, rules: Mapping[str, Any]) -> str:
    """What the pad's row is called: the face (1…6 or 9…A) for pictures, else the initial."""
    if row.is_picture:
        return POKER_FACES[row.face] if rules["dice_faces"] == "poker" else row.value
    return row.value


def row_term(row: Row, rules: Mapping[str, Any]) -> Term:
    """A row named in a message: its code, as the log has it, that screens show as the pad
    labels the row (a poker face, an initial in the player's language)."""
    label = row_label(row, rules)
    if not row.is_picture:
        return Term(row.value, label, "Escalero row")
    return Term(row.value, label, "poker die" if label in ("J", "Q", "K", "A") else None)


def allowed_values(row: Row, rules: Mapping[str, Any]) -> tuple[int, ...]:
    """Every value that may stand in `row`, smallest first (0 is crossing out).

    >>> allowed_values(Row.FOUR, {"straight": 20, "double_grande": False})
    (0, 4, 8, 12, 16, 20)
    >>> allowed_values(Row.GRANDE, {"straight": 20, "double_grande": False})
    (0, 50, 80)
    """
    if row.is_picture:
        return tuple(row.face * count for count in range(6))
    if row is Row.STRAIGHT:
        return (0, rules["straight"], rules["straight"] + 5)
    if row is Row.FULL_HOUSE:
        return (0, 30, 35)
    if row is Row.POKER:
        return (0, 40, 45)
    if row is Row.GRANDE:
        return (0, 50) if rules["double_grande"] else (0, 50, 80)
    return (0, 100)


def throw_value(row: Row, throw: Throw, rules: Mapping[str, Any]) -> int | None:
    """What `throw` scores in `row`, or None when the dice do not make that row's combination.

    >>> rules = {"straight": 20, "double_grande": False, "five_of_a_kind_as_lower": True}
    >>> throw_value(Row.FIVE, Throw((5, 5, 5, 2, 1)), rules)
    15
    >>> throw_value(Row.FULL_HOUSE, Throw((6, 6, 6, 6, 6), served=True), rules)
    35
    >>> throw_value(Row.STRAIGHT, Throw((1, 2, 3, 4, 6)), rules) is None
    True
    """
    counts = throw.counts
    bonus = 5 if throw.served else 0
    lower = rules["five_of_a_kind_as_lower"]
    if row.is_picture:
        return throw.dice.count(row.face) * row.face
    if row is Row.STRAIGHT:
        made = sorted(throw.dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])
        return rules["straight"] + bonus if made else None
    if row is Row.FULL_HOUSE:
        return 30 + bonus if counts == [3, 2] or (lower and counts == [5]) else None
    if row is Row.POKER:
        return 40 + bonus if counts == [4, 1] or (lower and counts == [5]) else None
    if counts != [5]:
        return None
    if row is Row.GRANDE:
        return 80 if throw.served and not rules["double_grande"] else 50
    return 100 if throw.served else None  # Row.DOUBLE_GRANDE takes only a served Grande


# --- the pad -------------------------------------------------------------------------

Cell = tuple[int, Row]  # (column 1…3, row)


@dataclass(frozen=True)
class Entry:
    """One written cell: who wrote what, and the throw when it was given."""

    side: str
    player: str
    column: int
    row: Row
    value: int
    throw: Throw | None = None


@dataclass(frozen=True)
class State:
    setup: Setup
    rules: Mapping[str, Any]
    pads: Mapping[str, Mapping[Cell, int]]  # side name -> written cells
    entries: tuple[Entry, ...] = ()

    @property
    def rows(self) -> tuple[Row, ...]:
        return rows_for(self.rules)

    @property
    def cells_per_side(self) -> int:
        return len(self.rows) * self.rules["columns"]

    @property
    def finished(self) -> bool:
        return len(self.entries) == self.cells_per_side * len(self.setup.sides)

    @property
    def side_on_turn(self) -> str | None:
        """Sides take turns in seat order, one cell per turn; None once the pad is full."""
        if self.finished:
            return None
        return self.setup.sides[len(self.entries) % len(self.setup.sides)].name

    def open_cells(self, side: str) -> list[Cell]:
        pad = self.pads[side]
        return [(column, row) for column in range(1, self.rules["columns"] + 1)
                for row in self.rows if (column, row) not in pad]

    def column_sums(self, side: str) -> list[int]:
        sums = [0] * self.rules["columns"]
        for (column, _), value in self.pads[side].items():
            sums[column - 1] += value
        return sums


name = "escalero"
title = "Escalero"
events = {"score": frozenset({"player", "column", "row", "value", "dice", "served"})}
details = frozenset({"throw"})  # a cell's dice: its value is what counts



def team_draws(count: int) -> tuple[int, ...]:
    """Four or more players are paired by lot (an odd one out plays for two); fewer play alone.

    >>> team_draws(3), team_draws(5)
    ((), (2,))
    """
    return (2,) if count >= 4 else ()


def start(setup: Setup, rules: Mapping[str, Any]) -> State:
    require_seating(len(setup.sides) >= 2, "players: Escalero needs at least two sides")
    return State(setup, dict(rules), {side.name: {} for side in setup.sides})


# --- writing a cell ------------------------------------------------------------------


def verify_score(state: State, event: Mapping[str, Any]) -> Entry:
    """The entry `event` writes, or a RuleError saying why it may not be written."""
    require(not state.finished, "the game is over: every cell is written")
    player = state.setup.player(event.get("player"))
    side = state.setup.side_of(player).name
    on_turn = state.side_on_turn
    if side != on_turn:
        raise RuleError("it is %(on_turn)s's turn, not %(side)s's", on_turn=on_turn, side=side)

    column = event.get("column")
    columns = state.rules["columns"]
    if isinstance(column, bool) or not isinstance(column, int) or not 1 <= column <= columns:
        if columns == 1:
            raise RuleError("column must be 1, not %(column)s", column=describe(column))
        raise RuleError("column must be from 1 to %(columns)s, not %(column)s", columns=columns, column=describe(column))
    try:
        row = Row(event.get("row"))
    except ValueError:
        row = None
    if row is Row.DOUBLE_GRANDE and row not in state.rows:
        raise RuleError("row GG (Grande served) is on the pad only when the double_grande rule is on")
    if row is None or row not in state.rows:
        raise RuleError("row must be one of %(rows)s, not %(row)s",
                        rows=" ".join(r.value for r in state.rows), row=describe(event.get("row")))
    if (column, row) in state.pads[side]:
        raise RuleError("%(side)s has already written column %(column)s, row %(row)s",
                        side=side, column=column, row=row_term(row, state.rules))

    throw = None
    dice, served = event.get("dice"), event.get("served")
    if served is not None and not isinstance(served, bool):
        raise RuleError("served must be true or false, not %(served)s", served=describe(served))
    if dice is not None:
        if not isinstance(dice, list) or any(isinstance(d, bool) or not isinstance(d, int) for d in dice):
            raise RuleError("dice must be a list of five faces from 1 to 6, not %(dice)s", dice=describe(dice))
        throw = Throw(tuple(dice), bool(served))
    if served and row.is_picture:
        raise RuleError("row %(row)s is a picture: only combinations can be served", row=row_term(row, state.rules))

    value = event.get("value")
    if value is not None:
        if isinstance(value, bool) or not isinstance(value, int) or value not in allowed_values(row, state.rules):
            raise RuleError("row %(row)s takes %(allowed)s, not %(value)s", row=row_term(row, state.rules),
                            allowed=", ".join(map(str, allowed_values(row, state.rules))), value=describe(value))
        # a cross-out agrees with either; on a picture row `served` can only be false here (true
        # was refused above), which says nothing (LOG-FORMAT.md): it was a KeyError, a 500
        if throw is None and served is not None and value != 0 and not row.is_picture:
            _served_agrees(row, value, served, state.rules)
    if throw is not None:
        made = throw_value(row, throw, state.rules)
        if value is None:
            if made is None:
                raise RuleError("%(dice)s do not make %(combination)s (to cross it out, write 0)",
                                dice=_dice_text(throw), combination=ROW_NAMES[row])
            value = made
        elif value != 0 and value != made:  # crossing out is allowed whatever was thrown
            if made is None:
                raise RuleError("%(dice)s score nothing in row %(row)s, not %(value)s",
                                dice=_dice_text(throw), row=row_term(row, state.rules), value=value)
            raise RuleError("%(dice)s score %(made)s in row %(row)s, not %(value)s",
                            dice=_dice_text(throw), made=made, row=row_term(row, state.rules), value=value)
    if value is None:
        raise RuleError("give the value to write, or the dice")
    return Entry(side, player, column, row, value, throw)


# a throw that makes each combination row, to ask what it scores there served and not
EXAMPLES = {Row.STRAIGHT: (1, 2, 3, 4, 5), Row.FULL_HOUSE: (1, 1, 1, 2, 2), Row.POKER: (1, 1, 1, 1, 2),
            Row.GRANDE: (1, 1, 1, 1, 1), Row.DOUBLE_GRANDE: (1, 1, 1, 1, 1)}


def _served_agrees(row: Row, value: int, served: bool, rules: Mapping[str, Any]) -> None:
    """`served` given with a value but no dice must agree with it: true only with what a
    served throw scores in the row, false only with what one not served scores.

    >>> rules = {"straight": 20, "double_grande": False, "five_of_a_kind_as_lower": True}
    >>> _served_agrees(Row.STRAIGHT, 25, True, rules)
    >>> _served_agrees(Row.STRAIGHT, 25, False, rules)
    Traceback (most recent call last):
    ...
    scorekeeper.games.base.RuleError: row S takes 25 only when served, but served is false
    """
    made = throw_value(row, Throw(EXAMPLES[row], served), rules)
    if value == made:
        return
    if served:
        raise RuleError("a served throw scores %(made)s in row %(row)s, not %(value)s",
                        made=made, row=row_term(row, rules), value=value)
    raise RuleError("row %(row)s takes %(value)s only when served, but served is false",
                    row=row_term(row, rules), value=value)


def apply(state: State, event: Mapping[str, Any]) -> State:
    if event.get("type") != "score":
        raise RuleError("Escalero has only score events, not %(type)s", type=describe(event.get("type")))
    entry = verify_score(state, event)
    pads = dict(state.pads)
    pads[entry.side] = {**pads[entry.side], (entry.column, entry.row): entry.value}
    return replace(state, pads=pads, entries=state.entries + (entry,))


def writers(state: State) -> frozenset[str]:
    side = state.side_on_turn
    return frozenset(state.setup.side(side).members) if side else frozenset()


def _dice_text(throw: Throw) -> Text:
    dice = "-".join(map(str, throw.dice))
    return Text("dice %(dice)s served", dice=dice) if throw.served else Text("dice %(dice)s", dice=dice)


# --- where could this throw go? -------------------------------------------------------


@dataclass(frozen=True, order=True)
class Placement:
    value: int
    column: int
    row: Row = field(compare=False)


def placements(state: State, side: str, throw: Throw) -> list[Placement]:
    """Every open cell of `side` with what `throw` would score there, best first.

    Cells the dice do not make score 0 (crossing out). Best first: the highest value;
    among equals, the cell left of the others and higher up on the pad.
    """
    options = []
    for column, row in state.open_cells(side):
        value = throw_value(row, throw, state.rules)
        options.append(Placement(value or 0, column, row))
    row_order = {row: i for i, row in enumerate(state.rows)}
    return sorted(options, key=lambda p: (-p.value, p.column, row_order[p.row]))


# --- settlement ----------------------------------------------------------------------


def column_points(sums: Mapping[str, int], column_value: int) -> dict[str, Fraction]:
    """Game points of one column: every non-winner pays `column_value`, shared by the winners.

    >>> column_points({"A": 200, "B": 190, "C": 200}, 1)
    {'A': Fraction(1, 2), 'B': Fraction(-1, 1), 'C': Fraction(1, 2)}
    """
    top = max(sums.values())
    winners = [side for side, total in sums.items() if total == top]
    if len(winners) == len(sums):
        return {side: Fraction(0) for side in sums}
    pot = Fraction(column_value * (len(sums) - len(winners)), len(winners))
    return {side: pot if side in winners else Fraction(-column_value) for side in sums}


def game_points(state: State) -> dict[str, Fraction]:
    """Net points per side for the sums on the pad now (provisional until finished)."""
    return points_of({side.name: state.column_sums(side.name) for side in state.setup.sides}, state.rules)


def points_of(sums: Mapping[str, list[int]], rules: Mapping[str, Any]) -> dict[str, Fraction]:
    """Net points per side for these column sums (per side, one per column).

    >>> points_of({"A": [10], "B": [4]}, {"columns": 1, "sweep_bonus": 2})
    {'A': Fraction(6, 1), 'B': Fraction(-6, 1)}
    """
    sides = list(sums)
    points = {side: Fraction(0) for side in sides}
    if rules["columns"] == 1:
        # every side receives from every other side the difference when it is ahead
        for side in sides:
            points[side] = Fraction(sum(sums[side][0] - sums[other][0] for other in sides))
        return points
    sole_wins = Counter()
    for index, value in enumerate(COLUMN_VALUES):
        column = {side: sums[side][index] for side in sides}
        for side, delta in column_points(column, value).items():
            points[side] += delta
        top = max(column.values())
        winners = [side for side in sides if column[side] == top]
        if len(winners) == 1:
            sole_wins[winners[0]] += 1
    bonus = rules["sweep_bonus"]
    for sweeper, wins in sole_wins.items():
        if wins == len(COLUMN_VALUES):
            for side in sides:
                points[side] += bonus * (len(sides) - 1) if side == sweeper else -bonus
    return points


def result(state: State) -> dict[str, Any]:
    points = game_points(state)
    top = max(points.values())
    leaders = [side for side, p in points.items() if p == top]
    out: dict[str, Any] = {
        "game": name,
        "finished": state.finished,
        "points": {side: number(p) for side, p in points.items()},
        "winner": leaders[0] if state.finished and len(leaders) == 1 else None,
        "columns": {side.name: state.column_sums(side.name) for side in state.setup.sides},
        "on_turn": state.side_on_turn,
    }
    stake: Decimal = state.rules["stake"]
    if stake > 0:
        cents = money_cents(points, stake)
        out["currency"] = state.rules["currency"]
        out["money"] = {side: cents_text(c) for side, c in cents.items()}
        out["transfers"] = [{"from": a, "to": b, "amount": cents_text(c)}
                            for a, b, c in fewest_transfers(cents)]
    return out


# --- the players' figures (scorekeeper/stats.py) --------------------------------------------


def count_figures(state: State, result: dict) -> dict[str, dict[str, int]]:
    """The side's column sums count for each member; the cells for the partner who wrote them."""
    out = {}
    for player in state.setup.players:
        sums = result["columns"][state.setup.side_of(player).name]
        out[player] = {"column_points": sum(sums), "columns": len(sums), "grandes": 0, "served": 0, "crossed": 0}
    for entry in state.entries:
        counts = out[entry.player]
        if entry.value == 0:
            counts["crossed"] += 1
            continue
        if entry.row in (Row.GRANDE, Row.DOUBLE_GRANDE):
            counts["grandes"] += 1
        if _served(entry, state.rules):
            counts["served"] += 1
    return out


def _served(entry: Entry, rules: Mapping[str, Any]) -> bool:
    """Whether a written combination was served: the dice say so, or the value does (a value
    written without dice is served when it is the row's served value: 25, 35, 45, 80, 100)."""
    if entry.row.is_picture or entry.value == 0:
        return False
    if entry.throw is not None:
        return entry.throw.served
    values = allowed_values(entry.row, rules)
    return entry.row is Row.DOUBLE_GRANDE or (len(values) == 3 and entry.value == values[2])


statistics = Statistics(
    count_figures,
    {"average_column": Text("Average column"), "grandes": Text("Grandes"),
     "served": Text("Served combinations"), "crossed": Text("Crossed cells")},
    key="average_column", trend=Text("Average column, game by game"),
    averages={"average_column": ("column_points", "columns")})
