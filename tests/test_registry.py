"""A game is one registry line and its own files: no generic file names a game (issue 26).

A game's own files are its engine module and schema fragment in `scorekeeper/games/`, its
screen package `scorekeeper/web/games/<game>/`, its tests and the catalogs' entries; the
registry is `scorekeeper/games/__init__.py`. The docs and benchmarks may name games.

The tests too: a game's own are `tests/games/<game>.py` (its data for the generic suites),
the test modules whose file name holds the game's name and its logs in `tests/logs/<game>/`.
A generic suite takes the games it goes through from the registry and their data from
`tests/games/`: it keeps no table of games (a literal naming two games or more, a branch on
a game's name), so a new game leaves it as it is. A generic test may still play one game's
table as its worked example (an Escalero table to show an undo, say)."""

from __future__ import annotations

import ast
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


def pattern(game: str) -> re.Pattern:
    """A game's name, or its title's last word."""
    words = {game, ENGINES[game].title.split()[-1].lower()}
    return re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")", re.IGNORECASE)


def naming(game: str) -> list[str]:
    """The files outside the game's own that name it (its name, or its title's last word)."""
    pattern_ = pattern(game)
    found = []
    for path in tracked():
        if own(path, game) or path.endswith((".png", ".svg", ".mo")):
            continue
        if pattern_.search((ROOT / path).read_text(encoding="utf-8", errors="replace")):
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
        assert (ROOT / "tests" / "games" / f"{game}.py").is_file(), f"{game} has no tests/games/{game}.py"


# --- the tests ---------------------------------------------------------------------------------

# The test machinery every suite shares: it names no game at all.
SHARED = ("tests/games/__init__.py", "tests/event_space.py", "tests/conftest.py", "tests/reliability/conftest.py",
          "tests/browser/conftest.py")
# Tables of games kept on purpose, in generic test modules: (module, top-level definition) -> why.
ON_PURPOSE = {
    ("tests/test_stats.py", "WORKED"): "the games whose logs the figures across every table were worked out from",
    ("tests/test_stats.py", "test_anna_across_every_table"): "those figures, worked out by hand game by game",
    ("tests/test_engines_total.py", "test_no_number_adds_up_past_what_a_result_can_print"):
        "what the totality property found, kept as examples in the games where it found them",
}


def generic_test_modules() -> list[str]:
    """The test modules that are no game's own: no registered game in their path."""
    out = subprocess.run(["git", "ls-files", "--", "tests/*.py"], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    return [path for path in out.stdout.split()
            if (ROOT / path).is_file() and not any(game in path for game in GAMES)]


def games_in(node: ast.AST, patterns: dict[str, re.Pattern]) -> set[str]:
    """The games a literal names: in its strings, its elements, keys and values, nested literals
    and f-strings (not in what a call or an expression inside it makes)."""
    if isinstance(node, ast.Constant):
        return {game for game, found in patterns.items() if isinstance(node.value, str) and found.search(node.value)}
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        parts = node.elts
    elif isinstance(node, ast.Dict):
        parts = [key for key in node.keys if key is not None] + node.values
    elif isinstance(node, ast.JoinedStr):
        parts = node.values
    else:
        return set()
    return set().union(*(games_in(part, patterns) for part in parts))


def tables_of_games(path: str) -> dict[str, list[str]]:
    """Per top-level definition of a module: its tables of games (a literal naming two games or
    more) and its branches on a game's name (`if game == "…"`)."""
    patterns = {game: pattern(game) for game in GAMES}
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    found: dict[str, list[str]] = {}
    for top in tree.body:
        targets = getattr(top, "targets", None) or [getattr(top, "target", None)]
        name = getattr(top, "name", None) or getattr(targets[0], "id", None) or f"line {top.lineno}"
        for node in ast.walk(top):
            if isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)) and len(games_in(node, patterns)) >= 2:
                found.setdefault(name, []).append(f"line {node.lineno}: a table of {sorted(games_in(node, patterns))}")
            tests = [node.test] if isinstance(node, (ast.If, ast.IfExp, ast.While)) else (
                node.ifs if isinstance(node, ast.comprehension) else [])
            for compare in (n for test in tests for n in ast.walk(test) if isinstance(n, ast.Compare)):
                named = set().union(*(games_in(side, patterns) for side in (compare.left, *compare.comparators)))
                if named:
                    found.setdefault(name, []).append(f"line {compare.lineno}: a branch on {sorted(named)}")
    return found


def test_generic_test_modules_keep_no_table_of_games():
    """A suite that goes through the games takes them from the registry (GAMES) and their data
    from tests/games/<game>.py; the tables kept on purpose are listed (ON_PURPOSE)."""
    found = {(path, name): where for path in generic_test_modules() for name, where in tables_of_games(path).items()}
    assert {key: where for key, where in found.items() if key not in ON_PURPOSE} == {}
    assert set(ON_PURPOSE) <= set(found), f"no longer needed: {set(ON_PURPOSE) - set(found)}"


def test_the_shared_test_machinery_names_no_game():
    for game in GAMES:
        assert [path for path in SHARED if pattern(game).search((ROOT / path).read_text(encoding="utf-8"))] == []
