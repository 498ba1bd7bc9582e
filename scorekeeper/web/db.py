"""The request's database connection (flaskr-style) and the process's live hub."""

from __future__ import annotations

import os
from dataclasses import replace

from flask import Flask, current_app, g

from .. import store
from ..service import LIMITS
from ..live import LOOK_EVERY, Hub


def get_db():
    if "db" not in g:
        idle = current_app.extensions.get("scorekeeper.idle_db")
        g.db = idle.pop() if idle else store.connect(current_app.config["DATABASE"], folds(), limits(),
                                                   current_app.config.get("NODE") or "")
    return g.db


def close_db(_error=None) -> None:
    db = g.pop("db", None)
    if db is not None:
        # Performance (bench/): a finished request's connection waits for the next request
        # (opening one costs more than many an entry's queries); still one per request at a time
        idle = current_app.extensions.setdefault("scorekeeper.idle_db", [])
        db.committed = None  # a write's, told to its own answer alone
        if db.conn.in_transaction or len(idle) >= 16:
            db.conn.close()
        else:
            idle.append(db)


def limits() -> dict:
    """The service's limits as this app sets them: config LIMITS, {kind: (per device, per
    address)} per hour, and optionally a third number: per device and per address a minute (0:
    none); SCOREKEEPER_LIMITS=off lifts them (test and benchmark servers only)."""
    found = current_app.extensions.get("scorekeeper.limits")
    if found is None:
        numbers = current_app.config.get("LIMITS") or {}
        if os.environ.get("SCOREKEEPER_LIMITS") == "off":
            numbers = {kind: (10 ** 9, 10 ** 9, 0) for kind in LIMITS}
        found = {kind: replace(LIMITS[kind], most_per_device=given[0], most_per_address=given[1],
                               burst=given[2] if len(given) > 2 else LIMITS[kind].burst)
                 for kind, given in numbers.items()}
        current_app.extensions["scorekeeper.limits"] = found
    return found


def folds() -> store.FoldCache:
    """The app's cache of folded games, shared by its connections and its live hub."""
    return current_app.extensions["scorekeeper.folds"]


def hub() -> Hub:
    return current_app.extensions["scorekeeper.hub"]


def init_app(app: Flask) -> None:
    db = store.connect(app.config["DATABASE"])
    store.migrate(db)  # every start brings the schema up to date
    db.conn.close()
    if app.config["DATABASE"] != ":memory:":
        store.keep_private(app.config["DATABASE"])
    app.extensions["scorekeeper.folds"] = store.FoldCache(app.config.get("FOLD_CACHE_BYTES", 64 << 20))
    app.extensions["scorekeeper.hub"] = Hub(app.config["DATABASE"], app.config.get("LIVE_INTERVAL", LOOK_EVERY),
                                            app.extensions["scorekeeper.folds"])
    app.teardown_appcontext(close_db)
