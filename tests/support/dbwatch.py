"""A test's own FalkorDB, brought back when it crashed or froze.

The FalkorDB we ship (4.16.3) has known crashes under many concurrent connections, fixed
upstream later (docs/falkordb.md, "Two queries on one graph at once"). Tests that hammer it
on purpose, and are about something else (the app's own kill -9), restart it from its
append-only file as an operator would,
instead of failing on a crash that is not theirs. That is a crash of the database in the
middle of the test's writes, so the test's checks (every acknowledged write is there, whole)
then cover it too. Each restart is kept with the server's crash report and listed at the end
of the session (conftest.py), so a crash is never silent.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

import redis

from afterhack.runtime.embedded import EmbeddedFalkorDB

# Restarts across the session, each with what the server's log said; conftest prints them.
RESTARTS: list[str] = []


def answers(url: str, timeout_s: float) -> bool:
    """Whether the server at ``url`` answers PING within ``timeout_s``."""
    client = redis.Redis.from_url(url, socket_timeout=timeout_s,
                                  socket_connect_timeout=timeout_s)
    try:
        return bool(client.ping())
    except (redis.ConnectionError, redis.TimeoutError, OSError):
        return False
    finally:
        with contextlib.suppress(Exception):
            client.close()


@dataclass
class WatchedServer:
    server: EmbeddedFalkorDB
    test: str
    # A frozen server still running is stopped after it has not answered for this long.
    frozen_s: float = 20.0
    # Where its restarts are listed: the session's (a test of this class passes its own).
    restarts: list[str] = field(default_factory=lambda: RESTARTS)

    def ensure_serving(self) -> None:
        """Restart the server if it exited or stopped answering; no-op while it serves."""
        proc = self.server.process
        code = proc.poll() if proc is not None else None
        if proc is not None and code is None and answers(self.server.url or "", self.frozen_s):
            return
        what = (f"exited with {code}" if code is not None
                else f"did not answer PING for {self.frozen_s:.0f} s")
        self.restarts.append(f"{self.test}: FalkorDB {what}; restarted.\n"
                             f"{self.server.crash_report()}")
        self.server.restart()
