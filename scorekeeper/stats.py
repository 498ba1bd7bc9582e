"""Player statistics, folded from game logs: per player and game, the games, wins, money and
the game's own figures.

Every figure comes from folding `scorekeeper-log/1` documents (`Played.log()` or files)
through the same engines the tables use; a game's summary may be kept as JSON (`to_json`) so
that it is folded once. Players are people at a pub, not accounts, so they are matched by
name, ignoring case, across every table. Only finished games count; games left unfinished are
counted apart. In team play a team's win,
its figures (Euchre's marches, Escoba's escobas…) count for each of its members, and its
money is split equally among them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping

from .gamelog import LogError, fold, read_header
from .games import escalero, euchre, kaques
from .games.base import Setup
from .games.settle import text_cents

# The game's own figures, in the order a page shows them. Each is a count summed over
# games, unless it is named in AVERAGES (a total divided by a count) or BEST (the highest).
FIGURES = {
    "escalero": ("average_column", "grandes", "served", "crossed"),
    "euchre": ("marches", "euchres", "loners"),
    "kaques": ("kaques", "best_turn", "average_turn"),
    "escoba": ("escobas", "sevens"),
}
AVERAGES = {"average_column": ("column_points", "columns"), "average_turn": ("turn_points", "turns")}
BEST = frozenset({"best_turn"})
# one figure per game for a player's chart of how they did game after game
KEY_FIGURE = {"escalero": "average_column", "euchre": "marches", "kaques": "average_turn",
              "escoba": "escobas"}


@dataclass(frozen=True)
class Line:
    """One finished game as one player played it."""

    source: int  # the log's position in the input, so a caller can link back to it
    game: str
    when: str  # when the game started ("" if the log does not say)
    side: str
    won: bool
    tied: bool  # finished without a winner (Escalero can end level)
    points: int | float | None  # the side's points in the result
    currency: str | None
    cents: Fraction | None  # this player's share of the side's money
    counts: Mapping[str, int]  # this game's raw counts for the player
    games: int = 1  # the games it counts for: 2 for a railroad Euchre slam, won or lost

    def figure(self, key: str) -> float | int | None:
        return _figure(key, self.counts)


@dataclass
class Figures:
    """One player's record at one game, over every finished game of it."""

    game: str
    games: int = 0
    wins: int = 0
    unfinished: int = 0
    won: dict[str, Fraction] = field(default_factory=dict)  # currency -> cents won
    lost: dict[str, Fraction] = field(default_factory=dict)  # currency -> cents lost (positive)
    counts: dict[str, int] = field(default_factory=dict)
    lines: list[Line] = field(default_factory=list)

    def add(self, line: Line) -> None:
        self.games += line.games
        self.wins += line.games if line.won else 0
        if line.cents is not None and line.currency:
            book = self.won if line.cents > 0 else self.lost
            book[line.currency] = book.get(line.currency, Fraction(0)) + abs(line.cents)
        for key, value in line.counts.items():
            if key in BEST:
                self.counts[key] = max(self.counts.get(key, value), value)
            else:
                self.counts[key] = self.counts.get(key, 0) + value
        self.lines.append(line)

    @property
    def currencies(self) -> list[str]:
        return sorted(set(self.won) | set(self.lost))

    def net(self, currency: str) -> Fraction:
        return self.won.get(currency, Fraction(0)) - self.lost.get(currency, Fraction(0))

    def figure(self, key: str) -> float | int | None:
        return _figure(key, self.counts)

    @property
    def figures(self) -> dict[str, float | int | None]:
        """The game's own figures, in their order."""
        return {key: self.figure(key) for key in FIGURES[self.game]}


