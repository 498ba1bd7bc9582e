"""Jaques le Kaques, the push-your-luck dice game of Tlamana: scoring kept dice, turns, the race.

Read top to bottom: scoring the dice kept from one throw (`keep_score`, `scoring_options`),
the odds of a Kaque (`kaque_chance`), a turn entered throw by throw (`TurnState`, with
`verify_throw` / `can_throw` / `throw`, ended by `end`), the calls a turn earns, and the
game: whose turn it is, the race to `target`, and the result.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any, Iterable, Mapping, Sequence

from .base import Plural, RuleError, Setting, Setup, Statistics, Text, describe, require, require_seating, whole_number

# --- scoring the dice kept from one throw ------------------------------------------------

FACES = (1, 2, 3, 4, 5, 6)
DICE = 6
SINGLE_VALUES = {1: 100, 5: 50}  # the only faces that score on their own
GRANDMERE_POINTS = 350  # the turn total wise grandmothers stop at
# how many dice of a face a refusal says in words; one die, or none, has messages of its own
# TRANSLATORS: a number of dice of one face, as in "keeps two 5s, but only one was thrown"
COUNT_WORDS = {2: Text("two"), 3: Text("three"), 4: Text("four"), 5: Text("five"), 6: Text("six")}


def triple_value(face: int) -> int:
    """Three of `face` thrown together: face × 100, but three 1s are 1000.

    >>> triple_value(4), triple_value(1)
    (400, 1000)
    """
    return 1000 if face == 1 else face * 100


def faces(values: Any, what: str = "dice") -> tuple[int, ...]:
    """`values` as a tuple of faces, or a RuleError naming the field `what` (dice of one throw: ≤ 6)."""
    if (not isinstance(values, (list, tuple)) or len(values) > DICE
            or any(isinstance(v, bool) or not isinstance(v, int) or v not in FACES for v in values)):
        raise RuleError("%(key)s must be a list of up to six faces from 1 to 6, not %(value)s",
                        key=what, value=describe(values))
    return tuple(values)


def keep_score(dice: Sequence[int]) -> int:
    """What dice kept from one throw score; RuleError for a die that cannot be kept.

    Each face scores as many triples as it makes, plus its single values for the rest —
    so a 2, 3, 4 or 6 counts only inside a triple.

    >>> keep_score([1, 5]), keep_score([1, 1, 1, 1]), keep_score([5] * 5), keep_score([2] * 6)
    (150, 1100, 600, 400)
    >>> keep_score([2, 2, 2, 3, 3, 3])
    500
    >>> keep_score([5, 3])
    Traceback (most recent call last):
    ...
    scorekeeper.games.base.RuleError: a kept 3 scores only in a triple
    """
    points = 0
    for face, count in sorted(Counter(faces(dice, "keep")).items()):
        triples, rest = divmod(count, 3)
        points += triples * triple_value(face)
        if rest and face not in SINGLE_VALUES:
            raise RuleError("a kept %(face)s scores only in a triple", face=face)
        points += rest * SINGLE_VALUES.get(face, 0)
    return points


def scores(throw: Iterable[int]) -> bool:
    """Whether a throw has any die worth keeping; a throw without one is a Kaque.

    >>> scores([2, 3, 4, 6, 6, 2]), scores([2, 3, 3, 6, 3])
    (False, True)
    """
    counts = Counter(throw)
    return any(counts[face] for face in SINGLE_VALUES) or any(n >= 3 for n in counts.values())


def keepable(throw: Sequence[int]) -> tuple[bool, ...]:
    """For each die of `throw`, in order, whether it can be among the kept dice (UI: grey out
    the rest). A 2, 3, 4 or 6 can be kept only when at least three of its face were thrown.

    >>> keepable([1, 2, 2, 3, 2, 6])
    (True, True, True, False, True, False)
    """
    throw = faces(throw)
    counts = Counter(throw)
    return tuple(face in SINGLE_VALUES or counts[face] >= 3 for face in throw)


@dataclass(frozen=True)
class Keep:
    """One way to keep dice from a throw, and what it scores."""

    dice: tuple[int, ...]
    points: int


def scoring_options(throw: Sequence[int]) -> list[Keep]:
    """Every set of dice that may be kept from `throw`, best first (most points; among
    equals, fewer dice, which leaves more to throw). Empty for a Kaque.

    >>> [(k.dice, k.points) for k in scoring_options([1, 5, 2, 3, 4, 6])]
    [((1, 5), 150), ((1,), 100), ((5,), 50)]
    >>> scoring_options([2, 2, 2, 2])[0]
    Keep(dice=(2, 2, 2), points=200)
    """
    counts = Counter(faces(throw))
    choices = []  # per face: how many of it may be kept
    for face in sorted(counts):
        step = 1 if face in SINGLE_VALUES else 3
        choices.append([(face, n) for n in range(0, counts[face] + 1, step)])
    options = []
    for picks in product(*choices):
        dice = tuple(face for face, n in picks for _ in range(n))
        if dice:
            options.append(Keep(dice, keep_score(dice)))
    return sorted(options, key=lambda k: (-k.points, len(k.dice), k.dice))


# --- the risk meter --------------------------------------------------------------------


@cache
def kaque_chance(free: int) -> Fraction:
    """The exact chance that a throw of `free` dice scores nothing (a Kaque), counted over
    all 6**free outcomes.

    >>> kaque_chance(1), kaque_chance(3), kaque_chance(6)
    (Fraction(2, 3), Fraction(5, 18), Fraction(5, 162))
    """
    if isinstance(free, bool) or not isinstance(free, int) or not 1 <= free <= DICE:
        raise RuleError("a throw has from 1 to 6 dice, not %(value)s", value=describe(free))
    kaques = sum(1 for throw in product(FACES, repeat=free) if not scores(throw))
    return Fraction(kaques, len(FACES) ** free)


# --- a turn, throw by throw ------------------------------------------------------------


class Call(StrEnum):
    """What the table calls out during a turn: the game's own words, kept as they are in logs and
    results (a UI may show them translated)."""

    OH_LALA = "Oh, Lálá!"  # all six dice kept, and thrown again
    GRANDMERE = "Grandmère"  # the turn total reached 350
    FERTISCH = "fertisch!"  # the player stopped and banks the turn
    KAQUE = "Le Kaque!"  # a throw scored nothing: the turn is worth 0
    GRAND_KAQUE = "Grand Kaque!"  # a Kaque after an Oh, Lálá (called as well as Le Kaque!)


# The calls as a screen shows them: the game's own words, the same in every language, but marked
# like any other message so that every catalog carries them
# TRANSLATORS: the calls of Jaques le Kaques, the game's own words: keep them as they are
CALLED = {Call.OH_LALA: Text("Oh, Lálá!"), Call.GRANDMERE: Text("Grandmère"), Call.FERTISCH: Text("fertisch!"),
          Call.KAQUE: Text("Le Kaque!"), Call.GRAND_KAQUE: Text("Grand Kaque!")}


@dataclass(frozen=True)
class Throw:
    """One throw of a turn: the dice thrown, those kept, and what the kept dice score."""

    dice: tuple[int, ...]
    keep: tuple[int, ...]
    points: int

    def as_event(self) -> dict[str, list[int]]:
        return {"dice": list(self.dice), "keep": list(self.keep)}


@dataclass(frozen=True)
class Turn:
    """A finished turn: who, what it scored, the calls made; `throws` is empty for a quick total."""

    player: str
    points: int
    calls: tuple[Call, ...]
    throws: tuple[Throw, ...] = ()

    @property
    def kaqued_after_grandmere(self) -> bool:
        """Went on past a Grandmère and kaqued: the table's knowing looks."""
        return Call.KAQUE in self.calls and Call.GRANDMERE in self.calls


