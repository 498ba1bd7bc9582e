"""The big-screen board: the read-only live board laid out for a TV or tablet in the middle of
the table, with large type and the join QR code in a corner.

It is the board of /b/<token> (the same rendering and live stream), under its own layout and
stylesheet. The big screen stands on the table for everyone there, so it shows the join QR code
— opened by the host's link, which carries the table's screen key (`screen_key`). The board
link without it is a big screen with no way in: a read-only link that travelled beyond the
table (a group chat, a photo of the screen's address) led whoever held it to a seat.

The evening goes on: once the host opens the next game from the settlement's link (the old
table keeps `next_table`, service.follow_on), the read-only board and the big screen of the old
table move on by themselves to the new table's — its board token, read-only like theirs, never
its join link — while the finished game they followed is the table's (a rematch keeps them).
Markup only: the board carries an element that asks `/tv/next` on load, whose answer is an
HX-Redirect (templates/_board.html).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from urllib.parse import parse_qs, urlsplit

from flask import Response, abort, current_app, g, redirect, render_template, request, url_for

from .. import service
from .context import TableContext, table_blueprint
from .table import board_html
from .writes import fragment

bp = table_blueprint("tv", __name__)


@bp.app_template_global("screen_key")
def screen_key(board_token: str) -> str:
    """The key of a table's big screen: the board link with it shows the join QR code. A MAC of
    the board token under the app's secret, so it needs no column of its own, and the screen
    that follows the evening to the next table gets that table's key (`follow`)."""
    secret = current_app.secret_key
    secret = secret if isinstance(secret, bytes) else str(secret).encode()
    digest = hmac.new(secret, b"screen:" + board_token.encode(), hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def shows_the_way_in(ctx: TableContext, key: str | None) -> bool:
    """Whether this big screen shows the join QR code: on the join link (its holder has the way
    in already), or on the board link with the table's screen key."""
    if not ctx.who.read_only:
        return True
    return isinstance(key, str) and hmac.compare_digest(key.encode(), screen_key(ctx.table["board_token"]).encode())


@bp.get("/tv")
def tv():
    ctx = g.ctx
    key = request.args.get("screen")
    response = Response(render_template("tv.html", ctx=ctx, change=ctx.change, board_html=board_html(ctx),
                                        way_in=shows_the_way_in(ctx, key), screen=key if ctx.who.read_only else None))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/tv/join")
def join():
    """The big screen's QR code as the table's join link stands now: a new link made by the
    host reaches the screen within its poll (templates/_tv_join.html). Without the screen key,
    a 404: the board link shows no way in."""
    key = request.args.get("screen")
    if not shows_the_way_in(g.ctx, key):
        abort(404)
    return fragment(render_template("_tv_join.html", ctx=g.ctx, screen=key if g.ctx.who.read_only else None))


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
    page = urlsplit(request.headers.get("HX-Current-URL", ""))
    # a big screen with the way in goes on with it: the next table's key
    key = parse_qs(page.query).get("screen", [None])[0]
    more = {"screen": screen_key(token)} if page.path.endswith("/tv") and shows_the_way_in(g.ctx, key) else {}
    to = url_for("tv.tv" if page.path.endswith("/tv") else "table.table", link="b", token=token, **more)
    if not request.htmx:
        return redirect(to, 303)
    response = fragment("")
    response.headers["HX-Redirect"] = to
    return response
