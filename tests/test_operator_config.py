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