@dataclass(frozen=True)
class TurnState:
    """A turn being entered throw by throw; `TurnState()` is a turn before its first throw.

    >>> turn = TurnState().throw([1, 5, 2, 3, 4, 6], [1, 5]).throw([2, 2, 2, 3], [2, 2, 2])
    >>> turn.total, turn.free, turn.can_stop
    (350, 1, True)
    >>> turn.end("Anna").calls
    (<Call.GRANDMERE: 'Grandmère'>, <Call.FERTISCH: 'fertisch!'>)
    >>> turn.throw([4], []).end("Anna").points
    0
    """

    throws: tuple[Throw, ...] = ()
    total: int = 0  # the kept dice so far; a Kaque makes the turn worth 0 all the same
    free: int = DICE  # dice the next throw must have
    kaqued: bool = False
    calls: tuple[Call, ...] = ()  # made so far, in the order they were called

    @property
    def number(self) -> int:
        """The number of the next throw, counting from 1."""
        return len(self.throws) + 1

    @property
    def can_stop(self) -> bool:
        """The player may stop ("fertisch!") after any throw that kept dice."""
        return bool(self.throws) and not self.kaqued

    @property
    def oh_lala_next(self) -> bool:
        """All six dice are kept: the next throw takes all six again."""
        return self.can_stop and self.free == DICE

    @property
    def kaque_is_grand(self) -> bool:
        """A Kaque on the next throw would be a Grand Kaque!: an Oh, Lálá! came before it in this turn.

        >>> TurnState().throw([1, 1, 1, 5, 5, 5], [1, 1, 1, 5, 5, 5]).kaque_is_grand
        True
        >>> TurnState().throw([1, 5, 2, 3, 4, 6], [1, 5]).kaque_is_grand
        False
        """
        return self.oh_lala_next or Call.OH_LALA in self.calls

    @property
    def points(self) -> int:
        return 0 if self.kaqued else self.total

    @property
    def risk(self) -> Fraction:
        """The chance that the next throw is a Kaque."""
        return kaque_chance(self.free)

    def verify_throw(self, dice: Any, keep: Any) -> Throw:
        """The throw `dice`, keeping `keep`, or a RuleError naming this throw's number."""
        try:
            return self._check_throw(dice, keep)
        except RuleError as error:
            raise RuleError("throw %(number)s: %(error)s", number=self.number, error=error.text) from None

    def can_throw(self, dice: Any, keep: Any) -> bool:
        try:
            self.verify_throw(dice, keep)
        except RuleError:
            return False
        return True

    def throw(self, dice: Any, keep: Any) -> TurnState:
        """The turn after this throw: dice kept and added, or ended by a Kaque."""
        made = self.verify_throw(dice, keep)
        throws = self.throws + (made,)
        calls = list(self.calls)
        if self.oh_lala_next:
            calls.append(Call.OH_LALA)
        if not made.keep:
            calls.append(Call.KAQUE)
            if Call.OH_LALA in calls:
                calls.append(Call.GRAND_KAQUE)
            return replace(self, throws=throws, kaqued=True, calls=tuple(calls))
        total = self.total + made.points
        if self.total < GRANDMERE_POINTS <= total:
            calls.append(Call.GRANDMERE)
        free = self.free - len(made.keep) or DICE  # all six kept: they may all be thrown again
        return TurnState(throws, total, free, False, tuple(calls))

    def end(self, player: str) -> Turn:
        """The finished turn: stopped ("fertisch!") after the last throw, or its Kaque."""
        require(bool(self.throws), "a turn needs at least one throw")
        if self.kaqued:
            return Turn(player, 0, self.calls, self.throws)
        return Turn(player, self.total, self.calls + (Call.FERTISCH,), self.throws)

    def as_event(self, player: str) -> dict[str, Any]:
        """The log event for this turn, stopped here (or ended by its Kaque)."""
        return {"type": "turn", "player": player, "throws": [t.as_event() for t in self.throws]}

    def _check_throw(self, dice: Any, keep: Any) -> Throw:
        if self.kaqued:
            raise RuleError("the turn already ended with Le Kaque! at throw %(number)s", number=self.number - 1)
        dice = faces(dice, "dice")
        if len(dice) != self.free:
            raise RuleError(_wrong_count(len(dice), self.free))
        keep = faces(keep, "keep")
        thrown, kept = Counter(dice), Counter(keep)
        for face in sorted(kept):
            if kept[face] > thrown[face]:
                raise RuleError(_not_thrown(face, kept[face], thrown[face]))
        points = keep_score(keep)
        if not keep and scores(dice):
            raise RuleError("%(dice)s scores, so keep at least one scoring die", dice="-".join(map(str, dice)))
        return Throw(dice, keep, points)


