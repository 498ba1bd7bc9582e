"""The table screens: join a table, enter results, watch it live, settle up.

Every route here is about one table, on its join link (`/t/<token>/…`) or its read-only
board (`/b/<token>/…`); `g.ctx` (web/context.py) is that table as this viewer sees it.
Views stay thin: they read the request, call the table service and render. A refusal is a
4xx with the service's message, shown in the page's message area; nothing is written.
"""

from __future__ import annotations

import io
import json
import sqlite3
import time

import qrcode
import qrcode.image.svg
from flask import Response, current_app, g, redirect, render_template, request, url_for
from flask.globals import request_ctx
from jinja2 import TemplateNotFound
from werkzeug.exceptions import HTTPException

from .. import metrics, policy, service, store
from ..gamelog import paced
from ..live import Gzip, deflate
from . import board as boards
from .context import TableContext, table_blueprint
from .db import close_db, hub
from .history import BOARD_PAGE_ROWS, rows_page
from .i18n import _, say
from .links import base_url
from .security import client_address
from .writes import answer, board as board_version, change_of, field, fragment, idem, json_field, idem_key, number_field

bp = table_blueprint("table", __name__)
bp.add_app_template_global(idem_key, "idem")
bp.add_app_template_global(service.seat_mark, "seat_mark")
bp.add_app_template_global(policy.HOST_GONE, "host_gone")
bp.add_app_template_global(policy.opened, "opened")  # the table is its own: never removed

# --- the table screen -------------------------------------------------------------------------


@bp.get("")
def table():
    ctx: TableContext = g.ctx
    # Performance (bench/): the page's live stream starts from the change its board shows
    # (taken before the board, so nothing newer is missed) instead of sending it all again
    change = ctx.change
    response = Response(render_template("table.html", ctx=ctx, change=change,
                                        board_html=board_html(ctx), tapped=None))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.app_template_global("join_url")
def join_url(table: dict) -> str:
    return base_url() + url_for("table.table", link="t", token=table["join_token"])


def board_html(ctx: TableContext) -> str:
    """The whole live part of the table screen, as this viewer sees it now."""
    return boards.inner(ctx, ctx.change)


@bp.get("/board")
def board():
    """The whole board; with `since` (the change the phone's board shows: a poll while the
    live stream is down), only what changed since."""
    return fragment(boards.message(g.ctx, change_of(request.args.get("since")), hub())[0])


@bp.get("/tray")
def tray():
    """This phone's tray with what it has tapped and not sent (the tray form's own fields: the
    dice of a throw, a cell picked, a hand being chosen): the server renders the way to enter
    the turn, and the tray swaps itself whole (the game's `games/<game>/_tray.html`)."""
    ctx: TableContext = g.ctx
    return fragment(boards.tray(ctx, ctx.change, request.args, change_of(request.args.get("change"))))


@bp.get("/board/earlier")
def board_earlier():
    """The history rows before the newest (TableContext.recent_rows), a page at a time (`before`:
    the oldest row shown; web/history.py), on the join link only: the read-only board shows the
    newest rows (issue 25: anyone with a board link fetched a 2,000-row history in a loop).
    Performance (bench/): the board that every entry and live update sends keeps only the
    newest; the rest comes when a phone asks."""
    ctx: TableContext = g.ctx
    ctx.require_join_link()
    return fragment(rows_page(ctx, ctx.played, lambda before: url_for("table.board_earlier", before=before),
                              skip=ctx.recent_rows, count=BOARD_PAGE_ROWS))


@bp.get("/history/<int:event_id>/fix")
def fix(event_id: int):
    """The buttons that correct one entry (the game's `games/<game>/_correct_body.html`), asked
    when its history row's "Correct" is opened: every row of a host's board carried them all,
    and every entry's answer its new row's (a card game's hand: an answer of 1.5 KB, past the
    1 KB of issue 26). Only to a phone that may correct that entry now (policy: `correct`)."""
    ctx: TableContext = g.ctx
    played = ctx.played
    recorded = next((r for r in reversed(played.history) if r.id == event_id and r.kind == "entry"), None)
    if recorded is None or played.current(recorded.id) is None:
        raise service.Refused("That entry is no longer on the board: check the board.", 404)
    policy.require("correct", ctx.who, played, recorded)
    try:
        template = current_app.jinja_env.get_template(f"games/{played.row['game']}/_correct_body.html")
    except TemplateNotFound:  # a game whose entries are corrected on its pad (asked by hand: was a 500)
        raise service.Refused("This game's entries are corrected on the board itself.", 404) from None
    return fragment(template.render(**boards.variables(ctx, ctx.change), recorded=recorded))


