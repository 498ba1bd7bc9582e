"""The request's database connection (flaskr-style) and the process's live hub."""

from __future__ import annotations

import click
from flask import Flask, current_app, g

from .. import store
from ..live import Hub


def get_db():
    if "db" not in g:
        idle = current_app.extensions.get("scorekeeper.idle_db")
        g.db = idle.pop() if idle else store.connect(current_app.config["DATABASE"], folds())
    return g.db


def close_db(_error=None) -> None:
    db = g.pop("db", None)
    if db is not None:
        # Performance (bench/): a finished request's connection waits for the next request
        # (opening one costs more than many an entry's queries); still one per request at a time
        idle = current_app.extensions.setdefault("scorekeeper.idle_db", [])
        if db.conn.in_transaction or len(idle) >= 16:
            db.conn.close()
        else:
            idle.append(db)


def folds() -> store.FoldCache:
    """The app's cache of folded games, shared by its connections and its live hub."""
    return current_app.extensions["scorekeeper.folds"]


def hub() -> Hub:
    return current_app.extensions["scorekeeper.hub"]


@click.command("init-db")
def init_db_command() -> None:
    """Create or migrate the database in the instance folder."""
    db = store.connect(current_app.config["DATABASE"])
    store.migrate(db)
    click.echo(f"Database ready: {current_app.config['DATABASE']}")


def init_app(app: Flask) -> None:
    db = store.connect(app.config["DATABASE"])
    store.migrate(db)  # every start brings the schema up to date
    db.conn.close()
    app.extensions["scorekeeper.folds"] = store.FoldCache(app.config.get("FOLD_CACHE_BYTES", 64 << 20))
    app.extensions["scorekeeper.hub"] = Hub(app.config["DATABASE"], app.config.get("LIVE_INTERVAL", 0.05),
                                            app.extensions["scorekeeper.folds"])
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
