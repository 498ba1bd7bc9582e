"""Players and their statistics across every table, with server-rendered SVG charts.

The figures are folded from the stored games each time they change (scorekeeper.stats);
this module only gathers the logs, keeps the last answer while nothing new was entered,
and renders. A player page never links to a table: its links would let anyone join it.
"""

from __future__ import annotations

import threading
from fractions import Fraction

from flask import Blueprint, abort, current_app, render_template

from .. import charts, service, stats
from ..games import ENGINES
from .db import get_db
from .i18n import _, cents

bp = Blueprint("players", __name__)

_lock = threading.Lock()


def everyone(db) -> dict[str, stats.Player]:
    """Every player of every game with entries; folded again only after a change."""
    mark = db.execute("SELECT (SELECT count(*) FROM games), (SELECT max(id) FROM games), "
                      "(SELECT max(id) FROM events)").fetchone()
    cache = current_app.extensions.setdefault("scorekeeper.players", {})  # one per app: its database
    with _lock:
        if cache.get("mark") == mark:
            return cache["players"]
    docs = []
    played_ids = {row[0] for row in db.execute("SELECT DISTINCT game_id FROM events")}
    for row in db["games"].rows_where(order_by="id"):
        if row["id"] not in played_ids:
            continue
        played = service.load(db, row)
        if played.game is None:
            continue
        docs.append(played.log())  # dated by its first entry (stats.started)
    found = stats.players(docs)
    with _lock:
        cache.update(mark=mark, players=found)
    return found


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
        key = stats.KEY_FIGURE[game]
        series = [line.figure(key) for line in figures.lines]
        series = [value for value in series if value is not None]
        if len(series) >= 2:
            figure_charts[game] = charts.line(series)
    results = charts.bars([(ENGINES[game].title, figures.games, figures.wins)
                           for game, figures in found.games.items()])
    return render_template("player.html", player=found, lines=list(reversed(lines)), engines=ENGINES,
                           money_charts=money_charts, figure_charts=figure_charts, results=results)


@bp.app_template_filter("stat_money")
def stat_money(amount: Fraction, currency: str, signed: bool = False) -> str:
    """Cents (a team's share may be a fraction of one, rounded half away from zero) as the
    player's locale writes money: '+€11.63'."""
    return cents(amount, currency, signed)
