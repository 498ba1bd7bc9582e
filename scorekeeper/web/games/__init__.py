"""Per-game screen helpers: template functions and the few extra views a game's controls need."""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec

from flask import Flask

from ...games import ENGINES


def init_app(app: Flask) -> None:
    for name in ENGINES:
        if find_spec(f"{__name__}.{name}") is None:
            continue  # a game whose screens need nothing beyond its templates
        import_module(f".{name}", __name__).init_app(app)