@dataclass
class Player:
    """Everything one person (by name, ignoring case) played."""

    key: str  # the name casefolded
    name: str  # as written in their latest game
    games: dict[str, Figures] = field(default_factory=dict)  # by game, in FIGURES order
    latest: str = ""

    @property
    def lines(self) -> list[Line]:
        """Every finished game, oldest first."""
        return sorted((line for figures in self.games.values() for line in figures.lines),
                      key=lambda line: (line.when, line.source))

    @property
    def played(self) -> int:
        return sum(figures.games for figures in self.games.values())

    @property
    def wins(self) -> int:
        return sum(figures.wins for figures in self.games.values())

    def money(self) -> dict[str, tuple[Fraction, Fraction]]:
        """currency -> (cents won, cents lost) over every game."""
        out: dict[str, tuple[Fraction, Fraction]] = {}
        for figures in self.games.values():
            for currency in figures.currencies:
                won, lost = out.get(currency, (Fraction(0), Fraction(0)))
                out[currency] = (won + figures.won.get(currency, 0), lost + figures.lost.get(currency, 0))
        return dict(sorted(out.items()))


def _figure(key: str, counts: Mapping[str, int]) -> float | int | None:
    if key in AVERAGES:
        total, count = (counts.get(k, 0) for k in AVERAGES[key])
        return round(total / count, 1) if count else None
    return counts.get(key, 0)


# --- one game ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    """A log folded: whether it is finished, and each player's line (finished games only)."""

    game: str
    finished: bool
    players: tuple[str, ...]
    lines: Mapping[str, Line]  # by player name as seated


def summarise(doc: Any, source: int = 0, state: Any = None) -> Summary:
    """Fold one log (or take `state`, the log already folded); LogError if it breaks a rule."""
    game = read_header(doc)
    if state is None:
        state = fold(game, doc["events"])
    result = game.engine.result(state)
    setup: Setup = game.setup
    name = game.engine.name
    players = setup.players
    if not result.get("finished"):
        return Summary(name, False, players, {})
    counts = COUNTERS[name](state, result)
    money = result.get("money") or {}
    # a railroad Euchre slam is two games won (result `games`: 2 for the winner), and so two lost
    games = max((result.get("games") or {}).values(), default=1) or 1
    lines = {}
    when = started(doc)
    for player in players:
        side = setup.side_of(player)
        cents = None
        if side.name in money:
            cents = Fraction(text_cents(money[side.name]), len(side.members))
        lines[player] = Line(source, name, when, side.name, result.get("winner") == side.name,
                             result.get("winner") is None,
                             result["points"].get(side.name), result.get("currency") if money else None,
                             cents, counts[player], games)
    return Summary(name, True, players, lines)


def started(doc: Mapping[str, Any]) -> str:
    """When a game started: the log's `started_at`, else its first entry's time."""
    when = doc.get("started_at")
    if isinstance(when, str):
        return when
    for event in doc.get("events") or ():
        if isinstance(event, dict) and isinstance(event.get("at"), str):
            return event["at"]
    return ""


# --- each game's own figures --------------------------------------------------------------------


def _escalero(state: escalero.State, result: dict) -> dict[str, dict[str, int]]:
    """The side's column sums count for each member; the cells for the partner who wrote them."""
    rules = state.rules
    out = {}
    for player in state.setup.players:
        sums = result["columns"][state.setup.side_of(player).name]
        out[player] = {"column_points": sum(sums), "columns": len(sums), "grandes": 0, "served": 0, "crossed": 0}
    for entry in state.entries:
        counts = out[entry.player]
        if entry.value == 0:
            counts["crossed"] += 1
            continue
        if entry.row in (escalero.Row.GRANDE, escalero.Row.DOUBLE_GRANDE):
            counts["grandes"] += 1
        if _served(entry, rules):
            counts["served"] += 1
    return out


def _served(entry: escalero.Entry, rules: Mapping[str, Any]) -> bool:
    """Whether a written combination was served: the dice say so, or the value does (a value
    written without dice is served when it is the row's served value: 25, 35, 45, 80, 100)."""
    if entry.row.is_picture or entry.value == 0:
        return False
    if entry.throw is not None:
        return entry.throw.served
    values = escalero.allowed_values(entry.row, rules)
    return entry.row is escalero.Row.DOUBLE_GRANDE or (len(values) == 3 and entry.value == values[2])


