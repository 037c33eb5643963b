"""The kill tests' own FalkorDB comes back from a crash or a freeze with its data."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import redis

from afterhack.runtime.embedded import EmbeddedFalkorDB
from tests.support.commands import command
from tests.support.dbwatch import WatchedServer, answers


def _graph_nodes(url: str) -> int:
    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        reply = command(client, "GRAPH.RO_QUERY", "w", "MATCH (n:N) RETURN count(n)")
        return int(reply[1][0][0])
    finally:
        client.close()


def _write(url: str) -> None:
    client = redis.Redis.from_url(url)
    try:
        command(client, "GRAPH.QUERY", "w", "UNWIND range(1, 50) AS i CREATE (:N {i: i})")
    finally:
        client.close()


def test_a_crashed_server_is_restarted_with_its_data(tmp_path: Path) -> None:
    log: list[str] = []
    with EmbeddedFalkorDB(tmp_path / "fdb") as s:
        watched = WatchedServer(s, "t", restarts=log)
        url = s.url or ""
        _write(url)
        watched.ensure_serving()
        assert log == []  # serving: nothing to do
        first = s.pid
        s.kill()
        assert not answers(url, 1)
        watched.ensure_serving()
        assert s.pid != first and answers(url, 5)
        assert _graph_nodes(url) == 50  # replayed from its append-only file
        assert len(log) == 1 and "exited with" in log[0]


def test_a_frozen_server_is_stopped_and_restarted(tmp_path: Path) -> None:
    log: list[str] = []
    with EmbeddedFalkorDB(tmp_path / "fdb") as s:
        watched = WatchedServer(s, "t", frozen_s=1, restarts=log)
        url = s.url or ""
        _write(url)
        first = s.pid
        assert first is not None
        os.kill(first, signal.SIGSTOP)
        watched.ensure_serving()
        assert s.pid != first and answers(url, 5)
        assert _graph_nodes(url) == 50
        assert len(log) == 1 and "did not answer PING" in log[0]
