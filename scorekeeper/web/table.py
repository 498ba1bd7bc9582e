"""The table screens: open a table, join it, enter results, watch it live, settle up.

Views stay thin: they read the request, call the tables service and render. A refusal is
a 4xx with the service's message, shown in the page's message area; nothing is written.
"""

from __future__ import annotations

import io
import json
import time

import qrcode
import qrcode.image.svg
from flask import (Blueprint, Response, abort, current_app, redirect, render_template, request,
                   stream_with_context, url_for)
from werkzeug.exceptions import HTTPException

from .. import service, store
from ..games import ENGINES
from ..games.base import RuleError, Text, parse_rules
from ..live import sse_message
from .db import get_db, hub
from .i18n import _, html_lang, say, translate
from .links import base_url
from .security import device_id

bp = Blueprint("table", __name__)

MAX_FIELD = 2000  # characters in any one form field


def field(name: str, default: str = "") -> str:
    value = request.form.get(name, default)
    if len(value) > MAX_FIELD:
        raise service.Refused("That entry is too long.", 400)
    return value


def json_field(name: str):
    text = field(name)
    try:
        return json.loads(text) if text else None
    except ValueError:
        raise service.Refused("That entry could not be read. Reload the page and try again.", 400) from None


# --- opening a table --------------------------------------------------------------------


@bp.get("/new/<game>")
def new(game: str):
    engine = ENGINES.get(game) or abort(404, _("There is no such game."))
    return render_template("new.html", engine=engine, values={}, names=[""] * 4)


@bp.post("/new/<game>")
def create(game: str):
    engine = ENGINES.get(game) or abort(404, _("There is no such game."))
    names = [n[:MAX_FIELD] for n in request.form.getlist("player")][: service.MAX_SEATS + 1]
    values = {key: field(f"rule_{key}") for key in engine.settings}
    try:
        rules = rules_from_form(engine, values)
        _check_seats(engine, rules, names)
        table = service.create_table(get_db(), device_id(), game, rules, names,
                                    scribe=field("scribe") if field("seating") == "scribe" else None)
    except service.Refused as refusal:
        return render_template("new.html", engine=engine, values=values, names=names + [""],
                               message=say(refusal)), refusal.status
    return redirect(url_for("table.table", token=table["join_token"]), 303)


def _check_seats(engine, rules: dict, names: list[str]) -> None:
    """More names than the chosen form seats (Euchre's two-handed form and four names) can
    never be played: say so now rather than open a table that waits for ever."""
    seats = getattr(engine, "seats", None)
    named = [name for name in names if name.strip()]
    if seats and len(named) > seats(rules):
        raise service.Refused("This form of %(game)s is for %(seats)s players, not %(count)s: choose "
                              "another form or leave names empty.", 400,
                              game=engine.title, seats=seats(rules), count=len(named))


def rules_from_form(engine, values: dict[str, str]) -> dict:
    """Form strings to the log's typed rule values (checked by the engine's settings)."""
    rules = {}
    for key, setting in engine.settings.items():
        text = values.get(key, "").strip()
        if text == "" or not setting.offered:
            continue
        if setting.only:  # e.g. Euchre's railroad laps: left out when another form is chosen
            chosen = values.get(setting.depends, "").strip() or engine.settings[setting.depends].default
            if chosen not in setting.only:
                continue
        default = setting.default
        if isinstance(default, bool):
            rules[key] = text in ("true", "on", "1", "yes")
        elif isinstance(default, int):
            try:
                rules[key] = int(text)
            except ValueError:
                raise service.Refused("%(setting)s: type a whole number.", 400, setting=setting.label or key) from None
        elif key == "stake" and text.count(",") == 1 and "." not in text:
            rules[key] = text.replace(",", ".")  # "0,50", as most of Europe writes it
        else:
            rules[key] = text
    try:
        parse_rules(rules, engine.settings)
    except RuleError as error:
        values = error.text.values  # "rules.<key>: must be <expects>, not <value>"
        setting = engine.settings.get(values.get("key"))
        if setting is None or "expects" not in values:
            raise service.Refused(error.text, 400) from None
        raise service.Refused("%(setting)s: must be %(expects)s, not %(value)s", 400, setting=setting.label or values["key"],
                             expects=setting.expects, value=values["value"]) from None
    return rules


# --- joining ------------------------------------------------------------------------------


@bp.post("/join")
def join_by_code():
    try:
        table = service.by_code(get_db(), field("code"), request.remote_addr or "?")
    except service.Refused as refusal:
        return render_template("index.html", engines=ENGINES.values(), message=say(refusal),
                               code=field("code")[:12]), refusal.status
    return redirect(url_for("table.table", token=table["join_token"]), 303)


