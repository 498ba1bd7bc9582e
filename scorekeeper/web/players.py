"""Players and their statistics over the tables this phone hosted or sat at, with
server-rendered SVG charts.

The figures come from each finished game summarised once (by the game's last event, kept per
app, and in the database for an imported game), never from folding the whole database in a
request. A stranger's phone sees nobody; an imported game counts, but not its money (anyone
can write a log) unless the host of the table it names confirmed it (service.answer_claim):
then it counts with its money for the phones of that table. A player page never links to a
table: its links would let anyone join it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from fractions import Fraction

from flask import Blueprint, abort, current_app, render_template

from .. import charts, service, stats
from ..gamelog import cooperate
from ..games import ENGINES
from .db import get_db
from .i18n import _, cents
from .security import known_device

bp = Blueprint("players", __name__)

_lock = threading.Lock()
SUMMARIES = 4096  # games summarised and kept per app (a few KB each)


def everyone(db) -> dict[str, stats.Player]:
    """The players of every game with entries at this phone's tables."""
    device = known_device()
    if device is None:
        return {}
    tables = {table["id"]: table for table in service.tables_of(db, device, limit=1000)}
    if not tables:
        return {}
    # imported games whose money a host of these tables confirmed (or this phone's imports
    # that were confirmed): they count with their money, as long as they stay as confirmed
    counted = service.counted_claims(db, tables)
    marks = db.execute(
        "SELECT g.id, g.table_id, max(e.id) FROM games g JOIN events e ON e.game_id = g.id "
        f"WHERE g.table_id IN ({','.join('?' * len(tables))}) OR g.id IN ({','.join('?' * len(counted))}) "
        "GROUP BY g.id ORDER BY g.id", [*tables, *counted]).fetchall()
    kept: OrderedDict = current_app.extensions.setdefault("scorekeeper.summaries", OrderedDict())
    found, copies = [], []
    for game_id, table_id, last in marks:
        imported = table_id not in tables or tables[table_id]["imported"]
        money = not imported or counted.get(game_id) == last
        with _lock:
            summary = kept.get((game_id, last, money))
        if summary is None:
            # an imported game was summarised once, when it came in (bench/attack.py: 2,000-event
            # logs folded here held each worker ~40 ms a game)
            stored = db.execute("SELECT summary FROM summaries WHERE game_id = ? AND last_event = ?",
                                [game_id, last]).fetchone()
            if stored:
                summary = stats.from_json(stored[0])
            else:
                cooperate()  # many games to summarise: other requests of this worker go on between them
                played = service.load(db, db["games"].get(game_id))
                if played.game is None:
                    continue
                doc = stats.dated(played.log(), played.row["created_at"])
                summary = (stats.started(doc), stats.summarise(doc))
            if not money:
                summary = (summary[0], stats.without_money(summary[1]))
            with _lock:
                kept[(game_id, last, money)] = summary
                while len(kept) > SUMMARIES:
                    kept.popitem(last=False)
        (copies if imported else found).append(summary)
    # a downloaded game imported again counted twice (its games, wins and figures): an
    # imported game that is one already counted, or imported before, counts once
    seen = {same_game(summary) for summary in found}
    for summary in copies:
        key = same_game(summary)
        if key is None or key not in seen:
            found.append(summary)
            seen.add(key)
    return stats.combine(found)


def same_game(summary: tuple[str, stats.Summary]) -> tuple | None:
    """What makes two summaries one game: the kind, when it started (to the second, from its
    first entry's time, which a log keeps), its players and each one's result; None for a log
    that says no time (two games of it may well end alike)."""
    when, game = summary
    if not when:
        return None
    return (game.game, when, game.players, game.finished,
            tuple(sorted((name, line.points, line.won, line.tied) for name, line in game.lines.items())))


@bp.get("/players")
def index():
    return render_template("players.html", players=list(everyone(get_db()).values()))


@bp.get("/players/<path:name>")
def player(name: str):
    found = everyone(get_db()).get(name.strip().casefold())
    if found is None:
        abort(404, _("Nobody of that name has finished or started a game here yet."))
    lines = found.lines
    money_charts = {}
    for currency in found.money():
        running, series = Fraction(0), [0.0]  # from nothing, before the first game
        for line in lines:
            if line.currency == currency and line.cents is not None:
                running += line.cents
                series.append(float(running) / 100)
        if len(series) > 1:
            money_charts[currency] = charts.line(series, first=0)
    figure_charts = {}
    for game, figures in found.games.items():
        key = ENGINES[game].statistics.key
        series = [line.figure(key) for line in figures.lines] if key else []
        series = [value for value in series if value is not None]
        if len(series) >= 2:
            figure_charts[game] = charts.line(series)
    results = charts.bars([(ENGINES[game].title, figures.games, figures.wins)
                           for game, figures in found.games.items()])
    return render_template("player.html", player=found, lines=list(reversed(lines)),
                           money_charts=money_charts, figure_charts=figure_charts, results=results)


@bp.app_template_filter("stat_money")
def stat_money(amount: Fraction, currency: str, signed: bool = False) -> str:
    """Cents (a team's share may be a fraction of one, rounded half away from zero) as the
    player's locale writes money: '+€11.63'."""
    return cents(amount, currency, signed)
