"""A table's history (its games, their results and every entry with its corrections) and
importing a game log to see it.

Read-only views over the tables service: the history is shown as the read-only board would
show it, so it offers no buttons; a log comes in as a new table through `service.import_log`.
"""

from __future__ import annotations

from flask import Blueprint, Response, redirect, render_template, request, url_for

from .. import service
from ..gamelog import LogError, parse_json
from .db import get_db
from .i18n import _, translate
from .security import device_id

bp = Blueprint("history", __name__)


@bp.get("/t/<token>/history")
def history(token: str):
    db = get_db()
    table = service.by_join_token(db, token)
    games = [service.load(db, row) for row in service.games_of(db, table["id"])]
    response = Response(render_template(
        "history.html", table=table, games=games, ledger=service.ledger(db, table["id"]),
        who=service.viewer(db, table, "", read_only=True)))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/import")
def import_form():
    return render_template("import.html")


@bp.post("/import")
def import_log():
    """A log from a file (or pasted) becomes a new table hosted by this device; its history
    page shows it. A refused log leaves nothing behind and says why in one line."""
    upload = request.files.get("log")
    text = upload.read() if upload and upload.filename else request.form.get("text", "").strip()
    if not text:
        return render_template("import.html", message=_("Choose a game log file (or paste one) first.")), 400
    try:
        table = service.import_log(get_db(), parse_json(text), device=device_id())
    except LogError as error:
        return render_template("import.html", message=translate(error),
                               text=text if isinstance(text, str) else ""), 400
    return redirect(url_for("history.history", token=table["join_token"]), 303)