def _euchre(state: euchre.State, result: dict) -> dict[str, dict[str, int]]:
    """Marches and euchres are the team's (as on the end screen: a euchre is a hand the team
    won as defenders); a loner is the player's own hand alone, making or defending."""
    sides, lone = euchre.tally(state), euchre.lone_hands(state)
    return {player: {"marches": sides[state.setup.side_of(player).name]["march"],
                     "euchres": sides[state.setup.side_of(player).name]["euchred"], "loners": lone[player]}
            for player in state.setup.players}


def _kaques(state: kaques.State, result: dict) -> dict[str, dict[str, int]]:
    out = {player: {"turns": 0, "turn_points": 0, "kaques": 0} for player in state.setup.players}
    for turn in state.turns:
        counts = out[turn.player]
        counts["turns"] += 1
        counts["turn_points"] += turn.points
        counts["kaques"] += kaques.Call.KAQUE in turn.calls
        counts["best_turn"] = max(counts.get("best_turn", 0), turn.points)
    return out


def _escoba(state, result: dict) -> dict[str, dict[str, int]]:
    """Escobas and sevens are captured by a side: a team's count for each of its members."""
    out = {}
    for player in state.setup.players:
        side = state.setup.side_of(player).name
        out[player] = {"rounds": len(state.rounds),
                       "escobas": sum(r.counts[side].escobas for r in state.rounds),
                       "sevens": sum(r.counts[side].sevens for r in state.rounds)}
    return out


COUNTERS: dict[str, Callable[[Any, dict], dict[str, dict[str, int]]]] = {
    "escalero": _escalero, "euchre": _euchre, "kaques": _kaques, "escoba": _escoba}


# --- every player ---------------------------------------------------------------------------------


def players(docs: Iterable[Any], skip_bad: bool = True) -> dict[str, Player]:
    """Every player of these logs, keyed by name casefolded, with their figures per game.
    A log that breaks a rule is left out (or, with skip_bad=False, raises LogError); a
    game without a single entry is not a game anyone played."""
    summaries = []
    for source, doc in enumerate(docs):
        try:
            summary = summarise(doc, source)
        except LogError:
            if skip_bad:
                continue
            raise
        if not summary.finished and not doc.get("events"):
            continue
        summaries.append((started(doc), summary))
    return combine(summaries)


def to_json(when: str, summary: Summary) -> str:
    """A game's summary and when it started, as JSON (`from_json` gives them back)."""
    lines = {name: {"side": line.side, "won": line.won, "tied": line.tied, "points": line.points,
                    "currency": line.currency, "cents": None if line.cents is None else str(line.cents),
                    "counts": dict(line.counts), "games": line.games}
             for name, line in summary.lines.items()}
    return json.dumps({"when": when, "game": summary.game, "finished": summary.finished,
                       "players": list(summary.players), "lines": lines}, separators=(",", ":"))


def from_json(text: str) -> tuple[str, Summary]:
    doc = json.loads(text)
    lines = {name: Line(0, doc["game"], doc["when"], line["side"], line["won"], line["tied"], line["points"],
                        line["currency"], None if line["cents"] is None else Fraction(line["cents"]),
                        line["counts"], line["games"])
             for name, line in doc["lines"].items()}
    return doc["when"], Summary(doc["game"], doc["finished"], tuple(doc["players"]), lines)


def without_money(summary: Summary) -> Summary:
    """A game whose money is not counted (an imported log: anyone can make one up)."""
    lines = {name: replace(line, currency=None, cents=None) for name, line in summary.lines.items()}
    return replace(summary, lines=lines)


def combine(summaries: Iterable[tuple[str, Summary]]) -> dict[str, Player]:
    """Players from games summarised once each (`summarise`), with when each started."""
    found: dict[str, Player] = {}
    for when, summary in summaries:
        for name in summary.players:
            player = found.setdefault(name.casefold(), Player(name.casefold(), name))
            if when >= player.latest:
                player.name, player.latest = name, when
            figures = player.games.get(summary.game)
            if figures is None:
                figures = player.games[summary.game] = Figures(summary.game)
                player.games = {game: player.games[game] for game in FIGURES if game in player.games}
            if summary.finished:
                figures.add(summary.lines[name])
            else:
                figures.unfinished += 1
    return dict(sorted(found.items(), key=lambda item: (-item[1].played, item[0])))
