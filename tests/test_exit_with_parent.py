"""A child started with ``exit_with_parent`` does not outlive its parent's kill -9: the
embedded FalkorDB under a killed app, and the app under a killed bench."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from afterhack.runtime.embedded import pid_alive

_PARENT = """
import subprocess, sys, time
from afterhack.runtime.embedded import exit_with_parent
kw = {"preexec_fn": exit_with_parent} if sys.argv[1] == "on" else {"start_new_session": True}
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], **kw)
print(child.pid, flush=True)
time.sleep(60)
"""


def _orphan_after_parent_killed(mode: str) -> bool:
    parent = subprocess.Popen([sys.executable, "-c", _PARENT, mode], stdout=subprocess.PIPE,
                              text=True)
    assert parent.stdout is not None
    with parent.stdout:
        child = int(parent.stdout.readline())
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 5
    try:
        while time.monotonic() < deadline:
            # The orphan is reparented and reaped by init; a zombie no longer runs.
            if not pid_alive(child) or _state(child) == "Z":
                return False
            time.sleep(0.05)
        return True
    finally:
        if pid_alive(child):
            os.kill(child, signal.SIGKILL)


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "X"


def test_a_child_exits_with_its_killed_parent() -> None:
    assert not _orphan_after_parent_killed("on")


def test_without_it_the_child_outlives_its_parent() -> None:
    # The control: the check above can tell an orphan from a child that exited.
    assert _orphan_after_parent_killed("off")
