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
    assert done.stderr.strip() == (f"{wrong / 'scorekeeper.db'} holds no table, so there is nothing to back up: "
                                   "is SCOREKEEPER_INSTANCE the server's instance folder? (docs/deploy.md)")
    assert not (tmp_path / "copy.db").exists()
