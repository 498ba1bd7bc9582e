"""The start page and each game's rules page."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, session

from .. import service
from ..games import ENGINES
from .db import get_db
from .i18n import _

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    return render_template("index.html", engines=ENGINES.values(), mine=my_tables())


def my_tables() -> list[tuple[dict, service.Played, int]]:
    """This device's tables (hosted or seated), each with its current game and how many it
    has had. The session's device id is read, never made: a first visit has none."""
    device = session.get("device")
    if not isinstance(device, str):
        return []
    db = get_db()
    out = []
    for table in service.tables_of(db, device):
        games = service.games_of(db, table["id"])
        out.append((table, service.load(db, games[-1]), len(games)))
    return out


@bp.get("/rules/<game>")
def rules(game: str):
    engine = ENGINES.get(game) or abort(404, _("There is no such game."))
    return render_template(f"rules/{game}.html", engine=engine)
