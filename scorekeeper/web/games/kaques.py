"""Jaques le Kaques on the table screen: the turn in progress, the calls, the odds and the race chart.

The turn being entered throw by throw lives in the table's draft (checked by the engine's
`verify_draft`); everything here reads the folded game and says what each phone shows.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from babel.numbers import parse_pattern
from functools import cached_property

from flask import g
from flask_babel import get_locale

from ... import charts, service
from ...games import kaques
from ...games.base import RuleError, Text
from ...games.kaques import CALLED, Call, TurnState
from ..context import table_blueprint
from ..i18n import number
from ..table import after_write, field, idem

bp = table_blueprint("kaques", __name__)

COLOURS = 8  # line colours of the chart; kaques.css defines .kq-c0 … .kq-c7
RANK = {Call.GRAND_KAQUE: 0, Call.KAQUE: 1, Call.FERTISCH: 2, Call.OH_LALA: 3, Call.GRANDMERE: 4}
KIND = {Call.GRAND_KAQUE: "kaque", Call.KAQUE: "kaque", Call.FERTISCH: "stop",
        Call.OH_LALA: "lala", Call.GRANDMERE: "grandmere"}


def chance(free: int) -> dict[str, str]:
    """The chance that a throw of `free` dice is a Kaque: a percentage to a tenth, as the
    locale writes one ("3.1%", "3,1 %"), and the exact fraction."""
    exact = kaques.kaque_chance(free)
    pattern = parse_pattern(get_locale().percent_formats[None].pattern)  # parsed afresh: the locale keeps its own
    pattern.frac_prec = (1, 1)
    percent = pattern.apply(Decimal(exact.numerator) / Decimal(exact.denominator), get_locale())
    return {"percent": percent, "fraction": f"{exact.numerator}/{exact.denominator}"}


def keep_values() -> dict[int, list[int | None]]:
    """For the phone: what keeping `count` dice of a face scores (None: that keep is not allowed).
    Keeps of different faces add up, so this table is all a phone needs to price a keep."""
    values: dict[int, list[int | None]] = {}
    for face in kaques.FACES:
        values[face] = []
        for count in range(kaques.DICE + 1):
            try:
                values[face].append(kaques.keep_score([face] * count))
            except RuleError:
                values[face].append(None)
    return values


KEEP_VALUES = json.dumps(keep_values())


def risks() -> str:
    """For the phone: the chance of a Kaque for every number of dice, in this request's locale."""
    return json.dumps({free: chance(free) for free in range(1, kaques.DICE + 1)}, ensure_ascii=False)


def draft_turn(played) -> TurnState | None:
    """The turn in progress, when the table keeps one that still fits the game (a draft left over
    from before an undo is ignored)."""
    if not played.draft or played.game is None or played.finished:
        return None
    try:
        return kaques.verify_draft(played.state, played.draft["payload"])
    except RuleError:
        return None


@dataclass(frozen=True)
class Banner:
    """The latest call, shown big on every phone; `key` tells phones whether they showed it already."""

    key: str
    player: str
    call: Text
    kind: str
    also: tuple[Text, ...] = ()
    points: int | None = None
    looks: bool = False  # went on past Grandmère and kaqued
    winner: bool = False


def _ranked(calls) -> list[Call]:
    return sorted(dict.fromkeys(calls), key=lambda call: RANK[call])


def draft_banner(turn_number: int, player: str, turn: TurnState) -> Banner | None:
    """The calls the last step of a turn in progress earned: Grandmère reached, Oh, Lálá!"""
    if not turn.throws:
        return None
    before = kaques.turn_so_far([t.as_event() for t in turn.throws[:-1]])
    new = [call for call in turn.calls[len(before.calls):] if call is not Call.OH_LALA]
    if turn.oh_lala_next:  # all six kept and the player goes on: called now, not at the next throw
        new.append(Call.OH_LALA)
    if not new:
        return None
    calls = _ranked(new)
    return Banner(f"d{turn_number}.{len(turn.throws)}", player, CALLED[calls[0]], KIND[calls[0]],
                  tuple(CALLED[c] for c in calls[1:]), turn.total)


