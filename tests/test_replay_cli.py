"""Every log under tests/logs/ replayed through the real `scorekeeper replay` command.

A log `<name>.json` sits beside `<name>.expected.json`, the exact result object; a log under
`refused/` sits beside `<name>.expected.txt`, the one line the command prints on stderr.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorekeeper.cli import cli

LOGS = Path(__file__).parent / "logs"
ACCEPTED = sorted(p for p in LOGS.glob("*/*.json") if not p.name.endswith(".expected.json"))
REFUSED = sorted(LOGS.glob("*/refused/*.json"))


def run(args, stdin=None):
    return CliRunner().invoke(cli, args, input=stdin, prog_name="scorekeeper")


@pytest.mark.parametrize("log", ACCEPTED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_accepted_log_prints_its_result(log):
    outcome = run(["replay", str(log)])
    assert outcome.exit_code == 0, outcome.stderr
    assert outcome.stderr == ""
    expected = json.loads(log.with_suffix(".expected.json").read_text())
    assert json.loads(outcome.stdout) == expected


@pytest.mark.parametrize("log", REFUSED, ids=lambda p: f"{p.parts[-3]}/{p.stem}")
def test_refused_log_exits_2_with_one_line(log):
    outcome = run(["replay", str(log)])
    assert outcome.exit_code == 2
    assert outcome.stdout == ""
    expected = log.with_suffix(".expected.txt").read_text().strip()
    assert outcome.stderr == expected + "\n"


def test_reads_standard_input():
    log = ACCEPTED[0]
    outcome = run(["replay", "-"], stdin=log.read_text())
    assert outcome.exit_code == 0
    assert json.loads(outcome.stdout) == json.loads(log.with_suffix(".expected.json").read_text())


@pytest.mark.parametrize("text, message", [
    ("", "this is not a JSON document"),
    ("[1, 2", "this is not a JSON document"),
    ("[]", "a game log must be a JSON object"),
    ('{"format": "scorekeeper-log/2"}', "format: must be \"scorekeeper-log/1\""),
    ('{"format": "scorekeeper-log/1", "game": "poker"}', "game: must be one of"),
])
def test_unreadable_documents_are_refused(text, message):
    outcome = run(["replay", "-"], stdin=text)
    assert outcome.exit_code == 2
    assert outcome.stdout == ""
    assert outcome.stderr.startswith(message)
    assert outcome.stderr.count("\n") == 1


def test_missing_file_is_one_line():
    outcome = run(["replay", "/nonexistent/game.json"])
    assert outcome.exit_code == 2
    assert outcome.stderr.startswith("cannot read /nonexistent/game.json")


def test_console_script_end_to_end(tmp_path):
    """The installed entry point, as a separate process, keeps stdout clean on refusal."""
    log = REFUSED[0]
    done = subprocess.run([sys.executable, "-m", "scorekeeper", "replay", str(log)],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1


def test_replay_and_schema_leave_no_database_behind(tmp_path):
    """The rules alone: a log is folded, or the schema printed, without making the app, so no
    instance folder, database or secret key appears where the command was run."""
    instance = tmp_path / "instance"
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(instance)}
    for args in (["replay", str(ACCEPTED[0])], ["schema"]):
        done = subprocess.run([sys.executable, "-m", "scorekeeper", *args], capture_output=True, text=True,
                              env=env, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)
    assert not instance.exists()