def turn_so_far(throws: Any) -> TurnState:
    """The turn after `throws`, given as in the log (`[{"dice": […], "keep": […]}, …]`); the
    web keeps an unfinished turn this way and re-checks it as throws are added."""
    if not isinstance(throws, list):
        raise RuleError("throws must be a list like [{\"dice\": […], \"keep\": […]}], not %(value)s",
                        value=describe(throws))
    turn = TurnState()
    for thrown in throws:
        if not isinstance(thrown, dict):
            raise RuleError("throw %(number)s: must be an object with dice and keep, not %(value)s",
                            number=turn.number, value=describe(thrown))
        for key in thrown:
            if key not in ("dice", "keep"):
                raise RuleError("throw %(number)s: a throw has no field %(key)s", number=turn.number,
                                key=describe(key))
        if thrown.get("dice") is None:
            raise RuleError("throw %(number)s: dice is missing", number=turn.number)
        if thrown.get("keep") is None:
            raise RuleError("throw %(number)s: keep is missing (keep [] for a throw that scores nothing)",
                            number=turn.number)
        turn = turn.throw(thrown["dice"], thrown["keep"])
    return turn


def quick_turn(player: str, points: int) -> Turn:
    """A turn entered as its total only: 0 is a Kaque, anything else was banked."""
    calls = [Call.KAQUE] if points == 0 else [Call.FERTISCH]
    if points >= GRANDMERE_POINTS:
        calls.insert(0, Call.GRANDMERE)
    return Turn(player, points, tuple(calls))


