"""The big-screen board: the read-only live board laid out for a TV or tablet in the middle of
the table, with large type and the join QR code in a corner.

It is the board of /b/<token> (the same rendering and live stream), under its own layout and
stylesheet. The big screen stands on the table for everyone there, so it shows the join QR code.

The evening goes on: once the host opens the next game from the settlement's link (the old
table keeps `next_table`, service.follow_on), the read-only board and the big screen of the old
table move on by themselves to the new table's — its board token, read-only like theirs, never
its join link — while the finished game they followed is the table's (a rematch keeps them).
Markup only: the board carries an element that asks `/tv/next` on load, whose answer is an
HX-Redirect (templates/_board.html).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Response, abort, g, redirect, render_template, request, url_for

from .. import service
from .context import TableContext, table_blueprint
from .table import board_html
from .writes import fragment

bp = table_blueprint("tv", __name__)


@bp.get("/tv")
def tv():
    ctx = g.ctx
    response = Response(render_template("tv.html", ctx=ctx, change=ctx.change, board_html=board_html(ctx)))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/tv/join")
def join():
    """The big screen's QR code as the table's join link stands now: a new link made by the
    host reaches the screen within its poll (templates/_tv_join.html)."""
    return fragment(render_template("_tv_join.html", ctx=g.ctx))


@bp.app_template_global("moves_on")
def moves_on(ctx: TableContext) -> str | None:
    """The board token of the table the evening went on at (service.went_on_at), for the
    read-only board of the table it came from; else None."""
    if not ctx.who.read_only or not ctx.table.get("next_table"):
        return None
    went = service.went_on_at(ctx.db, ctx.table, ctx.game_row["id"])
    return went["board_token"] if went else None


@bp.get("/tv/next")
def follow():
    """Where the read-only board or big screen goes on to: the new table's own (the page that
    asked, by htmx's HX-Current-URL). Nothing to follow (a join link, a rematch here, a stale
    or forged request): a 404 in words."""
    token = moves_on(g.ctx)
    if token is None:
        abort(404)
    page = urlsplit(request.headers.get("HX-Current-URL", "")).path
    to = url_for("tv.tv" if page.endswith("/tv") else "table.table", link="b", token=token)
    if not request.htmx:
        return redirect(to, 303)
    response = fragment("")
    response.headers["HX-Redirect"] = to
    return response
