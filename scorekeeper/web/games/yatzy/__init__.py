"""Yatzy on the table screen: its view model (the score card, this phone's column first, with the
upper sum, the bonus's progress and the totals), the tray's dice and the open boxes they go to,
the values a box can hold, the route that writes a box, and its `SCREEN` record (what the
generic board asks of it). Its templates are `templates/` (read as games/yatzy/…), its style
`static/yatzy.css`."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

from babel.numbers import get_currency_symbol
from flask import g
from flask_babel import get_locale

from .... import service
from ....games import yatzy
from ....games.base import RuleError
from ...context import table_blueprint
from ...dice import read_dice
from ...i18n import _, localize, money, ngettext, npgettext, number, pgettext
from ...writes import answer, field, idem
from ...writes import board as board_version
from .. import Screen, shared_win

bp = table_blueprint("yatzy", __name__)
NO_GAME = "There is no Yatzy game waiting for a throw."


def box_label(box: Any) -> str:
    """A box's name on the card, in the phone's language: the word a refusal naming it uses."""
    try:
        return localize(yatzy.BOX_NAMES[yatzy.Box(box)])
    except ValueError:
        return str(box)


def value_labels(box: yatzy.Box, form: yatzy.Form) -> tuple[tuple[int, str, str | None], ...]:
    """(value, label, spoken) of every value a box may hold, for the tray's value picker (labels in the
    phone's language): made once per box, form and language."""
    return _value_labels(box, form, str(get_locale()))