def _wrong_count(thrown: int, free: int) -> Text:
    """A throw of `thrown` dice when `free` were to be thrown (never the same number)."""
    return Plural("%(num)s die thrown, but %(free)s", "%(num)s dice thrown, but %(free)s", thrown,
                  free=Plural("%(num)s die was free", "%(num)s dice were free", free))


def _not_thrown(face: int, kept: int, thrown: int) -> Text:
    """Keeping `kept` dice of `face` when only `thrown` of them were thrown (fewer than kept)."""
    if kept == 1:  # then none was thrown
        return Text("keeps a %(face)s, but no %(face)s was thrown", face=face)
    if thrown == 0:
        # TRANSLATORS: %(face)ss is a face in the plural ("two 5s"); %(count)s a number in words
        return Text("keeps %(count)s %(face)ss, but no %(face)s was thrown", count=COUNT_WORDS[kept], face=face)
    if thrown == 1:
        return Text("keeps %(count)s %(face)ss, but only one was thrown", count=COUNT_WORDS[kept], face=face)
    return Text("keeps %(count)s %(face)ss, but only %(thrown)s were thrown", count=COUNT_WORDS[kept], face=face,
                thrown=COUNT_WORDS[thrown])


# --- the game ------------------------------------------------------------------------

name = "kaques"
title = "Jaques le Kaques"
settings: dict[str, Setting] = {
    "target": Setting(10000, whole_number(50, multiple_of=50), Text("a multiple of 50, 50 or more"),
                      Text("Points to win")),
}
events = {"turn": frozenset({"player", "throws", "points"})}
details = frozenset({"throws", "calls"})  # how a turn went: its points are what count



@dataclass(frozen=True)
class State:
    setup: Setup
    rules: Mapping[str, Any]
    totals: Mapping[str, int]
    turns: tuple[Turn, ...] = ()
    winner: str | None = None  # the first to reach the target at the end of a turn

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def on_turn(self) -> str | None:
        """Players take turns in seat order; None once someone has won."""
        if self.finished:
            return None
        return self.setup.players[len(self.turns) % len(self.setup.players)]


def start(setup: Setup, rules: Mapping[str, Any]) -> State:
    require_seating(not setup.teams, "teams: Jaques le Kaques is played without teams")
    require_seating(len(setup.players) >= 2, "players: Jaques le Kaques needs at least two players")
    return State(setup, dict(rules), {player: 0 for player in setup.players})


# A quick total past any turn played (fifty Oh, Lálás of six 1s): a typo. Without a bound two
# totals of 4,300 digits (what a JSON number holds) made a sum no result could print.
MOST_POINTS = 100_000


def verify_turn(state: State, event: Mapping[str, Any]) -> Turn:
    """The turn `event` records, or a RuleError saying why it may not be entered."""
    require(not state.finished, "the game is over: %(winner)s has won", winner=state.winner)
    player = state.setup.player(event.get("player"))
    if player != state.on_turn:
        raise RuleError("it is %(on_turn)s's turn, not %(player)s's", on_turn=state.on_turn, player=player)
    throws, points = event.get("throws"), event.get("points")
    if throws is not None and points is not None:
        raise RuleError("give the turn's throws or its points, not both")
    if throws is not None:
        return turn_so_far(throws).end(player)
    if points is None:
        raise RuleError("give the turn's throws or its points")
    if isinstance(points, bool) or not isinstance(points, int) or points < 0 or points % 50:
        raise RuleError("points must be a multiple of 50, 0 or more, not %(value)s", value=describe(points))
    if points > MOST_POINTS:
        raise RuleError("points: a turn scores at most %(most)s, not %(value)s", most=MOST_POINTS,
                        value=describe(points))
    return quick_turn(player, points)


