"""The big-screen board: the read-only live board laid out for a TV or tablet in the middle of
the table, with large type and the join QR code in a corner.

It is the board of /b/<token> (the same rendering and live stream), under its own layout and
stylesheet. The big screen stands on the table for everyone there, so it shows the join QR code.
"""

from __future__ import annotations

from flask import Blueprint, Response, render_template

from .. import service, store
from .db import get_db
from .table import board_html, join_url

bp = Blueprint("tv", __name__)


@bp.get("/b/<token>/tv")
def tv(token: str):
    db = get_db()
    table = service.by_board_token(db, token)
    who = service.viewer(db, table, "", read_only=True)
    played = service.load(db, service.current_game(db, table["id"]))
    change = store.last_change(db, table["id"])  # before the board: the stream sends anything newer
    response = Response(render_template("tv.html", table=table, who=who, played=played, change=change,
                                        board_html=board_html(table, who), join_url=join_url(table)))
    response.headers["Cache-Control"] = "no-store"
    return response
