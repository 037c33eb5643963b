"""The app as a real process: embedded FalkorDB persistence, data-dir ownership,
two app processes on one external FalkorDB, and FalkorDB going away and coming back."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import redis

from afterhack.runtime.embedded import EmbeddedFalkorDB
from tests.support.commands import command
from tests.support.graphs import with_graph
from tests.support.paths import ROOT
from tests.support.procs import AppProcess
from tests.support.timing import until

pytestmark = pytest.mark.slow


def _env_without_url() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "AFTERHACK_FALKORDB_URL"}


def test_the_embedded_server_answers_a_write_once_it_is_on_disk(falkordb: str) -> None:
    """``everysec`` may answer a write that is still in Redis's buffer, and a kill -9 then
    loses it (docs/decisions/0032-acknowledged-means-on-disk.md): the embedded server must
    fsync its append-only file before it answers."""
    client = redis.Redis.from_url(falkordb)
    assert command(client, "CONFIG", "GET", "appendonly") == {b"appendonly": b"yes"}
    assert command(client, "CONFIG", "GET", "appendfsync") == {b"appendfsync": b"always"}


def test_embedded_data_survives_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {"AFTERHACK_FALKORDB_URL": ""}
    with AppProcess(env, data_dir=data, log_path=tmp_path / "app.log") as app:
        health = httpx.get(app.base_url + "/api/health").json()
        assert health["falkordb"] == {"reachable": True, "mode": "embedded", "reason": None,
                                      "restarts": 0, "stuck_restarts": 0}
        ws = httpx.post(app.base_url + "/api/workspaces", json={"name": "keep"}).json()["id"]
        r = httpx.post(f"{app.base_url}/api/workspaces/{ws}/sources",
                       json={"title": "Plan", "text": "The launch is planned for June 12."})
        assert r.status_code == 201
        source = r.json()["source"]
        # A second serve on the same data dir refuses cleanly, without touching the data.
        second = subprocess.run(
            [sys.executable, "-m", "afterhack.cli", "serve", "--port", "0"],
            env={**os.environ, "AFTERHACK_DATA_DIR": str(data), "AFTERHACK_FALKORDB_URL": ""},
            capture_output=True, text=True, timeout=60)
        assert second.returncode != 0
        assert "in use" in second.stderr
        assert httpx.get(f"{app.base_url}/api/workspaces/{ws}").status_code == 200
    assert app.proc is not None and app.proc.returncode is not None
    assert not _redis_alive(data)
    with AppProcess(env, data_dir=data, log_path=tmp_path / "app2.log") as app:
        items = httpx.get(app.base_url + "/api/workspaces").json()["items"]
        assert [w["id"] for w in items] == [ws]
        again = httpx.get(f"{app.base_url}/api/workspaces/{ws}/sources/{source['id']}").json()
        assert again == source


def _redis_alive(data: Path) -> bool:
    try:
        pid = int((data / "falkordb.pid").read_text())
    except (OSError, ValueError):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_kill9_of_app_leaves_no_orphan_and_restarts(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {"AFTERHACK_FALKORDB_URL": ""}
    app = AppProcess(env, data_dir=data, log_path=tmp_path / "app.log").start()
    ws = httpx.post(app.base_url + "/api/workspaces", json={"name": "k"}).json()["id"]
    app.kill()
    deadline = time.monotonic() + 30
    while _redis_alive(data) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _redis_alive(data), "FalkorDB outlived its app"
    with AppProcess(env, data_dir=data, log_path=tmp_path / "app2.log") as app2:
        assert httpx.get(f"{app2.base_url}/api/workspaces/{ws}").status_code == 200


def test_two_apps_on_one_external_falkordb_see_the_same_workspaces(tmp_path: Path) -> None:
    with EmbeddedFalkorDB(tmp_path / "fdb") as server:
        env = {"AFTERHACK_FALKORDB_URL": server.url or ""}
        with AppProcess(env, data_dir=tmp_path / "a", log_path=tmp_path / "a.log") as a, \
             AppProcess(env, data_dir=tmp_path / "b", log_path=tmp_path / "b.log") as b:
            assert httpx.get(a.base_url + "/api/health").json()["falkordb"]["mode"] == "external"
            ws = httpx.post(a.base_url + "/api/workspaces", json={"name": "shared"}).json()
            assert httpx.get(f"{b.base_url}/api/workspaces/{ws['id']}").json() == ws
            ws2 = httpx.post(b.base_url + "/api/workspaces", json={"name": "other"}).json()
            ids_a = [w["id"] for w in httpx.get(a.base_url + "/api/workspaces").json()["items"]]
            ids_b = [w["id"] for w in httpx.get(b.base_url + "/api/workspaces").json()["items"]]
            assert ids_a == ids_b and {ws["id"], ws2["id"]} <= set(ids_a)


def test_falkordb_down_is_503_and_app_recovers(tmp_path: Path) -> None:
    server = EmbeddedFalkorDB(tmp_path / "fdb")
    server.start()
    try:
        env = {"AFTERHACK_FALKORDB_URL": server.url or ""}
        with AppProcess(env, data_dir=tmp_path / "a", log_path=tmp_path / "a.log") as app:
            ws = httpx.post(app.base_url + "/api/workspaces", json={"name": "x"}).json()["id"]
            server.kill()
            for path in ("/api/workspaces", f"/api/workspaces/{ws}"):
                r = httpx.get(app.base_url + path, timeout=30)
                assert r.status_code == 503, r.text
                assert r.json()["error"]["code"] == "graph_store_unavailable"
            r = httpx.post(app.base_url + "/api/workspaces", json={"name": "y"}, timeout=30)
            assert r.status_code == 503
            health = httpx.get(app.base_url + "/api/health", timeout=30).json()
            assert health["falkordb"]["reachable"] is False
            assert health["falkordb"]["reason"] == "unreachable"
            server.restart()
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                r = httpx.get(f"{app.base_url}/api/workspaces/{ws}", timeout=30)
                if r.status_code == 200:
                    break
                time.sleep(0.2)
            assert r.status_code == 200, r.text
    finally:
        server.stop()


def test_readme_run_command_serves_api_and_ui(tmp_path: Path) -> None:
    """scripts/run (the README's run command) on the embedded FalkorDB and offline model, on
    the port and data directory its options name, as the README shows them."""
    from afterhack.runtime.embedded import free_loopback_port

    port = free_loopback_port()
    env = {**_env_without_url(), "AFTERHACK_DATA_DIR": str(tmp_path / "elsewhere")}
    env.pop("OPENAI_BASE_URL", None)
    with open(tmp_path / "run.log", "wb") as log:
        proc = subprocess.Popen([str(ROOT / "scripts" / "run"), "--port", str(port),
                                 "--data-dir", str(tmp_path / "data")], cwd=ROOT,
                                env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 180
        health = None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                health = httpx.get(base + "/api/health", timeout=2).json()
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        assert health is not None, (tmp_path / "run.log").read_text()[-3000:]
        assert health["falkordb"] == {"reachable": True, "mode": "embedded", "reason": None,
                                      "restarts": 0, "stuck_restarts": 0}
        assert health["model"]["mode"] == "offline"
        page = httpx.get(base + "/")
        assert page.status_code == 200 and '<div id="root">' in page.text
        ws = httpx.post(base + "/api/workspaces", json={"name": "run"}).json()
        assert ws["revision"] == 1
        # --data-dir wins over AFTERHACK_DATA_DIR.
        assert (tmp_path / "data" / "falkordb.url").is_file()
        assert not (tmp_path / "elsewhere").exists()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    assert not _redis_alive(tmp_path / "data")


class _ServeFromSettings(AppProcess):
    """``afterhack serve`` with no option: where it binds is the settings' to say."""

    def command(self) -> list[str]:
        return [sys.executable, "-m", "afterhack.cli", "serve", "--log-level", "warning"]


def test_serve_binds_the_port_the_environment_names(tmp_path: Path, falkordb: str) -> None:
    app = _ServeFromSettings({"AFTERHACK_FALKORDB_URL": falkordb}, data_dir=tmp_path / "data",
                             log_path=tmp_path / "app.log")
    app.env["AFTERHACK_PORT"] = str(app.port)
    with app:
        assert httpx.get(app.base_url + "/api/health").json()["status"] == "ok"


def test_falkordb_stopped_and_restarted_under_traffic(tmp_path: Path) -> None:
    """Readers and writers keep going while FalkorDB is killed and comes back: every answer
    is a success or a canonical 503 (never a 500 or a dropped connection), the app recovers
    by itself, and every acknowledged write is there afterwards."""
    import threading

    from afterhack.store.invariants import check_sources, check_workspace

    server = EmbeddedFalkorDB(tmp_path / "fdb")
    url = server.start()
    statuses: list[tuple[float, int, str]] = []
    acked: list[str] = []
    bad: list[str] = []
    stop = threading.Event()
    lock = threading.Lock()
    try:
        env = {"AFTERHACK_FALKORDB_URL": url}
        with AppProcess(env, data_dir=tmp_path / "a", log_path=tmp_path / "a.log") as app:
            ws = httpx.post(app.base_url + "/api/workspaces", json={"name": "x"}).json()["id"]

            def traffic(n: int) -> None:
                with httpx.Client(base_url=app.base_url, timeout=30) as c:
                    i = 0
                    while not stop.is_set():
                        i += 1
                        started = time.monotonic()
                        try:
                            if i % 3 == 0:
                                r = c.post(f"/api/workspaces/{ws}/sources", json={
                                    "title": f"t{n}-{i}",
                                    "text": f"Shipment {n}-{i} leaves on day {i}."})
                            elif i % 3 == 1:
                                r = c.get(f"/api/workspaces/{ws}/claims",
                                          params={"q": "shipment"})
                            else:
                                r = c.get("/api/workspaces")
                        except httpx.HTTPError as exc:
                            with lock:
                                bad.append(repr(exc))
                            continue
                        with lock:
                            statuses.append((started, r.status_code,
                                             r.json().get("error", {}).get("code", "")
                                             if r.status_code >= 400 else ""))
                            if r.status_code == 201:
                                acked.append(r.json()["source"]["id"])

            def seen(since: float, *codes: int) -> bool:
                """Whether a request started after ``since`` answered each of ``codes``."""
                with lock:
                    return set(codes) <= {s for t, s, _ in statuses if t > since}

            def all_well_lately(n: int = 30) -> bool:
                """Whether the last ``n`` answers were all successes: recovered."""
                with lock:
                    last = [s for _, s, _ in sorted(statuses)[-n:]]
                return len(last) == n and set(last) <= {200, 201}

            threads = [threading.Thread(target=traffic, args=(n,)) for n in range(6)]
            for t in threads:
                t.start()
            began = time.monotonic()
            until(lambda: seen(began, 200, 201), timeout_s=120, what="traffic answered")
            server.kill()
            down_at = time.monotonic()
            until(lambda: seen(down_at, 503), timeout_s=120, what="the outage seen")
            server.restart()
            up_at = time.monotonic()
            # Recovered by itself: the app is left to it until its answers are all
            # successes again (the timeout only ends a hang).
            until(lambda: seen(up_at, 201) and all_well_lately(), timeout_s=120,
                  what="traffic all successes again after the restart")
            stop.set()
            for t in threads:
                t.join(timeout=60)
            assert app.proc is not None and app.proc.poll() is None
    finally:
        server.stop()
    assert bad == []
    codes = {(s, c) for _, s, c in statuses}
    assert codes <= {(200, ""), (201, ""), (503, "graph_store_unavailable")}, codes
    assert any(s == 200 and t < down_at for t, s, _ in statuses)
    with EmbeddedFalkorDB(tmp_path / "fdb") as again:
        got = with_graph(again.url or "", ws,
                         lambda g: g.read("MATCH (s:Source) RETURN s.id AS id"))
        assert set(acked) <= {r["id"] for r in got}
        assert with_graph(again.url or "", ws, check_workspace) == []
        assert with_graph(again.url or "", ws, check_sources) == []


def test_embedded_falkordb_that_dies_is_restarted_by_the_app(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with AppProcess({"AFTERHACK_FALKORDB_URL": ""}, data_dir=data,
                    log_path=tmp_path / "app.log") as app:
        ws = httpx.post(app.base_url + "/api/workspaces", json={"name": "w"}).json()["id"]
        r = httpx.post(f"{app.base_url}/api/workspaces/{ws}/sources",
                       json={"title": "t", "text": "The launch is planned for June 12."})
        assert r.status_code == 201
        first = int((data / "falkordb.pid").read_text())
        os.kill(first, signal.SIGKILL)
        deadline = time.monotonic() + 60
        codes = set()
        while time.monotonic() < deadline:
            r = httpx.get(f"{app.base_url}/api/workspaces/{ws}/claims", timeout=30)
            codes.add(r.status_code)
            if r.status_code == 200:
                break
            assert r.status_code == 503, r.text
            time.sleep(0.1)
        assert r.status_code == 200 and len(r.json()["items"]) == 1
        assert int((data / "falkordb.pid").read_text()) != first
        assert "restarting it" in app.log_tail(200)