@bp.post("/t/<token>/join")
def join(token: str):
    db = get_db()
    table = service.by_join_token(db, token)
    new_name = field("name") if "name" in request.form else None
    service.join(db, table, device_id(), seat_id=field("seat") or None, new_name=new_name)
    hub().notify(table["id"])
    return redirect(url_for("table.table", token=token), 303)


@bp.post("/t/<token>/seats/<int:seat_id>/free")
def free_seat(token: str, seat_id: int):
    db = get_db()
    table = service.by_join_token(db, token)
    who = service.viewer(db, table, device_id())
    service.release_seat(db, table, who, seat_id)
    return after_write(table, who)


@bp.post("/t/<token>/teams")
def teams(token: str):
    db = get_db()
    table = service.by_join_token(db, token)
    who = service.viewer(db, table, device_id())
    played = service.load(db, service.current_game(db, table["id"]))
    action = field("action")
    if action == "draw":
        chosen = service.draw_pairs(played.header["players"])
    elif action == "set":
        chosen = json_field("teams")
    else:
        chosen = None
    service.set_teams(db, table, who, chosen)
    return after_write(table, who)


# --- the table screen -------------------------------------------------------------------------


def screen(table: dict, who: service.Viewer, message: str | None = None, status: int = 200):
    db = get_db()
    game_row = service.current_game(db, table["id"])
    played = service.load(db, game_row)
    # Performance (bench/): the page's live stream starts from the change its board shows
    # (taken before the board, so nothing newer is missed) instead of sending it all again
    change = store.last_change(db, table["id"])
    context = dict(table=table, who=who, played=played, seats=service.seats(db, table["id"]),
                   message=message, join_url=join_url(table), board_html=board_html(table, who),
                   change=change)
    response = Response(render_template("table.html", **context), status)
    response.headers["Cache-Control"] = "no-store"
    return response


def join_url(table: dict) -> str:
    return base_url() + url_for("table.table", token=table["join_token"])


@bp.get("/t/<token>")
def table(token: str):
    db = get_db()
    table = service.by_join_token(db, token)
    return screen(table, service.viewer(db, table, device_id()))


@bp.get("/b/<token>")
def board_page(token: str):
    db = get_db()
    table = service.by_board_token(db, token)
    return screen(table, service.viewer(db, table, "", read_only=True))


def board_html(table: dict, who: service.Viewer) -> str:
    """The live part of the table screen, as this kind of viewer sees it. Rendered once per
    change and kind of viewer, whatever the number of phones watching."""
    change = hub().query(lambda db: store.last_change(db, table["id"]))
    kind = ("board" if who.read_only else
            f"{'host' if who.is_host else 'guest'}:{who.seat['id'] if who.seat else '-'}") + f":{html_lang()}"

    def render() -> str:
        return hub().query(lambda db: _render_board(db, table, who, change))

    return hub().board((table["id"], change, kind), render)


def _render_board(db, table: dict, who: service.Viewer, change: int) -> str:
    played = service.load(db, service.current_game(db, table["id"]))
    return render_template("_board.html", table=table, who=who, played=played,
                           seats=service.seats(db, table["id"]),
                           ledger=service.ledger(db, table["id"]), change=change,
                           last_writer=_last_writer(db, played))


def _last_writer(db, played) -> str | None:
    if not played.entries:
        return None
    row = db["events"].get(played.entries[-1][0].id)
    return row["device"]


@bp.get("/t/<token>/board")
def board(token: str):
    db = get_db()
    table = service.by_join_token(db, token)
    return fragment(board_html(table, service.viewer(db, table, device_id())))


@bp.get("/b/<token>/board")
def board_readonly(token: str):
    table = service.by_board_token(get_db(), token)
    return fragment(board_html(table, service.viewer(get_db(), table, "", read_only=True)))


@bp.get("/t/<token>/board/earlier")
def board_earlier(token: str):
    db = get_db()
    table = service.by_join_token(db, token)
    return fragment(earlier_html(table, service.viewer(db, table, device_id())))


@bp.get("/b/<token>/board/earlier")
def board_earlier_readonly(token: str):
    table = service.by_board_token(get_db(), token)
    return fragment(earlier_html(table, service.viewer(get_db(), table, "", read_only=True)))


def earlier_html(table: dict, who: service.Viewer) -> str:
    """The history rows before the last ten. Performance (bench/): the board that every entry
    and live update sends keeps only the last ten; the rest comes when a phone asks."""
    db = get_db()
    played = service.load(db, service.current_game(db, table["id"]))
    return render_template("_history_earlier.html", table=table, who=who, played=played,
                           last_writer=_last_writer(db, played))


