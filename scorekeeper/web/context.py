"""The table a request is about, loaded once: the table, who is looking, the current game and
what follows for every screen — whose side is whose, who may write, undo or correct.

Every route under `/t/<join token>/…` (a seat's or the host's link) and `/b/<board token>/…`
(the read-only board) is one route: the link kind decides the viewer, and `g.ctx` holds the
context. Templates and views ask it; none decides a permission itself (the rules are the
service's `*_refusal` functions, which also refuse the writes).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from flask import Blueprint, abort, g, redirect, request, url_for

from .. import policy, service, store
from .db import get_db
from .games import screen
from .i18n import html_lang, pgettext
from .security import device_id, known_device

PREFIX = "/<any(t, b):link>/<token>"


@dataclass
class TableContext:
    """One table as one viewer sees it now. Folded lazily and once."""

    db: Any
    table: dict
    who: service.Viewer
    link: str  # "t": the join link (host or seats), "b": the read-only board

    # the board's history shows the newest rows; the earlier ones come when a phone opens them
    recent_rows = 3

    @classmethod
    def load(cls, db, link: str, token: str) -> TableContext:
        if link == "b":
            table = service.by_board_token(db, token)
            return cls(db, table, service.viewer(db, table, "", read_only=True), link)
        try:
            table = service.by_join_token(db, token)
        except service.Refused:
            moved = service.moved_to(db, token, device_id())
            if moved is None:
                raise
            # the host made a new join link: a phone seated at the table follows it
            if request.method != "GET":
                raise service.Refused("This table has a new link: reload the page.", 409) from None
            abort(redirect(request.full_path.rstrip("?").replace(f"/t/{token}", f"/t/{moved['join_token']}", 1), 303))
        who = service.viewer(db, table, device_id())
        if who.host:
            service.host_here(db, table)
        return cls(db, table, who, link)

    def again(self, db, played: service.Played | None = None) -> TableContext:
        """The same table and viewer, folded afresh from `db` (after a write, or for a live
        update), or showing `played` (the game as a write left it)."""
        ctx = TableContext(db, self.table, self.who, self.link)
        if played is not None:
            ctx.__dict__.update(game_row=played.row, played=played)
        return ctx

    def afresh(self, db=None) -> TableContext:
        """The table and who is looking as they stand now (after a write; for each message of a
        live stream): a seat let in, turned away or removed, or a new join link, shows at once."""
        db = db or self.db
        table = service.table_by_id(db, self.table["id"])
        if self.who.read_only:
            return TableContext(db, table, self.who, self.link)
        return TableContext(db, table, service.viewer(db, table, self.who.device), self.link)

    @property
    def token(self) -> str:
        return self.table["board_token" if self.link == "b" else "join_token"]

    @cached_property
    def kind(self) -> str:
        """What tells one viewer's screen from another's: a board rendered for one kind suits
        every phone of that kind. Kept: a live stream asks it a few times for each message."""
        who = self.who
        if who.read_only:
            return f"board:{html_lang()}"
        seat = f"{who.seat['id']}{'' if who.at_table else '?'}" if who.seat else (
            "removed" if who.removed else "turned" if who.turned_away else "-")
        return f"{'host' if who.host else 'opener' if who.opened else 'guest'}:{seat}:{html_lang()}"

    @cached_property
    def tray_state(self) -> str:
        """What a tray is made of besides what the phone tapped: the game as it stands (its
        events, the step of a turn in progress), who is looking and the link. A board message
        whose tray has the same state leaves the phone's tray, and what it tapped, as it is
        (static/app.js): another phone joining does not wipe a throw."""
        played = self.played
        shown = screen(played.row["game"])
        draft = json.dumps(played.draft["payload"], sort_keys=True) if played.draft and shown.tray_reads_draft else ""
        # the entries that count, however corrected (the last one's id names them: an undo takes
        # it away), and whether they end the game, where the tray shows nothing else a correction
        # changes: the host correcting an old entry wiped the dice the player on turn had tapped
        events = played.last_event_id if shown.tray_reads_corrections else (
            f"{played.entries[-1][0].id if played.entries else 0}{'.' if played.finished else ''}")
        made = f"{played.row['id']}|{played.row['header']}|{events}|{draft}|{self.kind}|{self.token}"
        return hashlib.blake2b(made.encode(), digest_size=4).hexdigest()

    def require_join_link(self, action: str = "invite") -> None:
        """Pages that show the way in (QR code, join link, logs) are not on the read-only board."""
        policy.require(action, self.who, self.played)

    def require_history(self) -> None:
        """The history page, its pages and the games' logs: on the join link, and on the board
        link to a phone that sat at this table once (its seat freed since): the games it
        played. The session's device is read, never made (a stranger's board makes none)."""
        if not (self.who.read_only and service.sat_at(self.db, self.table["id"], known_device())):
            self.require_join_link("history")

    # -- the game ---------------------------------------------------------------------------

    @cached_property
    def game_row(self) -> dict:
        return service.current_game(self.db, self.table["id"])

    @cached_property
    def played(self) -> service.Played:
        return service.load(self.db, self.game_row)

    @cached_property
    def seats(self) -> list[dict]:
        return service.seats(self.db, self.table["id"])

    @property
    def full(self) -> bool:
        """Whether the game seats a fixed number and as many seats play: no name may be added."""
        return service.seats_left(self.seats, self.played.header, self.played.engine) == 0

    @cached_property
    def host_name(self) -> str | None:
        """The name of the seat the host's phone sits in (None: the host sits nowhere)."""
        return next((seat["name"] for seat in self.seats if seat["device"] == self.table["host_device"]), None)

    @cached_property
    def unplaced(self) -> list[str]:
        """Players let in at a team game not yet started whom the host has not placed in a team."""
        if self.played.entries:
            return []
        return service.players_of(self.seats, self.played.header, self.played.engine)[2]

    @cached_property
    def change(self) -> int:
        """The table's last change: the live stream sends anything newer."""
        return store.last_change(self.db, self.table["id"])

    @cached_property
    def open_claims(self) -> int:
        """Imported games naming this table that wait for the host's answer."""
        return self.db["claims"].count_where("table_id = ? AND status = 'open'", [self.table["id"]])

    @cached_property
    def next_table(self) -> dict | None:
        """The table the evening went on at, as this viewer is shown it (service.next_table)."""
        return service.next_table(self.db, self.table, self.who, self.played)

    @cached_property
    def ledger(self) -> dict:
        return service.ledger(self.db, self.table["id"])

    @cached_property
    def view(self) -> Any:
        """The current game's view model: what its templates read (its screen's `view`)."""
        return self.view_of(self.played)

    def view_of(self, played: service.Played) -> Any:
        """A game of this table as its templates read it (None while it waits for its players)."""
        return screen(played.row["game"]).view(self, played)

    def as_board(self) -> TableContext:
        """This table as the read-only board shows it (the history page), on the same link."""
        return TableContext(self.db, self.table, service.Viewer("", False, None, read_only=True), self.link)

    # -- who may do what --------------------------------------------------------------------

    def may(self, action: str, target: Any = None) -> bool:
        """Whether this viewer may take `action` now (scorekeeper/policy.py): what the screens
        ask before they offer a button; the write asks the same and says why not."""
        return policy.allowed(action, self.who, self.played, target)

    @property
    def can_write(self) -> bool:
        """Seated or the host, on the join link: the entry controls are shown."""
        return self.who.at_table

    @cached_property
    def my_side(self) -> str | None:
        """The side this phone's player plays for (their team, or themselves)."""
        played = self.played
        if played.game is None or not self.who.name or self.who.name not in played.game.setup.players:
            return None
        return played.game.setup.side_of(self.who.name).name

    @cached_property
    def writes_now(self) -> bool:
        """Whether this phone may enter the next entry now (its turn, or it writes for all)."""
        if not self.may("write"):
            return False
        writers = self.played.writers()
        return self.who.writes_for_all or writers is None or self.who.name in writers

    @cached_property
    def writable_side(self) -> str | None:
        """The side whose next entry this phone may write now: its own on its turn; for the
        host or a scribe, the side on turn."""
        if not self.writes_now:
            return None
        writers = self.played.writers()
        if writers is None:
            return self.my_side
        if self.who.name in writers:
            return self.my_side
        sides = {self.played.game.setup.side_of(name).name for name in writers}
        return sides.pop() if len(sides) == 1 else None

    @cached_property
    def last_entry(self) -> service.Recorded | None:
        return self.played.entries[-1][0] if self.played.entries else None

    def writer(self, recorded: service.Recorded) -> Any:
        """Who wrote `recorded`, as the history shows it (policy.writer: the host in this phone's language).
        A row, and what a screen reader says of it, begins with its writer: the host's word is
        capitalised there as a name is (an English row began "host", read "host: Anna · …")."""
        by = policy.writer(recorded.by, recorded.device, self.table, seated=recorded.seat is not None)
        return pgettext("the host, as the writer a history row begins with", "Host") if by is policy.HOST_WRITER else by

    def may_undo(self, recorded: service.Recorded | None) -> bool:
        return recorded is not None and self.may("undo", recorded)

    def may_correct(self, recorded: service.Recorded) -> bool:
        return self.may("correct", recorded)


def table_blueprint(name: str, import_name: str) -> Blueprint:
    """A blueprint whose routes are about one table (`/t/<token>/…` and `/b/<token>/…`): its
    views find the context in `g.ctx`, and its URLs are built for the current table unless
    another is named."""
    bp = Blueprint(name, import_name, url_prefix=PREFIX)

    @bp.url_value_preprocessor
    def load_context(endpoint: str | None, values: dict | None) -> None:
        values = values or {}
        g.ctx = TableContext.load(get_db(), values.pop("link", "t"), values.pop("token", ""))
        if g.ctx.who.read_only and request.method not in ("GET", "HEAD"):
            # the board link writes nothing, whatever a route's own checks (its join sat
            # strangers at a money game)
            raise service.Refused(policy.READ_ONLY, 403)

    @bp.url_defaults
    def this_table(endpoint: str, values: dict) -> None:
        if "token" not in values and "ctx" in g:
            values["link"], values["token"] = g.ctx.link, g.ctx.token
        values.setdefault("link", "t")

    return bp


def table_url(endpoint: str, table: dict, **values: Any) -> str:
    """A URL of `table` on its join link, from anywhere (the start page, a redirect)."""
    return url_for(endpoint, link="t", token=table["join_token"], **values)
