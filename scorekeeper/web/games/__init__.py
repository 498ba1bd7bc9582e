"""Each game's screens: one module per engine (same name), with its view model — `view(ctx,
played)`, what its templates in `templates/games/<game>/` read — and the routes its controls need."""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from flask import Flask

from ...games import ENGINES


def screen(game: str) -> ModuleType:
    return import_module(f".{game}", __name__)


def init_app(app: Flask) -> None:
    for name in ENGINES:
        screen(name).init_app(app)
