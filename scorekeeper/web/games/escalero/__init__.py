"""Escalero on the table screen: its view model, the values offered per row, and where a throw could go."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, Callable, NamedTuple

from flask import g
from flask_babel import get_locale

from .... import service
from ....games import escalero
from ....games.base import RuleError, number
from ...context import table_blueprint
from ...dice import read_dice
from ...i18n import _, localize, ngettext, pgettext
from ...writes import answer, board, digits, field, idem
from .. import Screen, shared_win

bp = table_blueprint("escalero", __name__)


def value_labels(row: escalero.Row, rules) -> tuple[tuple[int, str, str | None], ...]:
    """(value, label, spoken) of every value a row may hold, for the tray's value picker (labels in the
    phone's language). Performance (bench/): the same for every board of a table in a
    language, so made once per rules and language."""
    return _value_labels(row, tuple(sorted(rules.items())), str(get_locale()))


@lru_cache(maxsize=1024)
def _value_labels(row: escalero.Row, rules_items: tuple, locale: str) -> tuple[tuple[int, str, str | None], ...]:
    rules = dict(rules_items)
    options = []
    allowed = escalero.allowed_values(row, rules)
    for value in allowed:
        spoken = None
        if value == 0:
            label = _("✕ cross out")
        elif row.is_picture:
            # TRANSLATORS: a button of the value picker: 3 dice of the row's face → 12 points
            label = _("%(count)s× → %(value)s", count=value // row.face, value=value)
            # TRANSLATORS: what a screen reader says for that button ("3× → 12" was read "3 multiplication sign right arrow 12")
            spoken = ngettext("%(num)s die: %(value)s", "%(num)s dice: %(value)s", value // row.face, value=value)
        elif value == allowed[1] or row is escalero.Row.DOUBLE_GRANDE:
            label = f"{value}"
        else:
            label = _("%(value)s served", value=value)
        options.append((value, label, spoken))
    return tuple(options)


def pad_word(label: str) -> str:
    """A face or row initial of the pad, as the engine writes it, in the phone's language:
    poker faces (German B D K A) and the combinations' initials; 9, 10 and 1…6 stay. These
    calls put the words in the catalogs; rows (escalero.row_term, on the pad and in refusals)
    are looked up by the same contexts."""
    words = {"J": pgettext("poker die", "J"), "Q": pgettext("poker die", "Q"),
             "K": pgettext("poker die", "K"), "A": pgettext("poker die", "A"),
             "S": pgettext("Escalero row", "S"), "F": pgettext("Escalero row", "F"),
             "P": pgettext("Escalero row", "P"), "G": pgettext("Escalero row", "G"),
             "GG": pgettext("Escalero row", "GG")}
    return words.get(label, label)


def face_label(face: int, rules) -> str:
    return pad_word(escalero.POKER_FACES[face]) if rules["dice_faces"] == "poker" else str(face)


# --- the tray: the dice this phone tapped, where they go, a cell picked ---------------------------


def read_cell(text: Any, state: escalero.State) -> tuple[int, int, escalero.Row] | None:
    """A cell of the pad as its button names it ("side:column:row", the side by seat number)."""
    try:
        side, column, row = str(text or "").split(":")
        cell = int(side), int(column), escalero.Row(row)
    except ValueError:
        return None
    if not (0 <= cell[0] < len(state.setup.sides) and 1 <= cell[1] <= state.rules["columns"]
            and cell[2] in state.rows):
        return None
    return cell


@dataclass(frozen=True)
class Pick:
    """A cell tapped without five dice (its values to choose from), or a written one to correct."""

    side: int
    column: int
    row: escalero.Row
    values: tuple[int, ...]
    entry: Any = None  # the entry being corrected
    current: int | None = None


@dataclass(frozen=True)
class Tray:
    """What this phone's tray shows of a turn it has not sent."""

    dice: tuple[int, ...]
    served: bool
    options: tuple  # (Placement, cell code) for every open cell of the side on turn, best first
    pick: Pick | None

    @property
    def left(self) -> int:
        return 5 - len(self.dice)


def tray_view(ctx, args) -> Tray:
    played, view = ctx.played, ctx.view
    state = played.state
    dice = read_dice(args.get("dice"), 5) if view.writable_side else ()
    served = args.get("served") == "1" and len(dice) == 5
    options = ()
    if len(dice) == 5 and not played.finished:
        side = view.writable_side
        index = view.index[side]
        options = tuple((option, f"{index}:{option.column}:{option.row.value}")
                        for option in escalero.placements(state, side, escalero.Throw(dice, served)))
    pick = None
    cell = read_cell(args.get("pick"), state)
    if cell and not options and not played.finished:
        side = state.setup.sides[cell[0]].name
        if side == view.writable_side and (cell[1], cell[2]) in state.open_cells(side):
            pick = Pick(*cell, escalero.allowed_values(cell[2], state.rules))
    fixing = played.index_of(args.get("fix")) if args.get("fix") else None
    if fixing is not None and ctx.may_correct(played.entries[fixing][0]):
        entry = state.entries[fixing]
        pick = Pick(view.index[entry.side], entry.column, entry.row, escalero.allowed_values(entry.row, state.rules),
                    played.entries[fixing][0], entry.value)
    return Tray(dice, served, options, pick)