@lru_cache(maxsize=256)
def _value_labels(box: yatzy.Box, form: yatzy.Form, locale: str) -> tuple[tuple[int, str, str | None], ...]:
    options = []
    for value in yatzy.allowed_values(box, form):
        spoken = None
        if value == 0:
            label = _("✕ scratch")
        elif box.is_upper:
            # TRANSLATORS: a button of the value picker: 3 dice of the box's face → 12 points
            label = _("%(count)s× → %(value)s", count=value // box.face, value=value)
            # TRANSLATORS: what a screen reader says for that button ("3× → 12" was read "3 multiplication sign right arrow 12")
            spoken = ngettext("%(num)s die: %(value)s", "%(num)s dice: %(value)s", value // box.face, value=value)
        else:
            label = str(value)
        options.append((value, label, spoken))
    return tuple(options)


def written_value(event: dict, form: Any) -> str:
    """The value an entry wrote (given, or made by its dice), for the history."""
    value = event.get("value")
    if not isinstance(value, int) or isinstance(value, bool):
        try:
            value = yatzy.box_value(yatzy.Box(event["box"]), yatzy.read_dice(event["dice"]), yatzy.Form(form))
        except (KeyError, TypeError, ValueError, RuleError):
            return "?"
    return "✕" if not value else str(value)


# --- the tray: the dice this phone tapped, where they go, a box picked ------------------------------


def read_box(text: Any, state: yatzy.State) -> tuple[int, yatzy.Box] | None:
    """A box of the card as its button names it ("player:box", the player by seat number)."""
    try:
        seat, box = str(text or "").split(":")
        found = int(seat), yatzy.Box(box)
    except ValueError:
        return None
    if not (0 <= found[0] < len(state.setup.players) and found[1] in state.form.boxes):
        return None
    return found


@dataclass(frozen=True)
class Pick:
    """A box tapped without five dice (its values to choose from), or a written one to correct."""

    seat: int
    box: yatzy.Box
    values: tuple[tuple[int, str, str | None], ...]  # (value, label, spoken)
    entry: Any = None  # the entry being corrected
    current: int | None = None

    @property
    def code(self) -> str:
        return f"{self.seat}:{self.box.value}"


@dataclass(frozen=True)
class Tray:
    """What this phone's tray shows of a turn it has not sent."""

    dice: tuple[int, ...]
    options: tuple  # (Placement, box code) for every open box of the player on turn, best first
    pick: Pick | None

    @property
    def left(self) -> int:
        return 5 - len(self.dice)


def tray_view(ctx, args) -> Tray:
    played, view = ctx.played, ctx.view
    state = played.state
    writing = view.writable if view else None
    dice = read_dice(args.get("dice"), 5) if writing else ()
    options = ()
    if len(dice) == 5 and not played.finished:
        seat = view.index[writing]
        options = tuple((option, f"{seat}:{option.box.value}") for option in yatzy.placements(state, writing, dice))
    pick = None
    code = read_box(args.get("pick"), state)
    if code and not options and not played.finished:
        player = state.setup.players[code[0]]
        if player == writing and code[1] not in state.cards[player]:
            pick = Pick(*code, value_labels(code[1], state.form))
    fixing = played.index_of(args.get("fix")) if args.get("fix") else None
    if fixing is not None and ctx.may_correct(played.entries[fixing][0]):
        entry = state.entries[fixing]
        pick = Pick(view.index[entry.player], entry.box, value_labels(entry.box, state.form),
                    played.entries[fixing][0], entry.value)
    return Tray(dice, options, pick)


@bp.post("/yatzy/score")
def score():
    """A box written from the tray: with the five dice tapped the engine makes its value, or with
    the value picked (0 scratches it, with or without dice). Built inside the write, after its
    key and its board are checked (a retry answers as the first did); whether this phone may
    write for that player is the service's to say."""
    ctx = g.ctx
    if ctx.played.row["game"] != yatzy.name:
        raise service.Refused(NO_GAME, 409)
    box_field, value, dice = field("box"), field("value").strip(), read_dice(field("dice"), 5)

    def write_box(change: service.Write) -> int:
        state = change.played.state
        if state is None:
            raise service.Refused(NO_GAME, 409)
        found = read_box(box_field, state)
        if found is None:
            raise service.Refused("Tap a box of the card.", 400)
        seat, box = found
        event: dict[str, Any] = {"type": "score", "player": state.setup.players[seat], "box": box.value}
        if value:
            if not (value.isascii() and value.isdigit()) or len(value) > 3:
                raise service.Refused("Tap one of the values.", 400)
            event["value"] = int(value)
        if len(dice) == 5:
            event["dice"] = list(dice)
        elif "value" not in event:
            raise service.Refused("Tap five dice first.", 400)
        return change.submit(event)

    service.write(ctx.db, ctx.table, ctx.who, write_box, idem(), board_version())
    return answer()


# --- the view model ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bonus:
    """Where a player's upper bonus stands: `state` "in", "open" or "missed"; `short`, what
    the card's narrow column shows; `words`, the whole sentence."""

    state: str
    short: str
    words: str


@dataclass(frozen=True)
class TotalMoney:
    """The money under the totals, as the card's narrow columns can hold it: `cells`, each
    player's amount as shown; `sign`, the currency's sign for the row's name when the cells
    leave it out; `tight`, the amounts in the row's smaller print (too long even so)."""

    cells: dict
    sign: str | None
    tight: bool


# the characters the money under a total has room for in its column on a 360 px phone, by the
# number of players (the boxes' names take a third of the width; five and more scroll, 64 px)
MONEY_ROOM = {1: 20, 2: 13, 3: 9, 4: 6}


def total_money(amounts: dict, currency: str | None, players: int) -> TotalMoney:
    """`amounts` ({player: "1122.00"}) written for the totals row: with the currency while
    they fit ("+€ 12,50"); else the currency's sign moves to the row's name, whole amounts
    (a stake of whole units) without their cents ("+1.122"), and what is still too long for
    its column in the row's smaller print ("+798,50"). In four columns "+€ 1.180,00" broke
    after its "+" and ran into the next column."""
    room = MONEY_ROOM.get(players, 8)
    whole = {player: money(amount, currency, signed=True) for player, amount in amounts.items()}
    if not currency or max(map(len, whole.values()), default=0) <= room:
        return TotalMoney(whole, None, False)
    values = {player: Decimal(str(amount)) for player, amount in amounts.items()}
    if all(value == value.to_integral_value() for value in values.values()):  # a stake of whole units
        cells = {player: number(int(value), signed=True) for player, value in values.items()}
    else:
        cells = {player: money(value, None, signed=True) for player, value in values.items()}
    try:
        sign = get_currency_symbol(currency, locale=str(get_locale()))
    except (ValueError, KeyError):
        sign = currency
    return TotalMoney(cells, sign, max(map(len, cells.values())) > room)


@dataclass(frozen=True)
class YatzyView:
    """What the Yatzy templates read: the card's players (this phone's first), the boxes and
    their words in the phone's language, who writes now."""

    state: yatzy.State
    form: yatzy.Form
    players: tuple[str, ...]  # this phone's player first, then the others in seat order
    on_turn: str | None
    mine: str | None
    writable: str | None  # the player whose box this phone may write now
    index: dict  # player -> seat number (the parts' ids, the turn line's data-on/-w)
    entries: dict  # (player, box) -> the entry (Recorded) that wrote the box
    pickable: frozenset  # the players whose open boxes this phone may ever write (buttons on the card)

    @property
    def upper(self) -> tuple[yatzy.Box, ...]:
        return yatzy.UPPER

    @property
    def lower(self) -> tuple[yatzy.Box, ...]:
        return tuple(box for box in self.form.boxes if not box.is_upper)

    @property
    def rounds(self) -> int:
        return len(self.form.boxes)

    @property
    def round(self) -> int:
        """The round being played (every player writes one box a round)."""
        return min(len(self.state.entries) // len(self.state.setup.players) + 1, self.rounds)

    def box_label(self, box: Any) -> str:
        return box_label(box)

    def total_money(self, result: Any) -> TotalMoney | None:
        """The money under the totals (`total_money`), none without a stake."""
        amounts = result.get("money")
        return total_money(amounts, result.get("currency"), len(self.players)) if amounts else None

    def value_labels(self, box: Any) -> tuple[tuple[int, str, str | None], ...]:
        return value_labels(yatzy.Box(box), self.form)

    def value(self, event: dict) -> str:
        return written_value(event, self.form)

    def sharing(self, result: Any) -> str | None:
        """Who share the win (RULES.md: a tie on top is a shared win), as `shared_win`."""
        return shared_win(result["totals"], result)

    def made_yatzy(self, player: str) -> bool:
        return bool(self.state.cards[player].get(yatzy.Box.YATZY))

    def bonus(self, player: str) -> Bonus:
        needs = self.state.bonus_needs(player)
        if needs == 0:
            return Bonus("in", f"+{number(self.form.bonus)}",
                         _("%(name)s has the bonus: %(bonus)s", name=player, bonus=self.form.bonus))
        if needs is None:
            return Bonus("missed", pgettext("the upper bonus, in a narrow column", "missed"),
                         _("%(name)s can no longer reach the bonus", name=player))
        # a count: Spanish says "falta 1" but "faltan 2"
        return Bonus("open", npgettext("the upper bonus, in a narrow column", "%(num)s more", "%(num)s more", needs),
                     ngettext("%(name)s needs %(num)s more for the bonus", "%(name)s needs %(num)s more for the bonus",
                              needs, name=player))


def view(ctx, played=None) -> YatzyView | None:
    played = played or ctx.played
    state = played.state
    if state is None:
        return None
    current = played is ctx.played
    mine = ctx.my_side if current else None
    players = tuple(sorted(state.setup.players, key=lambda player: player != mine))
    entries = {(entry.player, entry.box): recorded for (recorded, _event), entry in zip(played.entries, state.entries)}
    if not current or not ctx.can_write:
        pickable = frozenset()
    elif ctx.who.writes_for_all:
        pickable = frozenset(state.setup.players)
    else:
        pickable = frozenset([mine] if mine else [])
    return YatzyView(state, state.form, players, state.on_turn, mine, ctx.writable_side if current else None,
                     {player: i for i, player in enumerate(state.setup.players)}, entries, pickable)


def touched(ctx, played, events) -> list[tuple]:
    """The parts of the board a run of entries changed (web/board.py): their boxes, the upper sum
    and bonus (one cell) of a player whose upper box was written, the totals where they moved, the history
    and the tray, swapped whole. What an entry left as it was is not sent again (an answer
    stays under 1 KB)."""
    view = ctx.view
    state = played.state
    written = {recorded.id: entry for (recorded, _event), entry in zip(played.entries, state.entries)}
    entries = [written[recorded.id] for recorded in events]
    # the tray had the dice pad before these entries: the host's always, a player's when the
    # first of them was its own turn (its faces need not come again)
    had_pad = ctx.can_write and (ctx.who.writes_for_all or entries[0].player == view.mine)
    chosen = [("stamp",), ("history",), ("tray", had_pad)]
    if not ctx.can_write:  # a phone that writes has the turn line in its tray
        chosen.append(("turn",))
    for entry in entries:
        seat = view.index[entry.player]
        chosen.append(("cell", seat, entry.box))
        if entry.box.is_upper:
            chosen.append(("bonus", seat))
        if entry.value:  # a scratch moves no total (nor the bonus, which only a value brings)
            chosen.append(("totals",))
    return chosen


SCREEN = Screen(view, blueprints=(bp,), tray_view=tray_view, touched=touched, ended=(("provisional",),),
                tray_reads_corrections=False)
