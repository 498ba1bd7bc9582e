"""Scorekeeper: a pub table's companion for games played with real dice and cards (the games: `games.GAMES`)."""

from __future__ import annotations

import os
from typing import Any, Mapping

from flask import Flask
from jinja2 import FileSystemBytecodeCache
from werkzeug.routing import IntegerConverter

from .settings import whole_number


class RowNumber(IntegerConverter):
    """A number in a URL that names a row (a seat, a game, a claim): one past SQLite's 64 bits
    names none, a 404, instead of an OverflowError from SQLite (found by tests/reliability/test_fuzz.py)."""

    def __init__(self, map, *args, **kwargs) -> None:
        kwargs.setdefault("max", 2 ** 63 - 1)
        super().__init__(map, *args, **kwargs)


def configured_app(test_config: Mapping[str, Any] | None = None, make_folder: bool = True) -> Flask:
    """The app with its settings (the environment's, instance/config.py's) and its instance
    folder (made unless `make_folder` is false), nothing more: no database opened. `scorekeeper
    restore` runs on it, to put a backup in the place of a database too damaged to open."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    instance = os.environ.get("SCOREKEEPER_INSTANCE")  # relative: to the folder the command runs in
    app = Flask(__name__, instance_relative_config=True,
                instance_path=os.path.abspath(instance) if instance else None,
                template_folder=os.path.join(root, "templates"),
                static_folder=os.path.join(root, "static"))
    app.url_map.converters["int"] = RowNumber
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "scorekeeper.db"),
        MAX_CONTENT_LENGTH=64 * 1024,  # no form of ours comes near this
        SEND_FILE_MAX_AGE_DEFAULT=60 * 60 * 24 * 365,  # static URLs carry a version
        BASE_URL=os.environ.get("SCOREKEEPER_BASE_URL"),
        # beyond one machine (docs/deploy.md, docs/scale.md): this node's character among many,
        # the replica Litestream streams the database to, the loopback port of the metrics
        NODE=os.environ.get("SCOREKEEPER_NODE", ""),
        REPLICA_URL=os.environ.get("SCOREKEEPER_REPLICA_URL") or None,
        REPLICA_SYNC=os.environ.get("SCOREKEEPER_REPLICA_SYNC") or None,
        METRICS_PORT=os.environ.get("SCOREKEEPER_METRICS_PORT") or 0,
    )
    from . import settings

    if test_config is None:
        settings.read_config_file(app)  # a typo in it: one line naming its line, no traceback
    else:
        app.config.from_mapping(test_config)
    app.config["METRICS_PORT"] = whole_number("METRICS_PORT", app.config.get("METRICS_PORT"))
    settings.check(app.config)  # a setting of the wrong type: one line, not a 500 at the first phone
    if make_folder:
        os.makedirs(app.instance_path, exist_ok=True)
    return app


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """The application factory; configuration and the database live in the instance folder."""
    app = configured_app(test_config)
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    # compiled templates kept on disk (Jinja's own cache folder: this user's, 0700): compiling
    # every template costs ~1 s of CPU, loading them from it ~35 ms; a worker that compiled a
    # board on a phone's first request held every phone of that worker for 15-60 ms (issue 25)
    try:
        app.jinja_env.bytecode_cache = FileSystemBytecodeCache()
    except (RuntimeError, OSError):  # no private folder to be had (a read-only /tmp): compiled each time
        pass

    from htmx_flask import Htmx

    from .web import assets, db, games, health, i18n, nodes, pages, security, table
    from . import metrics
    Htmx(app)
    security.init_app(app)
    i18n.init_app(app)
    db.init_app(app)
    assets.init_app(app)
    games.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(table.bp)
    from .web import history, install, players, tv  # history, statistics, big screen, home screen
    for area in (history, players, tv, install):
        app.register_blueprint(area.bp)
    app.register_blueprint(history.imports)
    if metrics.enabled():  # `scorekeeper serve` with METRICS_PORT, or a test
        app.wsgi_app = metrics.count_streams(app.wsgi_app)
    nodes.init_app(app)  # after the host and CSRF checks: a code of another node is sent there
    health.init_app(app)  # outermost: answered before the host check, session and language
    return app