def turn_banner(recorded_id: int, turn: kaques.Turn, winner: bool) -> Banner:
    """A finished turn's calls: its Kaque or its fertisch!, and what its last throw called."""
    if turn.throws:
        before = kaques.turn_so_far([t.as_event() for t in turn.throws[:-1]])
        calls = [c for c in turn.calls[len(before.calls):] if c is not Call.OH_LALA]
    else:
        calls = list(turn.calls)
    if Call.FERTISCH not in calls and Call.KAQUE not in calls:
        calls.append(Call.FERTISCH)
    ranked = _ranked(calls)
    also = tuple(CALLED[c] for c in ranked[1:] if not (ranked[0] is Call.GRAND_KAQUE and c is Call.KAQUE))
    return Banner(f"t{recorded_id}", turn.player, CALLED[ranked[0]], KIND[ranked[0]], also, turn.points,
                  turn.kaqued_after_grandmere, winner)


@dataclass(frozen=True)
class Standing:
    player: str
    rank: int
    total: int
    colour: int
    last: dict | None  # the player's latest turn as result["turns"] lists it
    kaques: int
    looks: int


def standings(played) -> list[Standing]:
    result = played.result
    players = list(played.game.setup.players)
    last: dict[str, dict] = {}
    looks = {p: 0 for p in players}
    for turn in result["turns"]:
        last[turn["player"]] = turn
        looks[turn["player"]] += turn["kaqued_after_grandmere"]
    order = sorted(players, key=lambda p: (-result["points"][p], players.index(p)))
    rows, rank = [], 0
    for place, player in enumerate(order, 1):
        if place == 1 or result["points"][player] != result["points"][order[place - 2]]:
            rank = place
        rows.append(Standing(player, rank, result["points"][player], players.index(player) % COLOURS,
                             last.get(player), result["calls"][player][str(Call.KAQUE)], looks[player]))
    return rows


# --- the score-progress chart (inline SVG, drawn on the server) ---------------------------------

WIDTH, HEIGHT = 340, 180
LEFT, RIGHT, TOP, BOTTOM = 40, 8, 8, 20


def _nice_ceiling(value: float) -> int:
    """The smallest of 500, 1000, 2000, 5000, 10 000, 20 000 … at or above `value`."""
    step = 500
    while True:
        for factor in (1, 2, 4):
            if step * factor >= value:
                return int(step * factor)
        step *= 10


