"""A FalkorDB that is alive but stuck (SIGSTOP): the app keeps answering, within bounds.

The app runs as a real process on its embedded FalkorDB. Writers and readers keep going
while the FalkorDB process is frozen with SIGSTOP. Meanwhile health answers as degraded
with the reason, and every other request answers with a documented code. Then FalkorDB
comes back, either by SIGCONT or by the app's own restart of the stuck process, and every
acknowledged write is there.

The promises about time (health within a second, a request within its store deadline plus
a second) are measured by the bench's freeze section, which reports them; here each answer
is held to three times its promise (tests/support/timing.py), which a request that waits on
the frozen store for the whole freeze still breaks.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from afterhack_tools.bench.promises import HEALTH_MAX_S, OVER_DEADLINE_S
from tests.support.procs import AppProcess, falkordb_pid
from tests.support.timing import bound, until

pytestmark = pytest.mark.slow

FREEZE_S = 20.0
# With a query timeout of one second the store's deadlines are three seconds for a read
# and four for a write (store/client.py: the server's caps plus a margin).
ENV = {"AFTERHACK_FALKORDB_QUERY_TIMEOUT_MS": "1000", "AFTERHACK_EMBEDDING_WORKER": "false"}
READ_DEADLINE_S = 3.0
WRITE_DEADLINE_S = 4.0
# What a request may answer while its store is frozen: its result, or a documented 503.
STORE_CODES = {"graph_store_unavailable"}
STORE_REASONS = {"not_answering", "write_outcome_unknown", None}


@dataclass
class Answer:
    kind: str  # "write", "read" or "health"
    started: float
    seconds: float
    status: int
    body: dict[str, object]


@dataclass
class Traffic:
    """Writers, readers and a health poller against one workspace until stopped."""

    base_url: str
    ws: str
    answers: list[Answer] = field(default_factory=list)
    acked: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _threads: list[threading.Thread] = field(default_factory=list)

    def _one(self, client: httpx.Client, kind: str, method: str, path: str,
             body: object = None) -> Answer:
        t0 = time.monotonic()
        resp = client.request(method, path, json=body)
        answer = Answer(kind, t0, time.monotonic() - t0, resp.status_code, resp.json())
        with self._lock:
            self.answers.append(answer)
        return answer

    def _writer(self, n: int) -> None:
        with httpx.Client(base_url=self.base_url, timeout=60) as client:
            i = 0
            while not self._stop.is_set():
                i += 1
                title = f"note {n}-{i} {uuid.uuid4().hex[:6]}"
                a = self._one(client, "write", "POST", f"/api/workspaces/{self.ws}/sources",
                              {"title": title, "text": f"The depot opens at {i % 12 + 1} am."})
                if a.status == 201:
                    source = a.body["source"]
                    assert isinstance(source, dict)
                    with self._lock:
                        self.acked.append(str(source["id"]))
                self._stop.wait(0.05)  # a pace, not a wait for anything

    def _reader(self) -> None:
        with httpx.Client(base_url=self.base_url, timeout=60) as client:
            while not self._stop.is_set():
                self._one(client, "read", "GET", f"/api/workspaces/{self.ws}/claims?q=depot")
                self._stop.wait(0.05)

    def _health(self) -> None:
        with httpx.Client(base_url=self.base_url, timeout=60) as client:
            while not self._stop.is_set():
                self._one(client, "health", "GET", "/api/health")
                self._stop.wait(0.2)

    def answered(self, kind: str, status: int, after: float) -> bool:
        """Whether a request of ``kind`` started after ``after`` has answered ``status``."""
        with self._lock:
            return any(a.kind == kind and a.status == status and a.started > after
                       for a in self.answers)

    def start(self) -> None:
        targets = [lambda: self._writer(0), lambda: self._writer(1), self._reader,
                   self._health]
        self._threads = [threading.Thread(target=t, daemon=True) for t in targets]
        for t in self._threads:
            t.start()

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(timeout=60)


@pytest.fixture
def app(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[AppProcess]:
    env = dict(ENV)
    env.update(getattr(request, "param", {}))
    proc = AppProcess(env, data_dir=tmp_path / "data", log_path=tmp_path / "app.log")
    with proc:
        yield proc
    with_pid = (tmp_path / "data" / "falkordb.pid")
    if with_pid.exists():  # never leave a stopped server behind
        pid = falkordb_pid(tmp_path / "data")
        for sig in (signal.SIGCONT, signal.SIGKILL):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                break


@dataclass
class Freeze:
    traffic: Traffic
    frozen_at: float
    continued_at: float | None  # None: frozen for good
    back_at: float


def _freeze_and_watch(app: AppProcess, *, cont_after_s: float | None) -> Freeze:
    """Freeze FalkorDB under traffic; SIGCONT after ``cont_after_s`` (None: never, the app
    must restart it)."""
    ws = httpx.post(app.base_url + "/api/workspaces", json={"name": "frozen"}).json()["id"]
    traffic = Traffic(app.base_url, ws)
    traffic.start()
    start = time.monotonic()
    until(lambda: traffic.answered("write", 201, start) and traffic.answered(
        "read", 200, start) and traffic.answered("health", 200, start),
          timeout_s=120, what="writes, reads and health answered before the freeze")
    pid = falkordb_pid(app.data_dir)
    os.kill(pid, signal.SIGSTOP)
    frozen_at = time.monotonic()
    continued_at = None
    if cont_after_s is not None:
        try:
            time.sleep(cont_after_s)  # the freeze itself: how long FalkorDB stays stuck
        finally:
            os.kill(pid, signal.SIGCONT)
            continued_at = time.monotonic()
    back_at = until(lambda: _back(app.base_url, ws), timeout_s=120,
                    what="service back after the freeze")
    # The traffic goes on until its own writes are answered again, then stops.
    until(lambda: traffic.answered("write", 201, back_at), timeout_s=120,
          what="the writers answered after the freeze")
    traffic.stop()
    return Freeze(traffic, frozen_at, continued_at, back_at)


def _back(base_url: str, ws: str) -> float | None:
    """When a write was acknowledged, if one was."""
    try:
        r = httpx.post(f"{base_url}/api/workspaces/{ws}/sources", timeout=30,
                       json={"title": f"after {uuid.uuid4().hex[:6]}",
                             "text": "The depot opens at 7 am."})
    except httpx.HTTPError:
        return None
    return time.monotonic() if r.status_code == 201 else None


def _check_bounds(f: Freeze) -> None:
    frozen_at, back_at = f.frozen_at, f.back_at
    during = [a for a in f.traffic.answers if frozen_at - 0.5 <= a.started <= back_at]
    health = [a for a in during if a.kind == "health"]
    assert health, "no health answer during the freeze"
    slow_health = [a.seconds for a in health if a.seconds > bound(HEALTH_MAX_S)]
    assert not slow_health, f"health took {slow_health}"
    # Once the freeze has lasted as long as health may take, health says why the store is
    # not answering.
    settled = [a for a in health
               if frozen_at + bound(HEALTH_MAX_S) < a.started < back_at - bound(HEALTH_MAX_S)]
    assert settled
    for a in settled:
        falkordb = a.body["falkordb"]
        assert isinstance(falkordb, dict)
        assert a.body["status"] == "degraded", a.body
        assert falkordb["reason"] in {"not_answering", "restarting", "unreachable",
                                      "loading"}, a.body
    others = [a for a in during if a.kind != "health"]
    assert others
    for a in others:
        deadline = WRITE_DEADLINE_S if a.kind == "write" else READ_DEADLINE_S
        assert a.seconds <= bound(deadline + OVER_DEADLINE_S), (a.kind, a.seconds, a.body)
        if a.status >= 300:
            assert a.status == 503, a.body
            error = a.body["error"]
            assert isinstance(error, dict)
            assert error["code"] in STORE_CODES, a.body
            details = error.get("details") or {}
            assert isinstance(details, dict)
            assert details.get("reason") in STORE_REASONS, a.body
    refused = [a for a in others if a.status == 503]
    assert refused, "the freeze was never seen"


def _check_acked(app: AppProcess, traffic: Traffic) -> None:
    assert traffic.acked
    with httpx.Client(base_url=app.base_url, timeout=30) as client:
        missing = [sid for sid in traffic.acked
                   if client.get(f"/api/workspaces/{traffic.ws}/sources/{sid}").status_code
                   != 200]
    assert not missing, f"{len(missing)} of {len(traffic.acked)} acknowledged sources lost"


@pytest.mark.parametrize("app", [{"AFTERHACK_FALKORDB_UNRESPONSIVE_S": "600",
                                  "AFTERHACK_FALKORDB_STUCK_RESTART_S": "600"}],
                         indirect=True)
def test_a_frozen_store_is_answered_within_deadlines_and_after_sigcont_nothing_is_lost(
        app: AppProcess) -> None:
    """Only the deadlines bound the requests here: the watch neither cuts calls short nor
    restarts the server within the freeze."""
    f = _freeze_and_watch(app, cont_after_s=FREEZE_S)
    _check_bounds(f)
    # Back by SIGCONT: a write sent as FalkorDB continues is answered within its deadline.
    assert f.continued_at is not None
    assert f.back_at - f.continued_at <= bound(WRITE_DEADLINE_S + OVER_DEADLINE_S)
    log = app.log_path.read_text()
    assert "has not answered" not in log
    _check_acked(app, f.traffic)
    health = httpx.get(app.base_url + "/api/health").json()
    assert health["status"] == "ok" and health["falkordb"]["stuck_restarts"] == 0


@pytest.mark.parametrize("app", [{"AFTERHACK_FALKORDB_UNRESPONSIVE_S": "2",
                                  "AFTERHACK_FALKORDB_STUCK_RESTART_S": "8"}],
                         indirect=True)
def test_a_store_frozen_for_good_is_restarted_by_the_app_and_nothing_is_lost(
        app: AppProcess) -> None:
    pid = falkordb_pid(app.data_dir)
    f = _freeze_and_watch(app, cont_after_s=None)
    _check_bounds(f)
    _check_acked(app, f.traffic)
    health = httpx.get(app.base_url + "/api/health").json()
    assert health["status"] == "ok"
    assert health["falkordb"]["stuck_restarts"] == 1
    assert health["falkordb"]["restarts"] == 1
    assert falkordb_pid(app.data_dir) != pid
    log = app.log_path.read_text()
    assert "has not answered" in log and "restarted" in log
