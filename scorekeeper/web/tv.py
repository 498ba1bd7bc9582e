"""The big-screen board: the read-only live board laid out for a TV or tablet in the middle of
the table, with large type and the join QR code in a corner.

It is the board of /b/<token> (the same rendering and live stream), under its own layout and
stylesheet. The big screen stands on the table for everyone there, so it shows the join QR code.
"""

from __future__ import annotations

from flask import Response, g, render_template

from .context import table_blueprint
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