# --- live ------------------------------------------------------------------------------------


@bp.get("/live")
def live():
    """Server-sent events: what changed each time the table changes — the parts an entry
    touched, or the whole board (web/board.py). A phone that comes back with Last-Event-ID
    gets what it missed at once."""
    ctx: TableContext = g.ctx
    seen = change_of(request.headers.get("Last-Event-ID") or request.args.get("since")) or 0
    close_db()  # a stream holds no database connection of its own
    live_hub = hub()
    lifetime = current_app.config.get("STREAM_SECONDS", 300)
    keepalive = current_app.config.get("KEEPALIVE_SECONDS", 15)
    # gzip as sent: each message deflated alone and stitched into the stream (live.Gzip)
    gzip = Gzip() if "gzip" in request.headers.get("Accept-Encoding", "") else None
    table_id = ctx.table["id"]
    opened = ctx.token  # the link this stream was opened on
    fresh = None  # the table's seating mark (Hub.marks) as of which `ctx` says who is looking

    def send(data: bytes, deflated: bytes) -> bytes:
        return gzip.send(data, deflated) if gzip else data

    def update() -> bytes | None:
        """What changed since `seen`, as this stream sends it: framed and deflated once for
        every stream of its kind (Hub.packed); a message at most every Hub.send_every of the
        table (web/board.py, `streamed`); None when the host gave the table a new join link
        and this phone is neither the host nor seated: its old link no longer shows the table
        (a removed phone's open page got the new code with the next board). Performance
        (bench/): a function of its own, so that the idle stream's frame keeps no reference to
        the message (a whole board is ~30 KB, and each phone of a table is a kind of its own)."""
        nonlocal seen, ctx, fresh
        base = seen
        while True:
            change, seating = live_hub.marks(table_id)
            if fresh is None or seating > fresh:
                # who is looking as they stand now: a seat let in, turned away or removed, a new
                # link — changes that are no event of the game (entries, undos and corrections
                # change nobody's seat: issue 25, hundreds of streams each asking at every one)
                fresh = seating
                g.ctx = ctx = live_hub.query(ctx.afresh)
                if ctx.token != opened and not ctx.who.follows_a_new_link:
                    return None
            found = boards.streamed(ctx, base or None, change, live_hub)
            if not isinstance(found, float):
                break
            time.sleep(found)  # the table's streams were sent another change just now: the next one, then
        key, html, seen = found
        metrics.sent(table_id, base)
        data, deflated = live_hub.packed(key, html, seen, gzip is not None)
        return send(data, deflated)

    requested = request_ctx._get_current_object()

    def events():
        # the request's context while the stream runs (url_for, the phone's language), as
        # flask.stream_with_context keeps it, without its generator around this one
        with requested:
            ends = time.monotonic() + lifetime
            if gzip:
                yield Gzip.HEADER
            yield send(*RETRY)
            while time.monotonic() < ends:
                change = live_hub.marks(table_id)[0]
                # a phone past the table's change (its database was restored: store.carry_the_clock)
                # gets the whole board at once, not silence until the table catches up
                if change != seen:
                    message = update()
                    if message is None:  # a new link, and this phone does not follow it
                        break
                    yield message
                    message = None  # not kept by the idle stream's frame (see `update`)
                    # Performance (bench/): an empty piece sends nothing, but makes the WSGI
                    # server's loop let go of the message just sent, which it would otherwise
                    # hold for every idle phone
                    yield b""
                    continue
                if not live_hub.wait(table_id, keepalive):
                    yield send(*STILL_HERE)
            if gzip:
                yield gzip.end()

    response = Response(events(), mimetype="text/event-stream")
    # Performance (issue 27): the generator is the WSGI answer itself, not wrapped in werkzeug's
    # two iterators: a stream waits inside every layer around it, and its greenlet keeps their
    # frames and its stack down to them, per phone
    response.direct_passthrough = True
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    if gzip:
        response.headers["Content-Encoding"] = "gzip"
        response.vary.add("Accept-Encoding")
    return response


