"""What the engineer who runs a pub's server writes in instance/config.py, and the command line's
own mistakes, as real processes: each refused in one line on stderr with exit status 2, before
anything starts, never a traceback (README, "Commands")."""

from __future__ import annotations

import pytest

from tests.support import free_port
from tests.test_operator import one_line, scorekeeper


@pytest.mark.parametrize("line, says", [
    ("BASE_URL = 8000", "BASE_URL must be text in quotes, not 8000"),
    ("BASE_URL = 'scores.example'",
     "BASE_URL must be an address phones open, starting with https:// or http://, not 'scores.example'"),
    ("NODE = 5", "NODE must be text in quotes, not 5"),
    ("REPLICA_URL = 5", "REPLICA_URL must be text in quotes, not 5"),
    ("ALLOWED_HOSTS = 5", "ALLOWED_HOSTS must be host names, in one text separated by commas or a list of texts, not 5"),
    ("ALLOWED_HOSTS = ['scores.example', 5]", "ALLOWED_HOSTS must be host names"),
    ("SECRET_KEY = 5", "SECRET_KEY must be text or bytes, not 5"),
    ("FOLD_CACHE_BYTES = '64MB'", "FOLD_CACHE_BYTES must be a whole number, not '64MB'"),
    ("LIMITS = 5", "LIMITS must be {kind: (per device, per address)} an hour"),
    ("LIMITS = {'table': 5}", "LIMITS must be {kind: (per device, per address)} an hour"),
    ("LIMITS = {'tables': (20, 60)}", "; not 'tables'"),
    ("LIMITS = {'table': (20, 'sixty')}", "LIMITS['table'] must be a whole number, not 'sixty'"),
    ("BASE_URL = 'https://scores.example'\nthis is a typo", "config.py, line 2: SyntaxError: invalid syntax"),
    ("BASE_URL = https", "config.py, line 1: NameError: name 'https' is not defined"),
])
def test_a_config_file_mistake_is_one_line(tmp_path, line, says):
    """Each of these ended in a traceback (init-db and serve alike), or started a server whose
    first phone got a 500 (LIMITS, SECRET_KEY, FOLD_CACHE_BYTES)."""
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text(line + "\n")
    for command in (["serve", "--host", "127.0.0.1", "--port", str(free_port())], ["init-db"]):
        refused = one_line(scorekeeper(*command, instance=instance))
        assert says in refused, refused


def test_a_config_file_that_is_right_is_taken(tmp_path):
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text("BASE_URL = 'https://scores.example'\nALLOWED_HOSTS = ['scores.example']\n"
                                        "LIMITS = {'table': (5, 50, 2)}\nFOLD_CACHE_BYTES = 1 << 20\nNODE = 'B'\n")
    done = scorekeeper("init-db", instance=instance)
    assert done.returncode == 0 and done.stderr == "", done.stderr


@pytest.mark.parametrize("arguments, says", [
    (["restore", "{tmp}/no-such-backup.db"], "Invalid value for '[FILE]': File '{tmp}/no-such-backup.db' does not exist. "
                                             "(see scorekeeper restore --help)"),
    (["backup", "{tmp}"], "Invalid value for 'FILE': File '{tmp}' is a directory. (see scorekeeper backup --help)"),
    (["export", "ABCDEF", "--game", "last"], "Invalid value for '--game': 'last' is not a valid integer. "
                                             "(see scorekeeper export --help)"),
    (["serve", "--port", "0"], "Invalid value for '--port': 0 is not in the range 1<=x<=65535. "
                               "(see scorekeeper serve --help)"),
    (["import"], "Missing argument 'FILE'. (see scorekeeper import --help)"),
    (["serv"], "No such command 'serv'. Did you mean 'serve'? (see scorekeeper --help)"),
])
def test_a_command_line_mistake_is_one_line(tmp_path, arguments, says):
    """A missing backup, a folder for a file, a word for a number: click printed its usage, a
    hint, an empty line and the error, four lines beginning 'Usage:'."""
    arguments = [a.format(tmp=tmp_path) for a in arguments]
    assert one_line(scorekeeper(*arguments, instance=tmp_path / "instance")) == says.format(tmp=tmp_path)


