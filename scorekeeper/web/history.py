"""A table's history (its games, their results and every entry with its corrections) and
importing a game log to see it.

Read-only views over the tables service: the history is shown as the read-only board would
show it, so it offers no buttons; a log comes in as a new table through `service.import_log`.
"""

from __future__ import annotations

from flask import Blueprint, Response, g, redirect, render_template, request

from .. import service
from ..gamelog import LogError, parse_json
from .context import table_blueprint, table_url
from .db import get_db
from .i18n import _, say, translate
from .security import client_address, device_id

bp = table_blueprint("history", __name__)
imports = Blueprint("imports", __name__)


@bp.get("/history")
def history():
    g.ctx.require_join_link()
    ctx = g.ctx.as_board()
    games = [service.load(ctx.db, row) for row in service.games_of(ctx.db, ctx.table["id"])]
    response = Response(render_template("history.html", ctx=ctx, table=ctx.table, games=games,
                                        ledger=ctx.ledger, who=ctx.who))
    response.headers["Cache-Control"] = "no-store"
    return response


@imports.get("/import")
def import_form():
    return render_template("import.html")


@imports.post("/import")
def import_log():
    """A log from a file (or pasted) becomes a new table hosted by this device; its history
    page shows it. A refused log leaves nothing behind and says why in one line."""
    upload = request.files.get("log")
    text = upload.read() if upload and upload.filename else request.form.get("text", "").strip()
    if not text:
        return render_template("import.html", message=_("Choose a game log file (or paste one) first.")), 400
    try:
        table = service.import_log(get_db(), parse_json(text), device=device_id(), address=client_address())
    except LogError as error:
        return render_template("import.html", message=translate(error),
                               text=text if isinstance(text, str) else ""), 400
    except service.Refused as refusal:  # past the limit of imports
        return render_template("import.html", message=say(refusal)), refusal.status
    return redirect(table_url("history.history", table), 303)