def packed(text: str) -> tuple[bytes, bytes]:
    """A constant piece of a live stream as it is, and deflated for a gzip stream."""
    data = text.encode()
    return data, deflate(data)


RETRY = packed("retry: 1000\n\n")
# an event, not a comment: the page hears it, and gives up a stream that has gone silent (app.js)
STILL_HERE = packed("event: alive\ndata:\n\n")


# --- writes ----------------------------------------------------------------------------------


@bp.post("/join")
def join():
    ctx: TableContext = g.ctx
    new_name = field("name") if "name" in request.form else None
    service.join(ctx.db, ctx.table, ctx.who.device, seat_id=field("seat") or None, new_name=new_name,
                 address=client_address())
    return answer()


SEATS_OPEN = {"seats": "open"}  # the host's answer keeps the seat list open where it was tapped


@bp.post("/seats/<int:seat_id>/free")
def free_seat(seat_id: int):
    service.release_seat(g.ctx.db, g.ctx.table, g.ctx.who, seat_id, sat=sat(), idem=idem())
    return answer(SEATS_OPEN)


@bp.post("/seats/<int:seat_id>/remove")
def remove_phone(seat_id: int):
    """The host frees a seat and keeps the phone that sat there out of the table."""
    service.release_seat(g.ctx.db, g.ctx.table, g.ctx.who, seat_id, remove=True, sat=sat(), idem=idem())
    return answer(SEATS_OPEN)


@bp.post("/seats/<int:seat_id>/let-in")
def let_in(seat_id: int):
    service.let_in(g.ctx.db, g.ctx.table, g.ctx.who, seat_id, yes=field("answer") != "no", sat=sat(), idem=idem())
    return answer(SEATS_OPEN)


@bp.post("/seats/<int:seat_id>/host")
def hand_host(seat_id: int):
    """The host hands the table to the phone in a seat."""
    service.hand_host(g.ctx.db, g.ctx.table, g.ctx.who, seat_id, sat=sat(), idem=idem())
    return answer(SEATS_OPEN)


@bp.post("/host")
def take_host():
    """This phone takes over as host (policy: the phone that opened the table, or a seat once
    the host's phone has been away a while)."""
    service.take_host(g.ctx.db, g.ctx.table, g.ctx.who, idem=idem())
    return answer()


def sat() -> str | None:
    """Which phone the host's seat list showed in the seat tapped (service.seat_mark), if it says."""
    return field("sat") if "sat" in request.form else None


@bp.post("/settings")
def settings():
    """The host's settings: new seats wait for a yes; a new join link and code."""
    ctx: TableContext = g.ctx
    approve = {"on": True, "off": False}.get(field("approve_seats"))
    table = service.set_table(ctx.db, ctx.table, ctx.who, approve_seats=approve, new_link=field("new_link") == "yes")
    if table["join_token"] == ctx.table["join_token"]:
        return answer(SEATS_OPEN)
    hub().notify(ctx.table["id"])
    moved = url_for("table.table", link="t", token=table["join_token"])
    if request.htmx:  # the host's own page goes to the new link; seated phones follow it live
        response = fragment("")
        response.headers["HX-Redirect"] = moved
        return response
    return redirect(moved, 303)


@bp.post("/teams")
def teams():
    ctx: TableContext = g.ctx
    action = field("action")
    chosen = json_field("teams") if action == "set" else None
    draw = None
    if action == "draw":  # teams of `size` by lot, pairs when none is named (junk: 0, refused)
        draw = (number_field("size", 99) or 0) if field("size") else 2
    service.set_teams(ctx.db, ctx.table, ctx.who, chosen, board=board_version(), draw=draw, idem=idem())
    return answer(SEATS_OPEN)


@bp.post("/entries")
def enter():
    """One entry of the current game, as the log writes it (`event`); the games' own routes
    build theirs from their trays' fields."""
    service.submit(g.ctx.db, g.ctx.table, g.ctx.who, json_field("event"), idem=idem(), board=board_version())
    return answer()


