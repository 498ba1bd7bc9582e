"""Who may do what at a table: one policy, asked by the writes, the views and the templates.

Every action a phone can take at a table has a name (`ACTIONS`); `refusal(action, who, …)`
says why this viewer may not take it now, in words a player understands (None: it may), as
Datasette's `permission_allowed` does for its actors. The rule that makes a device the host
lives here and nowhere else (`is_host`). The service refuses its writes with these refusals;
the screens show a button only where `allowed` says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

from .games.base import Term, Text


class Refused(Exception):
    """A request the table cannot take; `status` is the HTTP status, the message is for players:
    `text` (a Text, translated on the screens), as one sentence in English by `str()`;
    `retry_after`, the seconds until a limit lets the same request through (a 429's
    Retry-After); `limit`, the limit that answered (a 429's kind, as the metrics count it)."""

    def __init__(self, message: str, status: int = 409, /, *, retry_after: float | None = None,
                 limit: str | None = None, **values: Any) -> None:
        self.text = Text.of(message, **values)
        self.status = status
        self.retry_after = None if retry_after is None else max(1, math.ceil(retry_after))
        self.limit = limit
        super().__init__(sentence(self.text))

    def headers(self) -> dict[str, str]:
        """The answer's headers this refusal brings: a limit's Retry-After."""
        return {} if self.retry_after is None else {"Retry-After": str(self.retry_after)}


def sentence(message: str) -> str:
    """A message as a sentence: a capital first, a full stop last."""
    return message[:1].upper() + message[1:] + ("" if message.endswith((".", "!", "?")) else ".")


def is_host(device: str | None, table: dict) -> bool:
    """The host rule: the device that opened the table hosts it, until it hands the table to a
    seated phone, or one takes over once the host's phone has been away `HOST_GONE` seconds; the
    device that opened it may always take it back."""
    return bool(device) and device == table["host_device"]


def opened(device: str | None, table: dict) -> bool:
    """Whether `device` opened the table (a table opened before the host could change: its host)."""
    return bool(device) and device == (table.get("opened_by") or table["host_device"])


# seconds the host's phone is away from the table (no page, answer or live stream of its own
# there) before a seated phone may take over as host: a host's phone in a pocket closes its
# stream, and comes back within this long when it looks at the table again
HOST_GONE = 600


@dataclass(frozen=True)
class Viewer:
    """Who is looking at a table: the host's device, a seated phone (waiting for the host's
    yes, or let in), a phone the host removed, or anyone else; or the read-only board."""

    device: str
    host: bool
    seat: dict | None
    read_only: bool = False
    removed: bool = False  # the host removed this phone from the table
    turned_away: bool = False  # the host said no to this phone's waiting seat (until it sits again)
    opened: bool = False  # this phone opened the table (it may take back the host's part at once)

    @property
    def name(self) -> str | None:
        return self.seat["name"] if self.seat else None

    @property
    def is_scribe(self) -> bool:
        return bool(self.seat and self.seat["role"] == "scribe")

    @property
    def writes_for_all(self) -> bool:
        return not self.read_only and (self.host or self.is_scribe)

    @property
    def waiting(self) -> bool:
        """Sits at the table, but the host has not let the seat in yet."""
        return bool(self.seat and not self.seat.get("approved", 1))

    @property
    def at_table(self) -> bool:
        """Seated (and let in), or the host: may write at all (each entry is then checked for
        its side)."""
        return not self.read_only and (self.host or bool(self.seat and not self.waiting))

    @property
    def follows_a_new_link(self) -> bool:
        """The host, seated phones (let in or waiting) and the phone that opened the table (its
        own, whoever hosts it now) are sent on to a table's new join link; to anyone else the old
        one no longer shows the table."""
        return self.host or self.opened or bool(self.seat)

    @property
    def label(self) -> str | None:
        """What the history stores as this writer: the seat's name, or the host (`writer`)."""
        return self.name or (HOST if self.host else None)


HOST = "host"  # the writer the history stores for the host writing without a seat


def writer(by: str | None, device: str | None, table: dict, seated: bool | None = None) -> Any:
    """A writer the history stored (`Viewer.label`) as players read it: the host's own, as the
    header calls the host in their language (a German phone read "Das hat host schon
    eingetragen"); a seat's name as it is. `seated`: whether the entry was written from a seat
    (None: not known). Written from none, "host" is a host's, whichever phone hosts now: a
    phone made host that freed its seat and wrote read a raw "host" once it hosted no more.
    Not known, it is the host's where the writing phone hosts now or opened the table."""
    if by == HOST and (not seated if seated is not None
                       else device and (device == table["host_device"] or opened(device, table))):
        return HOST_WRITER
    return by


# the host as a writer, a word of the header's ("Gastgeber"); a sentence that names a writer has
# a sentence of its own for the host, with its article ("Das hat der Gastgeber schon eingetragen")
HOST_WRITER = Term(HOST, HOST, "who opened the table")


def viewer(db, table: dict, device: str, read_only: bool = False) -> Viewer:
    """Who `device` is at `table` as the database has it now; no device is the read-only board
    (service.join was handed the board's "" and sat it at a seat)."""
    read_only = read_only or not device
    seat, removed, turned = None, False, False
    if device and not read_only:
        cursor = db.execute("SELECT * FROM seats WHERE table_id = ? AND device = ? LIMIT 1", [table["id"], device])
        row = cursor.fetchone()
        seat = dict(zip([column[0] for column in cursor.description], row)) if row else None
        removed = seat is None and bool(db.execute("SELECT 1 FROM bans WHERE table_id = ? AND device = ?",
                                                   [table["id"], device]).fetchone())
        # the host is never turned away: an unseated host (who writes for everyone) asks nothing more
        turned = seat is None and not removed and not is_host(device, table) and bool(db.execute(
            "SELECT 1 FROM turned_away WHERE table_id = ? AND device = ?", [table["id"], device]).fetchone())
    return Viewer(device, not read_only and is_host(device, table), seat, read_only, removed, turned,
                  not read_only and opened(device, table))


# --- the rules ---------------------------------------------------------------------------------

JOIN_FIRST = Text("Join the table first: pick your seat, then you can enter results.")
READ_ONLY = Text("This is the read-only board: scan the QR code to join and enter results.")


def _join_link(who: Viewer, played: Any, target: Any) -> Refused | None:
    """What only the join link shows (the QR code, the code, the history and the logs)."""
    if who.read_only:
        return Refused("There is nothing here. Check the link.", 404)
    return None


def _at_table(who: Viewer, played: Any = None, target: Any = None) -> Refused | None:
    """Writing anything at the table at all: the host, or a seat let in; each other phone told
    why not in its own words (a removed phone was told to join the table, and when it tried,
    that it was removed)."""
    if who.read_only:
        return Refused(READ_ONLY, 403)
    if who.removed:
        return Refused("The host has removed this phone from the table.", 403)
    if who.waiting:
        return Refused("The host has not let your seat in yet.", 403)
    if not who.at_table:
        return Refused(JOIN_FIRST, 403)
    return None


def _writing(who: Viewer, played: Any, target: Any) -> Refused | None:
    """Entering anything in the game now (for the sides `played.writers()` allows)."""
    refused = _at_table(who)
    if refused:
        return refused
    if played.game is None:
        return Refused("The table is not ready: the host still has to seat enough players.", 409)
    writers = played.writers()
    if writers is not None and not writers:
        return Refused("The game is over. Start a rematch to play again.", 409)
    return None


def _changing(not_yours: Text) -> Callable[[Viewer, Any, Any], Refused | None]:
    """Undo and correction: the host always; otherwise the entry's writer while they sit at the
    table, until the game is over."""
    def rule(who: Viewer, played: Any, recorded: Any) -> Refused | None:
        refused = _at_table(who)
        if refused:
            return refused
        if who.host:
            return None
        if recorded.device != who.device or not who.seat:
            return Refused(not_yours, 403)
        if played.finished:
            return Refused("The game is over; only the host can change it now.", 403)
        return None
    return rule


_undoing = _changing(Text("Only the one who wrote it (or the host) can undo this entry."))
_correcting = _changing(Text("Only the one who wrote it (or the host) can correct this entry."))


def _undo(who: Viewer, played: Any, recorded: Any) -> Refused | None:
    """The last entry only (see `_changing` for whose)."""
    refused = _at_table(who)  # who first: a removed phone was told which entry it may undo
    if refused:
        return refused
    if recorded is None or not played.entries or played.entries[-1][0].id != recorded.id:
        return Refused("Only the last entry can be undone. An older one can be corrected, by the phone "
                       "that wrote it or by the host.")
    return _undoing(who, played, recorded)


def _correct(who: Viewer, played: Any, recorded: Any) -> Refused | None:
    """An entry that still counts (see `_changing` for whose)."""
    if who.at_table and (recorded is None or played.current(recorded.id) is None):
        return Refused("That entry is not part of the current game.", 400)
    return _correcting(who, played, recorded)


def _joining(who: Viewer, played: Any, target: Any) -> Refused | None:
    if who.read_only:
        return Refused(READ_ONLY, 403)
    if who.removed:
        return Refused("The host has removed this phone from the table.", 403)
    if who.seat:
        return Refused("This phone already sits as %(name)s.", 409, name=who.name)
    return None


def _hosts(message: Text) -> Callable[[Viewer, Any, Any], Refused | None]:
    """An action of the host's alone."""
    def rule(who: Viewer, played: Any, target: Any) -> Refused | None:
        return None if who.host and not who.read_only else Refused(message, 403)
    return rule


def _taking_host(who: Viewer, played: Any, gone: Any) -> Refused | None:
    """Taking over as host: the phone that opened the table, at once (removed by a host it
    handed the table to, too: the table is its own); a seat let in that plays the game (`played`;
    one that plays from the next game, once it is begun), once the host's phone has been away
    from the table `HOST_GONE` seconds (`gone`: how long it has been, or None where a screen
    asks whether to offer it)."""
    if who.read_only:
        return Refused(READ_ONLY, 403)
    if who.host:
        return Refused("This phone is the host already.", 409)
    if who.opened:
        return None
    refused = _at_table(who)
    if refused:
        return refused
    if played is not None and played.game is not None and who.name not in played.header.get("players", ()):
        # a phone that scanned the code and added a name (open joining needs no yes) then took
        # over, corrected a finished game's money and confirmed a made-up import's at its table
        return Refused("Only a player of this game can take over as host.", 403)
    if gone is not None and gone < HOST_GONE:
        return Refused("The host's phone was at the table in the last %(minutes)s minutes. Once it has been "
                       "away that long you can take over; or the host can make you host in the seat list.",
                       409, minutes=HOST_GONE // 60)
    return None


def _handing_host(who: Viewer, played: Any, seat: Any) -> Refused | None:
    """The host hands the table to a phone seated and let in (`seat`: its seat; None where a
    screen asks whether to offer it)."""
    if not who.host or who.read_only:
        return Refused("Only the host can make another phone the host.", 403)
    if seat is not None:
        if not seat["device"] or not seat.get("approved", 1):
            return Refused("%(name)s has no phone at the table: the host's part goes to a phone seated and let in.",
                           409, name=seat["name"])
        if seat["device"] == who.device:
            return Refused("This phone is the host already.", 409)
    return None


def _rematch(who: Viewer, played: Any, target: Any) -> Refused | None:
    refused = _at_table(who)
    if refused:
        return refused
    if played is not None and not played.finished:
        return Refused("Finish this game first: a rematch starts when the last entry is in.")
    return None


def _claim(who: Viewer, played: Any, table: Any) -> Refused | None:
    """An imported game naming this table as the one it was played at: from a phone seated here
    and let in, the host's, or the phone that opened it (its own, whoever hosts it now: `who` is
    the importing device as this table sees it); a refusal names nobody who sits here."""
    if who.host or who.opened or (who.seat and not who.waiting):
        return None
    return Refused("Only a phone seated at table %(code)s can name it: import the game on a phone that "
                   "played there.", 403, code=table["code"] if table else "?")


def _seeing_next(who: Viewer, played: Any, target: Any) -> Refused | None:
    """The evening went on at a new table, opened from this table's settlement: the phones that
    are shown "The evening goes on" with the new table's code and join link here — the ones a
    new join link of this table sends on too (`Viewer.follows_a_new_link`: the host, the phone
    that opened the table, a seat let in or still waiting for the host's yes, which else stayed
    on a finished table); never the read-only board, a stranger, a turned-away or removed phone.
    Only once the game is over (the card shows while it is the table's game)."""
    if who.read_only or not who.follows_a_new_link:
        return Refused(JOIN_FIRST, 403)
    if played is None or not played.finished:
        return Refused("Finish this game first: a rematch starts when the last entry is in.")
    return None


def _following_on(who: Viewer, played: Any, target: Any) -> Refused | None:
    """Leading the table on to a new table opened from its settlement (this table's join token
    sent along as the new-table form's `after`): a phone that is shown the way there
    (`_seeing_next`) and has a say at the table — not a seat still waiting for the host's yes."""
    if who.waiting and not (who.host or who.opened):
        return Refused("The host has not let your seat in yet.", 403)
    return _seeing_next(who, played, target)


RULES: dict[str, Callable[[Viewer, Any, Any], Refused | None]] = {
    "invite": _join_link, "history": _join_link, "export": _join_link,
    "write": _writing, "draft": _writing, "at_table": _at_table,
    "undo": _undo, "correct": _correct,
    "join": _joining,
    "rematch": _rematch,
    "seats": _hosts(Text("Only the host can see and change the seats.")),
    "let_in": _hosts(Text("Only the host can let a seat in.")),
    "turn_away": _hosts(Text("Only the host can let a seat in.")),
    "free_seat": _hosts(Text("Only the host can free a seat.")),
    "remove": _hosts(Text("Only the host can remove a phone from the table.")),
    "settings": _hosts(Text("Only the host can change the table.")),
    "new_link": _hosts(Text("Only the host can change the table.")),
    "teams": _hosts(Text("Only the host can set the teams.")),
    "answer_claim": _hosts(Text("Only the host of this table can confirm or dismiss an imported game.")),
    "claim": _claim, "follow_on": _following_on, "see_next_table": _seeing_next,
    "take_host": _taking_host, "hand_host": _handing_host,
}
ACTIONS = frozenset(RULES)


def refusal(action: str, who: Viewer, played: Any = None, target: Any = None) -> Refused | None:
    """Why `who` may not take `action` now (None: they may): `played`, the game it is about;
    `target`, the entry (undo, correct) or the table (claim) it names."""
    return RULES[action](who, played, target)


def allowed(action: str, who: Viewer, played: Any = None, target: Any = None) -> bool:
    return refusal(action, who, played, target) is None


def require(action: str, who: Viewer, played: Any = None, target: Any = None) -> None:
    """Refused (raised) unless `who` may take `action`."""
    refused = refusal(action, who, played, target)
    if refused:
        raise refused