@bp.post("/escalero/score")
def score():
    """A cell written from the tray: with the five dice tapped (and "served") the engine makes
    its value, or with the value picked; "served" says nothing on a picture row. Built inside
    the write, after its key and its board are checked (a retry answers as the first did)."""
    ctx = g.ctx
    if ctx.played.row["game"] != escalero.name:
        raise service.Refused("There is no Escalero game waiting for a throw.", 409)
    cell_field, value, dice, served = field("cell"), field("value").strip(), read_dice(field("dice"), 5), field("served")

    def write_cell(change: service.Write) -> int:
        state = change.played.state
        if state is None:
            raise service.Refused("There is no Escalero game waiting for a throw.", 409)
        cell = read_cell(cell_field, state)
        if cell is None:
            raise service.Refused("Tap a cell of the pad.", 400)
        side, column, row = cell
        event: dict[str, Any] = {"type": "score", "column": column, "row": row.value}
        if value:
            if not digits(value) or len(value) > 4:
                raise service.Refused("Tap one of the values.", 400)
            event["value"] = int(value)
        if len(dice) == 5:
            event["dice"] = list(dice)
            if not row.is_picture:
                event["served"] = served == "1"
        elif "value" not in event:
            raise service.Refused("Tap five dice first.", 400)
        on_turn = state.side_on_turn
        if state.setup.sides[side].name != on_turn:  # a cell of another side than the one on turn
            raise service.Refused("It is %(name)s's turn: write in their column.", 409, name=on_turn)
        return change.submit(event)

    service.write(ctx.db, ctx.table, ctx.who, write_cell, idem(), board())
    return answer()


def filled(phrase: str, **values: Any) -> str:
    """A translated phrase's %(name)s holes filled with plain text (names and small numbers; a
    phrase translated once and filled for every cell of a pad)."""
    for name, value in values.items():
        phrase = phrase.replace(f"%({name})s", str(value))
    return phrase


class Cell(NamedTuple):
    mine: bool  # on this phone's side
    value: int | None  # written, or None: open
    shown: str  # the value as the pad writes it (✕ for a crossed-out cell)
    fix: int | None  # the entry a tap corrects, when this phone may
    pick: bool  # open, and this phone may write it: a button
    label: str  # the button's name for a screen reader


@dataclass(frozen=True)
class EscaleroView:
    """What the Escalero templates read: the pad's sides (this phone's first), and the words
    and values of its rows in the phone's language."""

    state: escalero.State
    rules: Any
    sides: tuple  # this phone's side first, then the others in seat order
    on_turn: str | None
    my_side: str | None
    writable_side: str | None
    written: int  # cells written so far, of `cells` in all
    cells: int
    entries: dict  # (side, column, row) -> the entry (Recorded) that wrote the cell
    index: dict  # side name -> its number in seat order (the parts' ids and the turn line's data-on/-w)
    pickable: frozenset  # the sides whose open cells this phone may ever write (buttons on the pad)
    may_correct: Callable[[Any], bool] | None = None  # whether this phone may correct an entry (None: it writes nothing)

    def cell(self, i: int, column: int, row: Any) -> Cell:
        """What the pad shows in one cell (templates: `cell`), made here in one call: each cell of
        a whole pad asked the view and the context six times through Jinja (~10 % of its render)."""
        side = self.state.setup.sides[i].name
        value = self.state.pads[side].get((column, row))
        if value is None:
            pick = side in self.pickable
            label = self.cell_label(side, column, self.row_label(row)) if pick else ""
            return Cell(side == self.my_side, None, "", None, pick, label)
        shown = "✕" if value == 0 else str(value)
        recorded = self.entries.get((side, column, row))
        if recorded is not None and self.may_correct is not None and self.may_correct(recorded):
            return Cell(side == self.my_side, value, shown, recorded.id, False,
                        self.correct_label(side, column, self.row_label(row), value))
        return Cell(side == self.my_side, value, shown, None, False, "")

    def value_labels(self, row: Any) -> tuple[tuple[int, str, str | None], ...]:
        return value_labels(escalero.Row(row), self.rules)

    @cached_property
    def _cell_label(self) -> str:
        return _("%(side)s column %(column)s, row %(row)s")

    def cell_label(self, side: str, column: int, row_label: str) -> str:
        """A cell's name for a screen reader (the phrase translated once per board)."""
        return filled(self._cell_label, side=side, column=column, row=row_label)

    @cached_property
    def _correct_label(self) -> str:
        return _("Correct %(side)s column %(column)s, row %(row)s: %(value)s")

    def correct_label(self, side: str, column: int, row_label: str, value: int) -> str:
        """A written cell's button's name for a screen reader (the phrase translated once per
        board: the host's whole pad translated it for every written cell, a third of its render)."""
        return filled(self._correct_label, side=side, column=column, row=row_label, value=value)

    @cached_property
    def _row_labels(self) -> dict:
        return {row: row_label(row, self.rules) for row in self.state.rows}

    def row_label(self, row: Any) -> str:
        """A row's word on the pad (its label column and every cell's name for a screen reader):
        looked up once per board. Performance (bench/): a whole pad asked it for every cell."""
        found = self._row_labels.get(row)
        return found if found is not None else row_label(row, self.rules)

    def face(self, face: int) -> str:
        return face_label(face, self.rules)

    def value(self, event: dict) -> str:
        return written_value(event, self.rules)

    def sharing(self, result: Any) -> str | None:
        """Who share the win, level on top of three sides or more (`shared_win`)."""
        return shared_win(result["points"], result)