def chart(played) -> dict[str, Any] | None:
    """Lines of every player's running total over their turns, scaled to fit, with the target."""
    result = played.result
    if not result["turns"]:
        return None
    players = list(played.game.setup.players)
    target = result["target"]
    series = {p: [0] for p in players}
    for turn in result["turns"]:
        series[turn["player"]].append(turn["total"])
    rounds = max(len(s) - 1 for s in series.values())
    highest = max(max(s) for s in series.values())
    y_max = _nice_ceiling(max(highest * 1.1, 500))
    if y_max >= target:  # the race is near its end: the target is the top (the winner may pass it)
        y_max = max(target, highest)
        ticks = [target * i // 4 for i in range(5)]
    else:
        ticks = [y_max * i // 4 for i in range(5)]
    frame = charts.Frame(WIDTH, HEIGHT, LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM, rounds + 1, 0, y_max)
    x, y = frame.x, frame.y

    lines = []
    for player in players:
        values = series[player]
        lines.append({"player": player, "colour": players.index(player) % COLOURS,
                      "points": " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values)),
                      "end": (x(len(values) - 1), y(values[-1])),
                      "kaques": [(x(i), y(v)) for i, v in enumerate(values) if i and v == values[i - 1]]})
    x_step = max(1, -(-rounds // 6))
    return {"width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT, "top": TOP,
            "bottom": HEIGHT - BOTTOM, "lines": lines,
            "yticks": [(y(v), number(v)) for v in ticks],
            "xticks": [(x(i), i) for i in range(0, rounds + 1, x_step)],
            "target": y(target) if target <= y_max else None, "target_text": number(target)}


# --- everything the board needs, once per render ---------------------------------------------------


@dataclass(frozen=True)
class KaquesView:
    """What the Jaques le Kaques templates read: the turn in progress, the calls, the odds,
    the standings and the race chart, and what a turn event scored."""

    played: Any
    state: kaques.State
    on_turn: str | None
    me: str | None  # this phone's player
    turn: TurnState  # the turn in progress (an empty one before its first throw)
    throws: list[dict]  # its throws as events
    writes: bool  # this phone may enter the turn on turn
    throw_points: list[int]
    draft_by: str | None  # who entered the turn's throws so far
    key: str  # "turn:throw": tells the phone's pad whether it is behind
    turn_number: int
    round: int
    risk: dict[str, str]
    banner: Banner | None
    last_id: int | None
    last_turn: kaques.Turn | None
    undo_expect: dict | None  # what the pad shows after taking back the last throw of this turn
    reopen_expect: dict | None  # ... and after reopening the last turn
    standings: list[Standing]
    chart: dict[str, Any] | None
    grandmere = kaques.GRANDMERE_POINTS
    keep_values = KEEP_VALUES

    @cached_property
    def risks(self) -> str:
        return risks()

    @staticmethod
    def points(event: dict) -> int:
        return turn_points(event)

    @staticmethod
    def calls(event: dict) -> list[str]:
        return turn_calls(event)


def view(ctx, played) -> KaquesView | None:
    state = played.state
    if state is None:
        return None
    on_turn = state.on_turn
    turn = draft_turn(played)
    turn_number = len(state.turns)
    throws = [t.as_event() for t in turn.throws] if turn else []
    banner = None
    if turn and turn.throws:
        banner = draft_banner(turn_number, on_turn, turn)
    elif played.entries and state.turns:
        banner = turn_banner(played.entries[-1][0].id, state.turns[-1], state.finished)
    last_turn = state.turns[-1] if state.turns else None
    current = played is ctx.played
    current_turn = turn or TurnState()
    undo_expect = None
    if throws:
        last = throws[-1]
        undo_expect = {"key": f"{turn_number}:{len(throws) - 1}", "phase": "keep",
                       "dice": sorted(last["dice"]), "keep": last["keep"]}
    reopen_expect = None
    if last_turn and last_turn.throws:
        last = last_turn.throws[-1]
        reopen_expect = {"key": f"{turn_number - 1}:{len(last_turn.throws) - 1}",
                         "phase": "keep" if last.keep else "faces",
                         "dice": sorted(last.dice) if last.keep else [], "keep": list(last.keep)}
    return KaquesView(
        played, state, on_turn, ctx.who.name if ctx.who.name in state.setup.players else None, current_turn,
        throws, current and bool(on_turn) and ctx.writes_now,
        [t.points for t in current_turn.throws], played.draft["by"] if turn and turn.throws else None,
        f"{turn_number}:{len(throws)}", turn_number, turn_number // len(state.setup.players) + 1,
        chance(current_turn.free), banner, played.entries[-1][0].id if played.entries else None, last_turn,
        undo_expect, reopen_expect, standings(played), chart(played))


def turn_points(event: dict) -> int:
    """What a turn event scored, for the history and the host's correction stepper."""
    if event.get("points") is not None:
        return event["points"]
    try:
        return kaques.turn_so_far(event.get("throws")).points
    except RuleError:
        return 0


def turn_calls(event: dict) -> list[str]:
    try:
        throws = event.get("throws")
        if throws:
            return [str(c) for c in kaques.turn_so_far(throws).end(event.get("player", "")).calls]
        return [str(c) for c in kaques.quick_turn(event.get("player", ""), int(event.get("points") or 0)).calls]
    except (RuleError, TypeError, ValueError):
        return []


# --- taking back the last throw of a finished turn ----------------------------------------------


@bp.post("/kaques/reopen")
def reopen():
    """Undo the last turn and put it back on the table without its last throw, so a mistyped
    Kaque (or a fertisch! that should have been "throw again") is one tap to fix. One
    transaction: a crash leaves either the turn as it was or the turn reopened."""
    ctx = g.ctx
    if ctx.played.row["game"] != kaques.name:
        raise service.Refused("This table is not playing Jaques le Kaques.", 409)
    target = field("target")

    def reopen_turn(change: service.Write) -> int:
        played = change.played
        index = played.index_of(target)
        event = played.entries[index][1] if index is not None else None
        undone = change.undo(target)
        if event and len(event.get("throws") or ()) > 1:
            change.save_draft({"player": event["player"], "throws": event["throws"][:-1]})
        elif played.draft:
            change.save_draft(None)  # the next player's first throws no longer fit
        return undone

    service.write(ctx.db, ctx.table, ctx.who, reopen_turn, idem())
    return after_write()


def init_app(app) -> None:
    app.register_blueprint(bp)
