"""Player statistics, folded from game logs: per player and game, the games, wins, money and
the game's own figures.

Every figure comes from folding `scorekeeper-log/1` documents (`Played.log()` or files)
through the same engines the tables use; a game's summary may be kept as JSON (`to_json`) so
that it is folded once. Players are people at a pub, not accounts, so they are matched by
name, ignoring case, across every table. Only finished games count; games left unfinished are
counted apart. In team play a team's win and
its figures count for each of its members, and its money is split equally among them. The
figures are each game's own (its engine's `statistics`).
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Iterable, Mapping

from .gamelog import LogError, fold, read_header
from .games import ENGINES
from .games.base import Setup
from .games.settle import text_cents

@dataclass(frozen=True)
class Line:
    """One finished game as one player played it."""

    source: int  # the log's position in the input, so a caller can link back to it
    game: str
    when: str  # when the game started ("" if the log does not say)
    side: str
    won: bool
    tied: bool  # finished without a winner (a game can end level)
    points: int | float | None  # the side's points in the result
    currency: str | None
    cents: Fraction | None  # this player's share of the side's money
    counts: Mapping[str, int]  # this game's raw counts for the player
    games: int = 1  # the games it counts for: 2 for a slam that wins two games at once, won or lost

    def figure(self, key: str) -> float | int | None:
        return ENGINES[self.game].statistics.figure(key, self.counts)


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
        best = ENGINES[self.game].statistics.best
        for key, value in line.counts.items():
            if key in best:
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
        return ENGINES[self.game].statistics.figure(key, self.counts)

    @property
    def figures(self) -> dict[str, float | int | None]:
        """The game's own figures, in their order."""
        return {key: self.figure(key) for key in ENGINES[self.game].statistics.shown}


@dataclass
class Player:
    """Everything one person (by name, ignoring case) played."""

    key: str  # the name casefolded
    name: str  # as written in their latest game
    games: dict[str, Figures] = field(default_factory=dict)  # by game, in the registry's order
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
    counts = game.engine.statistics.count(state, result)
    money = result.get("money") or {}
    # a slam may be two games won (result `games`: 2 for the winner), and so two lost
    games = max((result.get("games") or {}).values(), default=1) or 1
    lines = {}
    when = started(doc)
    # a game that ends level has no winner: the sides level on top tied, the sides behind lost
    top = max(result["points"].values()) if result.get("winner") is None else None
    for player in players:
        side = setup.side_of(player)
        cents = None
        if side.name in money:
            cents = Fraction(text_cents(money[side.name]), len(side.members))
        lines[player] = Line(source, name, when, side.name, result.get("winner") == side.name,
                             result.get("winner") is None and result["points"].get(side.name) == top,
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


def dated(doc: Mapping[str, Any], when: str) -> Mapping[str, Any]:
    """`doc`, started at `when` if it says no time of its own (an imported log without times:
    its statistics are ordered by when it was imported, service.import_log)."""
    return doc if started(doc) else {**doc, "started_at": when}


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
    # a summary stored by an older version said "tied" for every side of a game without a winner,
    # the ones behind the tie on top too: only the sides level on top tied
    level = [line["points"] for line in doc["lines"].values() if line["tied"] and line["points"] is not None]
    top = max(level, default=None)
    lines = {name: Line(0, doc["game"], doc["when"], line["side"], line["won"],
                        line["tied"] and line["points"] in (None, top), line["points"],
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
                player.games = {game: player.games[game] for game in ENGINES if game in player.games}
            if summary.finished:
                figures.add(summary.lines[name])
            else:
                figures.unfinished += 1
    return dict(sorted(found.items(), key=lambda item: (-item[1].played, alphabetical(item[0]), item[0])))


def alphabetical(name: str) -> str:
    """A name's place in an alphabetical list: its letters without their accents, so Íñigo
    stands among the I's and Álvaro among the A's, not after Z (the order of code points); a
    letter with a stroke, which Unicode does not decompose, as its letter (Łukasz among the
    L's, Søren among the S's)."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", name.casefold()) if not unicodedata.combining(c))
    return bare.translate(STROKED)


STROKED = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ŧ": "t", "ı": "i", "æ": "ae", "œ": "oe"})
