"""`--profile`: py-spy samples the server's worker processes while the load runs, and the
collapsed stacks are summed into the share of busy time spent under each function."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import time


def available() -> str | None:
    here = os.path.join(os.path.dirname(sys.executable), "py-spy")
    return here if os.path.exists(here) else shutil.which("py-spy")


class Spy:
    """py-spy record (raw collapsed stacks) of each pid, for `seconds`, after `delay`."""

    def __init__(self, pids: list[int], seconds: float, out: str, delay: float = 1.0, rate: int = 250) -> None:
        self.files = [os.path.join(out, f"profile-{i}.txt") for i in range(len(pids))]
        self.errors: list[str] = []
        binary = available()
        if binary is None:
            self.errors.append("py-spy is not installed (pip install -e '.[bench]')")
            self.thread = None
            return

        def record() -> None:
            time.sleep(delay)
            procs = [subprocess.Popen([binary, "record", "-p", str(pid), "-d", str(int(seconds)), "-r", str(rate),
                                       "-f", "raw", "-o", path, "--nonblocking"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                     for pid, path in zip(pids, self.files)]
            for proc in procs:
                try:
                    _, err = proc.communicate(timeout=seconds + 30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    err = b"timed out"
                if proc.returncode:
                    self.errors.append(err.decode(errors="replace")[-300:])

        self.thread = threading.Thread(target=record, daemon=True)
        self.thread.start()

    def summary(self, top: int = 30) -> dict:
        if self.thread is not None:
            self.thread.join(120)
        return summarize([f for f in self.files if os.path.exists(f)], top) | {"errors": self.errors}


def summarize(files: list[str], top: int = 30) -> dict:
    inclusive: dict[str, int] = {}
    own: dict[str, int] = {}
    total = 0
    for path in files:
        with open(path) as handle:
            for line in handle:
                stack, _, count = line.rstrip().rpartition(" ")
                if not count.isdigit():
                    continue
                n = int(count)
                total += n
                names = [re.sub(r":\d+\)$", ")", frame) for frame in stack.split(";")]
                for name in set(names):
                    inclusive[name] = inclusive.get(name, 0) + n
                own[names[-1]] = own.get(names[-1], 0) + n
    share = lambda counts: [[round(100 * n / total, 1), name] for name, n in
                            sorted(counts.items(), key=lambda kv: -kv[1])[:top]] if total else []
    return {"samples": total, "inclusive_pct": share(inclusive), "self_pct": share(own)}
