"""What every write of a table reads from its request and answers: the form's fields, its
idempotency key and the board version it was made on, and the answer — the parts of the board
that changed since that version. The game screens import these; nothing here imports a screen.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Response, g, redirect, request, url_for
from jinja2 import pass_context

from .. import service
from . import board as boards
from .db import hub

MAX_FIELD = 2000  # characters in any one form field


def field(name: str, default: str = "") -> str:
    value = request.form.get(name, default)
    if len(value) > MAX_FIELD:
        raise service.Refused("That entry is too long.", 400)
    return value


def json_field(name: str) -> Any:
    text = field(name)
    try:
        value = json.loads(text) if text else None
        # a lone surrogate ("\ud800") is legal JSON but no text: echoed in a refusal it made the
        # page unencodable, a 500 (UnicodeEncodeError is a ValueError)
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (ValueError, RecursionError):  # RecursionError: a thousand nested brackets (issue 16)
        raise service.Refused("That entry could not be read. Reload the page and try again.", 400) from None
    return value


def digits(text: str) -> bool:
    """Only the digits 0–9: str.isdigit() also takes "²" and "٣", which int() refuses or reads
    (the fuzzer's "²" as a board's change gave a correction a 500)."""
    return text.isascii() and text.isdigit()


def number_field(name: str, most: int = 10 ** 6) -> int | None:
    """A whole number a form sends, when it sends one (no sign, at most `most`)."""
    text = field(name).strip()
    return int(text) if digits(text) and len(text) < 19 and int(text) <= most else None


def change_of(text: str | None) -> int | None:
    """The change a phone's board shows (`change`, `since`, Last-Event-ID), when it is one:
    digits that SQLite can compare (test_fuzz.py: -9223372036854775809 gave the live stream a 500)."""
    text = text or ""
    return int(text) if digits(text) and len(text) < 19 else None


def board() -> int | None:
    """The version of the board a write was made on: the stamp's `change` (templates/_parts.html),
    which every write of the page includes (base.html: hx-include). The one race token."""
    return change_of(request.form.get("change"))


def idem() -> str | None:
    return field("idem") or None


def answer(tapped: Any = None) -> Response:
    """What every write answers: what changed on the board since the one the phone showed —
    the parts the write touched, or the whole board — as htmx partials; a plain form gets the
    table page again. `tapped`: what the phone's tray shows next (a throw taken back: its dice),
    rendered for this answer alone."""
    ctx, done = g.ctx, g.ctx.db.committed
    if done is None or done.table_id != ctx.table["id"] or not done.kinds:
        g.ctx = ctx = ctx.afresh()  # a seat let in, a new link: the answer's URLs and buttons follow
        done = None
    # else an entry, undo or correction: the table and who is looking stand as they were, and
    # the answer brings the board to the change the write made, with the game as it left it
    # (issue 26: not read again); anything after it comes live
    hub().notify(ctx.table["id"])
    if request.htmx:
        return fragment(boards.message(ctx, board(), hub(), tapped, done, answer=True)[0])
    return redirect(url_for("table.table"), 303)


def fragment(html: str, status: int = 200) -> Response:
    response = Response(html, status, mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"
    response.headers["Vary"] = "HX-Request"
    return response


@pass_context
def idem_key(context, *parts: Any) -> str:
    """The idempotency key of one rendered write (templates: `idem(what, …)`): the board's
    change and what the button writes, so a retry of that button — a double tap, the offline
    queue sending again, the same board rendered twice — counts once (service.write), and
    every other button or board has a key of its own."""
    return "-".join(map(str, (context.get("change"), *parts)))