def view(ctx, played=None) -> EscaleroView | None:
    played = played or ctx.played
    state = played.state
    if state is None:
        return None
    mine = ctx.my_side if played is ctx.played else None
    sides = sorted(state.setup.sides, key=lambda side: side.name != mine)
    entries = {(entry.side, entry.column, entry.row): recorded
               for (recorded, _), entry in zip(played.entries, state.entries)}
    current = played is ctx.played
    if not current or not ctx.can_write:
        pickable = frozenset()
    elif ctx.who.writes_for_all:
        pickable = frozenset(side.name for side in state.setup.sides)
    else:
        pickable = frozenset([mine] if mine else [])
    return EscaleroView(state, state.rules, tuple(sides), state.side_on_turn, mine,
                        ctx.writable_side if current else None,
                        len(state.entries), state.cells_per_side * len(sides), entries,
                        {side.name: i for i, side in enumerate(state.setup.sides)}, pickable,
                        ctx.may_correct if ctx.can_write else None)


def touched(ctx, played, events) -> list[tuple]:
    """The parts of the board a run of entries changed (web/board.py): their cells, the column
    sums and the points where they moved, the history and the tray, swapped whole. Performance
    (bench/): what an entry left as it was is not sent again."""
    view = ctx.view
    state = played.state
    cells = {recorded.id: entry for (recorded, _), entry in zip(played.entries, state.entries)}
    written = [cells[recorded.id] for recorded in events]
    # the tray had the dice pad before these entries: the host's and a scribe's always, a
    # player's when the first of them was its own turn (its faces need not come again)
    had_pad = ctx.can_write and (ctx.who.writes_for_all or written[0].side == view.my_side)
    chosen = [("stamp",), ("history",), ("tray", had_pad)]
    if not ctx.can_write:  # a phone that writes has the turn line in its tray
        chosen.append(("turn",))
    before = {side: list(columns) for side, columns in played.result["columns"].items()}
    for entry in written:
        before[entry.side][entry.column - 1] -= entry.value
        chosen.append(("cell", view.index[entry.side], entry.column, entry.row))
        if entry.value:
            chosen.append(("sum", view.index[entry.side], entry.column))
    # the points as the pad shows them, before these entries and now (the game's result)
    if any(entry.value for entry in written) and {  # a cross-out moves no sum
            side: number(p) for side, p in escalero.points_of(before, state.rules).items()} != played.result["points"]:
        chosen.insert(1, ("points",))
    return chosen


def row_label(row, rules) -> str:
    """A row's label on the pad: the same word a refusal naming the row uses."""
    try:
        return localize(escalero.row_term(escalero.Row(row), rules))
    except ValueError:
        return str(row)


def written_value(event, rules) -> str:
    """The value an entry wrote (given, or made by its dice), for the history."""
    if isinstance(event.get("value"), int):
        return "✕" if not event["value"] else str(event["value"])
    try:
        throw = escalero.Throw(tuple(event["dice"]), bool(event.get("served")))
        value = escalero.throw_value(escalero.Row(event["row"]), throw, rules)
    except (KeyError, TypeError, ValueError, RuleError):
        return "?"
    return "✕" if not value else str(value)


SCREEN = Screen(view, blueprints=(bp,), tray_view=tray_view, touched=touched, ended=(("provisional",),),
                tray_reads_corrections=False)
