"""Escalero on the table screen: its view model, the values offered per row, and where a throw could go."""

from __future__ import annotations

import json

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from flask import g, render_template, request
from flask_babel import get_locale

from ... import service
from ...games import escalero
from ...games.base import RuleError
from ..context import table_blueprint
from ..i18n import _, localize, pgettext

bp = table_blueprint("escalero", __name__)


def choices(row: escalero.Row, rules) -> str:
    """[[value, label], …] for the value picker of a row, as JSON for the page (labels in the
    phone's language). Performance (bench/): the same for every board of a table in a
    language, so made once per rules and language."""
    return _choices(row, tuple(sorted(rules.items())), str(get_locale()))


@lru_cache(maxsize=1024)
def _choices(row: escalero.Row, rules_items: tuple, locale: str) -> str:
    rules = dict(rules_items)
    options = []
    for value in escalero.allowed_values(row, rules):
        if value == 0:
            label = _("✕ cross out")
        elif row.is_picture:
            # TRANSLATORS: a button of the value picker: 3 dice of the row's face → 12 points
            label = _("%(count)s× → %(value)s", count=value // row.face, value=value)
        elif value in (escalero.allowed_values(row, rules)[1],) or row is escalero.Row.DOUBLE_GRANDE:
            label = f"{value}"
        else:
            label = _("%(value)s served", value=value)
        options.append([value, label])
    return json.dumps(options, ensure_ascii=False)


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


@bp.get("/escalero/placements")
def placements():
    """Buttons for every open cell of the side on turn, best first, for the dice given."""
    ctx = g.ctx
    played = ctx.played
    if played.row["game"] != "escalero" or played.game is None or played.finished:
        raise service.Refused("There is no Escalero game waiting for a throw.", 409)
    try:
        dice = tuple(int(d) for d in request.args.get("dice", "").split(",")[:6])
        throw = escalero.Throw(dice, request.args.get("served") in ("1", "true", "on"))
    except (ValueError, RuleError):
        raise service.Refused("Tap five dice first.", 400) from None
    side = played.state.side_on_turn
    options = escalero.placements(played.state, side, throw)
    # `seen`: the entries this offer was made for; a tap that arrives after another phone (or
    # the host) wrote this turn is refused by service.submit instead of filling the next side's cell
    return render_template("games/escalero/_placements.html", ctx=ctx, view=ctx.view, options=options,
                           throw=throw, side=side, seen=len(played.entries))


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

    def choices(self, row: Any) -> str:
        return choices(escalero.Row(row), self.rules)

    @cached_property
    def _cell_label(self) -> str:
        return _("%(side)s column %(column)s, row %(row)s")

    def cell_label(self, side: str, column: int, row_label: str) -> str:
        """A cell's name for a screen reader (the phrase translated once per board)."""
        return self._cell_label.replace("%(side)s", side).replace("%(column)s", str(column)).replace(
            "%(row)s", row_label)

    def row_label(self, row: Any) -> str:
        return row_label(row, self.rules)

    def face(self, face: int) -> str:
        return face_label(face, self.rules)

    def value(self, event: dict) -> str:
        return written_value(event, self.rules)


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
                        {side.name: i for i, side in enumerate(state.setup.sides)}, pickable)


def touched(ctx, played, events) -> list[tuple]:
    """The parts of the board a run of entries changed (web/board.py): their cells and
    column sums, the points, the turn line and the tray's status — and the dice for a phone
    that writes only on its own turns (its turn began or ended)."""
    view = ctx.view
    cells = {recorded.id: entry for (recorded, _), entry in zip(played.entries, played.state.entries)}
    chosen = [("stamp",), ("turn",), ("points",), ("history",)]
    if ctx.can_write:
        chosen += [("tray_status",)] if ctx.who.writes_for_all else [("tray_status",), ("tray_body",)]
    for recorded in events:
        entry = cells[recorded.id]
        chosen += [("cell", view.index[entry.side], entry.column, entry.row),
                   ("sum", view.index[entry.side], entry.column)]
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


def init_app(app) -> None:
    app.register_blueprint(bp)
