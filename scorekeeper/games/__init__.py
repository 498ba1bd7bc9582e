"""The games Scorekeeper knows, by the log's `game`. `GAMES` is the registry: a game named here
is its pure engine module `scorekeeper/games/<game>.py` (with its log-schema fragment
`<game>.schema.json` beside it) and its screen package `scorekeeper/web/games/<game>/`; the
generic layers ask these and never name a game."""

from __future__ import annotations

from importlib import import_module

from .base import Engine

GAMES = ("escalero", "euchre", "kaques", "escoba", "yatzy")

ENGINES: dict[str, Engine] = {game: Engine.of(import_module(f".{game}", __name__)) for game in GAMES}
