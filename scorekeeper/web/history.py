"""A table's history (its games, their results and every entry with its corrections),
importing a game log to see it, and the host's answer to an imported game that names the table.

The history is shown as the read-only board would show it, so it offers no buttons on the
games; a log comes in as a new table through `service.import_log`, and may name the real table
it was played at, whose host then confirms its money or dismisses it there.
"""

from __future__ import annotations

from flask import Blueprint, Response, g, redirect, render_template, request, url_for

from .. import metrics, service
from ..gamelog import LogError, parse_json
from .context import table_blueprint, table_url
from .db import get_db
from .i18n import _, say, translate
from .security import client_address, device_id

bp = table_blueprint("history", __name__)
imports = Blueprint("imports", __name__)


@bp.get("/history")
def history():
    g.ctx.require_join_link("history")
    host = g.ctx.may("answer_claim")
    ctx = g.ctx.as_board()
    games = [service.load(ctx.db, row) for row in service.games_of(ctx.db, ctx.table["id"])]
    table_id = ctx.table["id"]
    claims = service.claims_at(ctx.db, table_id) if not ctx.table["imported"] else []
    claim = service.claim_of(ctx.db, table_id) if ctx.table["imported"] else None
    response = Response(render_template("history.html", ctx=ctx, table=ctx.table, games=games,
                                        ledger=ctx.ledger, who=ctx.who, host=host, claims=claims, claim=claim))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/claims/<int:claim_id>")
def answer_claim(claim_id: int):
    """The host confirms an imported game's money (`answer=confirm`) or dismisses it."""
    service.answer_claim(g.ctx.db, g.ctx.table, g.ctx.who, claim_id, request.form.get("answer", ""))
    return redirect(url_for("history.history") + "#claims", 303)


@imports.get("/import")
def import_form():
    return render_template("import.html")


@imports.post("/import")
def import_log():
    """A log from a file (or pasted) becomes a new table hosted by this device; its history
    page shows it. A refused log leaves nothing behind and says why in one line."""
    upload = request.files.get("log")
    text = upload.read() if upload and upload.filename else request.form.get("text", "").strip()
    played_at = request.form.get("played_at", "")[:40]
    if not text:
        return render_template("import.html", message=_("Choose a game log file (or paste one) first."),
                               played_at=played_at), 400
    try:
        table = service.import_log(get_db(), parse_json(text), device=device_id(), address=client_address(),
                                   played_at=played_at)
    except LogError as error:
        return render_template("import.html", message=translate(error), played_at=played_at,
                               text=text if isinstance(text, str) else ""), 400
    except service.Refused as refusal:  # past the limit of imports, or a table it may not name
        metrics.refused(refusal)
        return render_template("import.html", message=say(refusal), played_at=played_at,
                               text=text if isinstance(text, str) else ""), refusal.status
    return redirect(table_url("history.history", table), 303)
