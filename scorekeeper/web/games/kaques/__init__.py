"""Jaques le Kaques on the table screen: the turn in progress, the calls, the odds and the race chart.

The turn being entered throw by throw lives in the table's draft (checked by the engine's
`verify_draft`); everything here reads the folded game and says what each phone shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from babel.numbers import parse_pattern

from flask import g, has_request_context, request
from flask_babel import get_locale

from .... import charts, service
from ....games import kaques
from ....games.base import RuleError, Text
from ....games.kaques import CALLED, Call, TurnState
from ...context import table_blueprint
from ...i18n import number
from ...dice import indexes, read_dice
from ...writes import answer, board, digits, field, idem, number_field
from .. import Screen

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


CHART_POINTS = 120  # points of a line at most: about one per two pixels of the chart's width


def _drawn(count: int) -> range | list[int]:
    """Which of a line's `count` points are drawn: all, or evenly spaced ones and the last
    (issue 25: a game of 2,000 turns drew 2,000 points and every Kaque among them on each board)."""
    if count <= CHART_POINTS:
        return range(count)
    step = -(-count // CHART_POINTS)
    return [*range(0, count - 1, step), count - 1]


def chart(played) -> dict[str, Any] | None:
    """Lines of every player's running total over their turns, scaled to fit, with the target;
    in whole units of the chart's box (a unit is about a pixel of a phone's width)."""
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

    def x(i: int) -> int:
        return round(frame.x(i))

    def y(value: float) -> int:
        return round(frame.y(value))

    lines = []
    for player in players:
        values = series[player]
        drawn = _drawn(len(values))
        lines.append({"player": player, "colour": players.index(player) % COLOURS,
                      "d": charts.steps([(x(i), y(values[i])) for i in drawn]),
                      "end": (x(len(values) - 1), y(values[-1])),
                      # a Kaque: a small × where the line stays level
                      "kaques": "".join(f"M{x(i) - 3},{y(values[i]) - 3}l6,6m0,-6l-6,6"
                                        for i in drawn if i and values[i] == values[i - 1])})
    x_step = max(1, -(-rounds // 6))
    yticks = [(y(v), number(v)) for v in ticks]
    return {"width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT, "lines": lines,
            "grid": "".join(f"M{LEFT},{at}H{WIDTH - RIGHT}" for at, _ in yticks), "yticks": yticks,
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
    turn_number: int
    round: int
    risk: dict[str, str]
    banner: Banner | None
    last_id: int | None
    last_turn: kaques.Turn | None
    standings: list[Standing]
    chart: dict[str, Any] | None
    grandmere = kaques.GRANDMERE_POINTS

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
    return KaquesView(
        played, state, on_turn, ctx.who.name if ctx.who.name in state.setup.players else None, current_turn,
        throws, current and bool(on_turn) and ctx.writes_now,
        [t.points for t in current_turn.throws], played.draft["by"] if turn and turn.throws else None,
        turn_number, turn_number // len(state.setup.players) + 1,
        chance(current_turn.free), banner, played.entries[-1][0].id if played.entries else None, last_turn,
        standings(played), chart(played))


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


# --- the tray: a throw tapped face by face, its keep, the turn's total ----------------------------


@dataclass(frozen=True)
class Tray:
    """What this phone's tray shows of a turn it has not sent: the throw-by-throw pad (open or
    folded), the faces tapped for this throw, the dice kept of it (by their place among the
    throw's dice, sorted) and what that keep makes of the turn."""

    open: bool
    dice: tuple[int, ...]
    phase: str  # "faces" (still tapping), "keep" (choosing what to keep) or "kaque" (nothing scores)
    kept: tuple[int, ...]
    keep_points: int | None  # what the kept dice score (None: that keep does not score)
    after: TurnState | None  # the turn with this throw kept so, when it may be
    next_risk: dict | None  # the chance of Le Kaque! when throwing again
    points: str  # the total typed in the quick entry
    # the phone has the pad's faces on its page (its tray posts `faces`: in the pad, or parked
    # while a throw's dice are kept): they are left out, htmx keeps its own (`dice_pad`'s
    # had_pad). Performance (bench/; issue 26: an answer ≤ 1 KB): 0.1–0.2 KB of gzip
    faces: bool = False

    @property
    def keepable(self) -> tuple[bool, ...]:
        return kaques.keepable(self.dice) if self.dice else ()


def best_keep(dice: tuple[int, ...]) -> set[int]:
    """Every scoring die of a throw kept (the first choice a player changes, if at all)."""
    options = kaques.scoring_options(dice)
    wanted, kept = list(options[0].dice) if options else [], set()
    for index, face in enumerate(dice):
        if face in wanted:
            wanted.remove(face)
            kept.add(index)
    return kept


def chosen_keep(dice: tuple[int, ...], kept: set[int], was: set[int] | None) -> tuple[int, ...]:
    """The keep after a tap: a 1 or a 5 alone, the other faces three at a time (a tap on one of
    three 2s keeps all three); `was`, the keep before the tap (None: the throw's first look)."""
    if was is None:
        return tuple(sorted(best_keep(dice)))
    tapped = kept ^ was
    if len(tapped) == 1:
        index = tapped.pop()
        face = dice[index]
        step = 1 if face in kaques.SINGLE_VALUES else 3
        same = [i for i, other in enumerate(dice) if other == face]
        count = sum(1 for i in same if i in kept)
        if index in kept:
            count = min(len(same), -(-count // step) * step) if len(same) >= step else count - 1
        else:
            count = count // step * step
        kept = (kept - set(same)) | set(same[:count])
    return tuple(sorted(kept))


def tray_view(ctx, args) -> Tray | None:
    view = ctx.view
    if not view.writes:
        return None
    free = view.turn.free
    dice = read_dice(args.get("dice"), free)
    if args.get("redo"):  # "Change the dice": back to tapping, the last die taken back
        dice = dice[:-1]
    phase, kept, keep_points, after, next_risk = "faces", (), None, None, None
    if len(dice) == free:
        dice = tuple(sorted(dice))
        phase = "keep" if kaques.scores(dice) else "kaque"
        if phase == "keep":
            getlist = getattr(args, "getlist", lambda key: list(args.get(key) or []))
            was = indexes(str(args.get("was", "")).split(","), free) if "was" in args else None
            kept = chosen_keep(dice, indexes(getlist("keep"), free), was)
            faces = [dice[i] for i in kept]
            try:
                keep_points = kaques.keep_score(faces) if faces else None
                after = view.turn.throw(dice, faces) if faces else None
            except RuleError:
                keep_points = after = None
            next_risk = chance(after.free) if after else None
    opened = bool(args.get("open") or dice or view.throws)
    points = str(args.get("points", ""))[:6]
    faces = bool(args.get("faces")) or (has_request_context() and request.method == "POST" and bool(request.form.get("faces")))
    return Tray(opened, dice, phase, kept, keep_points, after, next_risk, points if digits(points) else "", faces)


def _kaques_game(ctx) -> service.Played:
    played = ctx.played
    if played.row["game"] != kaques.name or played.state is None:
        raise service.Refused("This table is not playing Jaques le Kaques.", 409)
    return played


def _points(name: str) -> int:
    points = number_field(name, 100_000)
    # a total off the steps of 50 (375 typed on the keypad, in the tray or a correction's
    # stepper) in the tray's own words, not the engine's: "points musi być wielokrotnością 50",
    # the log's field name in English on a Polish phone
    if points is None or points % 50:
        raise service.Refused("Type the turn's points: a multiple of 50, like 350.", 400)
    return points


@bp.post("/kaques/turn")
def turn():
    """A step of the turn from the tray, built from its fields inside the write (after its key
    and its board are checked: a retry answers as the first did): `again` keeps the throw and
    throws again (the table's draft), `stop` banks the turn (or enters its Kaque), `back` takes
    the last throw back, `total` enters the turn's points in one go, `reopen` takes a finished
    turn back without its last throw, `correct` sets a turn's points."""
    ctx = g.ctx
    _kaques_game(ctx)
    action, target = field("action"), field("target")
    points = _points("points") if action in ("total", "correct") else None
    dice, keep = read_dice(field("dice"), 12), request.form.getlist("keep")
    back: dict = {}  # the throw a step takes back: the answer's tray shows it to keep again

    def step(change: service.Write) -> Any:
        played = change.played
        if played.state is None:
            raise service.Refused("This table is not playing Jaques le Kaques.", 409)
        on_turn = played.state.on_turn
        if action == "correct":
            return change.correct(target, {"points": points, "throws": None})
        if action == "reopen":
            return reopen(change, target, back)
        if action == "total":
            return change.submit({"type": "turn", "player": on_turn, "points": points})
        so_far = draft_turn(played) or TurnState()
        throws = [t.as_event() for t in so_far.throws]
        if action == "back":
            if not throws:
                raise service.Refused("There is no throw to take back.", 409)
            back.update(throws[-1])
            return change.save_draft({"player": on_turn, "throws": throws[:-1]} if len(throws) > 1 else None)
        if len(dice) != so_far.free:
            raise service.Refused(kaques.Plural("Tap the %(num)s die you see first.",
                                                "Tap the %(num)s dice you see first.", so_far.free))
        thrown = sorted(dice)
        this = {"dice": thrown, "keep": [thrown[i] for i in sorted(indexes(keep, len(thrown)))]}
        if action == "again":
            return change.save_draft({"player": on_turn, "throws": throws + [this]})
        if action == "stop":
            return change.submit({"type": "turn", "player": on_turn, "throws": throws + [this]})
        raise service.Refused("That does not work on this page.", 400)

    service.write(ctx.db, ctx.table, ctx.who, step, idem(), board())
    return answer(taken_back(back) if back else None)


def taken_back(throw: dict) -> dict:
    """The tray after a throw is taken back: that throw's dice, its keep to choose again (a
    Kaque's: the pad open on that throw's faces)."""
    dice, keep = sorted(throw["dice"]), list(throw["keep"])
    kept = []
    for index, face in enumerate(dice):
        if face in keep:
            keep.remove(face)
            kept.append(str(index))
    return {"open": "1", "dice": ",".join(map(str, dice)), "keep": kept, "was": ",".join(kept)} if throw["keep"] \
        else {"open": "1"}


def reopen(change: service.Write, target: str, back: dict) -> int:
    """Undo the last turn and put it back on the table without its last throw, so a mistyped
    Kaque (or a fertisch! that should have been "throw again") is one tap to fix. One
    transaction: a crash leaves either the turn as it was or the turn reopened."""
    played = change.played
    index = played.index_of(target)
    event = played.entries[index][1] if index is not None else {}
    undone = change.undo(target)
    throws = event.get("throws") or []
    if len(throws) > 1:
        change.save_draft({"player": event["player"], "throws": throws[:-1]})
    elif played.draft:
        change.save_draft(None)  # the next player's first throws no longer fit
    if throws:
        back.update(throws[-1])
    return undone


# the turn's total is typed in the tray while the dice tapped are built on the server: a tray
# that lands meanwhile morphs, keeping the field typed in and the button under the finger
def drafted(ctx, played) -> list[tuple]:
    """The parts of the board a throw kept (or taken back) changes (web/board.py): the call,
    the turn in play and the tray; the standings and the race wait for the turn's end.
    Each throw was the whole board, 2.9 KB of gzip (issue 26: an answer ≤ 1 KB)."""
    return [("banner",), ("now",), ("tray",)]


SCREEN = Screen(view, blueprints=(bp,), tray_view=tray_view, drafted=drafted, tray_swap="outerMorph",
                tray_reads_corrections=False)
