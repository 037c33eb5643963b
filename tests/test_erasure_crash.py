"""An erasure is whole or absent (docs/rules.md, rule 22): kill -9 the app, or FalkorDB, at
random moments of a loop of erasures, and apply one under a frozen FalkorDB. Afterwards
every invariant holds, every acknowledged erasure left no trace of its string, and every
string is either wholly there (in as many stored strings as before) or wholly gone."""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from afterhack.runtime.embedded import EmbeddedFalkorDB
from afterhack.store.client import Graph
from afterhack.store.invariants import check_sources, check_workspace
from tests.support.erasure import graph_strings
from tests.support.graphs import with_graph
from tests.support.procs import AppProcess, falkordb_pid
from tests.support.timing import bound

# With a one-second query timeout a write's deadline is four seconds (store/client.py), and a
# request may take a second more to answer 503.
WRITE_DEADLINE_S = 4.0
OVER_DEADLINE_S = 1.0

pytestmark = pytest.mark.slow

CODES = [f"K{i:03d}Z" for i in range(40)]


def _setup(base_url: str) -> str:
    """A workspace where each code is said in a chat, quoted by a document, and some are
    cited by a run."""
    with httpx.Client(base_url=base_url, timeout=120) as c:
        ws = str(c.post("/api/workspaces", json={"name": "erasing"}).json()["id"])
        messages = [{"speaker": "Ana", "text": f"Locker {i} opens with code {code}."}
                    for i, code in enumerate(CODES)]
        r = c.post(f"/api/workspaces/{ws}/sources", json={"title": "Lockers",
                                                           "messages": messages})
        assert r.status_code == 201, r.text
        doc = " ".join(f"The code of locker {i} is {code}." for i, code in enumerate(CODES))
        r = c.post(f"/api/workspaces/{ws}/sources", json={"title": "Register", "text": doc})
        assert r.status_code == 201, r.text
        for code in CODES[:5]:
            r = c.post(f"/api/workspaces/{ws}/agent-runs",
                       json={"task": f"Which locker opens with code {code}?"})
            assert r.status_code == 201, r.text
    return ws


def _counts(url: str, ws: str) -> dict[str, int]:
    strings = graph_strings(url, ws)
    return {code: sum(code in s for s in strings) for code in CODES}


def _whole(url: str, ws: str, before: dict[str, int], acked: set[str]) -> None:
    async def check(g: Graph) -> list[str]:
        return [*await check_workspace(g), *await check_sources(g)]

    assert with_graph(url, ws, check) == []
    now = _counts(url, ws)
    for code in CODES:
        assert now[code] in (0, before[code]), (code, now[code], before[code])
        if code in acked:
            assert now[code] == 0, f"acknowledged erasure of {code} left a trace"


class Eraser(threading.Thread):
    """Previews and applies erasures of the codes one after another, recording every
    acknowledgement."""

    def __init__(self, base_url: str, ws: str, todo: list[str], acked: set[str]) -> None:
        super().__init__(daemon=True)
        self.base_url, self.ws, self.todo, self.acked = base_url, ws, todo, acked
        self.stop = threading.Event()
        self.acked_one = threading.Event()

    def run(self) -> None:
        base = f"/api/workspaces/{self.ws}/erasures"
        with httpx.Client(base_url=self.base_url, timeout=30) as http:
            while not self.stop.is_set() and self.todo:
                target = {"text": self.todo[-1]}
                try:
                    p = http.post(base + "/preview", json={"target": target})
                    if p.status_code == 503:
                        time.sleep(0.2)
                        continue
                    r = http.post(base, json={"target": target,
                                              "impact_token": p.json()["impact_token"]})
                except (httpx.HTTPError, KeyError, ValueError):
                    return  # the app died under us
                if r.status_code in (200, 201):
                    self.acked.add(self.todo.pop())
                    self.acked_one.set()
                elif r.status_code == 422:  # erased before a crash, unacknowledged
                    self.todo.pop()
                elif r.status_code in (409, 503):
                    time.sleep(0.2)
                else:
                    return


