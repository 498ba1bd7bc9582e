"""A table's history (its games, their results and every entry with its corrections),
importing a game log to see it, and the host's answer to an imported game that names the table.

The history is shown as the read-only board would show it, so it offers no buttons on the
games; a log comes in as a new table through `service.import_log`, and may name the real table
it was played at, whose host then confirms its money or dismisses it there.

A game's rows come a page at a time, newest first (`PAGE_ROWS`), each page ending in a button
that fetches the page before it in its place (`_history_rows.html`): an imported log of 2,000
events rendered whole held a worker for seconds (issue 25). The games too (`GAMES_PAGE`): a
table's host can play hundreds of one-turn games. Pages are for the join link only: the
read-only board shows the newest rows and no more.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, g, redirect, render_template, request, url_for

from .. import metrics, service
from ..gamelog import LogError, cooperate, paced, parse_json
from ..games.base import Text
from .context import TableContext, table_blueprint, table_url
from .db import get_db
from .i18n import _, say, when
from .security import client_address, device_id
from .writes import change_of, fragment

bp = table_blueprint("history", __name__)
imports = Blueprint("imports", __name__)

# a JSON file that is no game log at all (a phone's downloads hold many): "format: must be
# "scorekeeper-log/1", not None" told a player nothing
NOT_A_LOG = Text("This file is not a Scorekeeper game log: each game on a table's history page has one to "
                 "download (\"Download the log\").")
PAGE_ROWS = 50  # history rows a page of the history page
GAMES_PAGE = 10  # games a page of the history page
BOARD_PAGE_ROWS = 25  # a page of the board's earlier entries, whose rows may carry their corrections


def played_from(played: service.Played) -> str | None:
    """When an imported game was played, as far as its log says (`stats.started`): its
    `started_at`, else its first entry's `at`; None where neither is a time (entries played on
    at the table after the import say nothing of when the log's game began)."""
    for started in (played.header.get("started_at"), played.history[0].at if played.history else None):
        if isinstance(started, str) and when(started):  # "" for no time (i18n.when)
            return started
    return None


bp.add_app_template_global(played_from)


def rows_page(ctx: TableContext, played: service.Played, more_url, skip: int = 0, count: int = PAGE_ROWS) -> str:
    """A page of `played`'s history rows, newest first, older than the row the request names
    (`before`), or from the newest on leaving out `skip` rows; with the button that fetches the
    page before it (`more_url(before)`: its URL)."""
    rows, before = played.rows(change_of(request.args.get("before")), count, skip)
    return render_paced("_history_rows.html", ctx=ctx, table=ctx.table, who=ctx.who, change=ctx.change,
                        played=played, view=ctx.view_of(played), engine=played.engine, result=played.result,
                        rows=rows, more=more_url(before) if before is not None else None)


def render_paced(name: str, **context) -> str:
    """`render_template`, letting the worker's other requests run between the pieces of the
    page (`gamelog.paced`): a page of history rows with their corrections takes tens of ms."""
    template = current_app.jinja_env.get_template(name)
    current_app.update_template_context(context)
    return "".join(paced(template.generate(context)))


def games_page(ctx: TableContext, rows: list[dict]) -> dict:
    """A page of the table's games, newest first: the newest GAMES_PAGE of `rows` (the table's
    games, oldest first) folded, and the URL of the page before them (None: there is none)."""
    chosen = rows[-GAMES_PAGE:][::-1]
    games = []
    for row in chosen:
        games.append(service.load(ctx.db, row))
        cooperate()  # a few folds: the worker's other requests go on between them
    more = url_for("history.games", before=chosen[-1]["number"]) if len(rows) > GAMES_PAGE else None
    return {"games": games, "more": more, "page_rows": PAGE_ROWS}


@bp.get("/history")
def history():
    g.ctx.require_history()
    host = g.ctx.may("answer_claim")
    code = None if g.ctx.who.read_only else g.ctx.table["code"]  # the code lets in: the join link's
    ctx = g.ctx.as_board()
    rows = service.games_of(ctx.db, ctx.table["id"])
    table_id = ctx.table["id"]
    claims = service.claims_at(ctx.db, table_id) if not ctx.table["imported"] else []
    claim = service.claim_of(ctx.db, table_id) if ctx.table["imported"] else None
    response = Response(render_paced("history.html", ctx=ctx, table=ctx.table, ledger=ctx.ledger, who=ctx.who,
                                     host=host, claims=claims, claim=claim, code=code,
                                     kinds=sorted({row["game"] for row in rows}), **games_page(ctx, rows)))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/history/games")
def games():
    """A page of the history's games before game `before` (a table may play hundreds)."""
    g.ctx.require_history()
    ctx = g.ctx.as_board()
    before = change_of(request.args.get("before"))
    rows = [row for row in service.games_of(ctx.db, ctx.table["id"]) if before is None or row["number"] < before]
    return fragment(render_paced("_history_games.html", ctx=ctx, table=ctx.table, who=ctx.who,
                                 **games_page(ctx, rows)))


@bp.get("/history/games/<int:number>/rows")
def rows(number: int):
    """A page of a game's rows on the history page (`before`: the oldest row shown)."""
    g.ctx.require_history()
    ctx = g.ctx.as_board()
    row = service.game_numbered(ctx.db, ctx.table["id"], number)
    if row is None:
        abort(404)
    return fragment(rows_page(ctx, service.load(ctx.db, row),
                              lambda before: url_for("history.rows", number=number, before=before)))


@bp.post("/claims/<int:claim_id>")
def answer_claim(claim_id: int):
    """The host confirms an imported game's money (`answer=confirm`) or dismisses it."""
    service.answer_claim(g.ctx.db, g.ctx.table, g.ctx.who, claim_id, request.form.get("answer", ""))
    return redirect(url_for("history.history") + "#claims", 303)


@imports.get("/import")
def import_form():
    return render_template("import.html")


@imports.errorhandler(413)
def import_too_big(error):
    """A file past the app's limit (MAX_CONTENT_LENGTH, read before the view: the CSRF check
    reads the form): the import page again, saying so; it was a page with no way on but home."""
    most = current_app.config["MAX_CONTENT_LENGTH"] // 1024
    return render_template("import.html", message=_("That file is too big to import here: at most %(size)s KB.",
                                                      size=most)), 413


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
        doc = parse_json(text)
        if isinstance(doc, dict) and "format" not in doc:
            raise LogError(NOT_A_LOG)
        table = service.import_log(get_db(), doc, device=device_id(), address=client_address(),
                                   played_at=played_at)
    except LogError as error:  # the log format's one line, as a sentence
        return render_template("import.html", message=say(error), played_at=played_at,
                               text=text if isinstance(text, str) else ""), 400
    except service.Refused as refusal:  # past the limit of imports, or a table it may not name
        metrics.refused(refusal)
        return render_template("import.html", message=say(refusal), played_at=played_at,
                               text=text if isinstance(text, str) else ""), refusal.status, refusal.headers()
    return redirect(table_url("history.history", table), 303)