def verify_draft(state: State, payload: Any) -> TurnState:
    """The unfinished turn a table keeps while the player on turn enters it throw by throw
    (`{"player": name, "throws": [...]}` as in the log), or a RuleError saying why it may not
    be kept. A draft ends before any Kaque: a throw that scores nothing ends the turn, which
    is then entered as a turn event.

    >>> game = start(Setup(("Anna", "Ben"), (), False), {"target": 10000})
    >>> verify_draft(game, {"player": "anna", "throws": [{"dice": [1, 5, 2, 3, 4, 6], "keep": [1]}]}).total
    100
    >>> verify_draft(game, {"player": "Ben", "throws": []})
    Traceback (most recent call last):
    ...
    scorekeeper.games.base.RuleError: it is Anna's turn, not Ben's
    """
    require(not state.finished, "the game is over: %(winner)s has won", winner=state.winner)
    if not isinstance(payload, dict):
        raise RuleError("a turn in progress must be an object with player and throws, not %(value)s",
                        value=describe(payload))
    for key in payload:
        if key not in ("player", "throws"):
            raise RuleError("a turn in progress has no field %(key)s", key=describe(key))
    player = state.setup.player(payload.get("player"))
    if player != state.on_turn:
        raise RuleError("it is %(on_turn)s's turn, not %(player)s's", on_turn=state.on_turn, player=player)
    turn = turn_so_far(payload.get("throws", []))
    if turn.kaqued:
        raise RuleError("throw %(number)s scores nothing: Le Kaque! ends the turn, so enter it as the turn",
                        number=turn.number - 1)
    return turn


def apply(state: State, event: Mapping[str, Any]) -> State:
    if event.get("type") != "turn":
        raise RuleError("Jaques le Kaques has only turn events, not %(type)s", type=describe(event.get("type")))
    turn = verify_turn(state, event)
    total = state.totals[turn.player] + turn.points
    won = total >= state.rules["target"]
    return replace(state, totals={**state.totals, turn.player: total}, turns=state.turns + (turn,),
                   winner=turn.player if won else None)


def writers(state: State) -> frozenset[str]:
    return frozenset({state.on_turn}) if state.on_turn else frozenset()


def result(state: State) -> dict[str, Any]:
    running = {player: 0 for player in state.setup.players}
    turns = []
    for turn in state.turns:
        running[turn.player] += turn.points
        turns.append({"player": turn.player, "points": turn.points, "total": running[turn.player],
                      "calls": [str(call) for call in turn.calls],
                      "kaqued_after_grandmere": turn.kaqued_after_grandmere})
    calls = {player: {str(call): 0 for call in Call} for player in state.setup.players}
    for turn in state.turns:
        for call in turn.calls:
            calls[turn.player][str(call)] += 1
    return {
        "game": name,
        "finished": state.finished,
        "points": dict(state.totals),
        "winner": state.winner,
        "target": state.rules["target"],
        "on_turn": state.on_turn,
        "turns": turns,
        "calls": calls,
    }


# --- the players' figures (scorekeeper/stats.py) --------------------------------------------


def count_figures(state: State, result: dict) -> dict[str, dict[str, int]]:
    out = {player: {"turns": 0, "turn_points": 0, "kaques": 0} for player in state.setup.players}
    for turn in state.turns:
        counts = out[turn.player]
        counts["turns"] += 1
        counts["turn_points"] += turn.points
        counts["kaques"] += Call.KAQUE in turn.calls
        counts["best_turn"] = max(counts.get("best_turn", 0), turn.points)
    return out


statistics = Statistics(
    count_figures,
    {"kaques": Text("Kaques"), "best_turn": Text("Best turn"), "average_turn": Text("Average turn")},
    key="average_turn", trend=Text("Average turn, game by game"),
    averages={"average_turn": ("turn_points", "turns")}, best=frozenset({"best_turn"}))