def fragment(html: str, status: int = 200) -> Response:
    response = Response(html, status, mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"
    response.headers["Vary"] = "HX-Request"
    return response


# --- live ------------------------------------------------------------------------------------


@bp.get("/t/<token>/live")
def live(token: str):
    db = get_db()
    table = service.by_join_token(db, token)
    return stream(table, service.viewer(db, table, device_id()))


@bp.get("/b/<token>/live")
def live_readonly(token: str):
    table = service.by_board_token(get_db(), token)
    return stream(table, service.viewer(get_db(), table, "", read_only=True))


def stream(table: dict, who: service.Viewer) -> Response:
    """Server-sent events: the board each time the table changes. A phone that comes back
    with Last-Event-ID gets the board at once if it missed anything."""
    try:
        seen = int(request.headers.get("Last-Event-ID") or request.args.get("since") or 0)
    except ValueError:
        seen = 0
    from .db import close_db
    close_db()  # a stream holds no database connection of its own
    live_hub = hub()
    lifetime = current_app.config.get("STREAM_SECONDS", 300)
    keepalive = current_app.config.get("KEEPALIVE_SECONDS", 15)

    def events():
        nonlocal seen
        ends = time.monotonic() + lifetime
        yield "retry: 1000\n\n"
        while time.monotonic() < ends:
            change = live_hub.query(lambda db: store.last_change(db, table["id"]))
            if change > seen:
                seen = change
                yield sse_message(board_html(table, who), change)
                # Performance (bench/): an empty piece sends nothing, but makes the WSGI
                # server's and werkzeug's loops let go of the board just sent, which they
                # would otherwise hold for every idle phone (two copies, ~20-40 KB a phone)
                yield ""
                continue
            if not live_hub.wait(table["id"], keepalive):
                yield ": still here\n\n"

    response = Response(stream_with_context(events()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response


# --- entries ---------------------------------------------------------------------------------


def after_write(table: dict, who: service.Viewer) -> Response:
    hub().notify(table["id"])
    if request.headers.get("HX-Request") or request.headers.get("X-Requested-With"):
        return fragment(board_html(table, who))
    return redirect(url_for("table.table", token=table["join_token"]), 303)


def writer(token: str) -> tuple[dict, service.Viewer]:
    db = get_db()
    table = service.by_join_token(db, token)
    return table, service.viewer(db, table, device_id())


@bp.post("/t/<token>/entries")
def enter(token: str):
    table, who = writer(token)
    service.submit(get_db(), table, who, json_field("event"), idem=field("idem") or None, seen=seen_field())
    return after_write(table, who)


def seen_field() -> int | None:
    """How many entries the phone's board showed, when it says (see service.submit)."""
    text = field("seen")
    return int(text) if text.isdigit() and len(text) < 7 else None


@bp.post("/t/<token>/draft")
def draft(token: str):
    table, who = writer(token)
    service.save_draft(get_db(), table, who, json_field("draft"), idem=field("idem") or None)
    return after_write(table, who)


@bp.post("/t/<token>/undo")
def undo(token: str):
    table, who = writer(token)
    service.undo(get_db(), table, who, field("target"), idem=field("idem") or None)
    return after_write(table, who)


@bp.post("/t/<token>/correct")
def correct(token: str):
    table, who = writer(token)
    service.correct(get_db(), table, who, field("target"), json_field("event"), idem=field("idem") or None)
    return after_write(table, who)


@bp.post("/t/<token>/rematch")
def rematch(token: str):
    table, who = writer(token)
    service.rematch(get_db(), table, who)
    return after_write(table, who)


# --- QR code and export ---------------------------------------------------------------------------


@bp.get("/t/<token>/qr.svg")
def qr(token: str):
    table = service.by_join_token(get_db(), token)
    image = qrcode.make(join_url(table), image_factory=qrcode.image.svg.SvgPathImage, box_size=12, border=2)
    out = io.BytesIO()
    image.save(out)
    response = Response(out.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=3600"
    return response


@bp.get("/t/<token>/games/<int:number>/log.json")
def export(token: str, number: int):
    db = get_db()
    table = service.by_join_token(db, token)
    rows = [g for g in service.games_of(db, table["id"]) if g["number"] == number]
    if not rows:
        abort(404, _("There is no such game at this table."))
    played = service.load(db, rows[0])
    body = json.dumps(played.log(), ensure_ascii=False, indent=1)
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{played.row["game"]}-{table["code"]}-{number}.json"')
    return response


# --- refusals ---------------------------------------------------------------------------------------


@bp.app_errorhandler(service.Refused)
def refused(refusal: service.Refused):
    return message_response(say(refusal), refusal.status)


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


def message_response(text: str, status: int) -> Response:
    """A refusal as a short message fragment for scripts and htmx, or a whole page."""
    if request.headers.get("HX-Request") or request.headers.get("X-Requested-With"):
        response = Response(render_template("_message.html", message=text), status)
        response.headers["HX-Retarget"] = "#message"
        response.headers["HX-Reswap"] = "innerHTML"
        return response
    return Response(render_template("message.html", message=text, status=status), status)
