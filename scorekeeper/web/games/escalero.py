"""Escalero on the table screen: the values offered per row, and where a throw could go."""

from __future__ import annotations

import json

from flask import Blueprint, render_template, request

from ... import service
from ...games import escalero
from ...games.base import RuleError
from ..db import get_db
from ..i18n import _, localize, pgettext
from ..security import device_id

bp = Blueprint("escalero", __name__)


def choices(row: escalero.Row, rules) -> str:
    """[[value, label], …] for the value picker of a row, as JSON for the page (labels in the
    phone's language)."""
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


@bp.get("/t/<token>/escalero/placements")
def placements(token: str):
    """Buttons for every open cell of the side on turn, best first, for the dice given."""
    db = get_db()
    table = service.by_join_token(db, token)
    who = service.viewer(db, table, device_id())
    played = service.load(db, service.current_game(db, table["id"]))
    if played.row["game"] != "escalero" or played.game is None or played.finished:
        raise service.Refused("There is no Escalero game waiting for a throw.", 409)
    try:
        dice = tuple(int(d) for d in request.args.get("dice", "").split(",")[:6])
        throw = escalero.Throw(dice, request.args.get("served") in ("1", "true", "on"))
    except (ValueError, RuleError):
        raise service.Refused("Tap five dice first.", 400) from None
    side = played.state.side_on_turn
    writes = who.writes_for_all or (who.name in played.writers())
    options = escalero.placements(played.state, side, throw)
    # `seen`: the entries this offer was made for; a tap that arrives after another phone (or
    # the host) wrote this turn is refused by service.submit instead of filling the next side's cell
    return render_template("games/escalero/_placements.html", options=options, throw=throw,
                           side=side, writes=writes, table=table, rules=played.state.rules,
                           seen=len(played.entries))


def row_label(row, rules) -> str:
    """A row's label on the pad: the same word a refusal naming the row uses."""
    try:
        return localize(escalero.row_term(escalero.Row(row), rules))
    except ValueError:
        return str(row)


def written_value(event, rules) -> str:
    """The value a dice entry wrote, for the history."""
    try:
        throw = escalero.Throw(tuple(event["dice"]), bool(event.get("served")))
        value = escalero.throw_value(escalero.Row(event["row"]), throw, rules)
    except (KeyError, TypeError, ValueError, RuleError):
        return "?"
    return "✕" if not value else str(value)


def init_app(app) -> None:
    app.register_blueprint(bp)
    app.jinja_env.globals.update(escalero_choices=choices, escalero_face=face_label, row_label=row_label,
                                 escalero_value=written_value, row_of=escalero.Row)
