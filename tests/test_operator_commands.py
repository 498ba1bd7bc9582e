"""The operator's commands run as the docs give them, as real processes: what they refuse
in one line when pointed at the wrong place."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support import ROOT


def scorekeeper(*arguments: str, instance: Path):
    return subprocess.run([sys.executable, "-m", "scorekeeper", *arguments], capture_output=True, text=True,
                          env={**os.environ, "SCOREKEEPER_INSTANCE": str(instance)}, timeout=60, cwd=ROOT)


def test_a_backup_of_an_instance_folder_with_no_table_is_refused(tmp_path):
    """`backup` run without the server's SCOREKEEPER_INSTANCE (another folder, a typo) made a
    new, empty database there and said "Backed up to …": a backup of nothing, kept as the pub's."""
    wrong = tmp_path / "not-the-servers"
    done = scorekeeper("backup", str(tmp_path / "copy.db"), instance=wrong)
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr, done
    assert done.stderr.strip() == (f"there is no database at {wrong / 'scorekeeper.db'}: is SCOREKEEPER_INSTANCE "
                                   "the server's instance folder? (docs/deploy.md)")
    assert not (tmp_path / "copy.db").exists()
    # nothing made where the command looked: it made the folder, a database and a secret key
    assert not wrong.exists()
    done = scorekeeper("export", "ABCDEF", instance=wrong)
    assert done.returncode == 2 and "there is no database at" in done.stderr and not wrong.exists(), done
    # a database that holds no table (the folder made by `init-db`, say) is still refused
    assert scorekeeper("init-db", instance=wrong).returncode == 0
    done = scorekeeper("backup", str(tmp_path / "copy.db"), instance=wrong)
    assert done.returncode == 2 and done.stderr.strip() == (
        f"{wrong / 'scorekeeper.db'} holds no table, so there is nothing to back up: "
        "is SCOREKEEPER_INSTANCE the server's instance folder? (docs/deploy.md)"), done
    assert not (tmp_path / "copy.db").exists()


def test_a_binary_file_given_as_a_log_is_named_as_no_log(tmp_path):
    """A backup (or any binary file) given to `replay` or `import` was refused with Python's
    codec error: "'utf-8' codec can't decode byte 0xfb in position 106: invalid start byte"."""
    binary = tmp_path / "backup.db"
    binary.write_bytes(b"SQLite format 3\x00\xfb\xff" + bytes(range(256)))
    for command in ("replay", "import"):
        done = scorekeeper(command, str(binary), instance=tmp_path / "instance")
        assert done.returncode == 2 and done.stdout == "", done
        assert done.stderr.strip() == f"{binary} is not a JSON document: it is not UTF-8 text"