def test_a_bare_command_still_shows_its_help(tmp_path):
    done = scorekeeper(instance=tmp_path / "instance")
    assert "Usage: scorekeeper [OPTIONS] COMMAND [ARGS]..." in done.stdout + done.stderr


def test_a_relative_instance_folder_is_the_current_folder_s(tmp_path):
    """`SCOREKEEPER_INSTANCE=pub-b scorekeeper init-db` ended in Flask's traceback ("If an
    instance path is provided it must be absolute"): every command but replay and schema."""
    import os
    import subprocess
    import sys

    from tests.support import ROOT

    done = subprocess.run([sys.executable, "-m", "scorekeeper", "init-db"], capture_output=True, text=True,
                          env={**os.environ, "SCOREKEEPER_INSTANCE": "pub-b", "PYTHONPATH": str(ROOT)},
                          cwd=tmp_path, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout == f"Database ready: {tmp_path / 'pub-b' / 'scorekeeper.db'}\n"


@pytest.mark.skipif(not __import__("os").path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("arguments", [["schema"], ["replay", "{log}"], ["import", "{log}"], ["init-db"]])
def test_an_answer_that_cannot_be_written_is_one_line(tmp_path, arguments):
    """Standard output on a full disk (`scorekeeper schema > /srv/full/schema.json`): a traceback
    ending in OSError."""
    import os
    import subprocess
    import sys

    from tests.support import ROOT
    from tests.test_operator import LOG

    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "scorekeeper", *(a.format(log=LOG) for a in arguments)],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=60, cwd=ROOT,
                              env={**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path / "instance")})
    assert done.returncode == 2 and done.stderr == "cannot write the output: No space left on device\n", done.stderr


def test_a_dotenv_file_of_the_folder_is_no_setting(tmp_path):
    """A .env in the folder `scorekeeper` ran in, or any folder above it, set the pub's settings
    from a file the docs name nowhere (and only where python-dotenv happened to be installed, as
    with the test extra). An env file given with -e is still read."""
    import os
    import subprocess
    import sys

    from tests.support import ROOT

    pytest.importorskip("dotenv")
    (tmp_path / ".env").write_text("SCOREKEEPER_METRICS_PORT=from-dotenv\n")
    (tmp_path / "chosen.env").write_text("SCOREKEEPER_METRICS_PORT=chosen\n")
    env = {key: value for key, value in os.environ.items() if not key.startswith(("SCOREKEEPER_", "FLASK_"))}
    env.update(SCOREKEEPER_INSTANCE=str(tmp_path / "instance"), PYTHONPATH=str(ROOT))

    def init_db(*options: str):
        return subprocess.run([sys.executable, "-m", "scorekeeper", *options, "init-db"], capture_output=True,
                              text=True, env=env, cwd=tmp_path, timeout=60)

    done = init_db()
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert one_line(init_db("-e", "chosen.env")) == "METRICS_PORT must be a whole number, not 'chosen'"


def test_help_opens_no_database(tmp_path):
    """`scorekeeper --help` made the whole app: it made the instance folder and a database (and
    migrated a live one after an upgrade), and where the app could not be made, printed
    "Error: …" over the help."""
    done = scorekeeper("--help", instance=tmp_path / "instance")
    assert done.returncode == 0 and done.stderr == "" and "serve" in done.stdout and "restore" in done.stdout
    assert not (tmp_path / "instance").exists()
    (tmp_path / "a-file").write_text("")
    done = scorekeeper("--help", instance=tmp_path / "a-file" / "instance")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert one_line(scorekeeper("serv", instance=tmp_path / "a-file" / "instance")).startswith("No such command 'serv'.")
