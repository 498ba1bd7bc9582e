"""Each registered game's test data: `tests/games/<game>.py`, one module per name in the
registry (`scorekeeper.games.GAMES`), loaded here as `SUPPORT[game]`.

The generic suites (the engines' totality, the fuzzing, access, languages, the board's parts,
crashes) loop over `GAMES` and take what they need of a game from its module; none of them
names a game (tests/test_registry.py checks it). A new game adds its module here, and nothing
else in the generic suites changes.

What a game's module provides (every name is required: a missing one fails here, naming the
game):

- `PLAYERS` — the seats of the game's example table (the access world, the language tour).
- `event_fields(players, sides)` — per key of its events, the values that fit or nearly fit
  (tests/event_space.py adds wrong values to each).
- `header(draw, players)` — `(players, rules, teams)` of a header the engine accepts, drawn
  with hypothesis's `draw` from `players` (teams None when it has none).
- `legal_move(draw, state)` — an event the rules mostly allow in `state`.
- `draft_payloads(players)` — a strategy of the turn the game keeps step by step (its draft),
  or None when it keeps none.
- `first_entry(phone, token)` — the first entry at its example table, written by the phone
  seated as `PLAYERS[0]`; returns the response.
- `writes(token)` — `{endpoint: (path, form)}`: one legal request for each route of the game's
  own that writes, on its example table after `first_entry` (the race token is added).
- `markup_entry(first, sides)` — a legal first event of a table whose first player is `first`
  and whose sides are named `sides`; `DRAWS_PAIRS` — whether four players play in pairs drawn
  by lot before the first entry.
- `TRAY_QUERY` — a tray with something tapped (`?…`); `TRAY_QUERIES` — the tray at each of its
  steps (without `?`); `READ_QUERIES` — `{endpoint: "?…"}` for the game's own reading routes
  that need a query to show anything.
- `SAME_WORDS` — the game's messages that read the same in every language (its calls, its
  cards' names).
- `FUZZ_NAMES` — the players of its fuzzed table (names of their own: the fold cache is keyed
  by game id only); `FUZZ_TEAMS` — the teams of a log of those players, or None;
  `FUZZ_SEED` — a legal entry at that table (what corrections replace, mutations start from).
- `fuzz_event_fields(names)` — per key of its events, a plausible value (`names`: every fuzzed
  player); `fuzz_tray_fields(kit)` — the query fields of its tray; `fuzz_routes(kit)` —
  `{endpoint: strategy of the form}` for its own routes; `fuzz_history(host, phones, token)` —
  some entries at its fuzzed table, the responses (`kit`: the fuzzer's strategies, see
  tests/reliability/test_fuzz.py).
- `BOARD_LOG` — the log (in tests/logs/<game>/) whose entries tests/test_web_board.py plays one
  by one; `CRASH_LOGS` — the logs tests/reliability/test_crash.py plays while the server is killed.
- `largest_events(most)` — `(header, events)` of the largest log an import takes
  (tests/support.py's `largest_log` fills the header with up to `most` of the events): a real
  game's entries repeated with its target out of reach, never finished
  (`tests.support.repeated_log`); or, where the pad ends the game, the whole pad of the most
  players a table seats.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from scorekeeper.games import GAMES

CONTRACT = ("PLAYERS", "event_fields", "header", "legal_move", "draft_payloads", "first_entry", "writes",
            "markup_entry", "DRAWS_PAIRS", "TRAY_QUERY", "TRAY_QUERIES", "READ_QUERIES", "SAME_WORDS",
            "FUZZ_NAMES", "FUZZ_TEAMS", "FUZZ_SEED", "fuzz_event_fields", "fuzz_tray_fields", "fuzz_routes",
            "fuzz_history", "BOARD_LOG", "CRASH_LOGS", "largest_events")


def _load(game: str) -> ModuleType:
    try:
        module = import_module(f"{__name__}.{game}")
    except ModuleNotFoundError as missing:
        if missing.name != f"{__name__}.{game}":
            raise
        raise ImportError(f"the registered game {game!r} has no test support: write tests/games/{game}.py "
                          f"(what it provides: tests/games/__init__.py)") from None
    lacking = [name for name in CONTRACT if not hasattr(module, name)]
    if lacking:
        raise ImportError(f"tests/games/{game}.py lacks {', '.join(lacking)} (tests/games/__init__.py)")
    return module


SUPPORT: dict[str, ModuleType] = {game: _load(game) for game in GAMES}
