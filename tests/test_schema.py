"""The published JSON Schema accepts every accepted log of the test suite."""

import json
from pathlib import Path

import jsonschema
import pytest

SCHEMA = json.loads((Path(__file__).parents[1] / "scorekeeper" / "schema" / "scorekeeper-log-1.schema.json").read_text())
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
