"""The start page and each game's rules page."""

from __future__ import annotations

from flask import Blueprint, abort, render_template

from ..games import ENGINES
from .i18n import _

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    return render_template("index.html", engines=ENGINES.values())


@bp.get("/rules/<game>")
def rules(game: str):
    engine = ENGINES.get(game) or abort(404, _("There is no such game."))
    return render_template(f"rules/{game}.html", engine=engine)
