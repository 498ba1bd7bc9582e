"""A game is one registry line and its own files: no generic file names a game (issue 26).

A game's own files are its engine module and schema fragment in `scorekeeper/games/`, its
screen package `scorekeeper/web/games/<game>/`, its tests and the catalogs' entries; the
registry is `scorekeeper/games/__init__.py`. The docs and benchmarks may name games."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from scorekeeper.games import ENGINES, GAMES

ROOT = Path(__file__).parents[1]
GENERIC = ("scorekeeper", "templates", "static", "babel.cfg", "pyproject.toml", "Makefile", "package.json")
REGISTRY = "scorekeeper/games/__init__.py"


def own(path: str, game: str) -> bool:
    return (path.startswith((f"scorekeeper/games/{game}.", f"scorekeeper/web/games/{game}/"))
            or path.startswith("scorekeeper/translations/"))


def tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files", "--", *GENERIC], cwd=ROOT, capture_output=True, text=True, check=True)
    return [path for path in out.stdout.split() if (ROOT / path).is_file()]


def naming(game: str) -> list[str]:
    """The files outside the game's own that name it (its name, or its title's last word)."""
    words = {game, ENGINES[game].title.split()[-1].lower()}
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")", re.IGNORECASE)
    found = []
    for path in tracked():
        if own(path, game) or path.endswith((".png", ".svg", ".mo")):
            continue
        if pattern.search((ROOT / path).read_text(encoding="utf-8", errors="replace")):
            found.append(path)
    return found


@pytest.mark.parametrize("game", GAMES)
def test_only_the_registry_names_a_game(game):
    assert naming(game) == [REGISTRY]


def test_every_registered_game_has_its_engine_screen_templates_and_schema():
    for game in GAMES:
        assert (ROOT / "scorekeeper" / "games" / f"{game}.py").is_file()
        assert (ROOT / "scorekeeper" / "games" / f"{game}.schema.json").is_file()
        package = ROOT / "scorekeeper" / "web" / "games" / game
        assert (package / "__init__.py").is_file()
        for template in ("_board.html", "_event.html", "rules.html"):
            assert (package / "templates" / template).is_file(), f"{game} has no {template}"
