"""Each registered game's screen: a package here per game (`games.GAMES`), its `SCREEN` record
saying what the generic board asks of it, its templates (`templates/`, read as
`games/<game>/…`: the board, the tray, the history's event, the settlement, the rules page,
extra fields of the new-table form) and its static files (`static/`, served under
`/static/games/<game>/`). The engine, its statistics and its log-schema fragment are the
pure module `scorekeeper/games/<game>.py` and `<game>.schema.json` beside it.

Generic code asks `screen(game)` and includes templates by the game's name; it never names a
game. The packages are imported when the app is made, never by the generic modules, so a
screen imports the shared helpers (`writes`, `context`, `dice`, `i18n`) without a loop.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Callable, Mapping

from flask import Blueprint, Flask, abort, send_from_directory
from jinja2 import ChoiceLoader, FileSystemLoader, PrefixLoader

from ...games import GAMES
from ...games.base import Both
from ..i18n import localize


@dataclass(frozen=True)
class Screen:
    """What the table screen asks of a game, the optional parts defaulted."""

    # `view(ctx, played)`: the game's view model, what its templates read (None before the
    # seating suits the game)
    view: Callable[[Any, Any], Any]
    # its routes (the writes its controls make), and Jinja filters its templates use
    blueprints: tuple[Blueprint, ...] = ()
    filters: Mapping[str, Callable] = field(default_factory=dict)
    # `tray_view(ctx, args)`: what the tray shows of what this phone tapped (the form's fields)
    tray_view: Callable[[Any, Mapping[str, str]], Any] | None = None
    # `touched(ctx, played, entries)`: the board's parts a run of entries changed (web/board.py);
    # None: the stamp, the game, the tray and the history
    touched: Callable[[Any, Any, list], list[tuple] | None] | None = None
    # the parts of its own that the game's end changes besides what its last entries touched
    # (a note that points are provisional), for a game with `touched`; the settlement is
    # generic. None: the game whole
    ended: tuple[tuple, ...] | None = None
    # `drafted(ctx, played)`: the board's parts a step of the turn being entered changes (the
    # game's draft: a throw kept, a point tallied), besides the stamp; None: the whole board
    drafted: Callable[[Any, Any], list[tuple]] | None = None
    # how a tray answer is swapped: a tray whose fields are typed in while the server checks
    # them morphs ("outerMorph"), keeping the caret
    tray_swap: str | None = None
    # whether the tray shows the turn being entered step by step (the game's draft)
    tray_reads_draft: bool = True
    # whether the tray shows what correcting an entry changes (the totals a round leads to);
    # False: a correction leaves every other phone's tray, and what it tapped, as it is
    tray_reads_corrections: bool = True


def shared_win(scores: Mapping[str, Any], result: Mapping[str, Any]) -> str | None:
    """A finished game with no single winner whose `scores` (side: points or total) are level
    on top for some sides but not all: those sides, "Ben and Cleo" in the phone's language,
    who share the win; else None ("A tie": every side level). The sides behind read the
    heading as theirs: "A tie" told the last of three it had tied."""
    if not result.get("finished") or result.get("winner") or not scores:
        return None
    top = max(scores.values())
    leaders = [side for side, points in scores.items() if points == top]
    return localize(Both(leaders)) if len(leaders) < len(scores) else None


SCREENS: dict[str, Screen] = {}
HERE = os.path.dirname(__file__)


def screen(game: str) -> Screen:
    return SCREENS[game]


def folder(game: str, kind: str) -> str:
    return os.path.join(HERE, game, kind)


def static_path(filename: str) -> str | None:
    """Where a static file named as its URL names it ("games/<game>/<file>") lies, when it is a game's."""
    parts = filename.split("/", 2)
    if len(parts) == 3 and parts[0] == "games" and parts[1] in SCREENS:
        return os.path.join(folder(parts[1], "static"), parts[2])
    return None


def init_app(app: Flask) -> None:
    for game in GAMES:
        made = import_module(f".{game}", __name__).SCREEN
        SCREENS[game] = made
        for blueprint in made.blueprints:
            app.register_blueprint(blueprint)
        app.jinja_env.filters.update(made.filters)
    # a game's templates by its name (games/<game>/_board.html), after the app's own
    app.jinja_loader = ChoiceLoader([app.jinja_loader, PrefixLoader(
        {"games": PrefixLoader({game: FileSystemLoader(folder(game, "templates")) for game in GAMES})})])

    @app.get("/static/games/<game>/<path:filename>", endpoint="game_static")
    def game_static(game: str, filename: str):
        if game not in SCREENS:
            abort(404)
        return send_from_directory(folder(game, "static"), filename, max_age=app.get_send_file_max_age(filename))
