"""The games Scorekeeper knows: one pure engine module each, registered by the log's `game`."""

from __future__ import annotations

from importlib import import_module

from .base import Engine

ENGINES: dict[str, Engine] = {
    module: import_module(f".{module}", __name__)
    for module in ("escalero", "euchre", "kaques", "escoba")
}
