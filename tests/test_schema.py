"""The JSON Schema `scorekeeper schema` prints (the shared part and every game's fragment) accepts every accepted log of the test suite."""

import json
from pathlib import Path

import jsonschema
import pytest

from scorekeeper.gamelog import log_schema

SCHEMA = log_schema()
LOGS = sorted(p for p in (Path(__file__).parent / "logs").glob("*/*.json") if not p.name.endswith(".expected.json"))


def test_schema_is_valid():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("log", LOGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_accepted_logs_fit_the_schema(log):
    jsonschema.Draft202012Validator(SCHEMA).validate(json.loads(log.read_text()))


def test_schema_refuses_an_unknown_event_field():
    doc = {"format": "scorekeeper-log/1", "game": "escalero", "players": ["A", "B"],
           "events": [{"type": "score", "player": "A", "column": 1, "row": "F", "value": 30, "colour": "red"}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(SCHEMA).validate(doc)


def _euchre(players, rules, teams=None, events=()):
    doc = {"format": "scorekeeper-log/1", "game": "euchre", "players": players, "rules": rules, "events": list(events)}
    if teams:
        doc["teams"] = teams
    return doc


FOUR = ["A", "B", "C", "D"]
PAIRS = [{"name": "AC", "players": ["A", "C"]}, {"name": "BD", "players": ["B", "D"]}]


@pytest.mark.parametrize("doc", [
    _euchre(FOUR, {"laps": True}, PAIRS),  # railroad settings in the partnership form
    _euchre(["A", "B"], {"form": "two-handed", "slam": False}),
    _euchre(FOUR, {"form": "railroad", "laps": False, "start": {"AC": 1}}, PAIRS),
    _euchre(FOUR, {"form": "railroad", "start": {"AC": -1}}, PAIRS),
    _euchre(["A", "B"], {"form": "two-handed"}, [{"name": "A", "players": ["A"]}, {"name": "B", "players": ["B"]}]),
    _euchre(["A", "B", "C"], {"form": "three-handed"}, events=[{"type": "hand", "maker": "A", "tricks": 3, "alone": False}]),
    _euchre(["A", "B", "C"], {"form": "two-handed"}),
    _euchre(FOUR, {"form": "railroad"}),  # railroad needs its teams
    _euchre(FOUR, {"form": "cut-throat"}, PAIRS),
])
def test_schema_refuses_what_euchre_forms_refuse(doc):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(SCHEMA).validate(doc)


def test_schema_takes_euchre_forms():
    for doc in (_euchre(["A", "B", "C"], {"form": "three-handed"}),
                _euchre(FOUR, {"form": "railroad", "laps": True, "slam": False, "start": {"AC": 3}, "deck": "33"}, PAIRS),
                _euchre(FOUR, {"form": "partnership", "laps": None}, PAIRS)):
        jsonschema.Draft202012Validator(SCHEMA).validate(doc)