@bp.post("/undo")
def undo():
    service.undo(g.ctx.db, g.ctx.table, g.ctx.who, field("target"), idem=idem(), board=board_version())
    return answer()


@bp.post("/correct")
def correct():
    service.correct(g.ctx.db, g.ctx.table, g.ctx.who, field("target"), json_field("event"), idem=idem(),
                    board=board_version())
    return answer()


@bp.post("/rematch")
def rematch():
    service.rematch(g.ctx.db, g.ctx.table, g.ctx.who, idem=idem(), board=board_version())
    return answer()


# --- QR code and export ---------------------------------------------------------------------------


@bp.get("/qr.svg")
def qr():
    g.ctx.require_join_link("invite")
    image = qrcode.make(join_url(g.ctx.table), image_factory=qrcode.image.svg.SvgPathImage, box_size=12, border=2)
    out = io.BytesIO()
    image.save(out)
    response = Response(out.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=3600"
    return response


@bp.get("/games/<int:number>/log.json")
def export(number: int):
    ctx: TableContext = g.ctx
    ctx.require_history()
    row = service.game_numbered(ctx.db, ctx.table["id"], number)
    if row is None:
        return message_response(_("There is no such game at this table."), 404)
    played = service.load(ctx.db, row)
    # a log of 2,000 events is ~0.7 MB of indented JSON: made in pieces, the worker's other
    # requests run between them
    body = "".join(paced(json.JSONEncoder(ensure_ascii=False, indent=1).iterencode(played.log()), every=256))
    response = Response(body, mimetype="application/json")
    # the table's code in the name on the join link alone: it lets in (context.require_history)
    named = played.row["game"] if ctx.who.read_only else f'{played.row["game"]}-{ctx.table["code"]}'
    response.headers["Content-Disposition"] = f'attachment; filename="{named}-{number}.json"'
    return response


# --- refusals ---------------------------------------------------------------------------------------


@bp.app_errorhandler(service.Refused)
def refused(refusal: service.Refused):
    metrics.refused(refusal)
    # the change the table stands at: the refusal is of this board, and goes once the phone's
    # board has moved past it (static/app.js)
    ctx = g.get("ctx")
    change = store.last_change(ctx.db, ctx.table["id"]) if isinstance(ctx, TableContext) else None
    response = message_response(say(refusal), refusal.status, change)
    response.headers.update(refusal.headers())
    return response


@bp.app_errorhandler(HTTPException)
def http_error(error: HTTPException):
    """Our own aborts carry a translated description; werkzeug's defaults are replaced by ours."""
    if error.description != type(error).description:
        text = error.description
    elif error.code == 404:
        text = _("There is nothing here. Check the link.")
    elif error.code == 405:
        text = _("That does not work on this page.")
    elif error.code == 413:
        text = _("That is too much to send at once.")
    else:
        text = _("That did not work. Reload the page and try again.")
    return message_response(text, error.code or 500)


@bp.app_errorhandler(sqlite3.OperationalError)
def storage_error(error: sqlite3.OperationalError):
    """The database takes no write: its disk full, or made read-only under the server. The
    write is rolled back whole (nothing half-written), and the phone is told so in words, not a
    500 and a traceback; the log gets one line for whoever runs it. Anything else stays a 500."""
    if not any(what in str(error) for what in ("disk is full", "readonly database")):
        raise error
    current_app.logger.error("the database takes no write: %s (%s %s)", error, request.method, request.path)
    return message_response(_("The server cannot save anything just now: its disk is full or read-only. "
                              "Nothing was changed. Tell whoever runs it, and try again later."), 503)


def message_response(text: str, status: int, change: int | None = None) -> Response:
    """A refusal as a short message fragment for scripts and htmx, or a whole page; `change`,
    the table's change it was said at."""
    if request.htmx:
        response = Response(render_template("_message.html", message=text, change=change), status)
        response.headers["HX-Retarget"] = "#message"
        response.headers["HX-Reswap"] = "innerHTML"
    else:
        response = Response(render_template("message.html", message=text, status=status), status)
    response.vary.add("HX-Request")  # one URL, two answers
    return response