def _run_with_crashes(tmp_path: Path, *, kill_falkordb: bool, rounds: int) -> None:
    rng = random.Random(4321 + int(kill_falkordb))
    with EmbeddedFalkorDB(tmp_path / "fdb") as server:
        url = server.url or ""
        env = {"AFTERHACK_FALKORDB_URL": url, "AFTERHACK_EMBEDDING_WORKER": "false"}
        app = AppProcess(env, data_dir=tmp_path / "app", log_path=tmp_path / "app.log").start()
        try:
            ws = _setup(app.base_url)
            before = _counts(url, ws)
            assert all(before.values())
            todo = list(CODES)
            rng.shuffle(todo)
            acked: set[str] = set()
            for _ in range(rounds):
                worker = Eraser(app.base_url, ws, todo, acked)
                worker.start()
                worker.acked_one.wait(120)
                time.sleep(rng.uniform(0.0, 0.6))
                if kill_falkordb:
                    server.kill()
                    worker.stop.set()
                    worker.join(timeout=60)
                    server.restart()
                else:
                    app.kill()
                    worker.stop.set()
                    worker.join(timeout=60)
                    app = AppProcess(env, data_dir=tmp_path / "app",
                                     log_path=tmp_path / "app.log").start()
                _whole(url, ws, before, acked)
            assert len(acked) >= rounds, "the loop never got going"
        finally:
            app.stop()


def test_kill_app_during_erasures(tmp_path: Path) -> None:
    _run_with_crashes(tmp_path, kill_falkordb=False, rounds=4)


def test_kill_falkordb_during_erasures(tmp_path: Path) -> None:
    _run_with_crashes(tmp_path, kill_falkordb=True, rounds=4)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[AppProcess]:
    env = {"AFTERHACK_FALKORDB_QUERY_TIMEOUT_MS": "1000", "AFTERHACK_EMBEDDING_WORKER": "false",
           "AFTERHACK_FALKORDB_UNRESPONSIVE_S": "600",
           "AFTERHACK_FALKORDB_STUCK_RESTART_S": "600"}
    proc = AppProcess(env, data_dir=tmp_path / "data", log_path=tmp_path / "app.log")
    with proc:
        yield proc
    if (tmp_path / "data" / "falkordb.pid").exists():  # never leave a stopped server behind
        pid = falkordb_pid(tmp_path / "data")
        for sig in (signal.SIGCONT, signal.SIGKILL):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                break


def test_an_apply_under_a_frozen_store_is_503_and_half_of_nothing(app: AppProcess) -> None:
    ws = _setup(app.base_url)
    base = f"{app.base_url}/api/workspaces/{ws}/erasures"
    target = {"text": CODES[0]}
    with httpx.Client(timeout=60) as http:
        p = http.post(base + "/preview", json={"target": target}).json()
        with httpx.Client(base_url=app.base_url, timeout=60) as reader:
            before = _read_counts(reader, ws)
        pid = falkordb_pid(app.data_dir)
        os.kill(pid, signal.SIGSTOP)
        try:
            t0 = time.monotonic()
            r = http.post(base, json={"target": target, "impact_token": p["impact_token"]})
            took = time.monotonic() - t0
        finally:
            os.kill(pid, signal.SIGCONT)
        assert r.status_code == 503, r.text
        assert r.json()["error"]["code"] == "graph_store_unavailable"
        assert took <= bound(WRITE_DEADLINE_S + OVER_DEADLINE_S)
        # Back: the erasure is whole or absent, and sending it again settles it.
        with httpx.Client(base_url=app.base_url, timeout=60) as reader:
            deadline = time.monotonic() + 60
            while reader.get("/api/health").json()["status"] != "ok":
                assert time.monotonic() < deadline
                time.sleep(0.2)
            mid = _read_counts(reader, ws)
            assert mid[CODES[0]] in (0, before[CODES[0]])
            assert {c: n for c, n in mid.items() if c != CODES[0]} == {
                c: n for c, n in before.items() if c != CODES[0]}
        again = http.post(base, json={"target": target, "impact_token": p["impact_token"]})
        assert again.status_code in (200, 201), again.text
        with httpx.Client(base_url=app.base_url, timeout=60) as reader:
            assert _read_counts(reader, ws)[CODES[0]] == 0


def _read_counts(http: httpx.Client, ws: str) -> dict[str, int]:
    """How often each code appears in the workspace's export (every node and edge)."""
    r = http.get(f"/api/workspaces/{ws}/export")
    assert r.status_code == 200, r.text
    text = r.text
    return {code: text.count(code) for code in CODES}
