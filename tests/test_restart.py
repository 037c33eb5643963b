"""Coming back after a crash (issue #17, fifth finding).

A real ``afterhack serve`` with its embedded FalkorDB is killed with -9 after 24,000 claims
were written through the API, and started again on the same data dir: it waits while
FalkorDB replays its append-only file, however long that takes, and then serves every
acknowledged source with its claims. A load that stops moving (a stopped server) fails
with a clear message instead of hanging; an orphaned server still loading is stopped.
Start-up against existing graphs writes nothing and sends no schema command.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis

from afterhack.runtime.embedded import EmbeddedError, EmbeddedFalkorDB
from tests.support.commands import command
from tests.support.procs import AppProcess, falkordb_pid
from tests.support.timing import bound

pytestmark = pytest.mark.slow

CLAIMS = 24_000
PER_SOURCE = 2_000  # within the body limit (about 190 KB of text a source)

_VERBS = ("ships", "signs", "moves", "tests", "reviews", "approves")


def _text(source: int, n: int) -> str:
    # Distinct declarative sentences; numbers make each one unique, so none is dropped.
    return " ".join(f"Project P{source} {_VERBS[k % len(_VERBS)]} module M{k} "
                    f"under ticket {source * 100_000 + k} in week {k % 52 + 1}."
                    for k in range(n))


def _embedded_env() -> dict[str, str]:
    return {"AFTERHACK_FALKORDB_URL": "", "OPENAI_BASE_URL": "", "OPENAI_API_KEY": ""}


def _log(data_dir: Path) -> str:
    try:
        return (data_dir / "falkordb.log").read_text(errors="replace")
    except OSError:
        return ""


def _gone(pid: int, timeout_s: float = 60) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def _write(app: AppProcess) -> tuple[str, dict[str, set[str]]]:
    """A workspace and CLAIMS claims in it; returns the acknowledged source and claim ids."""
    with httpx.Client(base_url=app.base_url, timeout=300) as http:
        ws = http.post("/api/workspaces", json={"name": "restart"}).json()["id"]
        acked: dict[str, set[str]] = {}
        for i in range(CLAIMS // PER_SOURCE):
            r = http.post(f"/api/workspaces/{ws}/sources",
                          json={"title": f"Report {i}", "text": _text(i, PER_SOURCE)})
            assert r.status_code == 201, r.text
            body = r.json()
            acked[body["source"]["id"]] = {c["id"] for c in body["claims"]}
            assert len(body["claims"]) == PER_SOURCE, body["dropped"]
    return ws, acked


def _served(app: AppProcess, ws: str) -> tuple[set[str], dict[str, str]]:
    """The sources readable one by one, and every claim the claim list serves (its source)."""
    with httpx.Client(base_url=app.base_url, timeout=120) as http:
        sources = {s["id"] for s in http.get(f"/api/workspaces/{ws}/sources",
                                             params={"limit": 1000}).json()["items"]}
        readable = {s for s in sources
                    if http.get(f"/api/workspaces/{ws}/sources/{s}").status_code == 200}
        claims: dict[str, str] = {}
        offset = 0
        while True:
            r = http.get(f"/api/workspaces/{ws}/claims",
                         params={"limit": 1000, "offset": offset})
            assert r.status_code == 200, r.text
            items = r.json()["items"]
            claims.update({c["id"]: c["source_id"] for c in items})
            if len(items) < 1000:
                return readable, claims
            offset += 1000


def test_kill9_after_24k_claims_comes_back_with_every_acknowledged_source(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    app = AppProcess(_embedded_env(), data_dir=data, log_path=tmp_path / "app.log").start()
    try:
        ws, acked = _write(app)
        fdb_pid = falkordb_pid(data)
        app.kill()
        # FalkorDB follows its parent (SIGTERM on the parent's death) and flushes its file.
        assert _gone(fdb_pid), "the embedded FalkorDB outlived its app"
        aof = sum(f.stat().st_size for f in (data / "appendonlydir").iterdir())
        assert aof > 0
        again = AppProcess(_embedded_env(), data_dir=data, log_path=tmp_path / "app2.log")
        again.start(timeout_s=900)
        app = again
        readable, claims = _served(app, ws)
    finally:
        app.stop()
    assert readable == set(acked)
    for source_id, claim_ids in acked.items():
        missing = {c for c in claim_ids if claims.get(c) != source_id}
        assert not missing, f"{len(missing)} acknowledged claims of {source_id} not served"
    assert len(claims) == CLAIMS


NODES, LOOKUPS = 20_000, 2_000


@pytest.fixture
def aof_dir(tmp_path: Path) -> Path:
    """A data dir whose append-only file takes seconds to replay: an index created in the
    incremental part, which a replay cannot use (FalkorDB builds it in the background, and
    the replay never lets it run), then lookups that each scan every node instead."""
    d = tmp_path / "fdb"
    server = EmbeddedFalkorDB(d)
    url = server.start()
    try:
        client = redis.Redis.from_url(url)
        # Off, so the file stays all increments (the load to watch is a replay).
        client.config_set("auto-aof-rewrite-percentage", 0)
        command(client, "GRAPH.QUERY", "g", "CREATE INDEX FOR (n:N) ON (n.id)")
        for k in range(0, NODES, 5000):
            command(client, "GRAPH.QUERY", "g",
                    f"UNWIND range({k}, {k + 4999}) AS i CREATE (:N {{id: i}})")
        pipe = client.pipeline(transaction=False)
        for i in range(LOOKUPS):
            command(pipe, "GRAPH.QUERY", "g",
                    f"MATCH (n:N {{id: {i * 7}}}) SET n.seen = true")
        pipe.execute()
        client.close()
    finally:
        server.stop()
    return d


def test_a_load_that_stops_moving_fails_with_a_clear_message(aof_dir: Path) -> None:
    stall_s = 3.0  # AFTERHACK_FALKORDB_LOAD_STALL_S: a load still this long is given up
    server = EmbeddedFalkorDB(aof_dir, load_stall_s=stall_s)
    server.spawn()
    try:
        assert server.pid is not None
        os.kill(server.pid, signal.SIGSTOP)  # alive, but its load no longer moves
        started = time.monotonic()
        with pytest.raises(EmbeddedError, match="no progress loading its data for 3 s"):
            server.wait_ready()
        assert time.monotonic() - started <= bound(stall_s)
    finally:
        if server.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(server.pid, signal.SIGCONT)
        server.stop()


def test_a_server_that_exits_while_loading_is_reported(aof_dir: Path) -> None:
    server = EmbeddedFalkorDB(aof_dir)
    server.spawn()
    try:
        assert server.process is not None
        server.process.kill()
        with pytest.raises(EmbeddedError, match="exited with code"):
            server.wait_ready()
    finally:
        server.stop()


def test_an_orphan_still_loading_is_stopped_and_its_data_dir_comes_back(
        aof_dir: Path) -> None:
    # An owner that died without taking its FalkorDB along (no parent-death signal): the
    # server is still replaying its file when the next owner starts on the data dir.
    owner = subprocess.run(
        [sys.executable, "-c",
         "import os, sys; from afterhack.runtime.embedded import EmbeddedFalkorDB; "
         "e = EmbeddedFalkorDB(sys.argv[1], die_with_parent=False); e.spawn(); "
         "print(e.pid, flush=True); os._exit(0)", str(aof_dir)],
        capture_output=True, text=True, timeout=60, check=True)
    orphan_pid = int(owner.stdout.strip())
    try:
        # Until it is replaying the incremental part of its file.
        replaying = f"{orphan_pid}:M .* DB loaded from base file"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not re.search(replaying, _log(aof_dir)):
            time.sleep(0.01)
        with EmbeddedFalkorDB(aof_dir) as server:
            # Stopped before the new server started on its data dir; the reaping of a
            # process that is no child of this one is the system's, on its own time.
            assert _gone(orphan_pid, 60)
            assert server.pid != orphan_pid and server.last_load is not None
            client = redis.Redis.from_url(server.url or "")
            try:
                counts = command(client, "GRAPH.RO_QUERY", "g",
                                 "MATCH (n:N) RETURN count(n), count(n.seen)")[1][0]
            finally:
                client.close()
        assert counts == [NODES, LOOKUPS]
        stopped = f"{orphan_pid}:signal-handler .* Received shutdown signal during loading"
        assert re.search(stopped, _log(aof_dir))  # it was stopped mid-load
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(orphan_pid, signal.SIGKILL)


def test_falkordb_dying_during_start_up_is_started_again(aof_dir: Path, tmp_path: Path) -> None:
    app = AppProcess(_embedded_env(), data_dir=aof_dir, log_path=tmp_path / "app.log")
    started = threading.Thread(target=app.start, kwargs={"timeout_s": 600})
    started.start()
    try:
        # The app's FalkorDB, once it replays the incremental part of its file, dies.
        deadline = time.monotonic() + 120
        pid = None
        while time.monotonic() < deadline and pid is None:
            m = re.search(r"^(\d+):M .* DB loaded from base file", _log(aof_dir), re.M)
            pid = int(m.group(1)) if m else None
            time.sleep(0.01)
        assert pid is not None, "FalkorDB never started loading"
        os.kill(pid, signal.SIGKILL)
        started.join(timeout=600)
        assert app.proc is not None and app.proc.poll() is None, app.log_tail()
        assert "during start-up; starting it again (attempt 2 of 5)" in app.log_tail(200)
        client = redis.Redis.from_url((aof_dir / "falkordb.url").read_text())
        try:
            counts = command(client, "GRAPH.RO_QUERY", "g",
                             "MATCH (n:N) RETURN count(n), count(n.seen)")[1][0]
        finally:
            client.close()
        assert counts == [NODES, LOOKUPS]
    finally:
        started.join(timeout=600)
        app.stop()


@pytest.fixture
def shared(tmp_path: Path) -> Iterator[EmbeddedFalkorDB]:
    with EmbeddedFalkorDB(tmp_path / "fdb") as s:
        yield s


def test_start_up_on_existing_graphs_writes_nothing_and_sends_no_schema_command(
        shared: EmbeddedFalkorDB, tmp_path: Path) -> None:
    env = {"AFTERHACK_FALKORDB_URL": shared.url or ""}
    with AppProcess(env, data_dir=tmp_path / "a", log_path=tmp_path / "a.log") as app:
        for name in ("one", "two"):
            r = httpx.post(app.base_url + "/api/workspaces", json={"name": name})
            assert r.status_code == 201, r.text
    client = redis.Redis.from_url(shared.url or "", decode_responses=True)
    try:
        client.config_resetstat()
        before = client.info("persistence")["aof_current_size"]
        with AppProcess(env, data_dir=tmp_path / "b", log_path=tmp_path / "b.log") as app:
            assert len(httpx.get(app.base_url + "/api/workspaces").json()["items"]) == 2
        stats = dict(client.info("commandstats"))
        after = client.info("persistence")["aof_current_size"]
    finally:
        client.close()
    assert "cmdstat_graph.CONSTRAINT" not in stats, stats
    assert all(s.get("failed_calls", 0) == 0 for s in stats.values()), stats
    assert after == before, "start-up wrote to the append-only file"
